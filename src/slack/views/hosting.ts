/**
 * Hosted mode's two modals: `/fleet connect` (the Fleet API key, never shown again) and
 * `/fleet settings` (one field per workspace setting, filled with what is stored). Pure builders.
 */
import type { View } from '@slack/types';
import type { Texts } from '../../i18n/index.js';
import { WORKSPACE_SETTINGS, type WorkspaceSettings } from '../../hosting/tenant-config.js';
import { plainText, plainWithin } from './text.js';

export const CONNECT_VIEW = 'hosting_connect';
export const SETTINGS_VIEW = 'hosting_settings';
export const CONNECT_KEY_BLOCK = 'fleet_api_key';
const INPUT = 'value';

/** Slack's limit on a plain-text input's value. */
const INPUT_MAX = 3000;

export function connectModal(t: Texts, connected: boolean): View {
  return {
    type: 'modal',
    callback_id: CONNECT_VIEW,
    title: plainText(t('hosting.connect.title')),
    submit: plainText(t('hosting.connect.submit')),
    close: plainText(t('hosting.connect.cancel')),
    blocks: [
      { type: 'section', text: { type: 'mrkdwn', text: t('hosting.connect.intro') } },
      ...(connected ? [{ type: 'context' as const, elements: [{ type: 'mrkdwn' as const, text: t('hosting.connect.replacing') }] }] : []),
      {
        type: 'input',
        block_id: CONNECT_KEY_BLOCK,
        label: plainText(t('hosting.connect.label')),
        element: { type: 'plain_text_input', action_id: INPUT, max_length: 500 },
      },
    ],
  };
}

export function settingsModal(t: Texts, settings: WorkspaceSettings): View {
  return {
    type: 'modal',
    callback_id: SETTINGS_VIEW,
    title: plainText(t('hosting.settings.title')),
    submit: plainText(t('hosting.settings.submit')),
    close: plainText(t('hosting.connect.cancel')),
    blocks: [
      { type: 'section', text: { type: 'mrkdwn', text: t('hosting.settings.intro') } },
      ...WORKSPACE_SETTINGS.map((name) => ({
        type: 'input' as const,
        block_id: name,
        optional: true,
        label: plainText(name),
        element: {
          type: 'plain_text_input' as const,
          action_id: INPUT,
          ...(settings[name] ? { initial_value: plainWithin(settings[name], INPUT_MAX) } : {}),
        },
      })),
    ],
  };
}

/** The text typed in each input of a submitted hosting modal, by block id. */
export function submittedValues(state: { values: Record<string, Record<string, { value?: string | null }>> }): Record<string, string> {
  const values: Record<string, string> = {};
  for (const [block, actions] of Object.entries(state.values)) {
    const value = actions[INPUT]?.value;
    if (typeof value === 'string') values[block] = value;
  }
  return values;
}

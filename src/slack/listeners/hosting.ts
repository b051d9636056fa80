/**
 * Hosted mode's own listeners, on the front door's app for every workspace: `/fleet connect` and
 * `/fleet settings` (a workspace admin or the installer only, checked with Slack on every use), and
 * the answer every other `/fleet` command gets while the workspace has no Fleet key. The front door
 * sends them here (`isHostingRequest`); everything else goes to the workspace's own bot.
 */
import type { WebClient } from '@slack/web-api';
import type { Logger } from '../../core/logger.js';
import type { WorkspaceAdmin } from '../../hosting/workspace-admin.js';
import type { WorkspaceSettings } from '../../hosting/tenant-config.js';
import { localeFromSlack, textsFor, type Locale } from '../../i18n/index.js';
import { COMMAND } from '../ids.js';
import type { ListenerRouter } from '../transport/listener-router.js';
import { splitFleetCommand } from '../subcommands.js';
import { CONNECT_KEY_BLOCK, CONNECT_VIEW, SETTINGS_VIEW, connectModal, settingsModal, submittedValues } from '../views/hosting.js';

/** The words that reach these listeners rather than the workspace's bot. */
const HOSTING_WORDS = new Map([
  ['connect', 'connect'],
  ['connecter', 'connect'],
  ['settings', 'settings'],
  ['reglages', 'settings'],
  ['réglages', 'settings'],
] as const);

export interface HostingListenerDeps {
  admin: WorkspaceAdmin;
  /** The person who installed the app in this workspace, who may connect it and change its settings like an admin. */
  installerOf(tenant: string): Promise<string | undefined>;
  isConnected(tenant: string): Promise<boolean>;
  settingsOf(tenant: string): Promise<WorkspaceSettings>;
  /** After a change: this replica builds the workspace's bot again at once (others at their next look). */
  changed(tenant: string): Promise<void>;
  defaultLocale: Locale;
  logger: Logger;
}

/**
 * True for what the hosting's listeners answer: `/fleet connect`, `/fleet settings` and their
 * modals. `connected` false: every `/fleet` command too (it is answered with how to connect).
 */
export function isHostingRequest(body: Record<string, unknown>, connected: boolean): boolean {
  if (body.command === COMMAND) return !connected || HOSTING_WORDS.has(splitFleetCommand(typeof body.text === 'string' ? body.text : '').word as never);
  const view = body.view as { callback_id?: unknown } | undefined;
  return (body.type === 'view_submission' || body.type === 'view_closed') && (view?.callback_id === CONNECT_VIEW || view?.callback_id === SETTINGS_VIEW);
}

export function registerHostingListeners(router: ListenerRouter, deps: HostingListenerDeps): void {
  const { logger } = deps;

  /** The person's language and whether they may administer the workspace, from Slack itself. */
  const personOf = async (client: WebClient, tenant: string, userId: string): Promise<{ locale: Locale; admin: boolean }> => {
    const [info, installer] = await Promise.all([client.users.info({ user: userId, include_locale: true }), deps.installerOf(tenant)]);
    const user = info.user;
    return {
      locale: localeFromSlack(user?.locale) ?? deps.defaultLocale,
      admin: Boolean(user?.is_admin || user?.is_owner || user?.is_primary_owner) || installer === userId,
    };
  };

  router.command(COMMAND, async ({ ack, command, respond, client, context }) => {
    await ack();
    const tenant = context.teamId ?? command.team_id;
    const action = HOSTING_WORDS.get(splitFleetCommand(command.text).word as never);
    try {
      const person = await personOf(client, tenant, command.user_id);
      const t = textsFor(person.locale);
      if (!action) {
        await respond({ response_type: 'ephemeral', text: t('hosting.notConnected') });
        return;
      }
      if (!person.admin) {
        logger.info({ tenant, userId: command.user_id, action }, 'refused a hosting command to someone who is not an admin');
        await respond({ response_type: 'ephemeral', text: t('hosting.adminsOnly', { subcommand: action }) });
        return;
      }
      const view = action === 'connect' ? connectModal(t, await deps.isConnected(tenant)) : settingsModal(t, await deps.settingsOf(tenant));
      await client.views.open({ trigger_id: command.trigger_id, view });
    } catch (error) {
      logger.error({ tenant, err: error }, 'a hosting command failed');
      await respond({ response_type: 'ephemeral', text: textsFor(deps.defaultLocale)('hosting.failed') });
    }
  });

  router.view(CONNECT_VIEW, async ({ ack, body, view, client, context }) => {
    const tenant = context.teamId ?? body.team?.id ?? '';
    const person = await personOf(client, tenant, body.user.id);
    const t = textsFor(person.locale);
    if (!person.admin) {
      await ack({ response_action: 'errors', errors: { [CONNECT_KEY_BLOCK]: t('hosting.adminsOnly', { subcommand: 'connect' }) } });
      return;
    }
    const outcome = await deps.admin.connect(tenant, body.user.id, submittedValues(view.state)[CONNECT_KEY_BLOCK] ?? '');
    if (outcome !== 'connected') {
      const error = outcome === 'empty' ? t('hosting.connect.empty') : outcome === 'refused' ? t('hosting.connect.refused') : t('hosting.connect.unreachable');
      await ack({ response_action: 'errors', errors: { [CONNECT_KEY_BLOCK]: error } });
      return;
    }
    await ack();
    await deps.changed(tenant);
    await client.chat.postMessage({ channel: body.user.id, text: t('hosting.connected') });
  });

  router.view(SETTINGS_VIEW, async ({ ack, body, view, client, context }) => {
    const tenant = context.teamId ?? body.team?.id ?? '';
    const person = await personOf(client, tenant, body.user.id);
    const t = textsFor(person.locale);
    if (!person.admin) {
      await ack({ response_action: 'errors', errors: { FLEET_VIEWERS: t('hosting.adminsOnly', { subcommand: 'settings' }) } });
      return;
    }
    const { problems } = await deps.admin.saveSettings(tenant, body.user.id, submittedValues(view.state));
    if (problems) {
      await ack({ response_action: 'errors', errors: problems });
      return;
    }
    await ack();
    await deps.changed(tenant);
    await client.chat.postMessage({ channel: body.user.id, text: t('hosting.settings.saved') });
  });
}

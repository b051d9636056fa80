/** What Slack sends back for the import profile modal: each input's choice, as the person left it. */
import type { ModalView } from '@slack/types';
import type { ViewStateValues } from '../../src/slack/views/import-profile.js';

type Element = Record<string, unknown> & { initial_option?: { value: string }; initial_options?: Array<{ value: string }>; initial_value?: string };
type Input = { type: 'input'; block_id: string; label: { text: string }; hint?: { text: string }; dispatch_action?: boolean; element: Element };

export const inputsOf = (view: ModalView) =>
  new Map((view.blocks as unknown as Input[]).filter((block) => block.type === 'input').map((block) => [block.block_id, block]));

/** The modal submitted as shown: each input's initial choice or text. */
export function stateOf(view: ModalView): ViewStateValues {
  const values: ViewStateValues = {};
  for (const [blockId, { element }] of inputsOf(view)) {
    const action = element.action_id as string;
    if (element.type === 'checkboxes') values[blockId] = { [action]: { selected_options: element.initial_options ?? [] } };
    else if (element.type === 'plain_text_input') values[blockId] = { [action]: { value: element.initial_value ?? null } };
    else values[blockId] = { [action]: { selected_option: element.initial_option ?? null } };
  }
  return values;
}

/** The state with one select, radio or text changed, as the person would change it. */
export function choose(state: ViewStateValues, blockId: string, value: string | null): ViewStateValues {
  const [action, entry] = Object.entries(state[blockId] ?? {})[0] ?? [];
  if (!action || !entry) throw new Error(`no input ${blockId}`);
  return { ...state, [blockId]: { [action]: 'value' in entry ? { value } : { selected_option: value === null ? null : { value } } } };
}

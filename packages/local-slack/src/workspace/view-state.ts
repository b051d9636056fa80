/**
 * Builds a view's `state.values` as Slack does on submit: one entry per stateful element, typed per
 * element (`{type, value}`, `{type, selected_option}`, `{type, selected_user}`, …), starting from the
 * element's initial value and overlaid with what the person entered.
 */
import { findOption, interactiveElements, isObject, type Json } from './blocks.js';
import type { SubmittedValues } from './types.js';

interface StateKind {
  /** The field in `state.values` that carries the entry. */
  key: string;
  /** The element field holding the initial entry. */
  initial: string;
  multi: boolean;
  /** Entries are option objects picked by value from the element's options. */
  option: boolean;
}

const kind = (key: string, initial: string, multi = false, option = false): StateKind => ({ key, initial, multi, option });

const STATE_KINDS: Record<string, StateKind> = {
  plain_text_input: kind('value', 'initial_value'),
  email_text_input: kind('value', 'initial_value'),
  url_text_input: kind('value', 'initial_value'),
  number_input: kind('value', 'initial_value'),
  static_select: kind('selected_option', 'initial_option', false, true),
  external_select: kind('selected_option', 'initial_option', false, true),
  radio_buttons: kind('selected_option', 'initial_option', false, true),
  multi_static_select: kind('selected_options', 'initial_options', true, true),
  multi_external_select: kind('selected_options', 'initial_options', true, true),
  checkboxes: kind('selected_options', 'initial_options', true, true),
  users_select: kind('selected_user', 'initial_user'),
  multi_users_select: kind('selected_users', 'initial_users', true),
  conversations_select: kind('selected_conversation', 'initial_conversation'),
  multi_conversations_select: kind('selected_conversations', 'initial_conversations', true),
  channels_select: kind('selected_channel', 'initial_channel'),
  multi_channels_select: kind('selected_channels', 'initial_channels', true),
  datepicker: kind('selected_date', 'initial_date'),
  timepicker: kind('selected_time', 'initial_time'),
  // Entered as file ids (what the person uploaded); the state carries Slack's file objects.
  file_input: kind('files', 'initial_files', true),
};

/** A file's object as `files.info` and view state show it, by id; undefined for an unknown id. */
export type FileLookup = (id: string) => Json | undefined;

export function isStateful(element: Json): boolean {
  return typeof element.type === 'string' && element.type in STATE_KINDS;
}

/**
 * One element's state entry for an entered value (string or strings), or its initial value when none.
 * `offered`: the options the app last suggested for an external select (they are not in its JSON);
 * `files`: a file input's uploads by id.
 */
export function stateEntry(element: Json, entered: string | string[] | undefined, offered: readonly Json[] = [], files?: FileLookup): Json {
  const type = String(element.type);
  const stateKind = STATE_KINDS[type];
  if (!stateKind) throw new Error(`element type ${type} holds no value`);
  let entry: unknown;
  if (entered === undefined) {
    entry = element[stateKind.initial] ?? (stateKind.multi ? [] : null);
  } else {
    const values = Array.isArray(entered) ? entered : [entered];
    const picked = stateKind.option
      ? values.map((value) => pickOption(element, value, offered))
      : type === 'file_input'
        ? values.map((id) => pickFile(id, files))
        : values;
    entry = stateKind.multi ? picked : (picked[0] ?? null);
  }
  return { type, [stateKind.key]: entry };
}

function pickFile(id: string, files: FileLookup | undefined): Json {
  const file = files?.(id);
  if (!file) throw new Error(`no uploaded file ${id} in the workspace`);
  return file;
}

function pickOption(element: Json, value: string, offered: readonly Json[]): Json {
  const option =
    findOption(element, value) ??
    offered.find((candidate) => candidate.value === value) ??
    (isObject(element.initial_option) && element.initial_option.value === value ? element.initial_option : undefined);
  if (!option) {
    throw new Error(`no option with value "${value}" in ${String(element.type)} "${String(element.action_id)}"`);
  }
  return { text: option.text, value: option.value };
}

/** True when a state entry holds nothing: what makes Slack's client refuse a required input. */
export function isEmptyEntry(entry: Json): boolean {
  return Object.entries(entry).every(([key, value]) => key === 'type' || value === null || value === '' || (Array.isArray(value) && value.length === 0));
}

/** Options an app suggested per external select, by block_id → action_id. */
export type OfferedOptions = Record<string, Record<string, Json[]>>;

/** `state.values` for all stateful elements of the blocks, entered values over initial ones. */
export function buildStateValues(
  blocks: unknown,
  entered: SubmittedValues,
  offered: OfferedOptions = {},
  files?: FileLookup,
): Record<string, Record<string, Json>> {
  const values: Record<string, Record<string, Json>> = {};
  for (const { blockId, element } of interactiveElements(blocks)) {
    if (!isStateful(element)) continue;
    const actionId = String(element.action_id);
    (values[blockId] ??= {})[actionId] = stateEntry(element, entered[blockId]?.[actionId], offered[blockId]?.[actionId], files);
  }
  return values;
}

/** Required input blocks that would be submitted empty, with the message Slack's client shows. */
export function missingRequiredInputs(blocks: unknown, values: Record<string, Record<string, Json>>): Record<string, string> {
  const missing: Record<string, string> = {};
  if (!Array.isArray(blocks)) return missing;
  for (const block of blocks) {
    if (!isObject(block) || block.type !== 'input' || block.optional === true || !isObject(block.element)) continue;
    const blockId = String(block.block_id);
    const entry = values[blockId]?.[String(block.element.action_id)];
    if (entry && isEmptyEntry(entry)) missing[blockId] = 'Please complete this required field.';
  }
  return missing;
}

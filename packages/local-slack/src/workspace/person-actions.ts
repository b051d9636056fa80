/**
 * What a person does in Slack's client, turned into the requests Slack sends the app: running a slash
 * command, clicking a button, picking an option, submitting or closing a modal. Each finds its target
 * the way the person would see it, then applies the app's acknowledgement as Slack would.
 */
import { checkView } from './block-kit-limits.js';
import { interactiveElements, isObject, type FoundElement, type Json } from './blocks.js';
import type { EnvelopeType } from './socket-mode.js';
import {
  actionEntry,
  appHomeOpenedPayload,
  blockSuggestionPayload,
  messageActionPayload,
  slashCommandFields,
  viewActionPayload,
  viewClosedPayload,
  viewSubmissionPayload,
} from './payloads.js';
import { postResponse } from './response-url.js';
import type { StoredView, WorkspaceState } from './state.js';
import type { AckResult, SlackMessage, SubmittedValues, WorkspaceUser } from './types.js';
import { buildStateValues, isStateful, missingRequiredInputs, stateEntry } from './view-state.js';

export interface PersonContext {
  state: WorkspaceState;
  /** `${url}/response/`: response URLs are this plus an id. */
  responseUrlBase: string;
  deliver: (type: EnvelopeType, payload: Json) => Promise<AckResult>;
  report: (source: string, violations: string[]) => void;
}

/** Nothing was sent to the app (a required input was empty, or the element does not dispatch actions). */
const NOT_SENT: AckResult = { status: 0, body: undefined, elapsedMs: 0 };

function requireUser(state: WorkspaceState, userId: string): WorkspaceUser {
  const user = state.users.get(userId);
  if (!user) throw new Error(`no user ${userId} in the workspace`);
  return user;
}

function requireView(state: WorkspaceState, userId: string, viewId: string): StoredView {
  const stored = state.findView(viewId);
  if (!stored || stored.open.userId !== userId) throw new Error(`no open view ${viewId} for ${userId}`);
  return stored;
}

const actionTs = (state: WorkspaceState): string => (state.now() / 1000).toFixed(6);

export async function runCommand(context: PersonContext, input: { userId: string; channelId: string; text?: string; command?: string }): Promise<AckResult> {
  const { state } = context;
  const user = requireUser(state, input.userId);
  const channel = state.resolveChannel(input.channelId);
  if (!channel) throw new Error(`no channel ${input.channelId} in the workspace`);
  const responseId = state.issueResponseUrl({ channelId: channel.id, userId: user.id, kind: 'command' });
  const fields = slashCommandFields(state, {
    user,
    channelId: channel.id,
    command: input.command ?? '/fleet',
    text: input.text ?? '',
    responseUrl: context.responseUrlBase + responseId,
    triggerId: state.issueTrigger(user.id),
  });
  const ack = await context.deliver('slash_commands', fields);
  // Slack shows a slash command's acknowledgement body as its first response.
  const record = state.responseUrl(responseId);
  if (ack.status === 200 && record && ack.body !== undefined) {
    const body = typeof ack.body === 'string' ? { text: ack.body } : ack.body;
    if (isObject(body)) postResponse(state, record, body, context.report, 'slash command ack');
  }
  return ack;
}

interface Located {
  found: FoundElement;
  message?: SlackMessage;
  view?: StoredView;
}

type ElementFilter = (element: Json) => boolean;

/** Finds the element the person means: in the named view or message, else their modals, else what they see. */
function locate(
  state: WorkspaceState,
  input: { userId: string; actionId: string; blockId?: string; viewId?: string; channelId?: string; messageTs?: string; value?: string },
  accepts: ElementFilter,
): Located {
  // An action_id is unique within its block only: inputs of one modal may all be `value`, told apart by block.
  const match = (blocks: unknown): FoundElement | undefined => {
    const candidates = interactiveElements(blocks).filter(
      ({ element, blockId }) => element.action_id === input.actionId && (input.blockId === undefined || blockId === input.blockId) && accepts(element),
    );
    return candidates.find(({ element }) => input.value !== undefined && element.value === input.value) ?? candidates[0];
  };
  const inView = (stored: StoredView): Located | undefined => {
    const found = match(stored.open.view.blocks);
    return found && { found, view: stored };
  };
  const inMessage = (message: SlackMessage): Located | undefined => {
    const found = match(message.blocks);
    return found && { found, message };
  };
  let located: Located | undefined;
  if (input.viewId) {
    located = inView(requireView(state, input.userId, input.viewId));
  } else if (input.channelId && input.messageTs) {
    const message = state.findMessage(input.channelId, input.messageTs);
    const visible = message && !message.deleted && (message.ephemeralTo === undefined || message.ephemeralTo === input.userId);
    located = visible ? inMessage(message) : undefined;
  } else {
    const views = input.channelId
      ? []
      : state
          .stack(input.userId)
          .reverse()
          .map((open) => state.findView(open.id));
    located =
      views.reduce<Located | undefined>((hit, stored) => hit ?? (stored && inView(stored)), undefined) ??
      state.visibleMessages(input.userId, input.channelId).reduce<Located | undefined>((hit, message) => hit ?? inMessage(message), undefined);
  }
  if (!located) {
    const where = input.viewId ? `view ${input.viewId}` : input.messageTs ? `message ${input.channelId}/${input.messageTs}` : 'anything';
    throw new Error(`${input.userId} sees no element "${input.actionId}" of that kind in ${where}`);
  }
  return located;
}

async function sendAction(context: PersonContext, user: WorkspaceUser, located: Located, action: Json): Promise<AckResult> {
  const { state } = context;
  const triggerId = state.issueTrigger(user.id);
  if (located.view) {
    return context.deliver('interactive', viewActionPayload(state, { user, view: state.fullView(located.view), action, triggerId }));
  }
  const message = located.message as SlackMessage;
  const responseId = state.issueResponseUrl({ channelId: message.channel, userId: user.id, kind: 'message', targetTs: message.ts });
  return context.deliver(
    'interactive',
    messageActionPayload(state, {
      user,
      message,
      action,
      triggerId,
      responseUrl: context.responseUrlBase + responseId,
    }),
  );
}

/**
 * The element a person acts on: in a message (`channelId`, `messageTs`) or an open view (`viewId`);
 * `blockId` picks among elements that share an action_id in different blocks.
 */
export interface ElementTarget {
  userId: string;
  actionId: string;
  blockId?: string;
  channelId?: string;
  messageTs?: string;
  viewId?: string;
}

export async function clickButton(context: PersonContext, input: ElementTarget & { value?: string }): Promise<AckResult> {
  const user = requireUser(context.state, input.userId);
  const located = locate(context.state, input, (element) => element.type === 'button');
  // A value the button does not carry is sent anyway: a tampered client can send anything.
  const element = input.value === undefined ? located.found.element : { ...located.found.element, value: input.value };
  return sendAction(context, user, located, actionEntry(element, located.found.blockId, actionTs(context.state)));
}

export async function selectOption(context: PersonContext, input: ElementTarget & { value: string }): Promise<AckResult> {
  const { state } = context;
  const user = requireUser(state, input.userId);
  const located = locate(state, { ...input, value: undefined }, (element) => isStateful(element) || element.type === 'overflow');
  const { element, block, blockId } = located.found;
  const multi = String(element.type).startsWith('multi_') || element.type === 'checkboxes';
  const offered = located.view?.offered?.[blockId]?.[String(element.action_id)];
  const selection =
    element.type === 'overflow'
      ? { selected_option: stateEntry({ ...element, type: 'static_select' }, input.value).selected_option }
      : stateEntry(element, multi ? [input.value] : input.value, offered);
  if (located.view && element.type !== 'overflow') state.enterValue(located.view, blockId, String(element.action_id), multi ? [input.value] : input.value);
  // Inside an input block an element only dispatches an action when the block asks for it.
  if (block.type === 'input' && block.dispatch_action !== true) return NOT_SENT;
  return sendAction(context, user, located, actionEntry(element, blockId, actionTs(state), selection));
}

/** What an external select offers after a `block_suggestion`: the options of the app's answer. */
export interface Suggestion extends AckResult {
  options: Json[];
}

const MAX_SUGGESTED = 100;

/**
 * A person types into an external select. Like Slack's client, nothing is sent below the element's
 * `min_query_length` (3 unless set); otherwise the app gets a `block_suggestion` and answers in its
 * acknowledgement with `options` or `option_groups`, which the person may then pick from.
 */
export async function suggestOptions(context: PersonContext, input: ElementTarget & { value: string }): Promise<Suggestion> {
  const { state } = context;
  const user = requireUser(state, input.userId);
  const located = locate(state, { ...input, value: undefined }, (element) => element.type === 'external_select' || element.type === 'multi_external_select');
  const { element, blockId } = located.found;
  const minimum = typeof element.min_query_length === 'number' ? element.min_query_length : 3;
  if (input.value.length < minimum) return { ...NOT_SENT, options: [] };
  const ack = await context.deliver(
    'interactive',
    blockSuggestionPayload(state, {
      user,
      actionId: String(element.action_id),
      blockId,
      value: input.value,
      ...(located.view ? { view: state.fullView(located.view) } : {}),
      ...(located.message ? { message: located.message } : {}),
    }),
  );
  const options = ack.status === 200 ? suggestedOptions(context, ack.body) : [];
  if (located.view) state.offerOptions(located.view, blockId, String(element.action_id), options);
  return { ...ack, options };
}

/** The options of a `block_suggestion` acknowledgement, checked against Slack's limits. */
function suggestedOptions(context: PersonContext, body: unknown): Json[] {
  const answer = isObject(body) ? body : {};
  const groups = Array.isArray(answer.option_groups) ? answer.option_groups.filter(isObject) : [];
  const options = Array.isArray(answer.options)
    ? answer.options.filter(isObject)
    : groups.flatMap((group) => (Array.isArray(group.options) ? group.options.filter(isObject) : []));
  const problems: string[] = [];
  if (!Array.isArray(answer.options) && !Array.isArray(answer.option_groups))
    problems.push('an answer without options or option_groups: Slack shows no options');
  if (options.length > MAX_SUGGESTED) problems.push(`${options.length} options, more than the ${MAX_SUGGESTED} Slack shows`);
  for (const option of options) {
    const text = isObject(option.text) ? option.text : {};
    if (text.type !== 'plain_text') problems.push(`option "${String(option.value)}": text must be plain_text`);
    if (typeof text.text !== 'string' || text.text.length === 0 || text.text.length > 75)
      problems.push(`option "${String(option.value)}": text must hold 1 to 75 characters`);
    if (typeof option.value !== 'string' || option.value.length === 0 || option.value.length > 150) problems.push(`option value must hold 1 to 150 characters`);
  }
  context.report('block_suggestion ack', problems);
  return options.slice(0, MAX_SUGGESTED);
}

function enterSubmittedValues(state: WorkspaceState, stored: StoredView, values: SubmittedValues): void {
  const elements = interactiveElements(stored.open.view.blocks);
  for (const [blockId, byAction] of Object.entries(values)) {
    for (const [actionId, value] of Object.entries(byAction)) {
      const found = elements.find((candidate) => candidate.blockId === blockId && candidate.element.action_id === actionId);
      if (!found || !isStateful(found.element)) throw new Error(`view ${stored.open.id} has no input ${blockId}.${actionId}`);
      stateEntry(found.element, value, stored.offered?.[blockId]?.[actionId], state.fileLookup); // throws on an option the element does not offer, or a file never uploaded
      state.enterValue(stored, blockId, actionId, value);
    }
  }
}

/** What the person typed or picked so far, without submitting: Slack's client keeps it in the view's state. */
export function enterValues(context: PersonContext, input: { userId: string; viewId: string; values: SubmittedValues }): void {
  enterSubmittedValues(context.state, requireView(context.state, input.userId, input.viewId), input.values);
}

export async function submitView(context: PersonContext, input: { userId: string; viewId: string; values?: SubmittedValues }): Promise<AckResult> {
  const { state } = context;
  const user = requireUser(state, input.userId);
  const stored = requireView(state, input.userId, input.viewId);
  if (state.stack(user.id).at(-1)?.id !== stored.open.id) throw new Error(`view ${input.viewId} is not the one on top`);
  enterSubmittedValues(state, stored, input.values ?? {});
  const values = buildStateValues(stored.open.view.blocks, stored.entered, stored.offered, state.fileLookup);
  const missing = missingRequiredInputs(stored.open.view.blocks, values);
  if (Object.keys(missing).length > 0) {
    state.setViewErrors(stored, missing); // Slack's client refuses to submit; the app never hears of it
    return NOT_SENT;
  }
  const payload = viewSubmissionPayload(state, {
    user,
    view: state.fullView(stored),
    triggerId: state.issueTrigger(user.id),
    responseUrls: responseUrlsFor(context, stored, values),
  });
  const ack = await context.deliver('interactive', payload);
  if (ack.status === 200) applySubmissionAck(context, stored, ack.body);
  return ack;
}

/** Conversation pickers with `response_url_enabled` give the app a response_url for the picked channel. */
function responseUrlsFor(context: PersonContext, stored: StoredView, values: ReturnType<typeof buildStateValues>): Json[] {
  const urls: Json[] = [];
  for (const { blockId, element } of interactiveElements(stored.open.view.blocks)) {
    if (element.response_url_enabled !== true) continue;
    const entry = values[blockId]?.[String(element.action_id)];
    const channelId = entry?.selected_conversation ?? entry?.selected_channel;
    if (typeof channelId !== 'string') continue;
    const id = context.state.issueResponseUrl({ channelId, userId: stored.open.userId, kind: 'command' });
    urls.push({ block_id: blockId, action_id: element.action_id, channel_id: channelId, response_url: context.responseUrlBase + id });
  }
  return urls;
}

function applySubmissionAck(context: PersonContext, stored: StoredView, body: unknown): void {
  const { state } = context;
  if (body === undefined) return state.closeView(stored.open.id);
  const answer = isObject(body) ? body : {};
  switch (answer.response_action) {
    case 'errors': {
      const errors = isObject(answer.errors) ? (answer.errors as Record<string, string>) : {};
      const inputs = new Set(
        interactiveElements(stored.open.view.blocks)
          .filter(({ block }) => block.type === 'input')
          .map(({ blockId }) => blockId),
      );
      const stray = Object.keys(errors).filter((blockId) => !inputs.has(blockId));
      context.report(
        'view_submission ack',
        stray.map((blockId) => `errors for "${blockId}", which is not an input block of the view: Slack shows "We had some trouble connecting" instead`),
      );
      return state.setViewErrors(stored, errors);
    }
    case 'update':
    case 'push': {
      if (!isObject(answer.view)) return context.report('view_submission ack', [`response_action ${answer.response_action} without a view`]);
      context.report(`view_submission ack (${answer.response_action})`, checkView(answer.view));
      if (answer.response_action === 'update') return state.updateView(stored, answer.view);
      if (!state.pushView(stored.open.userId, answer.view)) context.report('view_submission ack (push)', ['push_limit_reached: 3 views already stacked']);
      return;
    }
    case 'clear':
      return state.clearViews(stored.open.userId);
    default:
      // Slack shows the person an error and leaves the modal open.
      return context.report('view_submission ack', [`unrecognised acknowledgement ${JSON.stringify(body).slice(0, 200)}`]);
  }
}

export async function closeView(context: PersonContext, input: { userId: string; viewId: string }): Promise<AckResult> {
  const { state } = context;
  const user = requireUser(state, input.userId);
  const stored = requireView(state, input.userId, input.viewId);
  const view = state.fullView(stored);
  state.closeView(stored.open.id);
  if (stored.open.view.notify_on_close !== true) return NOT_SENT;
  return context.deliver('interactive', viewClosedPayload(state, { user, view, isCleared: false }));
}

/** The person opens the app's Home tab: Slack sends `app_home_opened`, with the home they see if the app published one. */
export async function openHome(context: PersonContext, input: { userId: string }): Promise<AckResult> {
  const { state } = context;
  const user = requireUser(state, input.userId);
  const home = state.home(user.id);
  return context.deliver('events_api', appHomeOpenedPayload(state, { user, eventId: state.nextId('Ev'), ...(home ? { view: state.fullView(home) } : {}) }));
}

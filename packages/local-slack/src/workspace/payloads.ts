/**
 * The payloads Slack sends to an app when a person acts, with Slack's real field names and shapes:
 * slash command form fields, `block_actions`, `block_suggestion`, `view_submission`, `view_closed`, and Events
 * API callbacks (`app_home_opened`) with the `url_verification` handshake.
 */
import type { Json } from './blocks.js';
import type { WorkspaceState } from './state.js';
import type { SlackMessage, WorkspaceUser } from './types.js';

// Slack still sends the deprecated verification token; apps must not rely on it.
export const VERIFICATION_TOKEN = 'local-verification-token';

function userObject(state: WorkspaceState, user: WorkspaceUser): Json {
  return { id: user.id, username: user.name, name: user.name, team_id: state.identity.teamId };
}

function team(state: WorkspaceState): Json {
  return { id: state.identity.teamId, domain: state.identity.teamDomain };
}

function channelName(state: WorkspaceState, channelId: string): string {
  return state.isDm(channelId) ? 'directmessage' : (state.channels.get(channelId)?.name ?? channelId);
}

/** A stored message as the Web API and payloads show it. */
export function messageObject(state: WorkspaceState, message: SlackMessage): Json {
  const fromBot = message.botId !== undefined;
  return {
    type: 'message',
    ...(fromBot ? { bot_id: message.botId, app_id: state.identity.appId } : {}),
    text: message.text,
    user: message.userId,
    ts: message.ts,
    blocks: message.blocks,
    team: state.identity.teamId,
    ...(message.threadTs ? { thread_ts: message.threadTs } : {}),
    ...(message.edited ? { edited: { user: message.userId, ts: message.ts } } : {}),
    ...(message.files ? { files: message.files.map((file) => ({ ...file })), upload: true } : {}),
  };
}

export function slashCommandFields(
  state: WorkspaceState,
  input: { user: WorkspaceUser; channelId: string; command: string; text: string; responseUrl: string; triggerId: string },
): Record<string, string> {
  return {
    token: VERIFICATION_TOKEN,
    team_id: state.identity.teamId,
    team_domain: state.identity.teamDomain,
    channel_id: input.channelId,
    channel_name: channelName(state, input.channelId),
    user_id: input.user.id,
    user_name: input.user.name,
    command: input.command,
    text: input.text,
    api_app_id: state.identity.appId,
    is_enterprise_install: 'false',
    response_url: input.responseUrl,
    trigger_id: input.triggerId,
  };
}

function common(state: WorkspaceState, type: string, user: WorkspaceUser): Json {
  return {
    type,
    user: userObject(state, user),
    api_app_id: state.identity.appId,
    token: VERIFICATION_TOKEN,
  };
}

/** `block_actions` from a message. Slack leaves `message` out when the message is ephemeral. */
export function messageActionPayload(
  state: WorkspaceState,
  input: { user: WorkspaceUser; message: SlackMessage; action: Json; triggerId: string; responseUrl: string },
): Json {
  const { message } = input;
  const ephemeral = message.ephemeralTo !== undefined;
  return {
    ...common(state, 'block_actions', input.user),
    container: {
      type: 'message',
      message_ts: message.ts,
      channel_id: message.channel,
      is_ephemeral: ephemeral,
      ...(message.threadTs ? { thread_ts: message.threadTs } : {}),
    },
    trigger_id: input.triggerId,
    team: team(state),
    enterprise: null,
    is_enterprise_install: false,
    channel: { id: message.channel, name: channelName(state, message.channel) },
    ...(ephemeral ? {} : { message: messageObject(state, message) }),
    state: { values: {} },
    response_url: input.responseUrl,
    actions: [input.action],
    ...functionContext(state, message),
  };
}

/**
 * A click on a message a running workflow step posted carries the step's context and the step's own
 * function token, the one of `function_executed`: Slack documents no renewal, so none is issued here.
 */
function functionContext(state: WorkspaceState, message: SlackMessage): Json {
  const executionId = message.functionExecutionId;
  const run = executionId === undefined ? undefined : state.workflows.find(executionId);
  if (!run || run.state !== 'running') return {};
  return {
    function_data: { execution_id: run.executionId, inputs: run.inputs, function: { callback_id: run.callbackId } },
    bot_access_token: state.workflows.stepToken(run.executionId),
  };
}

/** `block_actions` from a modal: the container is the view, and there is no response_url. */
export function viewActionPayload(state: WorkspaceState, input: { user: WorkspaceUser; view: Json; action: Json; triggerId: string }): Json {
  return {
    ...common(state, 'block_actions', input.user),
    container: { type: 'view', view_id: input.view.id },
    trigger_id: input.triggerId,
    team: team(state),
    enterprise: null,
    is_enterprise_install: false,
    view: input.view,
    actions: [input.action],
  };
}

/**
 * `block_suggestion`: a person typed into an external select (`value` is what they typed). From a
 * modal it carries the view; from a message, the channel and the message's container.
 */
export function blockSuggestionPayload(
  state: WorkspaceState,
  input: { user: WorkspaceUser; actionId: string; blockId: string; value: string; view?: Json; message?: SlackMessage },
): Json {
  const { view, message } = input;
  const container = view
    ? { container: { type: 'view', view_id: view.id }, view }
    : message
      ? {
          container: { type: 'message', message_ts: message.ts, channel_id: message.channel, is_ephemeral: message.ephemeralTo !== undefined },
          channel: { id: message.channel, name: channelName(state, message.channel) },
        }
      : {};
  return {
    ...common(state, 'block_suggestion', input.user),
    action_id: input.actionId,
    block_id: input.blockId,
    value: input.value,
    team: team(state),
    enterprise: null,
    is_enterprise_install: false,
    ...container,
  };
}

export function viewSubmissionPayload(state: WorkspaceState, input: { user: WorkspaceUser; view: Json; triggerId: string; responseUrls: Json[] }): Json {
  return {
    ...common(state, 'view_submission', input.user),
    team: team(state),
    trigger_id: input.triggerId,
    view: input.view,
    response_urls: input.responseUrls,
    enterprise: null,
    is_enterprise_install: false,
  };
}

export function viewClosedPayload(state: WorkspaceState, input: { user: WorkspaceUser; view: Json; isCleared: boolean }): Json {
  return {
    ...common(state, 'view_closed', input.user),
    team: team(state),
    view: input.view,
    is_cleared: input.isCleared,
    enterprise: null,
    is_enterprise_install: false,
  };
}

/** The `actions[]` entry for an element: buttons carry value and text, selects what was selected. */
export function actionEntry(element: Json, blockId: string, actionTs: string, selection?: Json): Json {
  const base: Json = { type: element.type, action_id: element.action_id, block_id: blockId, action_ts: actionTs };
  if (element.type === 'button') {
    return {
      ...base,
      text: element.text,
      ...(element.value !== undefined ? { value: element.value } : {}),
      ...(element.style ? { style: element.style } : {}),
    };
  }
  const { type: _type, ...selected } = selection ?? {};
  return { ...base, ...selected, ...(element.placeholder ? { placeholder: element.placeholder } : {}) };
}

/**
 * The Events API's `event_callback` for a person opening the app's Home tab: `channel` is their
 * direct message with the app, and `view` the home they see, when the app published one.
 */
export function appHomeOpenedPayload(state: WorkspaceState, input: { user: WorkspaceUser; view?: Json; eventId: string }): Json {
  const eventTime = Math.floor(state.now() / 1000);
  return {
    token: VERIFICATION_TOKEN,
    team_id: state.identity.teamId,
    api_app_id: state.identity.appId,
    event: {
      type: 'app_home_opened',
      user: input.user.id,
      channel: state.dmWith(input.user.id)?.id,
      tab: 'home',
      ...(input.view ? { view: input.view } : {}),
      event_ts: (state.now() / 1000).toFixed(6),
    },
    type: 'event_callback',
    event_id: input.eventId,
    event_time: eventTime,
    authorizations: [{ enterprise_id: null, team_id: state.identity.teamId, user_id: state.identity.botUserId, is_bot: true, is_enterprise_install: false }],
    is_ext_shared_channel: false,
  };
}

/** What Slack sends once to an app's request URL before sending it any event: the app answers the challenge. */
export function urlVerificationPayload(challenge: string): Json {
  return { token: VERIFICATION_TOKEN, challenge, type: 'url_verification' };
}

/**
 * An Events API callback about the app itself (`app_uninstalled`, `tokens_revoked`): the outer
 * wrapper names the workspace, as for every event.
 */
export function appEventPayload(state: WorkspaceState, event: Json, eventId: string): Json {
  const { identity } = state;
  return {
    token: VERIFICATION_TOKEN,
    team_id: identity.teamId,
    api_app_id: identity.appId,
    event: { ...event, event_ts: (state.now() / 1000).toFixed(6) },
    type: 'event_callback',
    event_id: eventId,
    event_time: Math.floor(state.now() / 1000),
    authorizations: [{ enterprise_id: null, team_id: identity.teamId, user_id: identity.botUserId, is_bot: true, is_enterprise_install: false }],
    is_ext_shared_channel: false,
  };
}

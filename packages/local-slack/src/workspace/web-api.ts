/**
 * The Web API methods the app may call, answering as Slack does (`{ok:true, ...}` or `{ok:false, error}`)
 * and changing the workspace state. Transport, authentication and fault injection live in the server.
 */
import { SlackApiError, type ApiAuth, type ApiMethod } from './api-method.js';
import { checkMessage, checkView } from './block-kit-limits.js';
import { isObject, type Json } from './blocks.js';
import { messageObject } from './payloads.js';
import { MAX_VIEW_STACK, type StoredView, type WorkspaceState } from './state.js';
import type { SlackMessage } from './types.js';

export interface WebApiContext {
  state: WorkspaceState;
  /** Where the app posts a file's bytes, given the upload's secret token. */
  uploadUrl: (token: string) => string;
  /** Records Block Kit limit violations found in what the app sent. */
  report: (source: string, violations: string[]) => void;
}

const fail = (error: string): never => {
  throw new SlackApiError(error);
};

function text(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return undefined;
}

export function createWebApi(context: WebApiContext): Record<string, ApiMethod> {
  const { state } = context;
  const { identity } = state;

  const channelArg = (args: Json) => state.resolveChannel(text(args.channel) ?? '') ?? fail('channel_not_found');

  // The manifest has no `chat:write.public`: as Slack, the bot posts and shares files only where it was invited.
  const botMember = <T extends { id: string }>(channel: T): T => (state.membership.has(channel.id, identity.botUserId) ? channel : fail('not_in_channel'));

  const botMessage = (args: Json, method: string): { text: string; blocks: unknown } => {
    const body = text(args.text);
    if (args.blocks !== undefined && !Array.isArray(args.blocks)) fail('invalid_blocks_format');
    if (!body && !(Array.isArray(args.blocks) && args.blocks.length > 0)) fail('no_text');
    context.report(method, checkMessage(args.blocks ?? [], body));
    return { text: body ?? '', blocks: args.blocks };
  };

  const liveBotMessage = (args: Json): SlackMessage => {
    const message = state.findMessage(channelArg(args).id, text(args.ts) ?? '');
    if (!message || message.deleted || message.ephemeralTo !== undefined) return fail('message_not_found');
    if (message.botId !== identity.botId) fail('cant_update_message');
    return message;
  };

  const userJson = (userId: string): Json | undefined => {
    if (userId === identity.botUserId) {
      return { id: userId, team_id: identity.teamId, name: 'fleet', is_bot: true, deleted: false, profile: { bot_id: identity.botId } };
    }
    const user = state.users.get(userId);
    if (!user) return undefined;
    const realName = user.realName ?? user.name;
    return {
      id: user.id,
      team_id: identity.teamId,
      name: user.name,
      real_name: realName,
      deleted: false,
      is_bot: false,
      is_admin: user.isAdmin ?? false,
      tz: 'Africa/Kinshasa',
      profile: { real_name: realName, display_name: user.name, real_name_normalized: realName, display_name_normalized: user.name },
    };
  };

  const viewArg = (args: Json, method: string): Json => {
    if (!isObject(args.view)) return fail('invalid_arguments');
    context.report(method, checkView(args.view));
    return args.view;
  };

  const redeem = (args: Json): string => {
    const trigger = state.redeemTrigger(args.trigger_id);
    return trigger.ok ? trigger.userId : fail(trigger.error);
  };

  const completeStep = (args: Json, auth: ApiAuth, result: () => { outputs: Json } | { error: string }): Json => {
    const executionId = text(args.function_execution_id) ?? fail('invalid_arguments');
    if (!state.workflows.find(executionId)) fail('function_execution_not_found');
    if (auth.functionExecutionId !== executionId) fail('access_denied');
    const answer = state.workflows.complete(executionId, result());
    return answer === 'ok' ? { ok: true } : fail(answer);
  };

  const viewAnswer = (stored: StoredView | undefined): Json => ({ ok: true, view: state.fullView(stored ?? fail('not_found')) });

  return {
    'auth.test': () => ({
      ok: true,
      url: `https://${identity.teamDomain}.slack.com/`,
      team: identity.teamName,
      user: 'fleet',
      team_id: identity.teamId,
      user_id: identity.botUserId,
      bot_id: identity.botId,
      is_enterprise_install: false,
    }),

    'chat.postMessage': (args, auth) => {
      const channel = botMember(channelArg(args));
      const content = botMessage(args, 'chat.postMessage');
      const threadTs = text(args.thread_ts);
      const message = state.postMessage({
        channel: channel.id,
        userId: identity.botUserId,
        botId: identity.botId,
        ...content,
        ...(threadTs ? { threadTs } : {}),
        ...(auth.functionExecutionId ? { functionExecutionId: auth.functionExecutionId } : {}),
      });
      return { ok: true, channel: channel.id, ts: message.ts, message: messageObject(state, message) };
    },

    'chat.update': (args) => {
      const message = liveBotMessage(args);
      // Slack keeps what the call leaves out: without `blocks` the old blocks (buttons included) stay.
      const kept = { text: args.text ?? message.text, blocks: args.blocks ?? message.blocks };
      state.updateMessage(message, botMessage({ ...args, ...kept }, 'chat.update'));
      return { ok: true, channel: message.channel, ts: message.ts, text: message.text, message: messageObject(state, message) };
    },

    'chat.delete': (args) => {
      const message = liveBotMessage(args);
      state.deleteMessage(message);
      return { ok: true, channel: message.channel, ts: message.ts };
    },

    // As Slack: a link to a message that exists (no scope needed), in the workspace's domain.
    'chat.getPermalink': (args) => {
      const channel = channelArg(args);
      const ts = text(args.message_ts) ?? '';
      const message = state.findMessage(channel.id, ts);
      if (!message || message.deleted) fail('message_not_found');
      return { ok: true, channel: channel.id, permalink: `https://${identity.teamDomain}.slack.com/archives/${channel.id}/p${ts.replace('.', '')}` };
    },

    'chat.postEphemeral': (args) => {
      const channel = channelArg(args);
      const userId = text(args.user) ?? '';
      if (!state.users.has(userId)) fail('user_not_found');
      if (!state.membership.has(channel.id, userId)) fail('user_not_in_channel');
      const content = botMessage(args, 'chat.postEphemeral');
      const threadTs = text(args.thread_ts);
      const message = state.postMessage({
        channel: channel.id,
        userId: identity.botUserId,
        botId: identity.botId,
        ...content,
        ephemeralTo: userId,
        ...(threadTs ? { threadTs } : {}),
      });
      return { ok: true, message_ts: message.ts };
    },

    'views.open': (args) => {
      const view = viewArg(args, 'views.open');
      const open = state.openView(redeem(args), view);
      return viewAnswer(state.findView(open.id));
    },

    'views.push': (args) => {
      const view = viewArg(args, 'views.push');
      const userId = redeem(args);
      if (state.stack(userId).length >= MAX_VIEW_STACK) fail('push_limit_reached');
      const open = state.pushView(userId, view);
      return viewAnswer(open && state.findView(open.id));
    },

    'views.update': (args) => {
      const view = viewArg(args, 'views.update');
      const viewId = text(args.view_id);
      const externalId = text(args.external_id);
      const stored = (viewId ? state.findView(viewId) : externalId ? state.findViewByExternalId(externalId) : undefined) ?? fail('not_found');
      const hash = text(args.hash);
      if (hash && hash !== stored.open.hash) fail('hash_conflict');
      state.updateView(stored, view);
      return viewAnswer(stored);
    },

    // The App Home tab: any user of the workspace, a `home` view, and Slack's hash check against the home they have.
    'views.publish': (args) => {
      const userId = text(args.user_id) ?? '';
      if (!state.users.has(userId)) fail('user_not_found');
      const view = viewArg(args, 'views.publish');
      if (view.type !== 'home') fail('invalid_arguments');
      const hash = text(args.hash);
      const current = state.home(userId);
      if (hash && current && hash !== current.open.hash) fail('hash_conflict');
      return viewAnswer(state.publishHome(userId, view));
    },

    'usergroups.users.list': (args) => {
      const members = state.usergroups.get(text(args.usergroup) ?? '');
      return { ok: true, users: [...(members ?? fail('no_such_subteam'))] };
    },

    'users.info': (args) => {
      const user = userJson(text(args.user) ?? '') ?? fail('user_not_found');
      // As Slack: the person's locale only when asked for (`include_locale`, sent form-encoded as "true").
      const withLocale = ['true', '1'].includes(text(args.include_locale) ?? '');
      return { ok: true, user: withLocale ? { ...user, locale: state.users.get(text(args.user) ?? '')?.locale ?? 'en-US' } : user };
    },

    'conversations.open': (args) => {
      const channelId = text(args.channel);
      if (channelId) return { ok: true, channel: { id: channelArg(args).id } };
      const users = (text(args.users) ?? '')
        .split(',')
        .map((id) => id.trim())
        .filter(Boolean);
      // Group DMs are not modelled: the app only ever opens a DM with one person.
      if (users.length !== 1) fail(users.length === 0 ? 'users_list_not_supplied' : 'not_supported');
      return { ok: true, channel: { id: (state.dmWith(users[0] ?? '') ?? fail('user_not_found')).id } };
    },

    // Files: ask for an upload URL, post the bytes there (LocalSlack serves it), then complete to share.
    'files.getUploadURLExternal': (args) => {
      const filename = text(args.filename)?.trim();
      const length = Number(text(args.length));
      if (!filename || !Number.isSafeInteger(length) || length < 1) fail('invalid_arguments');
      const file = state.startUpload(filename ?? '', length);
      return { ok: true, upload_url: context.uploadUrl(file.uploadToken), file_id: file.id };
    },

    'files.completeUploadExternal': (args) => {
      const wanted = Array.isArray(args.files) ? args.files : fail('invalid_arguments');
      const files = wanted.map((item: unknown) => {
        const file = (isObject(item) && state.findFile(text(item.id) ?? '')) || fail('file_not_found');
        // The local workspace's own code for bytes never posted or not of the declared length.
        if (!file.bytes || file.bytes.length !== file.length) fail('file_upload_incomplete');
        return { file, title: (isObject(item) && text(item.title)) || file.name };
      });
      const channelId = text(args.channel_id);
      const channel = channelId ? botMember(state.resolveChannel(channelId) ?? fail('channel_not_found')) : undefined;
      for (const { file, title } of files) {
        file.title = title;
        if (channel) file.channels.push(channel.id);
      }
      const shared = files.map(({ file, title }) => ({ id: file.id, name: file.name, title, size: file.length }));
      if (channel) {
        const threadTs = text(args.thread_ts);
        state.postMessage({
          channel: channel.id,
          userId: identity.botUserId,
          botId: identity.botId,
          text: text(args.initial_comment) ?? '',
          files: shared,
          ...(threadTs ? { threadTs } : {}),
        });
      }
      return { ok: true, files: shared.map(({ id, title }) => ({ id, title })) };
    },

    // A file the app may read: one a person uploaded through a file input, or one the app shared.
    'files.info': (args) => ({ ok: true, file: state.fileLookup(text(args.file) ?? '') ?? fail('file_not_found') }),

    // Workflow steps: completed once, with a token of that execution (the event's, or a click's).
    'functions.completeSuccess': (args, auth) =>
      completeStep(args, auth, () => (isObject(args.outputs) ? { outputs: args.outputs } : fail('invalid_arguments'))),
    'functions.completeError': (args, auth) => completeStep(args, auth, () => ({ error: text(args.error) || fail('invalid_arguments') })),

    'conversations.info': (args) => {
      const channel = channelArg(args);
      const isIm = state.isDm(channel.id);
      return {
        ok: true,
        channel: {
          id: channel.id,
          name: isIm ? undefined : channel.name,
          is_channel: !isIm,
          is_group: false,
          is_im: isIm,
          is_private: false,
          is_archived: false,
          is_member: state.membership.has(channel.id, identity.botUserId),
          ...(isIm ? { user: channel.name } : {}),
        },
      };
    },
  };
}

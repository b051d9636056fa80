/** The public shapes of the local Slack workspace: its directory, options, stored messages and open views. */
import type { LatencyOptions } from './latency.js';
import type { RateLimitOptions } from './rate-limits.js';

export interface WorkspaceUser {
  id: string;
  name: string;
  realName?: string;
  isAdmin?: boolean;
  /** A workspace owner: may install apps, as an admin may. */
  isOwner?: boolean;
  /** The language of their Slack, an IETF tag such as `fr-FR`; Slack's own default `en-US` when unset. */
  locale?: string;
}

export interface WorkspaceChannel {
  id: string;
  name: string;
  /** The people in it (user ids); every person of the workspace when unset. The bot joins only by `invite`. */
  members?: string[];
}

export interface LocalSlackOptions {
  /** Defaults to 0 (any free port). */
  port?: number;
  /** Defaults to 127.0.0.1. */
  host?: string;
  /** Signs every request sent to the app. */
  signingSecret: string;
  /**
   * The bot token of the app, installed in advance: the only bearer token the Web API accepts
   * (anything else gets `invalid_auth`). Empty: the app is not installed until `installApp`.
   */
  botToken: string;
  /** An `xapp-` token: enables Socket Mode (`apps.connections.open` and the WebSocket). */
  appToken?: string;
  /** The app's request URL in HTTP mode, e.g. http://127.0.0.1:3000/slack/events. */
  appUrl?: string;
  users?: WorkspaceUser[];
  channels?: WorkspaceChannel[];
  /** User-group id (S…) → member user ids. */
  usergroups?: Record<string, string[]>;
  teamId?: string;
  /** The workspace's subdomain (`<domain>.slack.com`); `fleet-treasury-local` unless set. */
  teamDomain?: string;
  /** The workspace's name (`auth.test`'s `team`, `oauth.v2.access`'s `team.name`). */
  teamName?: string;
  botUserId?: string;
  botId?: string;
  appId?: string;
  /** Milliseconds clock for trigger and response_url expiry, message ts and signing timestamps. */
  now?: () => number;
  /** How long the app has to acknowledge a request; Slack gives it 3 seconds. */
  ackTimeoutMs?: number;
  /** Slack's rate limits per method, answered with HTTP 429 and `Retry-After`: on by default, `false` turns them off. */
  rateLimits?: RateLimitOptions | false;
  /**
   * Round trips as slow as Slack's: every Web API call, response URL post and request to the app
   * waits a seeded draw (`REAL_LATENCY`: 150 ms median, 600 ms p99). Unset: `LOCAL_SLACK_LATENCY`
   * decides (`real`, `<median>,<p99>` in ms, or `off`); `false`: none.
   */
  latency?: LatencyOptions | false;
  /** The slash commands the app's manifest declares; defaults to `/fleet`. Others are refused as Slack does. */
  slashCommands?: string[];
  /**
   * Sends a signed request to the app's URL and times it; by default from this process. A benchmark
   * sends from a process of its own, so that this one's work (the Web API the app calls) never counts
   * in an ack's time, as Slack's servers that send requests are not those that answer the app's calls.
   */
  sendSigned?: (request: SignedPost) => Promise<RawAnswer>;
}

/** What the app answered to a request we delivered: HTTP status (0 when it never answered) and body. */
export interface AckResult {
  status: number;
  /** Parsed JSON, or text, or undefined for an empty answer. */
  body: unknown;
  elapsedMs: number;
}

export interface SlackMessage {
  channel: string;
  ts: string;
  threadTs?: string;
  /** Who posted it: a person's id, or the bot user id for the app's messages. */
  userId?: string;
  botId?: string;
  text: string;
  blocks: unknown[];
  /** Set for an ephemeral message: the only user who sees it. */
  ephemeralTo?: string;
  edited?: boolean;
  deleted?: boolean;
  /** Set for messages that came through a response_url or a slash command's acknowledgement. */
  responseType?: 'ephemeral' | 'in_channel';
  /** Files shared with the message (`files.completeUploadExternal`). */
  files?: SharedFile[];
  /** Posted with a workflow step's function token: clicks on it carry the step's context while it runs. */
  functionExecutionId?: string;
}

/** A file the app uploaded and shared, as a message shows it; its bytes are at `LocalSlack.file(id)`. */
export interface SharedFile {
  id: string;
  name: string;
  title: string;
  /** Bytes. */
  size: number;
}

export interface OpenView {
  id: string;
  hash: string;
  userId: string;
  /** The view as the app sent it (blocks without ids get generated `block_id`/`action_id`, as Slack does). */
  view: Record<string, unknown>;
  /** Errors from the last `response_action: "errors"`, keyed by block_id. */
  errors?: Record<string, string>;
  rootViewId: string;
  previousViewId?: string;
}

export interface ApiCall {
  method: string;
  /** Arguments without the token; JSON-string fields such as `blocks` and `view` are parsed. */
  args: Record<string, unknown>;
  at: number;
  /** The `ok:false` error code (or `http_<status>`) when the call failed. */
  error?: string;
}

/** Emitted as `change` whenever something a person could see (or a test could wait for) changed. */
export type WorkspaceChange =
  | { type: 'message_posted' | 'message_updated' | 'message_deleted'; channel: string; ts: string }
  | { type: 'view_opened' | 'view_updated' | 'view_closed' | 'home_published'; viewId: string; userId: string }
  | { type: 'api_call'; method: string }
  | { type: 'file_uploaded'; fileId: string }
  | { type: 'limit_violation'; violation: string }
  | { type: 'workflow_run'; executionId: string }
  | { type: 'app_connected' | 'app_disconnected' };

/** Submitted values by block_id → action_id: a plain value, or the selected option value(s), user(s), date, … */
export type SubmittedValues = Record<string, Record<string, string | string[]>>;

export interface SignedPost {
  url: string;
  body: string;
  secret: string;
  timestampSeconds: number;
  contentType?: string;
  /** Replaces the computed signature (forged-request tests). */
  signature?: string;
  timeoutMs: number;
}

export interface RawAnswer {
  /** 0 when the app did not answer in time or could not be reached. */
  status: number;
  contentType: string;
  text: string;
  elapsedMs: number;
}

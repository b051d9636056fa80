/**
 * Builds the Bolt app: Socket Mode when an app token is configured, HTTP mode (POST /slack/events,
 * GET /healthz and a /readyz without details, with the limits of `http-limits.ts`) otherwise, with
 * Bolt's own logging sent through pino.
 */
import type { RequestListener, Server } from 'node:http';
import type { ListenOptions } from 'node:net';
import { App, HTTPReceiver, LogLevel, type Logger as BoltLogger, type Receiver } from '@slack/bolt';
import { WebClient, type WebClientOptions } from '@slack/web-api';
import type { Config } from '../../config/config.js';
import type { Logger } from '../../core/logger.js';
import { slackMethodOf } from '../../ops/metrics.js';
import type { PublicOpsRoutes } from '../../ops/routes.js';
import type { EventLoopTurns } from '../../runtime/turns.js';
import { oneSlackRequestPerTurn } from './request-turns.js';
import { HTTP_LIMITS, httpServerOptions, limitConnections, refuseLargeBodies, type HttpLimits } from './http-limits.js';

export interface SlackAppOptions {
  slack: Config['slack'];
  logger: Logger;
  /** HTTP mode: body size and timeout limits; HTTP_LIMITS by default. */
  httpLimits?: HttpLimits;
  /** Operations: /healthz and a /readyz without details in HTTP mode, and what Slack's API and requests are counted by. */
  ops?: SlackOps;
  /** The bot's turns of the event loop: HTTP mode counts each Slack request waiting for its turn there. */
  turns: EventLoopTurns;
  /** Hosted mode: no receiver of its own; the front door passes each request to `app.processEvent`. */
  external?: boolean;
}

export interface SlackOps {
  /** Served next to /slack/events, to anyone who reaches the port: no metrics, no readiness details. */
  routes: PublicOpsRoutes;
  /** Each Slack Web API answer: its method, HTTP status and Slack error code, if any. */
  slackCall(method: string, answer: { status: number; error?: string | undefined }): void;
  /** HTTP mode: how long a request to `route` took to be answered (Slack's ack). */
  ack(route: string, seconds: number): void;
}

// Each app's client for the lookups made before a modal opens (see lookupClient), and for posting in the background (see postingClient).
const lookupClients = new WeakMap<App, WebClient>();
const postingClients = new WeakMap<App, WebClient>();

/**
 * Posting in the background (approval messages, the feed, the digest, the Home, DMs) has nobody
 * waiting on it: it keeps trying through a long run of 429s (each `Retry-After` waited out, then a
 * backoff of up to 30 s), about four minutes in all, where a person's answer gives up after 3 tries.
 */
const POSTING_RETRIES = { retries: 10, factor: 2, minTimeout: 500, maxTimeout: 30_000 };

export function createSlackApp({ slack, logger, httpLimits = HTTP_LIMITS, ops, turns, external = false }: SlackAppOptions): App {
  const boltLogger = toBoltLogger(logger.child({ component: 'bolt' }));
  const clientOptions: WebClientOptions = {
    ...(slack.apiUrl ? { slackApiUrl: slack.apiUrl } : {}),
    logger: boltLogger,
    // Bolt's default retries for up to 30 minutes; a person waiting in Slack needs an answer sooner.
    retryConfig: { retries: 3, factor: 2, minTimeout: 500, maxTimeout: 5000 },
    ...(ops ? { fetch: observedFetch(ops) } : {}),
  };
  const app = new App({
    token: slack.botToken,
    logger: boltLogger,
    // No listener reads Bolt's conversation context: its store would be one more step before every ack.
    convoStore: false,
    // initSlackApp() runs the token check, so that its failure is ours to report.
    deferInitialization: true,
    clientOptions,
    ...(external
      ? { receiver: EXTERNAL_RECEIVER }
      : slack.appToken
        ? { socketMode: true, appToken: slack.appToken }
        : { receiver: createHttpReceiver(slack.signingSecret ?? '', boltLogger, httpLimits, ops, turns) }),
  });
  app.error(async (error) => {
    logger.error({ err: error }, 'unhandled error in a Slack listener');
  });
  lookupClients.set(app, new WebClient(slack.botToken, clientOptions));
  postingClients.set(app, new WebClient(slack.botToken, { ...clientOptions, retryConfig: POSTING_RETRIES }));
  return app;
}

/** A receiver that receives nothing by itself: hosted mode's front door verifies each request and calls `app.processEvent`. */
export const EXTERNAL_RECEIVER: Receiver = {
  init: () => undefined,
  start: () => Promise.resolve(),
  stop: () => Promise.resolve(),
};

/**
 * The client for the lookups made before a modal opens (roles through user groups, `users.info` for
 * names and languages), with the same token and options as `app.client` but a queue of its own:
 * `@slack/web-api` pauses a client's whole queue for a 429's `Retry-After`, so a rate-limited post in
 * the background (the feed, approval messages, the digest) would otherwise hold up the lookup while
 * the person's 3-second `trigger_id` runs out.
 */
export function lookupClient(app: App): WebClient {
  return lookupClients.get(app) ?? app.client;
}

/** The client the publishers post with, its queue apart from the lookups' and its retries for work nobody waits on. */
export function postingClient(app: App): WebClient {
  return postingClients.get(app) ?? app.client;
}

/** Bolt's HTTPReceiver, which buffers a body to check its signature: at most `maxBodyBytes` of it. */
function createHttpReceiver(signingSecret: string, logger: BoltLogger, limits: HttpLimits, ops: SlackOps | undefined, turns: EventLoopTurns): HTTPReceiver {
  const receiver = new HTTPReceiver({
    signingSecret,
    logger,
    // Cuts a body without a declared length as it grows past the limit (413).
    bodyLimit: limits.maxBodyBytes,
    customRoutes: ops
      ? Object.entries(ops.routes).map(([path, handler]) => ({ path, method: ['GET'], handler }))
      : [
          {
            path: '/healthz',
            method: ['GET'],
            handler: (_req, res) => {
              res.writeHead(200, { 'Content-Type': 'application/json' });
              res.end('{"ok":true}');
            },
          },
        ],
  });
  receiver.requestListener = oneSlackRequestPerTurn(refuseLargeBodies(receiver.requestListener, limits.maxBodyBytes), turns);
  if (ops) receiver.requestListener = timeAnswers(receiver.requestListener, ops);
  return receiver;
}

/** Times each POST to Slack's routes from arrival to the answer's last byte: the ack Slack waits for. */
function timeAnswers(listener: RequestListener, ops: SlackOps): RequestListener {
  return (request, response) => {
    if (request.method === 'POST') {
      const started = performance.now();
      const route = (request.url ?? '').split('?')[0] === '/slack/events' ? '/slack/events' : 'other';
      response.once('finish', () => ops.ack(route, (performance.now() - started) / 1000));
    }
    listener(request, response);
  };
}

/**
 * The Web API's fetch, reporting each answer's status and Slack error code (read from a copy of the
 * body). A `response_url` (method "other") refuses with an HTTP status, so its body is not read:
 * that copy would be made for each of the hundreds of answers a burst of commands gets.
 */
function observedFetch(ops: SlackOps): typeof fetch {
  return async (input, init) => {
    const response = await fetch(input, init);
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const method = slackMethodOf(url);
    if (response.status >= 400 || method === 'other') {
      if (response.status >= 400) ops.slackCall(method, { status: response.status });
    } else {
      response
        .clone()
        .json()
        .then(
          (body: unknown) => {
            const error = (body as { ok?: unknown; error?: unknown } | null)?.error;
            ops.slackCall(method, { status: response.status, error: typeof error === 'string' ? error : undefined });
          },
          () => undefined,
        );
    }
    return response;
  };
}

/** Starts HTTP mode's server with the header and body timeouts and the connection cap of `limits`. */
export async function startHttpApp(app: App, listen: ListenOptions, limits: HttpLimits = HTTP_LIMITS): Promise<Server> {
  const server = (await app.start(listen, httpServerOptions(limits))) as Server;
  limitConnections(server, limits);
  return server;
}

const REFUSED_TOKEN_ERRORS = new Set(['invalid_auth', 'not_authed', 'account_inactive', 'token_revoked', 'token_expired']);

/**
 * Finishes Bolt's initialisation, which asks Slack who the bot token belongs to, so that a wrong
 * token or an unreachable Slack stops the app at start with a clear message instead of failing
 * on every command.
 */
export async function initSlackApp(app: App): Promise<void> {
  try {
    await app.init();
  } catch (error) {
    const code = (error as { data?: { error?: unknown } }).data?.error;
    if (typeof code === 'string' && REFUSED_TOKEN_ERRORS.has(code)) {
      throw new Error(`SLACK_BOT_TOKEN was refused by Slack (${code}): expected the Bot User OAuth Token of an installed app`, { cause: error });
    }
    // One line names the cause; the client's error (a long stack with its own cause) stays out of the log.
    const reason = (error as { original?: Error }).original?.message ?? (error instanceof Error ? error.message : String(error));
    throw new Error(`Could not reach Slack to check SLACK_BOT_TOKEN (${reason.slice(0, 200)}): check the network, or SLACK_API_URL when it is set`, {
      cause: error,
    });
  }
}

/** Bolt's Logger interface over pino; Bolt passes several values, which are joined into one line. */
export function toBoltLogger(logger: Logger): BoltLogger {
  let level: LogLevel = LogLevel.INFO;
  const line = (values: unknown[]) =>
    values.map((value) => (typeof value === 'string' ? value : value instanceof Error ? value.message : JSON.stringify(value))).join(' ');
  return {
    debug: (...values: unknown[]) => logger.debug(line(values)),
    info: (...values: unknown[]) => logger.info(line(values)),
    warn: (...values: unknown[]) => logger.warn(line(values)),
    error: (...values: unknown[]) => logger.error(line(values)),
    setLevel: (next: LogLevel) => {
      level = next;
    },
    getLevel: () => level,
    setName: () => undefined,
  };
}

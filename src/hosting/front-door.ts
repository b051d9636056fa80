/**
 * The HTTP server of hosted mode: every request Slack or an installer's browser makes reaches it.
 * It checks Slack's signatures, serves the "Add to Slack" install and its OAuth callback, handles the
 * app's removal from a workspace itself, and hands every other Slack request to the workspace it
 * belongs to, as Bolt's HTTPReceiver would hand it to its one app (same checks, ack and 3-second rule).
 */
import { createServer, type IncomingMessage, type RequestListener, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { HTTPModuleFunctions as httpFunc, HTTPResponseAck, type Logger as BoltLogger, type ReceiverEvent } from '@slack/bolt';
import {
  AuthorizationError,
  InstallProvider,
  InvalidStateError,
  MissingStateError,
  type AuthorizeResult,
  type CodedError,
  type Installation,
  type InstallationStore,
  type OrgInstallation,
} from '@slack/oauth';
import type { HostingConfig } from '../config/hosted-mode.js';
import type { Logger } from '../core/logger.js';
import type { EventLoopTurns } from '../runtime/turns.js';
import { BOT_SCOPES } from '../slack/scopes.js';
import { toBoltLogger } from '../slack/transport/app.js';
import { HTTP_LIMITS, httpServerOptions, limitConnections, refuseLargeBodies, type HttpLimits } from '../slack/transport/http-limits.js';
import { oneSlackRequestPerTurn } from '../slack/transport/request-turns.js';
import { installedPage, installFailedPage, installPage, type InstallFailure } from './install-pages.js';
import { teamOfRequest, uninstallOf } from './team-of-request.js';

export const FRONT_DOOR_PATHS = { events: '/slack/events', install: '/slack/install', redirect: '/slack/oauth_redirect', health: '/healthz' } as const;

export interface FrontDoorOptions {
  hosting: HostingConfig;
  signingSecret: string;
  /** Where InstallProvider stores each installation (the bot token with it). */
  installationStore: InstallationStore;
  port: number;
  host?: string;
  logger: Logger;
  /** Body size, timeouts and connection cap; HTTP_LIMITS by default. */
  httpLimits?: HttpLimits;
  /** When given, Slack's requests are taken one per turn of the event loop, as in single-workspace HTTP mode. */
  turns?: EventLoopTurns;
  /**
   * Hands a verified request to its workspace's app (`app.processEvent(event)`); false when the
   * workspace is unknown here, and the front door then acks it with an empty 200.
   */
  dispatch(teamId: string, event: ReceiverEvent): Promise<boolean> | boolean;
  /** After an installation is stored; the installer sees the success page once this resolves. */
  onInstalled(installation: Installation | OrgInstallation): Promise<void> | void;
  /** The app was uninstalled from a workspace, or its bot token there was revoked (after the ack). */
  onUninstalled(teamId: string): Promise<void> | void;
  /** Slack's Web API base URL for oauth.v2.access and auth.test (tests point it at a local server). */
  slackApiUrl?: string;
}

export interface FrontDoor {
  /** The address it listens on, such as http://127.0.0.1:3000. */
  url: string;
  /**
   * A workspace's bot token, through InstallProvider: with token rotation on, a token expiring within
   * two hours is first refreshed and the new one stored. Throws when the workspace has no installation.
   */
  authorize(teamId: string): Promise<AuthorizeResult>;
  close(): Promise<void>;
}

export async function startFrontDoor(options: FrontDoorOptions): Promise<FrontDoor> {
  const limits = options.httpLimits ?? HTTP_LIMITS;
  const logger = options.logger.child({ component: 'front-door' });
  const boltLogger = toBoltLogger(logger);
  const installUrl = `${options.hosting.publicUrl}${FRONT_DOOR_PATHS.install}`;
  const installer = createInstaller(options, logger);
  let listener: RequestListener = (request, response) => {
    const path = (request.url ?? '').split('?')[0];
    const route = `${request.method ?? ''} ${path}`;
    if (route === `POST ${FRONT_DOOR_PATHS.events}`) {
      handleSlackRequest(options, limits, logger, boltLogger, request, response).catch((error: unknown) => {
        logger.error({ err: error }, 'unexpected error while answering a Slack request');
        if (!response.headersSent) httpFunc.buildNoBodyResponse(response, 500);
      });
      return;
    }
    if (route === `GET ${FRONT_DOOR_PATHS.install}`) return void startInstall(installer, logger, installUrl, response, request);
    if (route === `GET ${FRONT_DOOR_PATHS.redirect}`) return void finishInstall(installer, options, logger, installUrl, request, response);
    if (route === `GET ${FRONT_DOOR_PATHS.health}`) {
      response.writeHead(200, { 'Content-Type': 'application/json' });
      response.end('{"ok":true}');
      return;
    }
    response.writeHead(404);
    response.end();
  };
  listener = refuseLargeBodies(listener, limits.maxBodyBytes);
  if (options.turns) listener = oneSlackRequestPerTurn(listener, options.turns);
  const server = createServer(httpServerOptions(limits), listener);
  limitConnections(server, limits);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${host}:${address.port}`,
    authorize: (teamId) => installer.authorize({ teamId, enterpriseId: undefined, isEnterpriseInstall: false }),
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeIdleConnections();
      }),
  };
}

function createInstaller(options: FrontDoorOptions, logger: Logger): InstallProvider {
  const { hosting } = options;
  // A stranger's bad or expired link is not the app's error: InstallProvider's errors are logged as warnings. Its
  // client's debug lines are dropped: they hold the form sent to oauth.v2.access, the client secret in it.
  const installerLogger = toBoltLogger(logger.child({ component: 'oauth' }));
  return new InstallProvider({
    clientId: hosting.clientId,
    clientSecret: hosting.clientSecret,
    stateSecret: hosting.stateSecret,
    installationStore: options.installationStore,
    // The install starts from the app's own page with the "Add to Slack" link (and its state cookie).
    directInstall: false,
    installUrlOptions: { scopes: [...BOT_SCOPES], redirectUri: `${hosting.publicUrl}${FRONT_DOOR_PATHS.redirect}` },
    // Slack's authorize page sits beside its Web API (https://slack.com/api/ → https://slack.com/oauth/v2/authorize).
    ...(options.slackApiUrl ? { authorizationUrl: new URL('../oauth/v2/authorize', options.slackApiUrl).toString() } : {}),
    renderHtmlForInstallPath: installPage,
    logger: { ...installerLogger, debug: () => undefined, error: (...values: unknown[]) => installerLogger.warn(...values) },
    // The installer waits on oauth.v2.access and auth.test: a few quick retries, not the client's half hour of them.
    clientOptions: {
      ...(options.slackApiUrl ? { slackApiUrl: options.slackApiUrl } : {}),
      retryConfig: { retries: 2, factor: 2, minTimeout: 500, maxTimeout: 2000 },
      timeout: 10_000,
    },
  });
}

async function startInstall(installer: InstallProvider, logger: Logger, installUrl: string, response: ServerResponse, request: IncomingMessage): Promise<void> {
  try {
    await installer.handleInstallPath(request, response);
  } catch (error) {
    logger.error({ err: error }, 'could not serve the install page');
    if (!response.headersSent) writePage(response, 500, installFailedPage('refused', installUrl));
  }
}

async function finishInstall(
  installer: InstallProvider,
  options: FrontDoorOptions,
  logger: Logger,
  installUrl: string,
  request: IncomingMessage,
  response: ServerResponse,
): Promise<void> {
  try {
    await installer.handleCallback(request, response, {
      successAsync: async (installation, _options, _request, callbackResponse) => {
        await options.onInstalled(installation);
        logger.info({ team: installation.team?.id, enterprise: installation.enterprise?.id }, 'app installed in a workspace');
        writePage(callbackResponse, 200, installedPage(installation.team?.name ?? installation.enterprise?.name));
      },
      failure: (error, _options, _request, callbackResponse) => {
        const failure = failureOf(error);
        logger.warn({ code: error.code, failure }, 'an install did not finish');
        if (!callbackResponse.headersSent) writePage(callbackResponse, failure === 'refused' ? 502 : 400, installFailedPage(failure, installUrl));
      },
    });
  } catch (error) {
    logger.error({ err: error }, 'could not finish an install');
    if (!response.headersSent) writePage(response, 500, installFailedPage('refused', installUrl));
  }
}

function failureOf(error: CodedError): InstallFailure {
  if (error instanceof AuthorizationError) return 'cancelled';
  if (error instanceof InvalidStateError || error instanceof MissingStateError) return 'expired';
  return 'refused';
}

function writePage(response: ServerResponse, status: number, html: string): void {
  response.writeHead(status, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' });
  response.end(html);
}

/** POST /slack/events: HTTPReceiver's handleIncomingEvent, with the workspace chosen from the body. */
async function handleSlackRequest(
  options: FrontDoorOptions,
  limits: HttpLimits,
  logger: Logger,
  boltLogger: BoltLogger,
  request: IncomingMessage,
  response: ServerResponse,
): Promise<void> {
  let buffered: Awaited<ReturnType<typeof httpFunc.parseAndVerifyHTTPRequest>>;
  try {
    buffered = await httpFunc.parseAndVerifyHTTPRequest({ signingSecret: options.signingSecret, bodyLimit: limits.maxBodyBytes, logger: boltLogger }, request);
  } catch (error) {
    if (httpFunc.isRawBodyError(error) && (error.type === 'entity.too.large' || error.statusCode === 413)) {
      logger.warn({ limit: limits.maxBodyBytes }, 'refused a request body over the size limit');
      httpFunc.buildNoBodyResponse(response, 413);
      return;
    }
    logger.warn({ reason: error instanceof Error ? error.message : String(error) }, 'refused a request that failed the signature check');
    httpFunc.buildNoBodyResponse(response, 401);
    return;
  }
  let body: Record<string, unknown>;
  try {
    body = httpFunc.parseHTTPRequestBody(buffered) as Record<string, unknown>;
  } catch {
    logger.warn('refused a malformed request body');
    httpFunc.buildNoBodyResponse(response, 400);
    return;
  }
  if (body.ssl_check === '1') return httpFunc.buildSSLCheckResponse(response);
  if (body.type === 'url_verification') return httpFunc.buildUrlVerificationResponse(response, body);
  const ack = new HTTPResponseAck({ logger: boltLogger, processBeforeResponse: false, httpRequest: buffered, httpRequestBody: body, httpResponse: response });
  const event: ReceiverEvent = {
    body,
    ack: ack.bind(),
    retryNum: httpFunc.extractRetryNumFromHTTPRequest(request),
    retryReason: httpFunc.extractRetryReasonFromHTTPRequest(request),
    customProperties: {},
  };
  const teamId = teamOfRequest(body);
  const uninstall = uninstallOf(body);
  if (uninstall !== undefined) {
    await event.ack();
    if (uninstall === 'other_tokens_revoked' || teamId === undefined) return;
    try {
      await options.onUninstalled(teamId);
      logger.info({ team: teamId, reason: uninstall }, 'app removed from a workspace');
    } catch (error) {
      logger.error({ err: error, team: teamId }, 'could not record that the app was removed from a workspace');
    }
    return;
  }
  if (teamId === undefined) {
    logger.debug({ type: kindOf(body) }, 'acked a Slack request that names no workspace');
    await event.ack();
    return;
  }
  try {
    const known = await options.dispatch(teamId, event);
    if (!known) {
      logger.debug({ type: kindOf(body) }, 'acked a Slack request for a workspace not installed here');
      if (!response.headersSent) await event.ack();
    }
  } catch (error) {
    // As HTTPReceiver does when its app's processEvent throws.
    const acknowledged = await httpFunc.defaultProcessEventErrorHandler({
      error: error as Error,
      logger: boltLogger,
      request,
      response,
      storedResponse: undefined,
    });
    if (acknowledged) ack.ack();
  }
}

/** The kind of a Slack request, for a log line: never an id. */
function kindOf(body: Record<string, unknown>): string {
  if (typeof body.command === 'string') return 'command';
  return typeof body.type === 'string' ? body.type : 'unknown';
}

/**
 * Builds the Bolt app: Socket Mode when an app token is configured, HTTP mode (POST /slack/events,
 * GET /healthz) otherwise, with Bolt's own logging sent through pino.
 */
import { App, LogLevel, type Logger as BoltLogger } from '@slack/bolt';
import type { Config } from '../config.js';
import type { Logger } from '../logger.js';

export interface SlackAppOptions {
  slack: Config['slack'];
  logger: Logger;
}

export function createSlackApp({ slack, logger }: SlackAppOptions): App {
  const boltLogger = toBoltLogger(logger.child({ component: 'bolt' }));
  const app = new App({
    token: slack.botToken,
    logger: boltLogger,
    // initSlackApp() runs the token check, so that its failure is ours to report.
    deferInitialization: true,
    clientOptions: {
      ...(slack.apiUrl ? { slackApiUrl: slack.apiUrl } : {}),
      logger: boltLogger,
      // Bolt's default retries for up to 30 minutes; a person waiting in Slack needs an answer sooner.
      retryConfig: { retries: 3, factor: 2, minTimeout: 500, maxTimeout: 5000 },
    },
    ...(slack.appToken
      ? { socketMode: true, appToken: slack.appToken }
      : {
          signingSecret: slack.signingSecret ?? '',
          customRoutes: [
            {
              path: '/healthz',
              method: ['GET'],
              handler: (_req, res) => {
                res.writeHead(200, { 'Content-Type': 'application/json' });
                res.end('{"ok":true}');
              },
            },
          ],
        }),
  });
  app.error(async (error) => {
    logger.error({ err: error }, 'unhandled error in a Slack listener');
  });
  return app;
}

const REFUSED_TOKEN_ERRORS = new Set(['invalid_auth', 'not_authed', 'account_inactive', 'token_revoked', 'token_expired']);

/**
 * Finishes Bolt's initialisation, which asks Slack who the bot token belongs to, so that a wrong
 * token or an unreachable Slack stops the app at start with a clear message instead of failing
 * on every command.
 */
export async function initSlackApp(app: App, logger: Logger): Promise<void> {
  try {
    await app.init();
  } catch (error) {
    const code = (error as { data?: { error?: unknown } }).data?.error;
    if (typeof code === 'string' && REFUSED_TOKEN_ERRORS.has(code)) {
      throw new Error(`SLACK_BOT_TOKEN was refused by Slack (${code}): expected the Bot User OAuth Token of an installed app`, { cause: error });
    }
    logger.error({ err: error }, 'could not check the bot token with Slack');
    throw new Error('Could not reach Slack to check SLACK_BOT_TOKEN: check the network, or SLACK_API_URL when it is set', { cause: error });
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

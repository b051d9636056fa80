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

/** Entry point: reads the configuration once, starts the bot (or hosted mode's front door and bots), and stops it cleanly on a signal. */
import { startBot } from './bot.js';
import { ConfigError, loadConfig } from './config/config.js';
import { createLogger } from './core/logger.js';
import { startHosted } from './hosting/hosted.js';

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig(process.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  const logger = createLogger({
    level: config.logLevel,
    pretty: config.prettyLogs,
    secrets: [
      config.slack.botToken,
      config.slack.signingSecret,
      config.slack.appToken,
      config.fleet.apiKey,
      config.hosting?.clientSecret,
      config.hosting?.stateSecret,
      ...[...(config.hosting?.keyRing.byId.values() ?? [])].map(({ key }) => key.toString('base64').replace(/=+$/, '')),
    ],
  });
  // Hosted: many workspaces, each installed from the Add to Slack page; otherwise the one workspace of SLACK_BOT_TOKEN.
  const bot = config.hosting ? await startHosted({ config, env: process.env, logger }) : await startBot({ config, logger });
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'stopping');
    bot.close().then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error({ err: error }, 'error while stopping');
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

main().catch((error: unknown) => {
  console.error('fleet-treasury-bot failed to start:', error instanceof Error ? error.message : error);
  process.exit(1);
});

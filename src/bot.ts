/**
 * Assembles the running bot from its configuration: the Fleet API (or the embedded sandbox),
 * the account reader, access control and the Slack app with its listeners. `main.ts` calls it;
 * integration tests call it too, with their own logger and clock.
 */
import type { App } from '@slack/bolt';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AccountReader } from './account/account-reader.js';
import { systemClock, type Clock } from './clock.js';
import type { Config } from './config.js';
import { FleetClient } from './fleet/client.js';
import type { Logger } from './logger.js';
import { startSandbox, type Sandbox } from './sandbox/server.js';
import { openDatabase, type Db } from './store/index.js';
import { AccessControl } from './slack/access.js';
import { createSlackApp } from './slack/app.js';
import type { SlackContext, Subcommand } from './slack/context.js';
import { registerAccountActions } from './slack/listeners/account.js';
import { registerFleetCommand } from './slack/listeners/fleet-command.js';

export interface BotOptions {
  config: Config;
  logger: Logger;
  clock?: Clock;
  /** An already open, migrated database; by default one is opened from the configuration and closed with the bot. */
  db?: Db;
}

export interface RunningBot {
  app: App;
  /** HTTP mode only: where Slack sends requests, e.g. http://127.0.0.1:3000/slack/events. */
  eventsUrl: string | undefined;
  /** Present when FLEET_API_URL=sandbox. */
  sandbox: Sandbox | undefined;
  db: Db;
  close(): Promise<void>;
}

export async function startBot({ config, logger, clock = systemClock, db: givenDb }: BotOptions): Promise<RunningBot> {
  const closers: Array<() => Promise<void> | void> = [];
  const close = async () => {
    for (const closer of closers.reverse()) {
      try {
        await closer();
      } catch (error) {
        logger.warn({ err: error }, 'error while stopping');
      }
    }
  };

  try {
    let sandbox: Sandbox | undefined;
    let fleetUrl = config.fleet.url;
    let fleetKey = config.fleet.apiKey ?? '';
    if (config.fleet.url === 'sandbox') {
      sandbox = await startSandbox({ clock, activityIntervalMs: config.fleet.sandboxActivitySeconds * 1000 });
      closers.push(() => sandbox?.close());
      fleetUrl = sandbox.url;
      fleetKey = sandbox.apiKey;
      logger.info({ url: sandbox.url }, 'embedded sandbox Fleet API started');
    }

    let db = givenDb;
    if (!db) {
      db = await openDatabase({ databaseUrl: config.store.databaseUrl, dataDir: config.store.dataDir, logger: logger.child({ component: 'store' }) });
      const opened = db;
      closers.push(() => opened.close());
      logger.info({ kind: db.kind }, 'database ready');
    }

    const fleet = new FleetClient({ baseUrl: fleetUrl, apiKey: fleetKey, logger: logger.child({ component: 'fleet' }), clock });
    closers.push(() => fleet.close());
    const account = new AccountReader(fleet, clock);
    closers.push(() => account.close());

    const app = createSlackApp({ slack: config.slack, logger });
    const access = new AccessControl(app.client, logger);
    closers.push(() => access.close());

    const ctx: SlackContext = {
      account,
      access,
      accessLists: config.access,
      surface: { sandbox: sandbox !== undefined },
      logger,
      readTimeoutMs: 20_000,
    };
    const subcommands: Record<string, Subcommand> = {};
    registerFleetCommand(app, ctx, subcommands);
    registerAccountActions(app, ctx);

    let eventsUrl: string | undefined;
    if (config.slack.appToken) {
      await app.start();
      logger.info('connected to Slack in Socket Mode');
    } else {
      const server = (await app.start({ port: config.slack.port, host: config.slack.host })) as Server;
      const { port } = server.address() as AddressInfo;
      eventsUrl = `http://${config.slack.host ?? '127.0.0.1'}:${port}/slack/events`;
      logger.info({ port }, 'listening for Slack requests on POST /slack/events');
    }
    closers.push(() => app.stop() as Promise<void>);

    return { app, eventsUrl, sandbox, db, close };
  } catch (error) {
    await close();
    throw error;
  }
}

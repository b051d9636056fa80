/**
 * Starts the real bot in-process the way production does (config parsed from an environment,
 * real Bolt receiver, real HTTP Fleet API), next to the local Slack workspace and the sandbox.
 * Tests then act as people through the workspace and read what those people would see.
 */
import { Writable } from 'node:stream';
import { startBot, type BotOptions, type RunningBot } from '../../src/bot.js';
import { loadConfig } from '../../src/config/config.js';
import { createLogger } from '../../src/core/logger.js';
import { startSandbox, type Sandbox, type SandboxOptions } from '../../src/sandbox/server.js';
import type { Db } from '../../src/store/index.js';
import { startLocalSlack, type LocalSlack } from '@fleet-treasury-bot/local-slack';
import { testDatabases } from './databases.js';
import type { LocalSlackOptions, SlackMessage } from '@fleet-treasury-bot/local-slack';

export const SIGNING_SECRET = 'c0ffee0ddba11c0ffee0ddba11c0ffee';
export const BOT_TOKEN = 'xoxb-1111-2222-harnessbottoken';
export const APP_TOKEN = 'xapp-1-A0TEST-harnessapptoken';

export const PEOPLE = {
  requester: 'U0REQUESTER',
  approver: 'U0APPROVER',
  approver2: 'U0APPROVER2',
  newcomer: 'U0NEWCOMER',
} as const;

export const CHANNELS = { treasury: 'C0TREASURY', approvals: 'C0APPROVALS', feed: 'C0FEED' } as const;

export interface Harness {
  slack: LocalSlack;
  sandbox: Sandbox;
  bot: RunningBot;
  /** Every log line the bot wrote, as raw JSON text. */
  logs: string[];
  /** Messages in a channel that `userId` can see, oldest first. */
  visibleTo(userId: string, channelId?: string): SlackMessage[];
  /** Waits for a message visible to `userId` whose text contains `fragment`. */
  waitForMessage(userId: string, fragment: string, channelId?: string): Promise<SlackMessage>;
  close(): Promise<void>;
}

export interface HarnessOptions {
  env?: Record<string, string>;
  sandbox?: SandboxOptions;
  slack?: Partial<LocalSlackOptions>;
  socketMode?: boolean;
  /** Use an existing sandbox (e.g. to restart the bot against the same data). */
  existingSandbox?: Sandbox;
  /** Use an existing database (e.g. to restart the bot on the same rows); closing the harness leaves it open. */
  existingDb?: Db;
  /** Use an existing workspace (a restarted bot keeps its messages); closing the harness leaves it open. */
  existingSlack?: LocalSlack;
  /**
   * Channels the admin forgot to invite the bot to. In every other channel the configuration names
   * (approvals, feed, digest, alerts) it was invited before the bot started, as docs/setup-slack.md asks.
   */
  uninvited?: string[];
  /** Passed to startBot: an injected clock, short Fleet API timeouts, fast payout maintenance, the home's throttle. */
  bot?: Pick<BotOptions, 'clock' | 'fleetTimeouts' | 'payoutTimers' | 'httpLimits' | 'homeTimers' | 'runwayAlertEveryMs'>;
}

export async function startHarness(options: HarnessOptions = {}): Promise<Harness> {
  const sandbox = options.existingSandbox ?? (await startSandbox({ seed: 7, ...options.sandbox }));
  const slack =
    options.existingSlack ??
    (await startLocalSlack({
      signingSecret: SIGNING_SECRET,
      botToken: BOT_TOKEN,
      ...(options.socketMode ? { appToken: APP_TOKEN } : {}),
      ...options.slack,
    }));
  const logs: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      logs.push(chunk.toString());
      callback();
    },
  });
  const config = loadConfig({
    SLACK_BOT_TOKEN: BOT_TOKEN,
    SLACK_SIGNING_SECRET: SIGNING_SECRET,
    ...(options.socketMode ? { SLACK_APP_TOKEN: APP_TOKEN } : {}),
    SLACK_API_URL: slack.apiUrl,
    PORT: '0',
    HOST: '127.0.0.1',
    FLEET_API_URL: sandbox.url,
    FLEET_API_KEY: sandbox.apiKey,
    FLEET_VIEWERS: `${PEOPLE.requester},${PEOPLE.approver},${PEOPLE.approver2}`,
    LOG_LEVEL: 'trace',
    // Off unless a test turns it on: its background paging would change the sandbox's request counts.
    LEDGER_ENABLED: 'false',
    ...options.env,
  });
  const logger = createLogger({
    level: config.logLevel,
    destination,
    secrets: [config.slack.botToken, config.slack.signingSecret, config.slack.appToken, config.fleet.apiKey],
  });
  const known = new Set(slack.directory().channels.map((channel) => channel.id));
  const configured = [config.payouts.approvalChannelId, config.feed.channelId, config.digest.channelId, config.runway.alertChannelId];
  for (const channel of new Set(configured)) {
    if (channel && known.has(channel) && !options.uninvited?.includes(channel)) slack.invite(channel);
  }
  const db = options.existingDb ?? (await testDatabases()[0]!.open());
  let bot: RunningBot;
  try {
    bot = await startBot({ config, logger, db, ...options.bot });
  } catch (error) {
    if (!options.existingDb) await db.close();
    if (!options.existingSlack) await slack.close();
    if (!options.existingSandbox) await sandbox.close();
    throw error;
  }
  if (bot.eventsUrl) slack.setAppUrl(bot.eventsUrl);

  const visibleTo = (userId: string, channelId: string = CHANNELS.treasury) => slack.messages(channelId, { visibleTo: userId });
  return {
    slack,
    sandbox,
    bot,
    logs,
    visibleTo,
    waitForMessage: (userId, fragment, channelId = CHANNELS.treasury) =>
      slack.waitFor(() => visibleTo(userId, channelId).find((message) => message.text.includes(fragment)), {
        message: `a message containing "${fragment}" visible to ${userId} in ${channelId}`,
      }),
    close: async () => {
      await bot.close();
      if (!options.existingDb) await db.close();
      if (!options.existingSlack) await slack.close();
      if (!options.existingSandbox) await sandbox.close();
    },
  };
}

/** All text a person reads in a message: its blocks' text, flattened. */
export function blockText(message: SlackMessage): string {
  const parts: string[] = [];
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) node.forEach(visit);
    else if (node && typeof node === 'object') {
      const record = node as Record<string, unknown>;
      if (typeof record.text === 'string') parts.push(record.text);
      for (const value of Object.values(record)) if (typeof value === 'object') visit(value);
    }
  };
  visit(message.blocks);
  return parts.join('\n');
}

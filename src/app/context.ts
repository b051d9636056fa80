/**
 * What every area of the wiring shares: the bot's options, the configuration, the logger, the clock
 * and the shutdown, whose order is declared here once.
 */
import type { Clock } from '../core/clock.js';
import type { Config } from '../config/config.js';
import type { FleetHttpOptions } from '../fleet/http.js';
import type { Timers } from '../home/index.js';
import type { Logger } from '../core/logger.js';
import type { EventLoopTurns } from '../runtime/turns.js';
import type { Shutdown } from '../runtime/shutdown.js';
import type { HttpLimits } from '../slack/transport/http-limits.js';
import type { Db } from '../store/index.js';

/**
 * First Slack, so that no new work arrives; then the periodic work (bulk sending, schedules, payout
 * maintenance, the feed, the digest, the ledger sync: its own steps, below, in their order); then what
 * they all use: the payouts' work under way, role and account caches, the Fleet client, the database, the sandbox.
 */
export const SHUTDOWN_ORDER = [
  'slack',
  'ops server',
  'home',
  'access',
  'languages',
  'account',
  'periodic work',
  'payouts',
  'bulk payout sending',
  'scheduled payouts',
  'payout maintenance',
  'workflow steps',
  'feed',
  'digest',
  'runway alerts',
  'charts',
  'ledger',
  'fleet',
  'database',
  'sandbox',
] as const;
export type ShutdownStep = (typeof SHUTDOWN_ORDER)[number];

export interface BotOptions {
  config: Config;
  logger: Logger;
  clock?: Clock;
  /** An already open, migrated database; by default one is opened from the configuration and closed with the bot. */
  db?: Db;
  /** Tests only: short Fleet API timeouts, so that a hung payout becomes "unknown" in a second. */
  fleetTimeouts?: FleetHttpOptions['timeouts'];
  /** Hosted mode: the replica's connections to the Fleet API, shared by every workspace's bot (each with its own key and budget). */
  fleetConnections?: FleetHttpOptions['connections'];
  /** Tests only: how often payout maintenance runs (default 30 s) and an unknown payout is looked for again (default 30 s). */
  payoutTimers?: { maintenanceEveryMs?: number; recheckEveryMs?: number; batchEveryMs?: number; resultsRetrySeconds?: number; scheduleEveryMs?: number };
  /** Tests only: short HTTP header and body timeouts, so that a slow client is dropped in a second. */
  httpLimits?: Partial<HttpLimits>;
  /** Tests only: how often the runway alert is checked (default a minute). */
  runwayAlertEveryMs?: number;
  /** Tests only: the home tab's throttle interval (default 2 s) and its timers. */
  homeTimers?: { throttleMs?: number; timers?: Timers };
  /**
   * Hosted mode: this bot serves one workspace of many. It opens no port (the front door hands it each
   * request through `app.processEvent`), keeps no process-wide metrics, and seals button values and
   * workflow tokens with secrets derived from the workspace's own data key instead of its bot token.
   */
  hosted?: { tenant: string; sealSecret: string; tokenSecret: string };
  /**
   * Hosted mode: the turns of the event loop shared by every workspace's bot in the process, so that
   * a Slack request waiting for any workspace holds back the background work of all. By default the bot's own.
   */
  turns?: EventLoopTurns;
  /** The demo: the timers (feed, digest, ledger sync, payouts) start once this settles, so that the first answer does not queue behind their first run. */
  timersAfter?: Promise<unknown>;
  /** Hosted mode: the periodic work waits for `work.start()` (this replica runs that workspace's work), and may be stopped and started again. */
  workWhenAsked?: boolean;
}

/** Where an area's `start` registers how to stop the periodic work it starts (stopped without stopping the bot). */
export interface WorkStops {
  add(step: ShutdownStep, closer: () => unknown): void;
}

/** Handed to each area: what it builds from, and where it registers how to stop what it starts. */
export interface Wiring {
  config: Config;
  logger: Logger;
  clock: Clock;
  shutdown: Shutdown<ShutdownStep>;
  /** The turns of the event loop the Slack app and the background work share (acks first). */
  turns: EventLoopTurns;
  options: BotOptions;
}

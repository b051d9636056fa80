/** Test doubles for the feed: a clock that jumps on sleep, a scripted Fleet API and a recording publisher. */
import type { Clock } from '../../src/core/clock.js';
import type { FeedSettings } from '../../src/feed/index.js';
import { TransactionFeed, type TransactionFeedOptions } from '../../src/feed/transaction-feed.js';
import type { FeedPost, FeedPublisher } from '../../src/feed/types.js';
import { openDatabase } from '../../src/store/index.js';
import type { Db } from '../../src/store/db.js';
import { wholePage, type Balances, type FleetApi, type PayoutResult, type Transaction, type TransactionListPage } from '../../src/fleet/schemas.js';
import { createLogger } from '../../src/core/logger.js';
import { createTestSchema, testPostgresUrl, type TestDatabase } from './databases.js';

export const silentLogger = createLogger({ level: 'silent' });

/** Time stands still until someone sleeps; a sleep moves it forward at once, so nothing really waits. */
export class SteppingClock implements Clock {
  readonly sleeps: number[] = [];
  private ms: number;

  constructor(start = '2025-06-01T12:00:00.000Z') {
    this.ms = Date.parse(start);
  }

  now(): Date {
    return new Date(this.ms);
  }

  advance(ms: number): void {
    this.ms += ms;
  }

  async sleep(ms: number, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) throw signal.reason as Error;
    this.sleeps.push(ms);
    this.ms += ms;
    // Like a real sleep, give timers and I/O a turn: a poll loop on PGlite would otherwise never yield.
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/**
 * Time for several loops at once (the ledger's sync and the feed, say): it moves only when the test
 * runs it, and each sleeper wakes at its own time, in order, once the work woken before it has
 * settled (every loop asleep again), so the times the loops see are exact.
 */
export class VirtualClock implements Clock {
  private ms: number;
  private sleepers: Array<{ at: number; wake: () => void }> = [];

  constructor(start = '2025-06-01T12:00:00.000Z') {
    this.ms = Date.parse(start);
  }

  now(): Date {
    return new Date(this.ms);
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.reject(signal.reason as Error);
    return new Promise<void>((resolve, reject) => {
      const sleeper = {
        at: this.ms + Math.max(0, ms),
        wake: () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        },
      };
      const onAbort = () => {
        this.sleepers = this.sleepers.filter((other) => other !== sleeper);
        reject(signal?.reason as Error);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.sleepers.push(sleeper);
    });
  }

  /** Waits (in real time, for the database) until `loops` sleepers wait: every loop is asleep. */
  async settle(loops: number): Promise<void> {
    const deadline = performance.now() + 20_000;
    while (this.sleepers.length < loops) {
      if (performance.now() > deadline) throw new Error(`only ${this.sleepers.length} of ${loops} loops went back to sleep`);
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
  }

  /** Runs time forward by `ms`, waking each sleeper due on the way at its time, with `loops` loops running. */
  async run(ms: number, loops: number): Promise<void> {
    const end = this.ms + ms;
    await this.settle(loops);
    for (;;) {
      const next = this.sleepers.reduce<{ at: number; wake: () => void } | undefined>(
        (first, sleeper) => (!first || sleeper.at < first.at ? sleeper : first),
        undefined,
      );
      if (!next || next.at > end) break;
      this.sleepers = this.sleepers.filter((sleeper) => sleeper !== next);
      this.ms = Math.max(this.ms, next.at);
      next.wake();
      await this.settle(loops);
    }
    this.ms = end;
  }
}

let sequence = 0;

/** A transaction dated `date`, with a unique reference unless one is given. */
export function transaction(date: Date, overrides: Partial<Transaction> = {}): Transaction {
  sequence += 1;
  return {
    reference: `TX-${sequence}`,
    type: 'PAYMENT',
    amount: 10 + (sequence % 7),
    currency: 'USD',
    description: `Payout ${sequence}`,
    date: date.toISOString(),
    status: 'Completed',
    ...overrides,
  };
}

/** An in-memory Fleet API over a newest-first list that tests change as they like, even mid-poll. */
export class ScriptedFleet implements FleetApi {
  /** Newest first, as the API lists them. */
  entries: Transaction[] = [];
  balances: Balances = {};
  /** Thrown by every call while set: an outage. */
  outage: Error | undefined;
  readonly listCalls: Array<{ limit: number; offset: number }> = [];
  balanceCalls = 0;
  /** Runs before each list call answers, with its number (0 first): entries arriving while the feed pages. */
  beforeList: ((call: number) => void) | undefined;

  constructor(private readonly clock: SteppingClock) {}

  /** Adds one entry dated `date` where the newest-first list puts it: an entry that shows up late, or dated ahead. */
  appearDated(date: Date): Transaction {
    const entry = transaction(date);
    const at = this.entries.findIndex((tx) => Date.parse(tx.date) < date.getTime());
    this.entries.splice(at === -1 ? this.entries.length : at, 0, entry);
    return entry;
  }

  /** Adds `count` entries created now, one millisecond apart unless `sameMillisecond`. */
  arrive(count: number, options: { sameMillisecond?: boolean; overrides?: Partial<Transaction> } = {}): Transaction[] {
    const oldestFirst: Transaction[] = [];
    for (let i = 0; i < count; i += 1) {
      if (!options.sameMillisecond) this.clock.advance(1);
      oldestFirst.push(transaction(this.clock.now(), options.overrides));
    }
    this.entries = [...[...oldestFirst].reverse(), ...this.entries];
    return oldestFirst;
  }

  async listTransactions(page: { limit?: number; offset?: number } = {}): Promise<TransactionListPage> {
    const limit = Math.min(Math.max(page.limit ?? 50, 1), 100);
    const offset = Math.max(page.offset ?? 0, 0);
    this.beforeList?.(this.listCalls.length);
    this.listCalls.push({ limit, offset });
    if (this.outage) throw this.outage;
    return wholePage(this.entries.slice(offset, offset + limit).map((tx) => ({ ...tx })));
  }

  async getBalance(): Promise<Balances> {
    this.balanceCalls += 1;
    if (this.outage) throw this.outage;
    return { ...this.balances };
  }

  async payout(): Promise<PayoutResult> {
    throw new Error('the feed never pays out');
  }
}

/** Records every accepted post; `failures` are thrown, one per attempt, before anything is accepted. */
export class RecordingPublisher implements FeedPublisher {
  readonly posts: Array<{ channelId: string; post: FeedPost; at: Date }> = [];
  failures: Error[] = [];
  /** Accept this many more posts, then fail every one after: Slack gone in the middle of a batch. */
  acceptOnly: number | undefined;
  /** Accept the post after this many more, but fail as if its answer was lost: the message in flight at a crash. */
  loseAnswerAfter: number | undefined;

  constructor(private readonly clock: Clock) {}

  async publish(channelId: string, post: FeedPost): Promise<void> {
    const failure = this.failures.shift();
    if (failure) throw failure;
    if (this.acceptOnly !== undefined) {
      if (this.acceptOnly === 0) throw new Error('connection reset by Slack');
      this.acceptOnly -= 1;
    }
    this.posts.push({ channelId, post, at: this.clock.now() });
    if (this.loseAnswerAfter !== undefined) {
      if (this.loseAnswerAfter === 0) {
        this.loseAnswerAfter = undefined;
        this.acceptOnly = 0;
        throw new Error('the process died before Slack answered');
      }
      this.loseAnswerAfter -= 1;
    }
  }

  /** Every entry posted, in channel order. */
  postedEntries(channelId?: string): Transaction[] {
    return this.posts
      .filter((record) => channelId === undefined || record.channelId === channelId)
      .flatMap(({ post }) => (post.kind === 'transactions' ? post.entries : []));
  }

  postedReferences(channelId?: string): string[] {
    return this.postedEntries(channelId).map((tx) => tx.reference);
  }
}

let channelCount = 0;

/** Feed settings with a channel of its own, so that tests sharing a database never share a feed. */
export function feedSettings(overrides: Partial<FeedSettings> = {}): FeedSettings {
  channelCount += 1;
  const channelId = `CFEED${String(channelCount).padStart(4, '0')}`;
  return {
    channelId,
    pollIntervalSeconds: 15,
    maxBacklog: 1000,
    backfill: 0,
    balanceAlertBelow: new Map(),
    alertChannelId: channelId,
    ...overrides,
  };
}

/**
 * One feed's world: its clock, API, publisher and settings, and a way to start (or restart) a poller.
 * The clock starts in the past (June 2025) unless `startAt` says otherwise; the database's own clock
 * (leases, the feed's idea of "now") is the real one.
 */
export function feedRig(db: Db, overrides: Partial<FeedSettings> = {}, options: { startAt?: Date } = {}) {
  const clock = new SteppingClock(options.startAt?.toISOString());
  const fleet = new ScriptedFleet(clock);
  const publisher = new RecordingPublisher(clock);
  const settings = feedSettings(overrides);
  let replicas = 0;
  const newFeed = (options: Partial<TransactionFeedOptions> = {}) => {
    replicas += 1;
    return new TransactionFeed({
      fleet,
      db,
      clock,
      publisher,
      settings,
      logger: silentLogger,
      random: () => 1,
      instanceId: `replica-${replicas}`,
      ...options,
    });
  };
  return { clock, fleet, publisher, settings, newFeed };
}

/** The database's clock, which every replica shares. */
export async function databaseTime(db: Db): Promise<Date> {
  const { rows } = await db.query<{ now: Date }>('SELECT clock_timestamp() AS now');
  return new Date(rows[0]!.now);
}

/** Ends the feed's lease at once, as if its holder had died and its time had run out by the database clock. */
export async function expireFeedLease(db: Db, settings: FeedSettings): Promise<void> {
  await db.query("UPDATE app_leases SET expires_at = clock_timestamp() - interval '1 millisecond' WHERE name = $1", [`feed:${settings.channelId}`]);
}

/**
 * Two handles on one database, as two replicas have: two pools on one Postgres schema, or the one
 * in-memory PGlite twice (it cannot be shared between handles). `close()` closes both.
 */
export async function openReplicaDatabases(database: TestDatabase): Promise<{ first: Db; second: Db; close: () => Promise<void> }> {
  if (database.name === 'pglite' || !testPostgresUrl) {
    const db = await database.open();
    return { first: db, second: db, close: () => db.close() };
  }
  const schema = await createTestSchema(testPostgresUrl);
  try {
    const first = await openDatabase({ databaseUrl: schema.databaseUrl });
    const second = await openDatabase({ databaseUrl: schema.databaseUrl }).catch(async (error: unknown) => {
      await first.close();
      throw error;
    });
    return { first, second, close: () => Promise.all([first.close(), second.close()]).then(() => schema.drop()) };
  } catch (error) {
    await schema.drop();
    throw error;
  }
}

/**
 * Live feed benchmark. Part 1 runs the real TransactionFeed against the sandbox over HTTP (FleetClient),
 * an in-memory PGlite and a recording publisher: 1,000 entries in a burst, then a steady trickle, then
 * idle polls. Part 2 (run first, for a clean memory baseline) pushes 100,000 entries through the feed
 * (in-process API keeping only the newest 2,000, so that the API's own storage does not hide the feed's;
 * PGlite on disk, as the app runs it) and samples memory along the way.
 * Time is simulated: every clock.sleep (poll interval, pacing, Retry-After) jumps a virtual clock that
 * the sandbox dates entries with, so 15 s intervals run in milliseconds and delays are exact.
 * Part 3 runs the feed as the app runs it with the ledger on (the default): the ledger's sync reads the
 * API (LEDGER_POLL_SECONDS 60 here) and the feed posts from its copy; a trickle measures creation → post.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import v8 from 'node:v8';
import vm from 'node:vm';
import type { Clock } from '../src/core/clock.js';
import type { Config } from '../src/config/config.js';
import { TransactionFeed } from '../src/feed/transaction-feed.js';
import type { FeedPost, FeedPublisher, PollReport } from '../src/feed/types.js';
import { FleetClient } from '../src/fleet/client.js';
import { LedgerListing } from '../src/ledger/ledger-listing.js';
import { DEFAULT_LEDGER_SETTINGS } from '../src/ledger/settings.js';
import { LedgerSync } from '../src/ledger/sync.js';
import { wholePage, type Balances, type FleetApi, type PayoutResult, type Transaction, type TransactionListPage } from '../src/fleet/schemas.js';
import { createLogger } from '../src/core/logger.js';
import { startSandbox } from '../src/sandbox/server.js';
import { openDatabase } from '../src/store/index.js';
import { VirtualClock as LoopsClock } from '../test/support/feed-doubles.js';
import { percentile, round } from './stats.js';

const INTERVAL_S = 15;
const BURST = 1_000;
const TRICKLE_EVERY_MS = 3_000;
const TRICKLE_COUNT = 200;
const IDLE_POLLS = 20;
const MEMORY_ENTRIES = 100_000;
// About 6.7 entries a second: a busy account, well under the 20 a second that 1 message/s of 20 entries allows.
const MEMORY_PER_INTERVAL = 100;
const LEDGER_INTERVAL_S = 60;
const LEDGER_TRICKLE_COUNT = 100;

/** Virtual time: a sleep runs the actions due before it ends (at their own time), then jumps to its end. */
class VirtualClock implements Clock {
  private ms = Date.parse('2025-06-02T08:00:00.000Z');
  private actions: Array<{ at: number; run: () => void }> = [];
  now = () => new Date(this.ms);
  at(at: number, run: () => void): void {
    this.actions.push({ at, run });
    this.actions.sort((a, b) => a.at - b.at);
  }
  async sleep(ms: number, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) throw signal.reason as Error;
    const end = this.ms + ms;
    while (this.actions[0] && this.actions[0].at <= end) {
      const action = this.actions.shift()!;
      this.ms = Math.max(this.ms, action.at);
      action.run();
    }
    this.ms = end;
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/** Records each entry posted (with the message number it went out in) and counts messages. */
class RecordingPublisher implements FeedPublisher {
  messages = 0;
  constructor(private readonly onEntry: (tx: Transaction, message: number) => void) {}
  async publish(_channel: string, post: FeedPost): Promise<void> {
    this.messages += 1;
    if (post.kind === 'transactions') for (const tx of post.entries) this.onEntry(tx, this.messages);
  }
}

/** A TransactionFeed that keeps each poll's report and the HTTP requests the API saw during it. */
class MeasuredFeed extends TransactionFeed {
  readonly measured: Array<{ report: PollReport; httpRequests: number }> = [];
  countRequests: () => number = () => 0;
  afterPoll: () => void = () => undefined;
  override async pollOnce(): Promise<PollReport> {
    const before = this.countRequests();
    const report = await super.pollOnce();
    this.measured.push({ report, httpRequests: this.countRequests() - before });
    this.afterPoll();
    return report;
  }
}

/** Part 2's API: entries appear on schedule, and only the newest 2,000 are kept. */
class WindowedFleet implements FleetApi {
  private newestFirst: Transaction[] = [];
  created = 0;
  constructor(
    private readonly clock: Clock,
    private readonly startMs: number,
    private readonly spacingMs: number,
  ) {}
  private materialize(): void {
    while (this.created < MEMORY_ENTRIES && this.startMs + this.created * this.spacingMs <= this.clock.now().getTime()) {
      const date = new Date(this.startMs + this.created * this.spacingMs).toISOString();
      this.newestFirst.unshift({
        reference: `B-${this.created}`,
        type: 'PAYMENT',
        amount: 12.5,
        currency: 'USD',
        description: 'Bench entry',
        date,
        status: 'Completed',
      });
      if (this.newestFirst.length > 2_000) this.newestFirst.pop();
      this.created += 1;
    }
  }
  async listTransactions(page: { limit?: number; offset?: number } = {}): Promise<TransactionListPage> {
    this.materialize();
    const offset = page.offset ?? 0;
    return wholePage(this.newestFirst.slice(offset, offset + (page.limit ?? 50)).map((tx) => ({ ...tx })));
  }
  async getBalance(): Promise<Balances> {
    return {};
  }
  async payout(): Promise<PayoutResult> {
    throw new Error('not in the bench');
  }
}

const logger = createLogger({ level: 'silent' });
const settings = (channelId: string): Config['feed'] => ({
  channelId,
  pollIntervalSeconds: INTERVAL_S,
  maxBacklog: 1000,
  backfill: 0,
  balanceAlertBelow: new Map(),
  alertChannelId: channelId,
});
const seeded = (seed: number) => () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
/** Waits in real time for the feed's loop to get somewhere; a stalled feed fails the bench instead of hanging it. */
const until = async (done: () => boolean, what: string) => {
  const deadline = performance.now() + 10 * 60_000;
  while (!done()) {
    if (performance.now() > deadline) throw new Error(`feed bench: gave up waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
};

async function sandboxPart(): Promise<Record<string, number>> {
  const clock = new VirtualClock();
  const random = seeded(7);
  const sandbox = await startSandbox({ clock, seed: 7 });
  const fleet = new FleetClient({ baseUrl: sandbox.url, apiKey: sandbox.apiKey, clock, logger });
  const db = await openDatabase({ dataDir: ':memory:' });
  // `order` is the entry's position in the channel, so that order within a message counts too.
  const posted = new Map<string, { count: number; atMs: number; message: number; order: number }>();
  let postedSoFar = 0;
  const publisher = new RecordingPublisher((tx, message) => {
    const seen = posted.get(tx.reference);
    postedSoFar += 1;
    posted.set(tx.reference, { count: (seen?.count ?? 0) + 1, atMs: seen?.atMs ?? clock.now().getTime(), message, order: seen?.order ?? postedSoFar });
  });
  const feed = new MeasuredFeed({ fleet, db, clock, publisher, settings: settings('C0BENCHFEED'), logger, random, instanceId: 'bench-sandbox' });
  feed.countRequests = () => sandbox.requests.length;

  const t0 = clock.now().getTime();
  const burst: Transaction[] = [];
  const trickle: Transaction[] = [];
  const burstAt = t0 + 20_000;
  for (let i = 0; i < BURST; i += 1) clock.at(burstAt + i, () => burst.push(sandbox.addTransaction()));
  const trickleAt = burstAt + 120_000;
  for (let i = 0; i < TRICKLE_COUNT; i += 1) {
    clock.at(trickleAt + i * TRICKLE_EVERY_MS + Math.floor(random() * 1000), () => trickle.push(sandbox.addTransaction()));
  }
  const trickleEnd = trickleAt + TRICKLE_COUNT * TRICKLE_EVERY_MS + 1000;

  feed.start();
  await until(() => clock.now().getTime() > trickleEnd + 2 * INTERVAL_S * 1000, 'the trickle to end');
  const idleFrom = feed.measured.length;
  await until(() => feed.measured.length >= idleFrom + IDLE_POLLS, 'the idle polls');
  await feed.stop();
  const idle = feed.measured.slice(idleFrom, idleFrom + IDLE_POLLS);

  const expected = [...burst, ...trickle];
  const expectedRefs = new Set(expected.map((tx) => tx.reference));
  const delays = (list: Transaction[]) => list.map((tx) => (posted.get(tx.reference)?.atMs ?? Number.NaN) - Date.parse(tx.date)).sort((a, b) => a - b);
  const trickleDelays = delays(trickle);
  const burstMessages = new Set(burst.map((tx) => posted.get(tx.reference)?.message));
  const result = {
    entries_created: expected.length,
    entries_posted: [...posted.keys()].filter((ref) => expectedRefs.has(ref)).length,
    duplicates: [...posted.values()].reduce((sum, entry) => sum + entry.count - 1, 0),
    losses: expected.filter((tx) => !posted.has(tx.reference)).length,
    posted_not_new: [...posted.keys()].filter((ref) => !expectedRefs.has(ref)).length,
    in_order: Number(expected.every((tx, i) => i === 0 || (posted.get(tx.reference)?.order ?? 0) > (posted.get(expected[i - 1]!.reference)?.order ?? 0))),
    burst_messages: burstMessages.size,
    burst_drain_s: round((Math.max(...burst.map((tx) => posted.get(tx.reference)?.atMs ?? Number.NaN)) - burstAt) / 1000, 1),
    messages_total: publisher.messages,
    fleet_requests_per_idle_poll: round(idle.reduce((sum, poll) => sum + poll.httpRequests, 0) / idle.length, 2),
    poll_interval_s: INTERVAL_S,
    trickle_delay_p50_s: round(percentile(trickleDelays, 50) / 1000, 1),
    trickle_delay_p99_s: round(percentile(trickleDelays, 99) / 1000, 1),
    trickle_delay_max_s: round((trickleDelays.at(-1) ?? Number.NaN) / 1000, 1),
  };
  await fleet.close();
  await sandbox.close();
  await db.close();
  return result;
}

async function memoryPart(): Promise<Record<string, number>> {
  v8.setFlagsFromString('--expose-gc');
  const gc = vm.runInNewContext('gc') as () => void;
  const clock = new VirtualClock();
  const fleet = new WindowedFleet(clock, clock.now().getTime() + 1_000, (INTERVAL_S * 1000) / MEMORY_PER_INTERVAL);
  // On disk, as the app keeps PGlite (DATA_DIR): an in-memory cluster would hold its WAL in RAM.
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'feed-bench-'));
  const db = await openDatabase({ dataDir });
  let next = 0;
  let posted = 0;
  let duplicates = 0;
  let losses = 0;
  // Entries are numbered in creation order: anything but the next number is a duplicate or a gap.
  const publisher = new RecordingPublisher((tx) => {
    const sequence = Number(tx.reference.slice(2));
    if (sequence < next) duplicates += 1;
    else {
      losses += sequence - next;
      next = sequence + 1;
      posted += 1;
    }
  });
  const feed = new MeasuredFeed({ fleet, db, clock, publisher, settings: settings('C0BENCHMEM'), logger, random: seeded(11), instanceId: 'bench-memory' });
  const samples = new Map<number, { rss: number; heap: number; buffers: number }>();
  feed.afterPoll = () => {
    const checkpoint = Math.floor(posted / 20_000) * 20_000;
    if (checkpoint > 0 && !samples.has(checkpoint)) {
      gc();
      const usage = process.memoryUsage();
      samples.set(checkpoint, { rss: usage.rss / 2 ** 20, heap: usage.heapUsed / 2 ** 20, buffers: usage.arrayBuffers / 2 ** 20 });
    }
  };
  gc();
  const baselineRss = process.memoryUsage().rss / 2 ** 20;
  const started = performance.now();
  feed.start();
  await until(() => next >= MEMORY_ENTRIES, `${MEMORY_ENTRIES} entries to be posted`);
  await feed.stop();
  await db.close();
  await rm(dataDir, { recursive: true, force: true });
  const first = samples.get(20_000);
  const last = samples.get(MEMORY_ENTRIES);
  return {
    memory_entries_posted: posted,
    memory_skipped_by_backlog_limit: feed.measured.reduce((sum, poll) => sum + poll.report.skippedEntries, 0),
    memory_duplicates: duplicates,
    memory_losses: losses,
    memory_messages: publisher.messages,
    memory_run_s: round((performance.now() - started) / 1000, 1),
    rss_mb_before: round(baselineRss, 1),
    rss_mb_at_20k: round(first?.rss ?? Number.NaN, 1),
    rss_mb_at_100k: round(last?.rss ?? Number.NaN, 1),
    heap_mb_at_20k: round(first?.heap ?? Number.NaN, 1),
    heap_mb_at_100k: round(last?.heap ?? Number.NaN, 1),
    array_buffers_mb_at_20k: round(first?.buffers ?? Number.NaN, 1),
    array_buffers_mb_at_100k: round(last?.buffers ?? Number.NaN, 1),
  };
}

/** Part 3: the feed over the ledger, both loops running on one virtual clock, as bot.ts wires them. */
async function overLedgerPart(): Promise<Record<string, number>> {
  const clock = new LoopsClock('2025-06-03T08:00:00.000Z');
  const random = seeded(13);
  const sandbox = await startSandbox({ clock, seed: 13, transactionCount: 150 });
  const fleet = new FleetClient({ baseUrl: sandbox.url, apiKey: sandbox.apiKey, clock, logger });
  const db = await openDatabase({ dataDir: ':memory:' });
  const postedAt = new Map<string, number[]>();
  let messages = 0;
  const publisher: FeedPublisher = {
    publish: async (_channel, post) => {
      messages += 1;
      if (post.kind === 'transactions')
        for (const tx of post.entries) postedAt.set(tx.reference, [...(postedAt.get(tx.reference) ?? []), clock.now().getTime()]);
    },
  };
  const sync = new LedgerSync({
    fleet,
    db,
    clock,
    settings: { ...DEFAULT_LEDGER_SETTINGS, pollIntervalSeconds: LEDGER_INTERVAL_S },
    logger,
    instanceId: 'bench-ledger',
  });
  const feed = new TransactionFeed({
    fleet: new LedgerListing(db, fleet),
    source: sync,
    db,
    clock,
    publisher,
    settings: settings('C0BENCHLEDGER'),
    logger,
    random,
    instanceId: 'bench-ledger',
  });
  sync.start();
  feed.start();
  await clock.run(5 * 60_000, 2);
  const trickle: Transaction[] = [];
  const messagesBefore = messages;
  for (let i = 0; i < LEDGER_TRICKLE_COUNT; i += 1) {
    await clock.run(TRICKLE_EVERY_MS - 500 + Math.floor(random() * 1000), 2);
    trickle.push(sandbox.addTransaction());
  }
  await clock.run(2 * INTERVAL_S * 1000, 2);
  await feed.stop();
  await sync.stop();
  const delays = trickle.map((tx) => (postedAt.get(tx.reference)?.[0] ?? Number.NaN) - Date.parse(tx.date)).sort((a, b) => a - b);
  const result = {
    over_ledger_entries_posted: trickle.filter((tx) => postedAt.has(tx.reference)).length,
    over_ledger_duplicates: trickle.reduce((sum, tx) => sum + Math.max(0, (postedAt.get(tx.reference)?.length ?? 0) - 1), 0),
    over_ledger_messages: messages - messagesBefore,
    over_ledger_delay_p50_s: round(percentile(delays, 50) / 1000, 1),
    over_ledger_delay_p99_s: round(percentile(delays, 99) / 1000, 1),
    over_ledger_delay_max_s: round((delays.at(-1) ?? Number.NaN) / 1000, 1),
  };
  await fleet.close();
  await sandbox.close();
  await db.close();
  return result;
}

export async function runFeedBench(): Promise<Record<string, number>> {
  // Memory first, so that its baseline is not the high-water mark the sandbox part leaves behind.
  const memory = await memoryPart();
  return { ...(await sandboxPart()), ...(await overLedgerPart()), ...memory };
}

export function printFeedBench(result: Record<string, number>): void {
  console.log('\nLive feed: sandbox over HTTP, 1,000-entry burst then a trickle of 200 (one every ~3 s), then 20 idle polls');
  console.log('(simulated clock: 15 s poll interval, 1 message/s pacing; delays are exact virtual times)');
  console.table({
    'entries created (burst + trickle)': { value: result.entries_created, target: '' },
    'entries posted': { value: result.entries_posted, target: 'all' },
    duplicates: { value: result.duplicates, target: 0 },
    losses: { value: result.losses, target: 0 },
    'posted although not new': { value: result.posted_not_new, target: 0 },
    'posted in creation order (1 = yes)': { value: result.in_order, target: 1 },
    'Slack messages for the burst': { value: result.burst_messages, target: '≤ 50' },
    'burst fully posted after (s)': { value: result.burst_drain_s, target: '' },
    'Slack messages in all': { value: result.messages_total, target: '' },
    'Fleet API requests per idle poll': { value: result.fleet_requests_per_idle_poll, target: '1.05 (1, + a late-sweep page every 20th poll)' },
    'trickle delay p50 (s)': { value: result.trickle_delay_p50_s, target: '' },
    'trickle delay p99 (s)': { value: result.trickle_delay_p99_s, target: `≤ ${INTERVAL_S + 1} (interval + 1 s)` },
  });
  console.log(
    `\nLive feed over the ledger (the default): LEDGER_POLL_SECONDS ${LEDGER_INTERVAL_S}, feed interval ${INTERVAL_S} s, a trickle of ${LEDGER_TRICKLE_COUNT} (one every ~3 s)`,
  );
  console.table({
    'entries posted': { value: result.over_ledger_entries_posted, target: LEDGER_TRICKLE_COUNT },
    duplicates: { value: result.over_ledger_duplicates, target: 0 },
    'Slack messages': { value: result.over_ledger_messages, target: '' },
    'creation → post delay p50 (s)': { value: result.over_ledger_delay_p50_s, target: '' },
    'creation → post delay p99 (s)': { value: result.over_ledger_delay_p99_s, target: `≤ ${INTERVAL_S + 1} (feed interval + 1 s)` },
    'creation → post delay max (s)': { value: result.over_ledger_delay_max_s, target: '' },
  });
  console.log(
    `\nLive feed memory: ${MEMORY_ENTRIES.toLocaleString('en-US')} entries, ${MEMORY_PER_INTERVAL} per interval, in-process API keeping the newest 2,000`,
  );
  console.table({
    'entries posted': { value: result.memory_entries_posted, target: MEMORY_ENTRIES },
    duplicates: { value: result.memory_duplicates, target: 0 },
    losses: { value: result.memory_losses, target: 0 },
    'left out by FEED_MAX_BACKLOG': { value: result.memory_skipped_by_backlog_limit, target: 0 },
    'Slack messages': { value: result.memory_messages, target: '' },
    'RSS just after PGlite started (start-up peak, MB)': { value: result.rss_mb_before, target: '' },
    'RSS after 20,000 (MB)': { value: result.rss_mb_at_20k, target: '' },
    'RSS after 100,000 (MB)': { value: result.rss_mb_at_100k, target: 'flat' },
    'JS heap after 20,000 (MB)': { value: result.heap_mb_at_20k, target: '' },
    'JS heap after 100,000 (MB)': { value: result.heap_mb_at_100k, target: 'flat' },
    'ArrayBuffers (PGlite) after 20,000 (MB)': { value: result.array_buffers_mb_at_20k, target: '' },
    'ArrayBuffers (PGlite) after 100,000 (MB)': { value: result.array_buffers_mb_at_100k, target: '' },
    'wall time (s)': { value: result.memory_run_s, target: '' },
  });
  console.log('PGlite keeps its files on disk here, as the app does with DATA_DIR. JS heap holds the feed itself; RSS is mostly');
  console.log("PGlite's WebAssembly memory, reserved at start. Compare 20,000 with 100,000: the start-up peak is not a baseline.");
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const result = await runFeedBench();
  printFeedBench(result);
  console.log(JSON.stringify({ feed: result }));
}

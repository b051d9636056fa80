/**
 * Records check benchmark: a ledger of 1,000,000 entries on Postgres (a database of its own, created
 * and dropped here), 1,000 a day over 1,000 days, some of them payouts this app sent; then a whole
 * reconcile run as `/fleet reconcile` makes it once the file is downloaded (read the file, the ledger
 * for the records' days and references, the match, the run and its exception rows kept, the summary
 * and the exceptions CSV written) of 1,000 and of 10,000 records over 10 days. Reports the time,
 * resident memory sampled every 20 ms, and the event loop's delay (monitorEventLoopDelay, max and
 * p99) from the run's start to its end, in this process. BENCH_VERBOSE=1 also prints every turn of
 * the loop longer than 20 ms (its start on the monotonic clock, as a --cpu-prof profile counts it).
 */
import { randomBytes } from 'node:crypto';
import { loadavg } from 'node:os';
import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';
import pg from 'pg';
import { systemClock } from '../src/core/clock.js';
import { EventLoopTurns } from '../src/runtime/turns.js';
import { updateSyncState } from '../src/ledger/store.js';
import { createLogger } from '../src/core/logger.js';
import { minorToPlain } from '../src/core/money.js';
import { defaultProfile, RecordsService } from '../src/partner-records/index.js';
import { buildRecordsResultMessage, buildRecordsResultModal, exceptionsFileName, exceptionsFileText } from '../src/slack/views/partner-records.js';
import type { Surface } from '../src/slack/views/text.js';
import { openDatabase, type Db } from '../src/store/index.js';
import { boundRow, type TargetRow } from './targets.js';

const BASE_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const LEDGER_SIZE = 1_000_000;
const PER_DAY = 1_000;
const FIRST_DAY = Date.parse('2024-01-01T00:00:00.000Z');
const DAY_MS = 86_400_000;
/** The records' first day: day 900 of the ledger, so that entries lie on both sides of the period. */
const PERIOD_FIRST = 900;

export interface RecordsCheckRun {
  records: number;
  seconds: number;
  matched: number;
  exceptions: number;
  /** Peak during the check minus what the process held just before it. */
  rss_growth_mb: number;
  heap_growth_mb: number;
  /** monitorEventLoopDelay (resolution 5 ms) from the run's start to its end. */
  event_loop_max_ms: number;
  event_loop_p99_ms: number;
  /** The exceptions file's size. */
  csv_kb: number;
  /**
   * The most CPU time (user and system, every thread of the process) spent between two turns of a
   * 1 ms timer: the longest stretch of work the event loop ran without a break, whatever the
   * machine's load made it last on the wall clock.
   */
  longest_turn_cpu_ms: number;
}

const VERBOSE = process.env.BENCH_VERBOSE === '1';

/**
 * Watches the event loop's turns: the most CPU spent between two consecutive ticks of a 1 ms timer;
 * with BENCH_VERBOSE, prints each turn over 20 ms on the wall clock.
 */
function watchTurns(): () => number {
  let last = process.cpuUsage();
  let lastAt = process.hrtime.bigint();
  let longest = 0;
  const timer = setInterval(() => {
    const now = process.cpuUsage();
    const cpu = (now.user - last.user + now.system - last.system) / 1000;
    longest = Math.max(longest, cpu);
    const at = process.hrtime.bigint();
    const wall = Number(at - lastAt) / 1e6;
    if (VERBOSE && wall > 20) console.log(`turn from ${lastAt / 1000n} µs: ${wall.toFixed(1)} ms wall, ${cpu.toFixed(1)} ms CPU`);
    last = now;
    lastAt = at;
  }, 1);
  return () => {
    clearInterval(timer);
    return Math.round(longest * 10) / 10;
  };
}

export interface RecordsBench {
  ledger_entries: number;
  ledger_load_seconds: number;
  /** The event loop's longest delay over 2 s of doing nothing, just before: what the machine's load alone costs. */
  idle_event_loop_max_ms: number;
  /**
   * The event loop's longest delay and p99 over 2 s of a loop that does nothing but yield in the
   * records check's slices of 5 ms, just before: what the machine's load costs a process that never
   * holds the event loop longer than that.
   */
  busy_slices_event_loop_max_ms: number;
  busy_slices_event_loop_p99_ms: number;
  load_average: number;
  runs: RecordsCheckRun[];
}

const SURFACE: Surface = { locale: 'en', sandbox: false };
const mb = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;

/** The ledger's entry number `n`: `PER_DAY` a day, amounts from a few hundred values so that many share one. */
const AMOUNT_SQL = `CASE WHEN n % 3 = 0 THEN -((n % 700) * 100 + 50) ELSE (n % 900) * 100 + 25 END`;
const amountOf = (n: number) => (n % 3 === 0 ? -((n % 700) * 100 + 50) : (n % 900) * 100 + 25);
const atOf = (n: number) => FIRST_DAY + Math.floor(n / PER_DAY) * DAY_MS + (n % PER_DAY) * 86_000;

async function fillLedger(db: Db): Promise<void> {
  for (let from = 0; from < LEDGER_SIZE; from += 100_000) {
    await db.query(
      `INSERT INTO ledger_entries (entry_key, reference, occurrence, type, status, amount, amount_minor, currency, description, date_text,
                                   entry_at, first_seen_at, late, words)
       SELECT 'k' || n, 'FL-' || lpad(n::text, 7, '0'), 0, 'PAYMENT', 'Completed', (${AMOUNT_SQL})::numeric / 100, ${AMOUNT_SQL}, 'USD',
              'Bench entry ' || n, to_char(t AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), t, now(), false,
              ARRAY['fl-' || lpad(n::text, 7, '0')]
         FROM (SELECT n, to_timestamp(($3::bigint + (n / ${PER_DAY}) * ${DAY_MS}::bigint + (n % ${PER_DAY}) * 86000) / 1000.0) AS t
                 FROM generate_series($1::int, $2::int - 1) AS n) AS s`,
      [from, from + 100_000, FIRST_DAY],
    );
  }
  // One in a hundred entries is a payout this app sent, known by its partner reference.
  await db.query(
    `INSERT INTO payout_requests (id, kind, recipient_name, country_code, phone, operator, amount_minor, currency, reference,
       requested_by, requested_at, expires_at, state, required_approvals, transaction_id, updated_at, recipient_key)
     SELECT 'PO-' || n, 'mobile_money', 'Bench', 'CD', '243810000001', 'VODACOM_MPESA', 100, 'USD', 'PAY-' || n,
            'U0REQUESTER', now(), now(), 'completed', 1, 'FL-' || lpad(n::text, 7, '0'), now(), 'mobile:243810000001'
       FROM generate_series($1::int, $2::int, 100) AS n`,
    [PERIOD_FIRST * PER_DAY - 5000, (PERIOD_FIRST + 20) * PER_DAY],
  );
  await db.query('ANALYZE');
  await updateSyncState(db, { historyComplete: true, lastPollAt: new Date(), upToDateSince: new Date() });
}

/**
 * `count` records over ten days from PERIOD_FIRST: most name their Fleet reference, some the partner
 * reference, some none (matched by amount), a few another amount, a few not in the ledger.
 */
function recordsFile(count: number): string {
  const lines = ['reference,date,amount,currency,note'];
  const perDay = count / 10;
  for (let index = 0; index < count; index += 1) {
    const day = PERIOD_FIRST + Math.floor(index / perDay);
    const n = day * PER_DAY + (index % perDay) * Math.floor(PER_DAY / perDay);
    const date = new Date(atOf(n)).toISOString().slice(0, 10);
    let reference = `FL-${String(n).padStart(7, '0')}`;
    let amount = amountOf(n);
    if (index % 10 === 3) reference = '';
    if (index % 100 === 0) reference = `PAY-${n}`;
    if (index % 50 === 7) amount += 100;
    if (index % 50 === 9) reference = `NOT-THERE-${index}`;
    if (index % 50 === 9) amount = 123_456_789;
    lines.push(`${reference},${date},${minorToPlain(amount, 'USD')},USD,row ${index}`);
  }
  return `${lines.join('\n')}\n`;
}

async function measure(service: RecordsService, count: number): Promise<RecordsCheckRun> {
  const content = Buffer.from(recordsFile(count));
  global.gc?.();
  const before = process.memoryUsage();
  let rssPeak = before.rss;
  let heapPeak = before.heapUsed;
  const sampler = setInterval(() => {
    const now = process.memoryUsage();
    rssPeak = Math.max(rssPeak, now.rss);
    heapPeak = Math.max(heapPeak, now.heapUsed);
  }, 20);
  const loop = monitorEventLoopDelay({ resolution: 5 });
  loop.enable();
  const turns = watchTurns();
  const started = performance.now();
  const outcome = await service.check({
    userId: 'U0BENCH',
    fileName: `bench-${count}.csv`,
    content,
    sourceKey: `bench-${count}-${randomBytes(4).toString('hex')}`,
    profile: defaultProfile('UTC'),
  });
  if (!outcome.ok) throw new Error(`the bench's records file was refused: ${JSON.stringify(outcome.problem)}`);
  // What the listener sends once the run is kept: the summary (DM and modal) and the exceptions file.
  const about = { run: outcome.run, timeZone: 'UTC', lastPollAt: undefined, file: { sent: exceptionsFileName(outcome.run.summary) } };
  buildRecordsResultMessage(SURFACE, about);
  buildRecordsResultModal(SURFACE, about);
  const csv = await exceptionsFileText(outcome.run.exceptions, new EventLoopTurns());
  const seconds = (performance.now() - started) / 1000;
  loop.disable();
  const longestTurn = turns();
  clearInterval(sampler);
  const after = process.memoryUsage();
  return {
    records: count,
    seconds: Math.round(seconds * 100) / 100,
    matched: outcome.run.summary.matched,
    exceptions: outcome.run.exceptions.length,
    rss_growth_mb: mb(Math.max(rssPeak, after.rss) - before.rss),
    heap_growth_mb: mb(Math.max(heapPeak, after.heapUsed) - before.heapUsed),
    event_loop_max_ms: Math.round(loop.max / 1e5) / 10,
    event_loop_p99_ms: Math.round(loop.percentile(99) / 1e5) / 10,
    csv_kb: Math.round(Buffer.byteLength(csv) / 1024),
    longest_turn_cpu_ms: longestTurn,
  };
}

/** The event loop's delay while the process spins `ms` in the records check's own slices (src/runtime/turns.ts). */
async function busyInSlices(ms: number): Promise<IntervalHistogram> {
  const loop = monitorEventLoopDelay({ resolution: 5 });
  loop.enable();
  const until = performance.now() + ms;
  const slices = new EventLoopTurns().slices();
  let spin = 0;
  while (performance.now() < until) {
    spin = (spin + 1) % 1_000_003;
    if (slices.due()) await slices.next();
  }
  loop.disable();
  return loop;
}

export async function runRecordsBench(): Promise<RecordsBench> {
  const name = `records_bench_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: BASE_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(BASE_URL);
  url.pathname = `/${name}`;
  const logger = createLogger({ level: 'silent' });
  let db: Db | undefined;
  try {
    db = await openDatabase({ databaseUrl: url.toString(), logger });
    const loading = performance.now();
    await fillLedger(db);
    const ledgerLoadSeconds = Math.round((performance.now() - loading) / 100) / 10;
    const service = new RecordsService({
      db,
      clock: systemClock,
      timeZone: 'UTC',
      currencies: ['USD'],
      staleAfterMs: 60_000,
      settings: { maxBytes: 10 * 1024 * 1024, maxRows: 50_000, toleranceDays: 1 },
    });
    // One small check first, unmeasured, as a running bot has done before: the code is compiled by then.
    await measure(service, 100);
    const idle = monitorEventLoopDelay({ resolution: 5 });
    idle.enable();
    await new Promise((resolve) => setTimeout(resolve, 2000));
    idle.disable();
    const busy = await busyInSlices(2000);
    const runs = [await measure(service, 1_000), await measure(service, 10_000)];
    return {
      ledger_entries: LEDGER_SIZE,
      ledger_load_seconds: ledgerLoadSeconds,
      idle_event_loop_max_ms: Math.round(idle.max / 1e5) / 10,
      busy_slices_event_loop_max_ms: Math.round(busy.max / 1e5) / 10,
      busy_slices_event_loop_p99_ms: Math.round(busy.percentile(99) / 1e5) / 10,
      load_average: Math.round(loadavg()[0]! * 10) / 10,
      runs,
    };
  } finally {
    await db?.close();
    await admin.query(`DROP DATABASE IF EXISTS ${name}`);
    await admin.end();
  }
}

/** The target rows: 10,000 records against 1 M entries in 10 s, the event loop never blocked over 50 ms, memory flat. */
export function recordsTargets(bench: RecordsBench): TargetRow[] {
  const large = bench.runs.at(-1)!;
  const worst = (figure: (run: RecordsCheckRun) => number) => Math.max(...bench.runs.map(figure));
  return [
    boundRow('records check, 10,000 records vs 1 M-entry ledger, Postgres (run, summary and exceptions file)', large.seconds, 's', 10),
    boundRow(
      `event loop delay max while reconciling 1,000 and 10,000 records vs 1 M entries, Postgres (p99 ${worst((run) => run.event_loop_p99_ms)} ms; ` +
        `idle ${bench.idle_event_loop_max_ms} ms, busy in 5 ms slices ${bench.busy_slices_event_loop_max_ms} ms; load ${bench.load_average})`,
      worst((run) => run.event_loop_max_ms),
      'ms',
      50,
    ),
    boundRow(
      'records check, longest event loop turn in CPU time (all threads)',
      worst((run) => run.longest_turn_cpu_ms),
      'ms',
      50,
    ),
    boundRow('records check, resident memory growth (10,000 records)', large.rss_growth_mb, 'MB', 100),
  ];
}

export function printRecordsBench(bench: RecordsBench): void {
  console.log(
    `\nRecords check: the partner's records against a ${bench.ledger_entries.toLocaleString('en-US')}-entry ledger on Postgres (loaded in ${bench.ledger_load_seconds} s)`,
  );
  console.table(Object.fromEntries(bench.runs.map((run) => [`${run.records.toLocaleString('en-US')} records`, run])));
  console.log(`event loop's longest delay while idle, same machine, just before: ${bench.idle_event_loop_max_ms} ms (load average ${bench.load_average})`);
  console.log(
    `event loop's delay while spinning in the check's slices of 5 ms, just before: max ${bench.busy_slices_event_loop_max_ms} ms, p99 ${bench.busy_slices_event_loop_p99_ms} ms`,
  );
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const bench = await runRecordsBench();
  printRecordsBench(bench);
  console.table(recordsTargets(bench));
}

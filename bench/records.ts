/**
 * Records check benchmark: a ledger of 1,000,000 entries on Postgres (a database of its own, created
 * and dropped here), 1,000 a day over 1,000 days, some of them payouts this app sent; then a whole
 * reconcile run as `/fleet reconcile` makes it once the file is downloaded (read the file, the ledger
 * for the records' days and references, the match, the run and its exception rows kept, the summary
 * and the exceptions CSV written) of 1,000 and of 10,000 records over 10 days in the documented
 * layout, and of a bank's 50,000-row export (Windows-1252, semicolons, debit and credit columns,
 * decimal commas, one record in ten a transfer with its commission and VAT under one reference)
 * read through its import profile, previewed, then read again and matched. Reports the time,
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
import { defaultProfile, IMPORT_PROFILE, RecordsService, type ImportProfile } from '../src/partner-records/index.js';
import { buildRecordsResultMessage, buildRecordsResultModal, exceptionsFileName, exceptionsFileText } from '../src/slack/views/partner-records.js';
import { buildRecordsPreviewModal } from '../src/slack/views/records-preview.js';
import type { Surface } from '../src/slack/views/text.js';
import { openDatabase, type Db } from '../src/store/index.js';
import { BENCH_POSTGRES_URL } from './postgres.js';
import { boundRow, type TargetRow } from './targets.js';

const LEDGER_SIZE = 1_000_000;
const PER_DAY = 1_000;
const FIRST_DAY = Date.parse('2024-01-01T00:00:00.000Z');
const DAY_MS = 86_400_000;
/** The records' first day: day 900 of the ledger, so that entries lie on both sides of the period. */
const PERIOD_FIRST = 900;

export interface RecordsCheckRun {
  file: string;
  records: number;
  /** Groups of records sharing a reference matched by their sum. */
  by_sum: number;
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
    [PERIOD_FIRST * PER_DAY - 5000, (PERIOD_FIRST + 60) * PER_DAY],
  );
  await db.query('ANALYZE');
  await updateSyncState(db, { historyComplete: true, lastPollAt: new Date(), upToDateSince: new Date() });
}

interface BenchRecord {
  index: number;
  reference: string;
  /** The ledger entry's instant. */
  at: number;
  amount: number;
}

/**
 * `count` records over ten days from PERIOD_FIRST (more days past 10,000, at most `PER_DAY` a day):
 * most name their Fleet reference, some the partner reference, some none (matched by amount), a few
 * another amount, a few not in the ledger.
 */
function benchRecords(count: number): BenchRecord[] {
  const days = Math.max(10, Math.ceil(count / PER_DAY));
  const perDay = Math.ceil(count / days);
  const records: BenchRecord[] = [];
  for (let index = 0; index < count; index += 1) {
    const day = PERIOD_FIRST + Math.floor(index / perDay);
    const n = day * PER_DAY + (index % perDay) * Math.floor(PER_DAY / perDay);
    let reference = `FL-${String(n).padStart(7, '0')}`;
    let amount = amountOf(n);
    if (index % 10 === 3) reference = '';
    if (index % 100 === 0) reference = `PAY-${n}`;
    if (index % 50 === 7) amount += 100;
    if (index % 50 === 9) reference = `NOT-THERE-${index}`;
    if (index % 50 === 9) amount = 123_456_789;
    records.push({ index, reference, at: atOf(n), amount });
  }
  return records;
}

/** The records in the documented layout: UTF-8, commas, ISO dates, signed amounts. */
function recordsFile(count: number): Buffer {
  const lines = ['reference,date,amount,currency,note'];
  for (const { index, reference, at, amount } of benchRecords(count))
    lines.push(`${reference},${new Date(at).toISOString().slice(0, 10)},${minorToPlain(amount, 'USD')},USD,row ${index}`);
  return Buffer.from(`${lines.join('\n')}\n`);
}

/** `1 234,56`: a decimal comma, thousands grouped by a space, unsigned (the column gives the sign). */
function bankAmount(minor: number): string {
  const [units, cents] = minorToPlain(Math.abs(minor), 'USD').split('.');
  return `${units!.replace(/\B(?=(\d{3})+(?!\d))/g, ' ')},${cents}`;
}

/** A bank statement as `BANK_PROFILE` reads it; one record in ten is a transfer, its commission and the VAT on it, under one reference. */
function bankStatementRows(rows: number): string[] {
  const lines: string[] = [];
  for (const { index, reference, at, amount } of benchRecords(rows)) {
    if (lines.length >= rows) break;
    const date = new Date(at).toISOString().slice(0, 10).split('-').reverse().join('/');
    const line = (label: string, minor: number) =>
      lines.push(`${date};${label} ${index};${reference};${minor < 0 ? bankAmount(minor) : ''};${minor >= 0 ? bankAmount(minor) : ''}`);
    if (index % 10 === 5 && reference !== '' && amount > 0 && lines.length + 3 <= rows) {
      line('Virement reçu', amount + 580);
      line('Commission', -500);
      line('TVA sur commission', -80);
    } else line(amount < 0 ? 'Paiement émis' : 'Virement reçu', amount);
  }
  return lines;
}

/** The bank's export of `rows` records: Windows-1252, semicolons, two title lines, totals below. */
function bankStatementFile(rows: number): Buffer {
  const lines = [
    'BANQUE DU BENCH - Relevé de compte;;;;',
    'Compte USD;;;;',
    'Date opération;Libellé;Référence;Débit;Crédit',
    ...bankStatementRows(rows),
    'Totaux;;;;',
  ];
  return Buffer.from(`${lines.join('\r\n')}\r\n`, 'latin1');
}

const BANK_PROFILE: ImportProfile = IMPORT_PROFILE.parse({
  name: 'bench bank',
  delimiter: ';',
  encoding: 'windows-1252',
  skipAbove: 2,
  skipBelow: 1,
  header: true,
  reference: 'Référence',
  date: { column: 'Date opération', format: 'DD/MM/YYYY' },
  timeZone: 'UTC',
  amount: { layout: 'debit_credit', debit: 'Débit', credit: 'Crédit' },
  numbers: { decimalMark: ',', grouping: ' ' },
  currency: { fixed: 'USD' },
  description: 'Libellé',
});

/** What one run reads: the documented layout's file, or a bank's export through its profile (previewed first, as the form does). */
interface BenchFile {
  label: string;
  content: Buffer;
  profile: ImportProfile;
  preview: boolean;
}

const documentedFile = (count: number): BenchFile => ({
  label: `${count.toLocaleString('en-US')} records`,
  content: recordsFile(count),
  profile: defaultProfile('UTC'),
  preview: false,
});
const bankFile = (rows: number): BenchFile => ({
  label: `${rows.toLocaleString('en-US')}-row bank export (profile, preview)`,
  content: bankStatementFile(rows),
  profile: BANK_PROFILE,
  preview: true,
});

async function measure(service: RecordsService, file: BenchFile): Promise<RecordsCheckRun> {
  const { content, profile } = file;
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
  // The form's way: the preview reads the whole file first, then "Match with the ledger" reads it again and matches.
  const preview = file.preview ? await service.preview(content, profile) : undefined;
  if (preview && !(preview.ok && preview.problems.length === 0))
    throw new Error(`the bench's file did not preview cleanly: ${JSON.stringify(preview).slice(0, 500)}`);
  if (preview?.ok)
    buildRecordsPreviewModal(SURFACE, {
      fileName: 'bench.csv',
      profile: { name: profile.name, by: 'name', saved: true, hints: profile },
      preview,
      privateMetadata: '{}',
    });
  const outcome = await service.check({
    userId: 'U0BENCH',
    fileName: 'bench.csv',
    content,
    sourceKey: `bench-${randomBytes(4).toString('hex')}`,
    profile,
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
    file: file.label,
    records: outcome.run.summary.records,
    by_sum: outcome.run.summary.bySum.groups,
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
  const admin = new pg.Client({ connectionString: BENCH_POSTGRES_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(BENCH_POSTGRES_URL);
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
    await measure(service, documentedFile(100));
    const idle = monitorEventLoopDelay({ resolution: 5 });
    idle.enable();
    await new Promise((resolve) => setTimeout(resolve, 2000));
    idle.disable();
    const busy = await busyInSlices(2000);
    const runs = [await measure(service, documentedFile(1_000)), await measure(service, documentedFile(10_000)), await measure(service, bankFile(50_000))];
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
/**
 * The target rows: 10,000 records in the documented layout, and a 50,000-row bank export read through
 * its profile, previewed and matched, each against 1 M entries in 10 s; the event loop never blocked
 * over 50 ms; memory flat.
 */
export function recordsTargets(bench: RecordsBench): TargetRow[] {
  const documented = bench.runs.find((run) => run.file === '10,000 records')!;
  const bank = bench.runs.at(-1)!;
  const worst = (figure: (run: RecordsCheckRun) => number) => Math.max(...bench.runs.map(figure));
  return [
    boundRow('records check, 10,000 records vs 1 M-entry ledger, Postgres (run, summary and exceptions file)', documented.seconds, 's', 10),
    boundRow(`records check, ${bank.file} vs 1 M-entry ledger, Postgres (read twice, previewed, matched, kept)`, bank.seconds, 's', 10),
    boundRow(
      `event loop delay max while reconciling 1,000, 10,000 records and the 50,000-row export vs 1 M entries, Postgres (p99 ${worst((run) => run.event_loop_p99_ms)} ms; ` +
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
    boundRow('records check, resident memory growth (10,000 records)', documented.rss_growth_mb, 'MB', 100),
    boundRow(`records check, resident memory growth (${bank.file})`, bank.rss_growth_mb, 'MB', 100),
  ];
}

export function printRecordsBench(bench: RecordsBench): void {
  console.log(
    `\nRecords check: the partner's records against a ${bench.ledger_entries.toLocaleString('en-US')}-entry ledger on Postgres (loaded in ${bench.ledger_load_seconds} s)`,
  );
  console.table(Object.fromEntries(bench.runs.map(({ file, ...run }) => [file, run])));
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

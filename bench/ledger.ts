/**
 * Ledger benchmark.
 * Part 1: search by reference and a filtered page (with its total) on 1,000,000 stored rows on Postgres
 * (a database of its own, ledger_bench, dropped afterwards) and 200,000 on PGlite, next to the same
 * questions answered by paging the sandbox API (what the app does without a ledger).
 * Part 2: the history load of 50,000 sandbox transactions while 1,000 new ones arrive, through the
 * real LedgerSync and FleetClient over HTTP: requests, time, missed and doubled entries.
 * Rows of part 1 are generated in SQL (generate_series) with the same shape and search words as
 * the sync stores; the sync itself is measured in part 2.
 */
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { FleetClient } from '../src/fleet/client.js';
import type { Transaction } from '../src/fleet/schemas.js';
import { identifyPage } from '../src/ledger/identity.js';
import { StoredLedgerReader } from '../src/ledger/reader.js';
import { DEFAULT_LEDGER_SETTINGS } from '../src/ledger/settings.js';
import { LedgerSync } from '../src/ledger/sync.js';
import type { LedgerFilter } from '../src/ledger/types.js';
import { createLogger } from '../src/core/logger.js';
import { startSandbox } from '../src/sandbox/server.js';
import { openDatabase, type Db } from '../src/store/index.js';
import { listFilterTargets, measureListFilters, printListFilters, worstFirstPage, type FilterTimes } from './ledger-filters.js';
import { percentile, round } from './stats.js';
import { printTargets } from './targets.js';

const POSTGRES_ROWS = 1_000_000;
const PGLITE_ROWS = 200_000;
const QUERY_RUNS = 200;
const HISTORY = 50_000;
const ARRIVALS = 1_000;
const API_SEARCHES = 10;
// A database of its own per run, so that two benches on one server never meet.
const BENCH_DATABASE = `ledger_bench_${process.pid}`;
const NEWEST = Date.parse('2026-11-20T12:00:00.000Z');
const STEP_MS = 30_000;

const reference = (i: number) => `TXN-${String(i).padStart(8, '0')}`;

/** Fills ledger_entries with rows 1..count (row i dated i × 30 s before NEWEST), in chunks. */
export async function fill(db: Db, count: number): Promise<void> {
  const chunk = 100_000;
  for (let first = 1; first <= count; first += chunk) {
    const last = Math.min(count, first + chunk - 1);
    await db.query(
      `INSERT INTO ledger_entries (entry_key, reference, occurrence, type, status, amount, amount_minor, currency, description, date_text, entry_at, first_seen_at, late, words)
       SELECT ref || '|' || iso || '|' || minor || '|' || cur || '#1', ref, 1, typ, 'Completed', minor / 100.0, minor, cur, descr, iso, at, now(), false,
              ARRAY[lower(ref), 'txn', lpad(i::text, 8, '0')] || string_to_array(lower(descr), ' ')
         FROM (
           SELECT i, ref, at, to_char(at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS iso, cur, typ,
                  CASE WHEN typ = 'PAYMENT' THEN (i * 7919) % 250000 + 500 ELSE -((i * 104729) % 90000 + 200) END AS minor,
                  CASE WHEN typ = 'PAYMENT' THEN 'Payout to mobile money 2438' || lpad(((i * 31) % 10000000)::text, 7, '0')
                       ELSE 'Card purchase funding ' || (ARRAY['Shoprite Kinshasa', 'Kin Marche', 'City Market', 'Air Congo', 'Hotel Memling', 'Peloustore', 'Netflix com', 'Uber Trip'])[i % 8 + 1] END AS descr
             FROM (
               SELECT i, 'TXN-' || lpad(i::text, 8, '0') AS ref, to_timestamp(($3::bigint - i * $4::bigint) / 1000.0) AS at,
                      CASE WHEN i % 10 < 6 THEN 'USD' WHEN i % 10 < 9 THEN 'CDF' ELSE 'EUR' END AS cur,
                      CASE WHEN (i * 7) % 20 < 9 THEN 'PAYMENT' ELSE 'B2B_JIT_FUNDING' END AS typ
                 FROM generate_series($1::bigint, $2::bigint) AS i
             ) base
         ) g`,
      [first, last, NEWEST, STEP_MS],
    );
  }
  await db.query('VACUUM ANALYZE ledger_entries, ledger_words');
}

/** p50/p99 of `query` run QUERY_RUNS times (after a warm-up), each with a fresh random parameter. */
async function latency(query: (run: number) => Promise<unknown>): Promise<{ p50: number; p99: number }> {
  for (let run = 0; run < 20; run += 1) await query(run);
  const times: number[] = [];
  for (let run = 0; run < QUERY_RUNS; run += 1) {
    const start = performance.now();
    await query(run);
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return { p50: round(percentile(times, 50), 2), p99: round(percentile(times, 99), 2) };
}

const CURRENCIES = ['USD', 'CDF', 'EUR'];
const TYPES = ['PAYMENT', 'B2B_JIT_FUNDING'];

/** "USD payouts of the last 30 days" style: currency, type, direction and a 30-day window, a page of 10 with its total. */
function filteredPage(run: number, rows: number): LedgerFilter {
  const spanDays = (rows * STEP_MS) / 86_400_000;
  const endDay = Math.floor((((run * 7919) % 1000) / 1000) * Math.max(1, spanDays - 30));
  const before = new Date(NEWEST - endDay * 86_400_000);
  const type = TYPES[run % 2]!;
  return { currency: CURRENCIES[run % 3], type, direction: type === 'PAYMENT' ? 'in' : 'out', since: new Date(before.getTime() - 30 * 86_400_000), before };
}

async function queryPart(db: Db, rows: number) {
  const reader = new StoredLedgerReader(db);
  const search = await latency((run) => reader.find({ words: [reference(1 + ((run * 104729) % rows))] }, { offset: 0, limit: 10 }));
  const filtered = await latency((run) => reader.find(filteredPage(run, rows), { offset: (run % 5) * 10, limit: 10 }));
  const wholeHistory = await latency((run) => reader.find({ currency: CURRENCIES[run % 3], type: TYPES[run % 2] }, { offset: 0, limit: 10 }));
  const filters = await measureListFilters(db, rows, NEWEST, STEP_MS);
  return { search, filtered, wholeHistory, filters };
}

async function postgresPart(baseUrl: string) {
  const admin = new pg.Client({ connectionString: baseUrl, connectionTimeoutMillis: 5_000 });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS ${BENCH_DATABASE}`);
    await admin.query(`CREATE DATABASE ${BENCH_DATABASE}`);
    const url = new URL(baseUrl);
    url.pathname = `/${BENCH_DATABASE}`;
    const db = await openDatabase({ databaseUrl: url.toString() });
    try {
      const start = performance.now();
      await fill(db, POSTGRES_ROWS);
      const fillSeconds = round((performance.now() - start) / 1000, 1);
      return { fillSeconds, ...(await queryPart(db, POSTGRES_ROWS)) };
    } finally {
      await db.close();
    }
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS ${BENCH_DATABASE}`).catch(() => undefined);
    await admin.end();
  }
}

async function pglitePart() {
  const db = await openDatabase({ dataDir: ':memory:' });
  try {
    const start = performance.now();
    await fill(db, PGLITE_ROWS);
    const fillSeconds = round((performance.now() - start) / 1000, 1);
    return { fillSeconds, ...(await queryPart(db, PGLITE_ROWS)) };
  } finally {
    await db.close();
  }
}

/** The same questions without a ledger: page the sandbox API (100 a time) until found, or to the end for a total. */
async function apiPart(fleet: FleetClient, list: Transaction[]) {
  const searches: number[] = [];
  const pagesRead: number[] = [];
  for (let run = 0; run < API_SEARCHES; run += 1) {
    const wanted = list[Math.floor((((run * 7919) % 1000) / 1000) * list.length)]!.reference;
    const start = performance.now();
    let pages = 0;
    for (let offset = 0; ; offset += 100) {
      const page = await fleet.listTransactions({ limit: 100, offset });
      pages += 1;
      if (page.transactions.some((tx) => tx.reference === wanted) || page.received < 100) break;
    }
    searches.push(performance.now() - start);
    pagesRead.push(pages);
  }
  searches.sort((a, b) => a - b);
  // A filtered page with its total needs the whole list.
  const start = performance.now();
  let matches = 0;
  for (let offset = 0; ; offset += 100) {
    const page = await fleet.listTransactions({ limit: 100, offset });
    matches += page.transactions.filter((tx) => tx.currency === 'USD' && tx.type === 'PAYMENT').length;
    if (page.received < 100) break;
  }
  return {
    searchP50: round(percentile(searches, 50), 0),
    searchP99: round(percentile(searches, 99), 0),
    searchPagesP50: percentile(
      [...pagesRead].sort((a, b) => a - b),
      50,
    ),
    filteredPageMs: round(performance.now() - start, 0),
    filteredMatches: matches,
  };
}

/** The history walk of HISTORY entries while ARRIVALS new ones arrive, with a poll every 10 pages. */
async function historyPart() {
  const sandbox = await startSandbox({ transactionCount: HISTORY, seed: 14 });
  const fleet = new FleetClient({ baseUrl: sandbox.url, apiKey: sandbox.apiKey });
  const db = await openDatabase({ dataDir: ':memory:' });
  try {
    const api = await apiPart(fleet, sandbox.transactions());
    const requestsBefore = sandbox.requests.length;
    const settings = { ...DEFAULT_LEDGER_SETTINGS, historyPageDelayMs: 0 };
    const noSleep = { now: () => new Date(), sleep: async () => undefined };
    const sync = new LedgerSync({ fleet, db, clock: noSleep, settings, logger: createLogger({ level: 'silent' }) });
    const start = performance.now();
    await sync.pollOnce();
    let arrived = 0;
    let pages = 0;
    for (;;) {
      const report = await sync.walkPage();
      pages += 1;
      const batch = Math.min(3, ARRIVALS - arrived);
      if (batch > 0) sandbox.addTransactions(batch);
      arrived += batch;
      if (pages % 10 === 0) await sync.pollOnce();
      if (!report || report.walkComplete) break;
    }
    if (arrived < ARRIVALS) sandbox.addTransactions(ARRIVALS - arrived);
    while ((await sync.pollOnce()).stored.length > 0);
    const seconds = (performance.now() - start) / 1000;
    const list = sandbox.transactions();
    const expected = new Set(identifyPage(list).map((entry) => entry.key));
    const { rows } = await db.query<{ entry_key: string }>('SELECT entry_key FROM ledger_entries');
    const stored = rows.map((row) => row.entry_key);
    const storedSet = new Set(stored);
    return {
      api,
      history: {
        entries: list.length,
        requests: sandbox.requests.length - requestsBefore,
        walkPages: pages,
        seconds: round(seconds, 1),
        pacedMinutesAtDefault: round((pages * DEFAULT_LEDGER_SETTINGS.historyPageDelayMs) / 60_000, 1),
        missed: [...expected].filter((key) => !storedSet.has(key)).length,
        doubled: stored.length - storedSet.size + [...storedSet].filter((key) => !expected.has(key)).length,
        stored: stored.length,
      },
    };
  } finally {
    await db.close();
    await fleet.close();
    await sandbox.close();
  }
}

/** The figures, and every filter's first, next and last page per store (`list_filters`). */
export interface LedgerBenchResult {
  figures: Record<string, number | string>;
  listFilters: { postgres: FilterTimes[]; pglite: FilterTimes[] };
}

export async function runLedgerBench(): Promise<LedgerBenchResult> {
  const postgresUrl = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  // LEDGER_BENCH_QUERIES_ONLY=1 skips part 2 (about 4 minutes) when only the query figures are wanted.
  const history = process.env.LEDGER_BENCH_QUERIES_ONLY ? undefined : await historyPart();
  if (history) console.log('ledger history part', JSON.stringify(history));
  const lite = await pglitePart();
  console.log('ledger PGlite part', JSON.stringify(lite));
  console.log('ledger Postgres part starting');
  const postgres = await postgresPart(postgresUrl).catch((error: unknown) => {
    console.log(`Postgres part skipped: ${(error as Error).message}`);
    return undefined;
  });
  const worstPostgres = postgres ? worstFirstPage(postgres.filters) : { name: 'not run', p99: Number.NaN };
  const worstLite = worstFirstPage(lite.filters);
  const figures = {
    postgres_list_worst_first_page_p99_ms: worstPostgres.p99,
    postgres_list_worst_filter: worstPostgres.name,
    pglite_list_worst_first_page_p99_ms: worstLite.p99,
    pglite_list_worst_filter: worstLite.name,
    postgres_rows: postgres ? POSTGRES_ROWS : 0,
    postgres_fill_s: postgres?.fillSeconds ?? Number.NaN,
    postgres_search_p50_ms: postgres?.search.p50 ?? Number.NaN,
    postgres_search_p99_ms: postgres?.search.p99 ?? Number.NaN,
    postgres_filtered_p50_ms: postgres?.filtered.p50 ?? Number.NaN,
    postgres_filtered_p99_ms: postgres?.filtered.p99 ?? Number.NaN,
    postgres_all_time_filtered_p50_ms: postgres?.wholeHistory.p50 ?? Number.NaN,
    postgres_all_time_filtered_p99_ms: postgres?.wholeHistory.p99 ?? Number.NaN,
    pglite_rows: PGLITE_ROWS,
    pglite_fill_s: lite.fillSeconds,
    pglite_search_p50_ms: lite.search.p50,
    pglite_search_p99_ms: lite.search.p99,
    pglite_filtered_p50_ms: lite.filtered.p50,
    pglite_filtered_p99_ms: lite.filtered.p99,
    pglite_all_time_filtered_p50_ms: lite.wholeHistory.p50,
    pglite_all_time_filtered_p99_ms: lite.wholeHistory.p99,
    api_entries: HISTORY,
    api_search_p50_ms: history?.api.searchP50 ?? Number.NaN,
    api_search_p99_ms: history?.api.searchP99 ?? Number.NaN,
    api_search_pages_p50: history?.api.searchPagesP50 ?? Number.NaN,
    api_filtered_page_ms: history?.api.filteredPageMs ?? Number.NaN,
    history_entries: history?.history.entries ?? 0,
    history_requests: history?.history.requests ?? Number.NaN,
    history_walk_pages: history?.history.walkPages ?? Number.NaN,
    history_s: history?.history.seconds ?? Number.NaN,
    history_paced_min_at_default_delay: history?.history.pacedMinutesAtDefault ?? Number.NaN,
    history_missed: history?.history.missed ?? Number.NaN,
    history_doubled: history?.history.doubled ?? Number.NaN,
  };
  return { figures, listFilters: { postgres: postgres?.filters ?? [], pglite: lite.filters } };
}

export function printLedgerBench({ figures: result, listFilters }: LedgerBenchResult): void {
  if (listFilters.postgres.length > 0) printListFilters(`Postgres, ${result.postgres_rows} rows`, listFilters.postgres);
  printListFilters(`PGlite, ${result.pglite_rows} rows`, listFilters.pglite);
  console.log(`\nLedger: search by reference and a filtered page (10 rows and the total), ${QUERY_RUNS} runs each`);
  console.table({
    [`Postgres, ${result.postgres_rows} rows`]: {
      search_p50_ms: result.postgres_search_p50_ms,
      search_p99_ms: result.postgres_search_p99_ms,
      filtered_30d_p50_ms: result.postgres_filtered_p50_ms,
      filtered_30d_p99_ms: result.postgres_filtered_p99_ms,
      filtered_all_time_p99_ms: result.postgres_all_time_filtered_p99_ms,
    },
    [`PGlite, ${result.pglite_rows} rows`]: {
      search_p50_ms: result.pglite_search_p50_ms,
      search_p99_ms: result.pglite_search_p99_ms,
      filtered_30d_p50_ms: result.pglite_filtered_p50_ms,
      filtered_30d_p99_ms: result.pglite_filtered_p99_ms,
      filtered_all_time_p99_ms: result.pglite_all_time_filtered_p99_ms,
    },
    [`paging the sandbox API, ${result.api_entries} entries`]: {
      search_p50_ms: result.api_search_p50_ms,
      search_p99_ms: result.api_search_p99_ms,
      filtered_30d_p50_ms: result.api_filtered_page_ms,
      filtered_30d_p99_ms: result.api_filtered_page_ms,
    },
  });
  console.log(`target: Postgres p99 ≤ 50 ms`);
  console.log(
    `History load: ${result.history_entries} entries (${ARRIVALS} arrived during the walk): ${result.history_requests} requests, ` +
      `${result.history_walk_pages} walk pages, ${result.history_s} s unpaced (${result.history_paced_min_at_default_delay} min at the default 1 s pacing), ` +
      `missed ${result.history_missed}, doubled ${result.history_doubled}`,
  );
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const result = await runLedgerBench();
  printLedgerBench(result);
  printTargets([
    ...listFilterTargets('Postgres', Number(result.figures.postgres_rows), result.listFilters.postgres),
    ...listFilterTargets('embedded store', Number(result.figures.pglite_rows), result.listFilters.pglite),
  ]);
  console.log(JSON.stringify({ ledger: result }));
}

/**
 * Every filter the transaction list offers, each measured as `/fleet tx` asks it: the first page
 * (10 rows and the capped total, pinned to the newest stored entry), the next page from it and
 * the last page. Issue 31 item 3's target: the first page of every filter ≤ 50 ms p99, at
 * 1,000,000 rows on Postgres and 200,000 on the embedded store. The rows are bench/ledger.ts's
 * `fill`: USD 60 %, CDF 30 %, EUR 10 %; PAYMENT (money in, 5.00–2,505.00) 45 %, B2B_JIT_FUNDING
 * (money out, 2.00–902.00) 55 %; all `Completed`; one every 30 s back from 2026-11-20.
 */
import { StoredLedgerReader } from '../src/ledger/reader.js';
import type { LedgerFilter } from '../src/ledger/types.js';
import type { Db } from '../src/store/index.js';
import { percentile, round } from './stats.js';
import { boundRow, type TargetRow } from './targets.js';

const RUNS = 200;
const WARM_UP = 10;
const PAGE = 10;
const CURRENCIES = ['USD', 'CDF', 'EUR'];
const TYPES = ['PAYMENT', 'B2B_JIT_FUNDING'];
const SHOPS = ['shoprite', 'memling', 'netflix', 'uber'];

export interface FilterTimes {
  name: string;
  firstP50: number;
  firstP99: number;
  nextP99: number;
  lastP99: number;
  /** The first page's total as the list shows it (10001 meaning "more than 10,000"). */
  matches: number;
}

/** Each filter the list offers, alone, and the combinations people type most; `run` varies the values. */
export function listFilters(rows: number, newest: number, stepMs: number): Array<{ name: string; filter: (run: number) => LedgerFilter }> {
  const span = rows * stepMs;
  const day = 86_400_000;
  const dayBack = (run: number, days: number) => new Date(newest - Math.floor((((run * 7919) % 1000) / 1000) * Math.max(day, span - days * day)));
  const reference = (run: number) => `TXN-${String(1 + ((run * 104729) % rows)).padStart(8, '0')}`;
  return [
    { name: 'everything', filter: () => ({}) },
    { name: 'currency', filter: (run) => ({ currency: CURRENCIES[run % 3] }) },
    { name: 'currency, none stored (GBP)', filter: () => ({ currency: 'GBP' }) },
    { name: 'type', filter: (run) => ({ type: TYPES[run % 2] }) },
    { name: 'type, none stored', filter: () => ({ type: 'REVERSAL_FEE' }) },
    { name: 'status', filter: () => ({ status: 'completed' }) },
    { name: 'status, none stored', filter: () => ({ status: 'Failed' }) },
    { name: 'direction', filter: (run) => ({ direction: run % 2 === 0 ? 'in' : 'out' }) },
    { name: 'date range, 30 days', filter: (run) => ({ since: new Date(dayBack(run, 30).getTime() - 30 * day), before: dayBack(run, 30) }) },
    { name: 'date range, one day', filter: (run) => ({ since: new Date(dayBack(run, 1).getTime() - day), before: dayBack(run, 1) }) },
    { name: 'min amount', filter: (run) => ({ minAmount: String(100 + (run % 10) * 100) }) },
    { name: 'amount range, narrow', filter: (run) => ({ minAmount: `${2000 + (run % 50)}.00`, maxAmount: `${2000 + (run % 50)}.05` }) },
    { name: 'amount range, none', filter: () => ({ minAmount: '9000', maxAmount: '9999' }) },
    { name: 'word, a reference', filter: (run) => ({ words: [reference(run)] }) },
    { name: 'word, frequent', filter: (run) => ({ words: [SHOPS[run % 4]!] }) },
    { name: 'phrase', filter: (run) => ({ words: [run % 2 === 0 ? 'kin marche' : 'hotel memling'] }) },
    { name: 'word, none stored', filter: () => ({ words: ['nowhere'] }) },
    {
      name: 'currency, type, direction, 30 days',
      filter: (run) => {
        const type = TYPES[run % 2]!;
        const before = dayBack(run, 30);
        return { currency: CURRENCIES[run % 3], type, direction: type === 'PAYMENT' ? 'in' : 'out', since: new Date(before.getTime() - 30 * day), before };
      },
    },
    { name: 'currency and type, all time', filter: (run) => ({ currency: CURRENCIES[run % 3], type: TYPES[run % 2] }) },
    { name: 'currency, type, direction: none match', filter: (run) => ({ currency: CURRENCIES[run % 3], type: 'PAYMENT', direction: 'out' }) },
    { name: 'currency and min amount', filter: (run) => ({ currency: CURRENCIES[run % 3], minAmount: '1000' }) },
  ];
}

async function timed(runs: number, query: (run: number) => Promise<unknown>): Promise<number[]> {
  for (let run = 0; run < WARM_UP; run += 1) await query(run);
  const times: number[] = [];
  for (let run = 0; run < runs; run += 1) {
    const start = performance.now();
    await query(run);
    times.push(performance.now() - start);
  }
  return times.sort((a, b) => a - b);
}

/** First, next and last page of every filter; p99 over RUNS runs (next and last over RUNS / 4). */
export async function measureListFilters(db: Db, rows: number, newest: number, stepMs: number, only?: RegExp): Promise<FilterTimes[]> {
  const reader = new StoredLedgerReader(db);
  const results: FilterTimes[] = [];
  for (const { name, filter } of listFilters(rows, newest, stepMs)) {
    if (only && !only.test(name)) continue;
    const first = await timed(RUNS, (run) => reader.find(filter(run), { offset: 0, limit: PAGE }));
    // Next and Last as the buttons ask them: pinned to the first page's point, Next from its last entry.
    const nextTimes: number[] = [];
    const lastTimes: number[] = [];
    for (let run = 0; run < RUNS / 4; run += 1) {
      const page = await reader.find(filter(run), { offset: 0, limit: PAGE });
      const pinned = { ...filter(run), storedUpTo: page.storedUpTo };
      let start = performance.now();
      if (page.bounds) await reader.find(pinned, { after: page.bounds.last, limit: PAGE });
      nextTimes.push(performance.now() - start);
      start = performance.now();
      await reader.find(pinned, { last: true, limit: PAGE });
      lastTimes.push(performance.now() - start);
    }
    nextTimes.sort((a, b) => a - b);
    lastTimes.sort((a, b) => a - b);
    const sample = await reader.find(filter(0), { offset: 0, limit: PAGE });
    results.push({
      name,
      firstP50: round(percentile(first, 50), 2),
      firstP99: round(percentile(first, 99), 2),
      nextP99: round(percentile(nextTimes, 99), 2),
      lastP99: round(percentile(lastTimes, 99), 2),
      matches: sample.totalCapped ? sample.total + 1 : sample.total,
    });
  }
  return results;
}

export function printListFilters(store: string, results: readonly FilterTimes[]): void {
  console.log(`\nLedger list, ${store}: first page (${PAGE} rows and the capped total) of every filter, ${RUNS} runs; next and last page, ${RUNS / 4} runs`);
  console.table(
    Object.fromEntries(
      results.map((result) => [
        result.name,
        {
          matches: result.matches > 10_000 ? '> 10,000' : result.matches,
          first_p50_ms: result.firstP50,
          first_p99_ms: result.firstP99,
          next_p99_ms: result.nextP99,
          last_p99_ms: result.lastP99,
        },
      ]),
    ),
  );
}

/** Issue 31 item 3's bound on every filter's first page. */
export const FIRST_PAGE_TARGET_MS = 50;

/** One row of the targets table per filter: its first page's p99 against the bound. */
export function listFilterTargets(store: string, rows: number, results: readonly FilterTimes[]): TargetRow[] {
  return results.map((result) =>
    boundRow(`ledger list, first page p99, ${result.name}, ${store} ${rows} rows (p50 ${result.firstP50} ms)`, result.firstP99, 'ms', FIRST_PAGE_TARGET_MS),
  );
}

/** The slowest filter's first page. */
export function worstFirstPage(results: readonly FilterTimes[]): { name: string; p99: number } {
  const worst = [...results].sort((a, b) => b.firstP99 - a.firstP99)[0];
  return worst ? { name: worst.name, p99: worst.firstP99 } : { name: 'none', p99: Number.NaN };
}

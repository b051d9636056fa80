/**
 * Export benchmark: the ledger on PGlite on disk (as the app runs it) holds 100,000 entries, some of
 * them payouts this app sent; `/fleet export`'s domain side (the stored reader's stream, the payout
 * join, the CSV writer) writes 10,000 and then 100,000 of them to a file. Reports time and memory
 * sampled every 20 ms during each export: if the export streams, the 100,000-row peak is no higher
 * than the 10,000-row one.
 */
import { mkdtemp, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { identifyPage } from '../src/ledger/identity.js';
import { LedgerExporter } from '../src/ledger/exporter.js';
import { StoredLedgerReader } from '../src/ledger/reader.js';
import { insertEntries } from '../src/ledger/store.js';
import type { Transaction } from '../src/fleet/schemas.js';
import { createLogger } from '../src/core/logger.js';
import { sentPayoutLookup } from '../src/payouts/index.js';
import { openDatabase } from '../src/store/index.js';

const TOTAL = 100_000;
const SMALL = 10_000;
const START = Date.parse('2026-01-01T00:00:00.000Z');
const STEP_MS = 60_000;

export interface ExportRun {
  rows: number;
  seconds: number;
  rows_per_second: number;
  file_mb: number;
  /** Peak during the export minus what the process held just before it. */
  rss_growth_mb: number;
  heap_growth_mb: number;
  rss_peak_mb: number;
}

export interface ExportBench {
  runs: ExportRun[];
  /** 100k-row growth over 10k-row growth of resident memory (growths under 1 MB count as 1 MB): at most about 1 when memory is flat. */
  rss_growth_ratio_100k_vs_10k: number;
}

const mb = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;

export function transaction(n: number): Transaction {
  const currency = ['USD', 'EUR', 'CDF'][n % 3]!;
  return {
    reference: `BENCH-${String(n).padStart(7, '0')}`,
    type: n % 2 === 0 ? 'PAYMENT' : 'B2B_JIT_FUNDING',
    amount: n % 2 === 0 ? (n % 9000) + 0.25 : -((n % 500) + 0.5),
    currency,
    description: n % 10 === 0 ? `Supplier "n°${n}", line one\nline two =SUM(A1)` : `Card purchase funding — merchant ${n % 97}`,
    date: new Date(START + n * STEP_MS).toISOString(),
    status: 'Completed',
  };
}

async function measure(run: () => Promise<{ rows: number; path: string }>): Promise<ExportRun> {
  global.gc?.();
  const before = process.memoryUsage();
  let rssPeak = before.rss;
  let heapPeak = before.heapUsed;
  const sampler = setInterval(() => {
    const now = process.memoryUsage();
    rssPeak = Math.max(rssPeak, now.rss);
    heapPeak = Math.max(heapPeak, now.heapUsed);
  }, 20);
  const started = performance.now();
  const result = await run();
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  const after = process.memoryUsage();
  rssPeak = Math.max(rssPeak, after.rss);
  heapPeak = Math.max(heapPeak, after.heapUsed);
  return {
    rows: result.rows,
    seconds: Math.round(seconds * 100) / 100,
    rows_per_second: Math.round(result.rows / seconds),
    file_mb: mb((await stat(result.path)).size),
    rss_growth_mb: mb(rssPeak - before.rss),
    heap_growth_mb: mb(heapPeak - before.heapUsed),
    rss_peak_mb: mb(rssPeak),
  };
}

export async function runExportBench(): Promise<ExportBench> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'export-bench-'));
  const logger = createLogger({ level: 'silent' });
  const db = await openDatabase({ dataDir: path.join(dir, 'pglite'), logger });
  try {
    for (let from = 0; from < TOTAL; from += 1000) {
      const page = Array.from({ length: 1000 }, (_, i) => transaction(from + i));
      await insertEntries(db, identifyPage(page), { firstSeenAt: new Date(), markLate: false });
    }
    // One in a hundred entries is a payout this app sent, approved by two people.
    await db.query(
      `INSERT INTO payout_requests (id, kind, recipient_name, country_code, phone, operator, amount_minor, currency, reference,
         requested_by, requested_at, expires_at, state, required_approvals, transaction_id, updated_at, recipient_key)
       SELECT 'PO-' || n, 'mobile_money', 'Bench', 'CD', '243810000001', 'VODACOM_MPESA', 100, 'USD', 'REF-' || n,
              'U0REQUESTER', now(), now(), 'completed', 2, 'BENCH-' || lpad(n::text, 7, '0'), now(), 'mobile:243810000001'
         FROM generate_series(0, $1::int - 1, 100) AS n`,
      [TOTAL],
    );
    await db.query(
      `INSERT INTO payout_approvals (request_id, user_id, approved_at)
       SELECT id, approver, now() FROM payout_requests, (VALUES ('U0APPROVER'), ('U0APPROVER2')) AS a (approver)`,
    );
    const exporter = new LedgerExporter({
      ledger: new StoredLedgerReader(db),
      db,
      payouts: sentPayoutLookup(db),
      settings: { maxRows: 500_000 },
      logger,
      tempDir: dir,
    });
    const runs: ExportRun[] = [];
    for (const rows of [SMALL, TOTAL]) {
      const filter = { before: new Date(START + rows * STEP_MS) };
      const job = (await exporter.begin(`U0BENCH${rows}`))!;
      try {
        runs.push(await measure(() => job.write(filter, `bench-${rows}.csv`)));
      } finally {
        await job.finish();
      }
    }
    const [small, large] = runs as [ExportRun, ExportRun];
    return { runs, rss_growth_ratio_100k_vs_10k: Math.round((large.rss_growth_mb / Math.max(small.rss_growth_mb, 1)) * 100) / 100 };
  } finally {
    await db.close();
    await rm(dir, { recursive: true, force: true });
  }
}

export function printExportBench(bench: ExportBench): void {
  console.log('\nExport: the stored ledger (PGlite on disk) streamed through the payout join and the CSV writer to a file');
  console.table(Object.fromEntries(bench.runs.map((run) => [`${run.rows.toLocaleString('en-US')} rows`, run])));
  console.log(`resident memory growth, 100k rows over 10k rows: ${bench.rss_growth_ratio_100k_vs_10k} (target: at most about 1: flat in the row count)`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  printExportBench(await runExportBench());
}

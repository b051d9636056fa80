/**
 * The approval message's signals (possible duplicate, unusual amount, day totals) with 100,000
 * payouts in the store (BENCH_SIGNAL_PAYOUTS), on PGlite: the time to read them for one request
 * whose recipient has 2,000 completed payouts, and how many queries that takes (target 1).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createLogger } from '../src/core/logger.js';
import { findRequest } from '../src/payouts/repository.js';
import { requestSignals } from '../src/payouts/signals.js';
import { openDatabase } from '../src/store/index.js';
import type { Queryable } from '../src/store/db.js';

const PAYOUTS = Number(process.env.BENCH_SIGNAL_PAYOUTS ?? 100_000);
const HOT_RECIPIENT_PAYOUTS = 2_000;
const ROUNDS = 20;

export interface ApprovalSignalsBench {
  payouts: number;
  signals_p50_ms: number;
  signals_max_ms: number;
  queries_per_message: number;
}

export async function runApprovalSignalsBench(): Promise<ApprovalSignalsBench> {
  const folder = await mkdtemp(path.join(os.tmpdir(), 'bench-signals-'));
  const db = await openDatabase({ dataDir: folder, logger: createLogger({ level: 'silent' }) });
  const now = new Date();
  // 100k payouts over the last 120 days, to 5,000 wallets in three currencies and every state; one
  // wallet (the last) is paid often, so that its usual amount is a median over many rows.
  await db.query(
    `INSERT INTO payout_requests (id, kind, recipient_name, country_code, phone, operator, amount_minor, currency, reference, requested_by,
       requested_at, expires_at, state, required_approvals, updated_at, recipient_key)
     SELECT 'PR-B' || g, 'mobile_money', 'Person ' || (g % 5000), 'CD', '2438' || lpad((g % 5000)::text, 8, '0'), 'VODACOM_MPESA',
       1000 + (g % 997) * 10, (ARRAY['USD', 'EUR', 'CDF'])[1 + g % 3], 'BENCH-' || g, 'U0REQ' || (g % 20),
       $1::timestamptz - (g % 120) * interval '1 day' - (g % 86400) * interval '1 second', $1::timestamptz + interval '1 day',
       (ARRAY['completed', 'completed', 'completed', 'failed', 'rejected', 'expired', 'pending'])[1 + g % 7], 1, $1::timestamptz,
       'mobile:2438' || lpad((g % 5000)::text, 8, '0')
     FROM generate_series(1, $2::int) AS g`,
    [now, PAYOUTS - HOT_RECIPIENT_PAYOUTS - 1],
  );
  await db.query(
    `INSERT INTO payout_requests (id, kind, recipient_name, country_code, phone, operator, amount_minor, currency, reference, requested_by,
       requested_at, expires_at, state, required_approvals, updated_at, recipient_key)
     SELECT 'PR-H' || g, 'mobile_money', 'Hot Wallet', 'CD', '243899999999', 'VODACOM_MPESA', 10000 + g, 'USD', 'HOT-' || g, 'U0REQ1',
       $1::timestamptz - (g % 89) * interval '1 day' - interval '1 hour', $1::timestamptz, 'completed', 1, $1::timestamptz, 'mobile:243899999999'
     FROM generate_series(1, $2::int) AS g`,
    [now, HOT_RECIPIENT_PAYOUTS],
  );
  await db.query(
    `INSERT INTO payout_requests (id, kind, recipient_name, country_code, phone, operator, amount_minor, currency, reference, requested_by,
       requested_at, expires_at, state, required_approvals, updated_at, recipient_key)
     VALUES ('PR-SIGNAL', 'mobile_money', 'Hot Wallet', 'CD', '243899999999', 'VODACOM_MPESA', 50000, 'USD', 'SIGNAL-1', 'U0REQ1',
       $1, $1::timestamptz + interval '1 day', 'pending', 1, $1, 'mobile:243899999999')`,
    [now],
  );
  await db.query('ANALYZE payout_requests');
  const request = await findRequest(db, 'PR-SIGNAL');
  if (!request) throw new Error('the benchmark request is missing');
  let queries = 0;
  const counting: Queryable = {
    query: <Row>(text: string, params?: unknown[]) => {
      queries += 1;
      return db.query<Row>(text, params);
    },
  };
  const times: number[] = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    queries = 0;
    const started = performance.now();
    const signals = await requestSignals(counting, request, { duplicateWindowHours: 72 });
    times.push(performance.now() - started);
    if (!signals.unusualAmount) throw new Error('the benchmark request should be unusual');
  }
  await db.close();
  await rm(folder, { recursive: true, force: true });
  const sorted = [...times].sort((a, b) => a - b);
  return {
    payouts: PAYOUTS,
    signals_p50_ms: Math.round(sorted[Math.floor(sorted.length / 2)]! * 10) / 10,
    signals_max_ms: Math.round(sorted.at(-1)! * 10) / 10,
    queries_per_message: queries,
  };
}

export function printApprovalSignalsBench(bench: ApprovalSignalsBench): void {
  console.log(`\nApproval signals with ${bench.payouts} payouts in the store (PGlite), ${ROUNDS} reads of one request's signals`);
  console.table({ signals: { p50_ms: bench.signals_p50_ms, max_ms: bench.signals_max_ms, queries: bench.queries_per_message } });
}

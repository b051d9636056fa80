/**
 * What the payout store says about one day: payouts through this app that ended in each outcome
 * within the day, and requests still waiting for approval. Read-only SQL over the payout tables.
 */
import type { Queryable } from '../store/db.js';
import { PAYOUT_OUTCOMES, type PayoutOutcome, type PayoutOutcomeTotal, type WaitingRequest } from './types.js';

/**
 * The audit events that give a payout its outcome. `unknown` counts only while the payout is still
 * unknown now: one that became unknown and was then found is counted as sent on the day it was found.
 */
const OUTCOME_EVENTS: Record<PayoutOutcome, readonly string[]> = {
  sent: ['completed', 'reconciled', 'match_confirmed'],
  failed: ['failed'],
  rejected: ['rejected'],
  expired: ['expired'],
  unknown: ['unknown'],
};

export async function payoutOutcomes(db: Queryable, start: Date, end: Date): Promise<PayoutOutcomeTotal[]> {
  const cases = PAYOUT_OUTCOMES.map((outcome) => `WHEN e.event IN (${OUTCOME_EVENTS[outcome].map((event) => `'${event}'`).join(', ')}) THEN '${outcome}'`).join(
    ' ',
  );
  // One row per request and outcome, so that a retried payout is counted once per outcome.
  const { rows } = await db.query<{ outcome: PayoutOutcome; currency: string; n: string | number; total: string | number }>(
    `WITH ended AS (
       SELECT DISTINCT e.request_id, CASE ${cases} END AS outcome
         FROM payout_events e
        WHERE e.at >= $1::timestamptz AND e.at < $2::timestamptz
     )
     SELECT ended.outcome, r.currency, count(*) AS n, sum(r.amount_minor) AS total
       FROM ended JOIN payout_requests r ON r.id = ended.request_id
      WHERE ended.outcome IS NOT NULL AND (ended.outcome <> 'unknown' OR r.state = 'unknown')
      GROUP BY ended.outcome, r.currency
      ORDER BY r.currency`,
    [start.toISOString(), end.toISOString()],
  );
  return PAYOUT_OUTCOMES.map((outcome) => {
    const mine = rows.filter((row) => row.outcome === outcome);
    return {
      outcome,
      count: mine.reduce((sum, row) => sum + Number(row.n), 0),
      totals: mine.map((row) => ({ currency: row.currency, minor: Number(row.total) })),
    };
  });
}

/** Requests pending since before `before`, oldest first (at most `limit`), and how many there are in all. */
export async function waitingRequests(db: Queryable, before: Date, limit: number): Promise<{ requests: WaitingRequest[]; total: number }> {
  const { rows } = await db.query<{
    id: string;
    requested_by: string;
    requested_at: Date | string;
    amount_minor: string | number;
    currency: string;
    total: string | number;
  }>(
    `SELECT id, requested_by, requested_at, amount_minor, currency, count(*) OVER () AS total
       FROM payout_requests WHERE state = 'pending' AND requested_at < $1::timestamptz
      ORDER BY requested_at, id LIMIT ${Math.max(0, Math.floor(limit))}`,
    [before.toISOString()],
  );
  return {
    total: Number(rows[0]?.total ?? 0),
    requests: rows.map((row) => ({
      id: row.id,
      requestedBy: row.requested_by,
      requestedAt: new Date(row.requested_at),
      amountMinor: Number(row.amount_minor),
      currency: row.currency,
    })),
  };
}

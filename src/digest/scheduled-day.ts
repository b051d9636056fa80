/**
 * The scheduled payouts due on one day, for the digest: the total per currency of the occurrences
 * still waiting (or held) of approved, active schedules. Read-only SQL over the schedule tables.
 */
import type { Queryable } from '../store/db.js';

export interface ScheduledTotal {
  currency: string;
  totalMinor: number;
  count: number;
}

export async function scheduledOn(db: Queryable, start: Date, end: Date): Promise<ScheduledTotal[]> {
  const { rows } = await db.query<{ currency: string; total: string | number; n: string | number }>(
    `SELECT p.currency, SUM(p.amount_minor) AS total, count(*) AS n FROM payout_occurrences o
       JOIN payout_schedules s ON s.request_id = o.request_id JOIN payout_requests p ON p.id = o.request_id
     WHERE o.state IN ('scheduled', 'held') AND s.cancelled_at IS NULL AND p.state = 'approved' AND o.due_at >= $1 AND o.due_at < $2
     GROUP BY p.currency ORDER BY p.currency`,
    [start, end],
  );
  return rows.map((row) => ({ currency: row.currency, totalMinor: Number(row.total), count: Number(row.n) }));
}

/**
 * SQL for a payout day's totals (see `day-totals.ts`): the advisory locks that serialise decisions
 * per requester and per recipient, and the sums of what was requested, bulk rows included.
 */
import type { Queryable } from '../store/db.js';
import type { PayoutState } from './model.js';

/** Serialises daily-limit checks per requester and currency until the transaction ends. */
export async function lockRequesterDay(q: Queryable, requestedBy: string, currency: string): Promise<void> {
  await q.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`payout-daily-limit:${requestedBy}:${currency}`]);
}

/**
 * Serialises the dual-approval decision per recipient and currency until the transaction ends: two
 * requesters paying one wallet at once must not both see the other's request missing. Taken after
 * `lockRequesterDay`, always in that order. Two-key advisory locks live apart from one-key ones.
 */
export async function lockRecipientDay(q: Queryable, recipientKey: string, currency: string): Promise<void> {
  await q.query("SELECT pg_advisory_xact_lock(hashtext('payout-recipient-day'), hashtext($1))", [`${recipientKey}:${currency}`]);
}

/** Which requests count towards a day's totals: one currency, [from, to), requests in `states`. */
export interface DayWindow {
  currency: string;
  from: Date;
  to: Date;
  states: readonly PayoutState[];
}

// Rows of a bulk batch waiting for approval or being sent count too (from the batch's request
// time) until each becomes a payout request of its own; `$who` is the requester or recipient compared.
const BATCH_ROWS_COUNTING = `AND r.currency = $2 AND b.requested_at >= $3 AND b.requested_at < $4
  AND b.state IN ('pending', 'sending') AND r.request_id IS NULL AND r.skipped IS NULL`;

// A scheduled request (approved ahead) never counts itself: each of its occurrences counts on its own
// day while it waits to be released (or is held), then as the payout request it became.
const NOT_SCHEDULED = 'AND NOT EXISTS (SELECT 1 FROM payout_schedules s WHERE s.request_id = payout_requests.id)';
const OCCURRENCES_COUNTING = `AND p.currency = $2 AND o.due_at >= $3 AND o.due_at < $4
  AND o.state IN ('scheduled', 'held') AND o.payout_id IS NULL AND p.state IN ('pending', 'approved')`;

/** The total one requester requested in the window, their bulk rows waiting or being sent included. */
export async function sumRequested(q: Queryable, input: { requestedBy: string } & DayWindow): Promise<number> {
  const { rows } = await q.query<{ total: unknown }>(
    `SELECT (SELECT COALESCE(SUM(amount_minor), 0) FROM payout_requests
       WHERE requested_by = $1 AND currency = $2 AND requested_at >= $3 AND requested_at < $4 AND state = ANY($5::text[]) ${NOT_SCHEDULED})
     + (SELECT COALESCE(SUM(r.amount_minor), 0) FROM payout_batch_rows r JOIN payout_batches b ON b.id = r.batch_id
       WHERE b.requested_by = $1 ${BATCH_ROWS_COUNTING})
     + (SELECT COALESCE(SUM(p.amount_minor), 0) FROM payout_occurrences o JOIN payout_requests p ON p.id = o.request_id
       WHERE p.requested_by = $1 ${OCCURRENCES_COUNTING}) AS total`,
    [input.requestedBy, input.currency, input.from, input.to, [...input.states]],
  );
  return Number(rows[0]?.total ?? 0);
}

/**
 * The total requested to each recipient (`recipientKey`) in the window, by any requester, bulk rows
 * waiting or being sent included: one query for all of a bulk payout's recipients.
 */
export async function sumRequestedTo(q: Queryable, input: { recipientKeys: readonly string[] } & DayWindow): Promise<Map<string, number>> {
  const keys = [...new Set(input.recipientKeys)];
  if (keys.length === 0) return new Map();
  const { rows } = await q.query<{ key: string; total: unknown }>(
    `SELECT k.key,
       (SELECT COALESCE(SUM(amount_minor), 0) FROM payout_requests
         WHERE recipient_key = k.key AND currency = $2 AND requested_at >= $3 AND requested_at < $4 AND state = ANY($5::text[]) ${NOT_SCHEDULED})
       + (SELECT COALESCE(SUM(r.amount_minor), 0) FROM payout_batch_rows r JOIN payout_batches b ON b.id = r.batch_id
         WHERE r.recipient_key = k.key ${BATCH_ROWS_COUNTING})
       + (SELECT COALESCE(SUM(p.amount_minor), 0) FROM payout_occurrences o JOIN payout_requests p ON p.id = o.request_id
         WHERE p.recipient_key = k.key ${OCCURRENCES_COUNTING}) AS total
     FROM unnest($1::text[]) AS k(key)`,
    [keys, input.currency, input.from, input.to, [...input.states]],
  );
  return new Map(rows.map((row) => [row.key, Number(row.total ?? 0)]));
}

/**
 * SQL for a payout day's totals (see `day-totals.ts`): the advisory locks that serialise decisions
 * per requester and per recipient, and the sums of what was requested, bulk rows included.
 */
import type { Queryable } from '../store/db.js';
import type { PayoutState } from './model.js';

/** Serialises daily-limit checks per tenant, requester and currency until the transaction ends. */
export async function lockRequesterDay(q: Queryable, requestedBy: string, currency: string): Promise<void> {
  // The tenant is in the key: two workspaces' requesters never wait for each other.
  await q.query("SELECT pg_advisory_xact_lock(hashtext(current_setting('app.tenant') || ':' || $1))", [`payout-daily-limit:${requestedBy}:${currency}`]);
}

/**
 * Serialises the dual-approval decision per recipient and currency until the transaction ends: two
 * requesters paying one wallet at once must not both see the other's request missing. Taken after
 * `lockRequesterDay`, always in that order. Two-key advisory locks live apart from one-key ones;
 * the tenant is in the second key.
 */
export async function lockRecipientDay(q: Queryable, recipientKey: string, currency: string): Promise<void> {
  await q.query("SELECT pg_advisory_xact_lock(hashtext('payout-recipient-day'), hashtext(current_setting('app.tenant') || ':' || $1))", [
    `${recipientKey}:${currency}`,
  ]);
}

/** Which requests count towards a day's totals: one currency, [from, to), requests in `states`. */
export interface DayWindow {
  currency: string;
  from: Date;
  to: Date;
  states: readonly PayoutState[];
}

/** Placeholders (or SQL expressions) of a day window, for the totals' SQL built below. */
export interface DayWindowParams {
  currency: string;
  from: string;
  to: string;
  states: string;
}

// Rows of a bulk batch waiting for approval or being sent count too (from the batch's request
// time) until each becomes a payout request of its own.
function batchRowsCounting(p: DayWindowParams): string {
  return `AND r.currency = ${p.currency} AND b.requested_at >= ${p.from} AND b.requested_at < ${p.to}
  AND b.state IN ('pending', 'sending') AND r.request_id IS NULL AND r.skipped IS NULL`;
}

/** The SQL of one requester's total (`who` a placeholder or expression), bulk rows waiting or being sent included. */
export function requesterTotalSql(who: string, p: DayWindowParams): string {
  return `(SELECT COALESCE(SUM(amount_minor), 0) FROM payout_requests
       WHERE requested_by = ${who} AND currency = ${p.currency} AND requested_at >= ${p.from} AND requested_at < ${p.to} AND state = ANY(${p.states}::text[]) ${NOT_SCHEDULED})
     + (SELECT COALESCE(SUM(r.amount_minor), 0) FROM payout_batch_rows r JOIN payout_batches b ON b.id = r.batch_id
       WHERE b.requested_by = ${who} ${batchRowsCounting(p)})
     + (SELECT COALESCE(SUM(p.amount_minor), 0) FROM payout_occurrences o JOIN payout_requests p ON p.id = o.request_id
       WHERE p.requested_by = ${who} ${occurrencesCounting(p)})`;
}

/** The SQL of one recipient's total (`key` a placeholder or expression), by any requester, bulk rows waiting or being sent included. */
export function recipientTotalSql(key: string, p: DayWindowParams): string {
  return `(SELECT COALESCE(SUM(amount_minor), 0) FROM payout_requests
         WHERE recipient_key = ${key} AND currency = ${p.currency} AND requested_at >= ${p.from} AND requested_at < ${p.to} AND state = ANY(${p.states}::text[]) ${NOT_SCHEDULED})
       + (SELECT COALESCE(SUM(r.amount_minor), 0) FROM payout_batch_rows r JOIN payout_batches b ON b.id = r.batch_id
         WHERE r.recipient_key = ${key} ${batchRowsCounting(p)})
       + (SELECT COALESCE(SUM(p.amount_minor), 0) FROM payout_occurrences o JOIN payout_requests p ON p.id = o.request_id
         WHERE p.recipient_key = ${key} ${occurrencesCounting(p)})`;
}

const WINDOW_PARAMS: DayWindowParams = { currency: '$2', from: '$3', to: '$4', states: '$5' };

// A scheduled request (approved ahead) never counts by its request time: each of its occurrences counts
// on its own day while it waits to be released (or is held), then as the payout request it became; a
// one-off sent as the request itself counts on its due day throughout, as the request's state says.
const NOT_SCHEDULED = 'AND NOT EXISTS (SELECT 1 FROM payout_schedules s WHERE s.request_id = payout_requests.id)';
function occurrencesCounting(p: DayWindowParams): string {
  return `AND p.currency = ${p.currency} AND o.due_at >= ${p.from} AND o.due_at < ${p.to}
  AND ((o.state IN ('scheduled', 'held') AND (o.payout_id IS NULL OR o.payout_id = o.request_id) AND p.state IN ('pending', 'approved'))
    OR (o.state = 'released' AND o.payout_id = o.request_id AND p.state = ANY(${p.states}::text[])))`;
}

/** The total one requester requested in the window, their bulk rows waiting or being sent included. */
export async function sumRequested(q: Queryable, input: { requestedBy: string } & DayWindow): Promise<number> {
  const { rows } = await q.query<{ total: unknown }>(`SELECT ${requesterTotalSql('$1', WINDOW_PARAMS)} AS total`, [
    input.requestedBy,
    input.currency,
    input.from,
    input.to,
    [...input.states],
  ]);
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
    `SELECT k.key, ${recipientTotalSql('k.key', WINDOW_PARAMS)} AS total
     FROM unnest($1::text[]) AS k(key)`,
    [keys, input.currency, input.from, input.to, [...input.states]],
  );
  return new Map(rows.map((row) => [row.key, Number(row.total ?? 0)]));
}

/**
 * One requester's and one recipient's totals on each of several days (`days`: [from, to) each), in
 * one query: the busiest day of a scheduled request's occurrences, for its approval message.
 */
export async function sumsOnDays(
  q: Queryable,
  input: { requestedBy: string; recipientKey: string; currency: string; states: readonly PayoutState[]; days: ReadonlyArray<{ from: Date; to: Date }> },
): Promise<Array<{ from: Date; requesterMinor: number; recipientMinor: number }>> {
  if (input.days.length === 0) return [];
  const params: DayWindowParams = { currency: '$3', from: 'd.from_at', to: 'd.to_at', states: '$4' };
  const { rows } = await q.query<{ from_at: Date | string; requester_total: unknown; recipient_total: unknown }>(
    `SELECT d.from_at, ${requesterTotalSql('$1', params)} AS requester_total, ${recipientTotalSql('$2', params)} AS recipient_total
     FROM unnest($5::timestamptz[], $6::timestamptz[]) AS d(from_at, to_at) ORDER BY d.from_at`,
    [
      input.requestedBy,
      input.recipientKey,
      input.currency,
      [...input.states],
      input.days.map((day) => day.from.toISOString()),
      input.days.map((day) => day.to.toISOString()),
    ],
  );
  return rows.map((row) => ({
    from: new Date(row.from_at),
    requesterMinor: Number(row.requester_total ?? 0),
    recipientMinor: Number(row.recipient_total ?? 0),
  }));
}

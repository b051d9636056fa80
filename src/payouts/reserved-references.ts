/**
 * References kept for payouts still to come: each occurrence of a scheduled series (`INV-42-3`) and
 * each bulk payout row not yet sent (`PB-…-4`, or the reference its file gave) is made a payout
 * request of its own only when it is sent, and the Fleet API takes each reference once. Until then no
 * other request may take one, or that payout would never be sent. A one-off is sent as the scheduled
 * request itself: its typed reference is its own from request time, and nothing is numbered for it.
 */
import type { Queryable } from '../store/db.js';
import type { ReservedReference } from './model.js';
import { LIMITS } from './validation.js';

/**
 * Whose `reference` is, when a series still to send (waiting for approval or approved, not cancelled:
 * its occurrences waiting, held or missed) or a bulk payout still to send (waiting for approval or
 * being sent: its rows not yet sent nor skipped) keeps it. `except`: the occurrence asking for its own
 * (Send now on a missed occurrence).
 */
export async function reservedReference(
  q: Queryable,
  reference: string,
  except?: { requestId: string; number: number },
): Promise<ReservedReference | undefined> {
  const {
    rows: [occurrence],
  } = await q.query<{ request_id: string; number: number }>(
    `SELECT o.request_id, o.number FROM payout_occurrences o
       JOIN payout_requests p ON p.id = o.request_id JOIN payout_schedules s ON s.request_id = o.request_id
     WHERE o.state IN ('scheduled', 'held', 'missed') AND s.cancelled_at IS NULL AND p.state IN ('pending', 'approved')
       AND o.payout_id IS DISTINCT FROM o.request_id
       AND left(p.reference, $2 - length('-' || o.number)) || '-' || o.number = $1
       AND NOT (o.request_id = $3 AND o.number = $4)
     ORDER BY o.request_id, o.number LIMIT 1`,
    [reference, LIMITS.reference.max, except?.requestId ?? '', except?.number ?? 0],
  );
  if (occurrence) return { kind: 'series', requestId: occurrence.request_id, number: Number(occurrence.number) };
  const {
    rows: [row],
  } = await q.query<{ batch_id: string; row_number: number }>(
    `SELECT r.batch_id, r.row_number FROM payout_batch_rows r JOIN payout_batches b ON b.id = r.batch_id
     WHERE b.state IN ('pending', 'sending') AND r.request_id IS NULL AND r.skipped IS NULL AND r.draft->>'reference' = $1
     ORDER BY r.batch_id, r.row_number LIMIT 1`,
    [reference],
  );
  return row ? { kind: 'bulk', batchId: row.batch_id, row: Number(row.row_number) } : undefined;
}

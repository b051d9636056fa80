/**
 * The one possible-duplicate rule of the app: a payout may repeat an earlier one when it goes to the
 * same recipient (`recipientKey`), for the same amount in the same currency, as a payout request that
 * is pending, approved, being sent, unknown or sent, requested within the window
 * (PAYOUT_DUPLICATE_WINDOW_HOURS). A row of a bulk payout waiting for approval or being sent counts
 * as such a request until it becomes one; within one file, a row repeating an earlier row of it is
 * flagged too. Order never matters: rows are matched by what they pay, not where they stand.
 *
 * The recipient is the day totals' key, not the stricter identity: a phone number is one wallet
 * whichever operator code is typed, so a repeat with another operator is still asked about (a
 * question costs a tick; a payment made twice costs the money), and the key is stored and indexed
 * on every request and bulk row.
 */
import type { Queryable } from '../store/db.js';
import type { PayoutDraft, PayoutState } from './model.js';
import { recipientKey } from './recipients.js';

/** The states of an earlier request that a new payout may repeat: everything not turned down or failed. */
const STATES_THAT_MAY_BE_REPEATED: readonly PayoutState[] = ['pending', 'approved', 'executing', 'unknown', 'completed'];

/** The earlier payout a new one may repeat: a request (perhaps made for a bulk row), or a bulk row not yet one. */
export type EarlierPayout =
  { kind: 'request'; requestId: string; reference: string; state: PayoutState; batchId?: string } | { kind: 'batch_row'; batchId: string; rowNumber: number };

/** Same text, same recipient, amount and currency. */
export function duplicateKey(draft: PayoutDraft): string {
  return `${recipientKey(draft)}|${draft.amountMinor}|${draft.currency}`;
}

/** For each row repeating an earlier row of the same list (by row number), that earlier row. */
export function repeatsWithin(rows: ReadonlyArray<{ rowNumber: number; draft: PayoutDraft }>): Map<number, number> {
  const first = new Map<string, number>();
  const repeats = new Map<number, number>();
  for (const { rowNumber, draft } of [...rows].sort((a, b) => a.rowNumber - b.rowNumber)) {
    const key = duplicateKey(draft);
    const earlier = first.get(key);
    if (earlier === undefined) first.set(key, rowNumber);
    else repeats.set(rowNumber, earlier);
  }
  return repeats;
}

export interface DuplicateWindow {
  now: Date;
  /** PAYOUT_DUPLICATE_WINDOW_HOURS: how far back a request (or a bulk payout's submission) counts. */
  windowHours: number;
  /** A bulk payout's own rows and requests never repeat it. */
  exceptBatchId?: string | undefined;
  /** A stored request is compared with the payouts requested before it only. */
  stored?: StoredSubject | undefined;
}

/**
 * A stored request compared with the payouts before it: itself and later requests never count (two
 * stamped at the same instant each count for the other: asking costs a tick).
 */
export interface StoredSubject {
  requestId: string;
  requestedAt: Date;
}

export interface EarlierRow {
  kind: 'request' | 'batch_row';
  recipient_key: string;
  amount_minor: number | string;
  currency: string;
  request_id: string | null;
  reference: string;
  state: PayoutState | null;
  batch_id: string | null;
  row_number: number | null;
}

/** The placeholders `earlierPayoutsSql` reads; `wanted` is a relation of (recipient_key, amount_minor, currency). */
export interface EarlierPayoutsParams {
  wanted: string;
  states: string;
  from: string;
  exceptBatchId: string;
  /** A text placeholder (NULL: none) and a timestamptz one: a stored request's own id and its request time. */
  exceptRequestId: string;
  upTo: string;
}

/**
 * The SQL of the rule, for `findEarlierPayouts` and for the approval signals' one query
 * (`signals.ts`): every earlier payout of `wanted`, latest first. No upper bound on time unless a
 * stored request is compared (`upTo`): a request another replica stamped a moment ahead of this
 * clock still counts.
 */
/**
 * A scheduled request and the payouts released from it are one series: none of them repeats another.
 * The series of a request is the schedule it was released from, or the request itself.
 */
function seriesOf(id: string): string {
  return `COALESCE((SELECT o.request_id FROM payout_occurrences o WHERE o.payout_id = ${id}), ${id})`;
}

export function earlierPayoutsSql(p: EarlierPayoutsParams): string {
  return `SELECT 'request' AS kind, p.recipient_key, p.amount_minor, p.currency, p.id AS request_id, p.reference, p.state, p.batch_id,
       NULL::integer AS row_number, p.requested_at AS at
     FROM payout_requests p JOIN ${p.wanted} w ON w.recipient_key = p.recipient_key AND w.amount_minor = p.amount_minor AND w.currency = p.currency
     WHERE p.state = ANY(${p.states}::text[]) AND p.requested_at >= ${p.from} AND (${p.exceptBatchId}::text IS NULL OR p.batch_id IS DISTINCT FROM ${p.exceptBatchId})
       AND (${p.exceptRequestId}::text IS NULL OR (p.id <> ${p.exceptRequestId} AND p.requested_at <= ${p.upTo}::timestamptz
         AND ${seriesOf('p.id')} IS DISTINCT FROM ${seriesOf(p.exceptRequestId)}))
     UNION ALL
     SELECT 'batch_row', r.recipient_key, r.amount_minor, r.currency, NULL, r.reference, NULL, r.batch_id, r.row_number, b.requested_at
     FROM payout_batch_rows r JOIN payout_batches b ON b.id = r.batch_id
       JOIN ${p.wanted} w ON w.recipient_key = r.recipient_key AND w.amount_minor = r.amount_minor AND w.currency = r.currency
     WHERE b.state IN ('pending', 'sending') AND r.request_id IS NULL AND r.skipped IS NULL
       AND b.requested_at >= ${p.from} AND b.id IS DISTINCT FROM ${p.exceptBatchId}
       AND (${p.exceptRequestId}::text IS NULL OR b.requested_at <= ${p.upTo}::timestamptz)
     ORDER BY at DESC, request_id, batch_id, row_number`;
}

/** The states the rule compares with, as the query's parameter. */
export function statesThatMayBeRepeated(): string[] {
  return [...STATES_THAT_MAY_BE_REPEATED];
}

/** Where the window starts. */
export function windowStart(window: Pick<DuplicateWindow, 'now' | 'windowHours'>): Date {
  return new Date(window.now.getTime() - window.windowHours * 3_600_000);
}

/** One found row as the earlier payout it names. */
export function earlierPayoutOf(row: EarlierRow): EarlierPayout {
  return row.kind === 'request'
    ? {
        kind: 'request',
        requestId: row.request_id ?? '',
        reference: row.reference,
        state: row.state ?? 'pending',
        ...(row.batch_id ? { batchId: row.batch_id } : {}),
      }
    : { kind: 'batch_row', batchId: row.batch_id ?? '', rowNumber: Number(row.row_number) };
}

/**
 * The latest earlier payout each of `drafts` may repeat, by `duplicateKey`, in one query; a draft
 * repeating none has no entry.
 */
export async function findEarlierPayouts(q: Queryable, drafts: readonly PayoutDraft[], window: DuplicateWindow): Promise<Map<string, EarlierPayout>> {
  const wanted = new Map(drafts.map((draft) => [duplicateKey(draft), draft]));
  if (wanted.size === 0) return new Map();
  const list = [...wanted.values()];
  const { rows } = await q.query<EarlierRow>(
    `WITH wanted AS (SELECT * FROM unnest($1::text[], $2::bigint[], $3::text[]) AS w(recipient_key, amount_minor, currency))
     ${earlierPayoutsSql({ wanted: 'wanted', states: '$4', from: '$5', exceptBatchId: '$6', exceptRequestId: '$7', upTo: '$8' })}`,
    [
      list.map(recipientKey),
      list.map((draft) => draft.amountMinor),
      list.map((draft) => draft.currency),
      statesThatMayBeRepeated(),
      windowStart(window),
      window.exceptBatchId ?? null,
      window.stored?.requestId ?? null,
      window.stored?.requestedAt ?? null,
    ],
  );
  const found = new Map<string, EarlierPayout>();
  for (const row of rows) {
    const key = `${row.recipient_key}|${Number(row.amount_minor)}|${row.currency}`;
    if (!found.has(key)) found.set(key, earlierPayoutOf(row));
  }
  return found;
}

/** The newest payout a stored request may repeat, with when it was requested. */
export interface Repeat {
  payout: EarlierPayout;
  at: Date;
}

/**
 * The newest payout `request` may repeat by the rule above, requested up to `upTo`, earlier or later
 * than itself (never itself, its own bulk payout or its own series): the gate before sending asks
 * whether one landed since the request was approved (and ticked).
 */
export async function newestRepeat(
  q: Queryable,
  request: PayoutDraft & { id: string; requestedAt: Date; batch?: { id: string } | undefined },
  window: { windowHours: number; upTo: Date },
): Promise<Repeat | undefined> {
  const { rows } = await q.query<EarlierRow & { at: Date | string }>(
    `WITH wanted AS (SELECT $1::text AS recipient_key, $2::bigint AS amount_minor, $3::text AS currency)
     ${earlierPayoutsSql({ wanted: 'wanted', states: '$4', from: '$5', exceptBatchId: '$6', exceptRequestId: '$7', upTo: '$8' })} LIMIT 1`,
    [
      recipientKey(request),
      request.amountMinor,
      request.currency,
      statesThatMayBeRepeated(),
      windowStart({ now: request.requestedAt, windowHours: window.windowHours }),
      request.batch?.id ?? null,
      request.id,
      window.upTo,
    ],
  );
  const row = rows[0];
  return row ? { payout: earlierPayoutOf(row), at: new Date(row.at) } : undefined;
}

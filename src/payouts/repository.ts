/**
 * SQL for payout requests and their audit log (approvals in `approval-store.ts`, likely matches in
 * `likely-match-store.ts`, the day's totals in `day-totals-store.ts`). Holds no rules: every change is a
 * conditional UPDATE whose WHERE states what must still be true, and the caller learns whether it won.
 */
import type { Queryable } from '../store/db.js';
import { listApprovals, listRetryApprovals } from './approval-store.js';
import { findProposedMatch } from './likely-match-store.js';
import type {
  ChangedDetails,
  DualApprovalReason,
  PayoutDraft,
  PayoutEvent,
  PayoutEventName,
  PayoutHold,
  PayoutRequest,
  PayoutState,
  RequestedThrough,
  SearchOutcome,
} from './model.js';
import { recipientKey } from './policy.js';
import { railOf } from './rails/index.js';
import { optionalDate, parseDetails, toDate, toRequest, type EventRow, type PayoutRow } from './rows.js';

/** What a request is created with; the lifecycle columns start at their defaults. */
export interface NewPayoutRow {
  id: string;
  draft: PayoutDraft;
  requestedBy: string;
  requestedAt: Date;
  expiresAt: Date;
  requiredApprovals: number;
  /** Identifies the recipient across requests; defaults to `recipientKey(draft)`. */
  recipientKey?: string;
  dualApproval?: DualApprovalReason | undefined;
  /** No completed payout had gone to the recipient (see `PayoutLifecycle.newRecipient`). */
  newRecipient?: boolean;
  previousRecipientName?: string | undefined;
  changedDetails?: ChangedDetails | undefined;
  /** Whether the app generated the reference (see `PayoutLifecycle.referenceGenerated`). */
  referenceGenerated?: boolean;
  /** The rejected request this one corrects, checked by the caller to be the same requester's. */
  resubmitOf?: string | undefined;
  requestedThrough?: RequestedThrough | undefined;
}

/** Columns a transition may set, by their names in the model. `null` clears a column. */
export interface PayoutChanges {
  state?: PayoutState;
  transactionId?: string | null;
  failureReason?: string | null;
  rejectedBy?: string;
  rejectReason?: string;
  needsReview?: boolean;
  attempts?: number;
  lastSentAt?: Date;
  unknownSince?: Date;
  nextCheckAt?: Date | null;
  /** Raised at approval when a day total (or the new-recipient rule) now needs more approvers; never lowered. */
  requiredApprovals?: number;
  dualApprovalRule?: DualApprovalReason['rule'];
  dualApprovalTotalMinor?: number | null;
  dualApprovalThresholdMinor?: number | null;
  previousRecipientName?: string | null;
  holdReason?: PayoutHold | null;
  /** A request the gate held waits a full `PAYOUT_REQUEST_TTL_HOURS` for its approvers from then. */
  expiresAt?: Date;
  lastSearch?: SearchOutcome | null;
  lastSearchAt?: Date | null;
}

/** What must still hold for a change to apply; `states` is required so no change ignores the state. */
export interface PayoutExpectation {
  states: readonly PayoutState[];
  version?: number;
  /** The actor must not be the requester (a second guard behind the policy). */
  notRequestedBy?: string;
  /** Not yet expired at this moment. */
  unexpiredAt?: Date;
  needsReview?: boolean;
  attempts?: number;
}

const CHANGE_COLUMNS: Record<keyof PayoutChanges, string> = {
  state: 'state',
  transactionId: 'transaction_id',
  failureReason: 'failure_reason',
  rejectedBy: 'rejected_by',
  rejectReason: 'reject_reason',
  needsReview: 'needs_review',
  attempts: 'attempts',
  lastSentAt: 'last_sent_at',
  unknownSince: 'unknown_since',
  nextCheckAt: 'next_check_at',
  requiredApprovals: 'required_approvals',
  dualApprovalRule: 'dual_approval_rule',
  dualApprovalTotalMinor: 'dual_approval_total_minor',
  dualApprovalThresholdMinor: 'dual_approval_threshold_minor',
  previousRecipientName: 'previous_recipient_name',
  holdReason: 'hold_reason',
  expiresAt: 'expires_at',
  lastSearch: 'last_search',
  lastSearchAt: 'last_search_at',
};

/** Times a request needs for execution bookkeeping, not part of the public model. */
export interface ExecutionTimes {
  lastSentAt: Date | undefined;
  unknownSince: Date | undefined;
}

export async function insertRequest(q: Queryable, row: NewPayoutRow): Promise<'inserted' | 'duplicate_id' | 'duplicate_reference'> {
  const { draft } = row;
  const columns = railOf(draft.kind).columns(draft);
  const amountReason = row.dualApproval && row.dualApproval.rule !== 'new_recipient' ? row.dualApproval : undefined;
  const inserted = await q.query(
    `INSERT INTO payout_requests (
       id, kind, recipient_name, country_code, phone, operator, account_number, bank_code, amount_minor, currency,
       reference, note, requested_by, requested_at, expires_at, state, required_approvals, updated_at,
       recipient_key, dual_approval_rule, dual_approval_total_minor, dual_approval_threshold_minor, reference_generated,
       new_recipient, previous_recipient_name, resubmit_of, changed_details, requested_through)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, 'pending', $16, $14, $17, $18, $19, $20, $21, $22, $23, $24, $25::jsonb, $26)
     ON CONFLICT DO NOTHING
     RETURNING id`,
    [
      row.id,
      draft.kind,
      draft.recipient.name,
      draft.recipient.countryCode,
      columns.phone,
      columns.operator,
      columns.account_number,
      columns.bank_code,
      draft.amountMinor,
      draft.currency,
      draft.reference,
      draft.note,
      row.requestedBy,
      row.requestedAt,
      row.expiresAt,
      row.requiredApprovals,
      row.recipientKey ?? recipientKey(draft),
      row.dualApproval?.rule ?? null,
      amountReason?.totalMinor ?? null,
      amountReason?.thresholdMinor ?? null,
      row.referenceGenerated === true,
      row.newRecipient === true,
      row.previousRecipientName ?? null,
      row.resubmitOf ?? null,
      row.changedDetails ? JSON.stringify(row.changedDetails) : null,
      row.requestedThrough ?? null,
    ],
  );
  if (inserted.rowCount > 0) return 'inserted';
  return (await referenceExists(q, draft.reference)) ? 'duplicate_reference' : 'duplicate_id';
}

/**
 * Inserts a new request under a fresh id (`newId`, tried again on the rare id already taken): the one
 * way a request is created, for the form, a bulk row and a scheduled occurrence. Undefined when its
 * reference is taken (references are unique; the Fleet API takes each once).
 */
export async function insertWithFreshId(q: Queryable, row: Omit<NewPayoutRow, 'id'>, newId: () => string): Promise<string | undefined> {
  for (let attempt = 0; attempt < 5; attempt += 1) {
    const id = newId();
    const outcome = await insertRequest(q, { id, ...row });
    if (outcome === 'inserted') return id;
    if (outcome === 'duplicate_reference') return undefined;
  }
  throw new Error('could not find a free payout id after 5 attempts');
}

export async function referenceExists(q: Queryable, reference: string): Promise<boolean> {
  const { rowCount } = await q.query('SELECT 1 FROM payout_requests WHERE reference = $1', [reference]);
  return rowCount > 0;
}

export async function findRequest(q: Queryable, id: string): Promise<PayoutRequest | undefined> {
  const { rows } = await q.query<PayoutRow>('SELECT * FROM payout_requests WHERE id = $1', [id]);
  const row = rows[0];
  return row ? withApprovals(q, row) : undefined;
}

/** The request holding a partner reference (references are unique). */
export async function findRequestByReference(q: Queryable, reference: string): Promise<PayoutRequest | undefined> {
  const { rows } = await q.query<PayoutRow>('SELECT * FROM payout_requests WHERE reference = $1', [reference]);
  const row = rows[0];
  return row ? withApprovals(q, row) : undefined;
}

export async function executionTimes(q: Queryable, id: string): Promise<ExecutionTimes> {
  const { rows } = await q.query<Pick<PayoutRow, 'last_sent_at' | 'unknown_since'>>('SELECT last_sent_at, unknown_since FROM payout_requests WHERE id = $1', [
    id,
  ]);
  return { lastSentAt: optionalDate(rows[0]?.last_sent_at), unknownSince: optionalDate(rows[0]?.unknown_since) };
}

/**
 * Applies `changes` only if `expected` still holds, bumping `version` and `updated_at`; returns the
 * updated request, or undefined when someone else got there first (or the request does not exist).
 */
export async function updateRequest(
  q: Queryable,
  id: string,
  expected: PayoutExpectation,
  changes: PayoutChanges,
  now: Date,
): Promise<PayoutRequest | undefined> {
  const params: unknown[] = [id, [...expected.states], now];
  const assignments = ['version = version + 1', 'updated_at = $3'];
  for (const [key, value] of Object.entries(changes) as Array<[keyof PayoutChanges, unknown]>) {
    if (value === undefined) continue;
    params.push(value);
    assignments.push(`${CHANGE_COLUMNS[key]} = $${params.length}`);
  }
  const conditions = ['id = $1', 'state = ANY($2::text[])'];
  const condition = (sql: (placeholder: string) => string, value: unknown) => {
    params.push(value);
    conditions.push(sql(`$${params.length}`));
  };
  if (expected.version !== undefined) condition((p) => `version = ${p}`, expected.version);
  if (expected.notRequestedBy !== undefined) condition((p) => `requested_by <> ${p}`, expected.notRequestedBy);
  if (expected.unexpiredAt !== undefined) condition((p) => `expires_at > ${p}`, expected.unexpiredAt);
  if (expected.needsReview !== undefined) condition((p) => `needs_review = ${p}`, expected.needsReview);
  if (expected.attempts !== undefined) condition((p) => `attempts = ${p}`, expected.attempts);

  const { rows } = await q.query<PayoutRow>(`UPDATE payout_requests SET ${assignments.join(', ')} WHERE ${conditions.join(' AND ')} RETURNING *`, params);
  const row = rows[0];
  return row ? withApprovals(q, row) : undefined;
}

/** Moves every row matching `where` at once (expiry, recovery); returns those it moved. */
export async function updateWhere(
  q: Queryable,
  where: { state: PayoutState; column: 'expires_at' | 'last_sent_at'; atOrBefore: Date },
  changes: PayoutChanges & { state: PayoutState },
  now: Date,
  limit: number,
): Promise<PayoutRequest[]> {
  const params: unknown[] = [where.state, where.atOrBefore, now, limit];
  const assignments = ['version = version + 1', 'updated_at = $3'];
  for (const [key, value] of Object.entries(changes) as Array<[keyof PayoutChanges, unknown]>) {
    if (value === undefined) continue;
    params.push(value);
    assignments.push(`${CHANGE_COLUMNS[key]} = $${params.length}`);
  }
  // The state is re-checked by the UPDATE itself, so a row that moved meanwhile is left alone.
  const { rows } = await q.query<PayoutRow>(
    `UPDATE payout_requests SET ${assignments.join(', ')}
     WHERE state = $1 AND id IN (
       SELECT id FROM payout_requests WHERE state = $1 AND ${where.column} <= $2 ORDER BY ${where.column} LIMIT $4
     )
     RETURNING *`,
    params,
  );
  return Promise.all(rows.map((row) => withApprovals(q, row)));
}

/**
 * Remembers the request's approval message, only if it has none yet; undefined when another
 * process posted one first (its poster then removes its own copy) or the request does not exist.
 */
export async function setApprovalMessage(q: Queryable, id: string, channel: string, ts: string, now: Date): Promise<PayoutRequest | undefined> {
  const { rows } = await q.query<PayoutRow>(
    'UPDATE payout_requests SET approval_channel = $2, approval_ts = $3, updated_at = $4 WHERE id = $1 AND approval_ts IS NULL RETURNING *',
    [id, channel, ts, now],
  );
  const row = rows[0];
  return row ? withApprovals(q, row) : undefined;
}

/** Names the bulk payout row a request was made from (in the transaction that makes it). */
export async function linkBatchRow(q: Queryable, id: string, batchId: string, row: number): Promise<void> {
  await q.query('UPDATE payout_requests SET batch_id = $2, batch_row = $3 WHERE id = $1', [id, batchId, row]);
}

export async function appendEvent(
  q: Queryable,
  event: { requestId: string; event: PayoutEventName; userId?: string | undefined; at: Date; details?: Record<string, unknown> },
): Promise<void> {
  await q.query('INSERT INTO payout_events (request_id, event, user_id, at, details) VALUES ($1, $2, $3, $4, $5::jsonb)', [
    event.requestId,
    event.event,
    event.userId ?? null,
    event.at,
    JSON.stringify(event.details ?? {}),
  ]);
}

/**
 * When a request was last approved (its move to approved, or an approval given anew), and when an
 * approver last ticked that it is not a duplicate (the tick is part of an approval's event).
 */
export async function lastApprovalEvents(q: Queryable, requestId: string): Promise<{ approvedAt: Date | undefined; tickedAt: Date | undefined }> {
  const { rows } = await q.query<{ approved_at: Date | string | null; ticked_at: Date | string | null }>(
    `SELECT max(at) AS approved_at, max(at) FILTER (WHERE details ? 'duplicateChecked') AS ticked_at
     FROM payout_events WHERE request_id = $1 AND event = 'approved'`,
    [requestId],
  );
  const row = rows[0];
  return { approvedAt: row?.approved_at ? toDate(row.approved_at) : undefined, tickedAt: row?.ticked_at ? toDate(row.ticked_at) : undefined };
}

export async function listEvents(q: Queryable, requestId: string): Promise<PayoutEvent[]> {
  const { rows } = await q.query<EventRow>('SELECT * FROM payout_events WHERE request_id = $1 ORDER BY id', [requestId]);
  return rows.map((row) => ({
    id: Number(row.id),
    requestId: row.request_id,
    event: row.event as PayoutEventName,
    userId: row.user_id ?? undefined,
    at: toDate(row.at),
    details: parseDetails(row.details),
  }));
}

export async function listRecentRequests(q: Queryable, limit: number): Promise<PayoutRequest[]> {
  const { rows } = await q.query<PayoutRow>('SELECT * FROM payout_requests ORDER BY requested_at DESC, id LIMIT $1', [limit]);
  return Promise.all(rows.map((row) => withApprovals(q, row)));
}

/** Pending requests still open at `now` that `userId` did not make, newest first: a new request is always among the first shown. */
export async function listPendingRequests(q: Queryable, notRequestedBy: string, now: Date, limit: number): Promise<PayoutRequest[]> {
  const { rows } = await q.query<PayoutRow>(
    `SELECT * FROM payout_requests WHERE state = 'pending' AND expires_at > $2 AND requested_by <> $1 ORDER BY requested_at DESC, id DESC LIMIT $3`,
    [notRequestedBy, now, limit],
  );
  return Promise.all(rows.map((row) => withApprovals(q, row)));
}

/** One person's requests, newest first. */
export async function listRequestsBy(q: Queryable, requestedBy: string, limit: number): Promise<PayoutRequest[]> {
  const { rows } = await q.query<PayoutRow>('SELECT * FROM payout_requests WHERE requested_by = $1 ORDER BY requested_at DESC, id LIMIT $2', [
    requestedBy,
    limit,
  ]);
  return Promise.all(rows.map((row) => withApprovals(q, row)));
}

/**
 * Requests whose id, reference, recipient name, phone or account number holds every word (any case;
 * spaces in phone and account numbers ignored), newest first, with how many match in all.
 */
export async function searchRequests(q: Queryable, words: readonly string[], limit: number): Promise<{ requests: PayoutRequest[]; total: number }> {
  const params: unknown[] = [];
  const conditions = words.map((word) => {
    params.push(`%${likeEscape(word.toLowerCase())}%`, `%${likeEscape(word.replace(/\s+/g, '').toLowerCase())}%`);
    const text = `$${params.length - 1}`;
    const compact = `$${params.length}`;
    return `(lower(id) LIKE ${text} ESCAPE '\\' OR lower(reference) LIKE ${text} ESCAPE '\\' OR lower(recipient_name) LIKE ${text} ESCAPE '\\'
      OR lower(replace(coalesce(phone, ''), ' ', '')) LIKE ${compact} ESCAPE '\\'
      OR lower(replace(coalesce(account_number, ''), ' ', '')) LIKE ${compact} ESCAPE '\\')`;
  });
  const where = conditions.length > 0 ? `WHERE ${conditions.join(' AND ')}` : '';
  const { rows } = await q.query<PayoutRow>(`SELECT * FROM payout_requests ${where} ORDER BY requested_at DESC, id LIMIT $${params.length + 1}`, [
    ...params,
    limit,
  ]);
  const counted = await q.query<{ total: string | number }>(`SELECT count(*) AS total FROM payout_requests ${where}`, params);
  return { requests: await Promise.all(rows.map((row) => withApprovals(q, row))), total: Number(counted.rows[0]?.total ?? 0) };
}

/** `%`, `_` and `\` typed by a person match themselves in a LIKE pattern. */
function likeEscape(text: string): string {
  return text.replace(/[\\%_]/g, (character) => `\\${character}`);
}

/**
 * Approved requests that no process has started sending since `before` (their process died); a
 * scheduled request waits for its time, unless it is a one-off released at its time (sent as itself).
 */
export async function listStaleApproved(q: Queryable, before: Date, limit: number): Promise<string[]> {
  const { rows } = await q.query(
    `SELECT id FROM payout_requests WHERE state = 'approved' AND updated_at <= $1
       AND (NOT EXISTS (SELECT 1 FROM payout_schedules s WHERE s.request_id = payout_requests.id)
         OR EXISTS (SELECT 1 FROM payout_occurrences o WHERE o.request_id = payout_requests.id AND o.payout_id = payout_requests.id AND o.state = 'released'))
     ORDER BY updated_at LIMIT $2`,
    [before, limit],
  );
  return rows.map((row) => String(row.id));
}

/** Unknown requests whose next reconciliation check is due, oldest first. */
export async function listDueForCheck(q: Queryable, now: Date, limit: number): Promise<string[]> {
  const { rows } = await q.query(
    `SELECT id FROM payout_requests WHERE state = 'unknown' AND NOT needs_review AND next_check_at <= $1
     ORDER BY next_check_at LIMIT $2`,
    [now, limit],
  );
  return rows.map((row) => String(row.id));
}

async function withApprovals(q: Queryable, row: PayoutRow): Promise<PayoutRequest> {
  const approvals = await listApprovals(q, row.id);
  // Only an unknown payout has retry approvals or a likely match that still matter.
  if (row.state !== 'unknown') return toRequest(row, approvals);
  return toRequest(row, approvals, {
    retryApprovals: await listRetryApprovals(q, row.id, Number(row.attempts) + 1),
    likelyMatch: await findProposedMatch(q, row.id),
  });
}

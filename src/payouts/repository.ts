/**
 * SQL for payout requests, approvals and the audit log. Holds no rules: every change is a
 * conditional UPDATE whose WHERE states what must still be true, and the caller learns whether it won.
 */
import type { Queryable } from '../store/db.js';
import type { DualApprovalReason, LikelyMatch, PayoutDraft, PayoutEvent, PayoutEventName, PayoutHold, PayoutRequest, PayoutState, SearchOutcome } from './model.js';
import { recipientKey } from './policy.js';
import { optionalDate, toDate, toRequest, type EventRow, type PayoutRow, type Timestamp } from './rows.js';

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
  /** Whether the app generated the reference (see `PayoutLifecycle.referenceGenerated`). */
  referenceGenerated?: boolean;
  /** The rejected request this one corrects, checked by the caller to be the same requester's. */
  resubmitOf?: string | undefined;
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
  const mobile = draft.kind === 'mobile_money' ? draft : undefined;
  const bank = draft.kind === 'bank_account' ? draft : undefined;
  const amountReason = row.dualApproval && row.dualApproval.rule !== 'new_recipient' ? row.dualApproval : undefined;
  const inserted = await q.query(
    `INSERT INTO payout_requests (
       id, kind, recipient_name, country_code, phone, operator, account_number, bank_code, amount_minor, currency,
       reference, note, requested_by, requested_at, expires_at, state, required_approvals, updated_at,
       recipient_key, dual_approval_rule, dual_approval_total_minor, dual_approval_threshold_minor, reference_generated,
       new_recipient, previous_recipient_name, resubmit_of)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, 'pending', $16, $14, $17, $18, $19, $20, $21, $22, $23, $24)
     ON CONFLICT DO NOTHING
     RETURNING id`,
    [
      row.id, draft.kind, draft.recipient.name, draft.recipient.countryCode, mobile?.recipient.phone ?? null, mobile?.operator ?? null,
      bank?.recipient.accountNumber ?? null, bank?.recipient.bankCode ?? null, draft.amountMinor, draft.currency,
      draft.reference, draft.note, row.requestedBy, row.requestedAt, row.expiresAt, row.requiredApprovals,
      row.recipientKey ?? recipientKey(draft), row.dualApproval?.rule ?? null, amountReason?.totalMinor ?? null, amountReason?.thresholdMinor ?? null,
      row.referenceGenerated === true, row.newRecipient === true, row.previousRecipientName ?? null, row.resubmitOf ?? null,
    ],
  );
  if (inserted.rowCount > 0) return 'inserted';
  return (await referenceExists(q, draft.reference)) ? 'duplicate_reference' : 'duplicate_id';
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
  const { rows } = await q.query<Pick<PayoutRow, 'last_sent_at' | 'unknown_since'>>('SELECT last_sent_at, unknown_since FROM payout_requests WHERE id = $1', [id]);
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

  const { rows } = await q.query<PayoutRow>(
    `UPDATE payout_requests SET ${assignments.join(', ')} WHERE ${conditions.join(' AND ')} RETURNING *`,
    params,
  );
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
 * Records an approval; false when this person's approval already stands (the primary key says so).
 * An approval of theirs that was revoked is given again: it counts from `at`.
 */
export async function insertApproval(q: Queryable, requestId: string, userId: string, at: Date): Promise<boolean> {
  const { rowCount } = await q.query(
    `INSERT INTO payout_approvals (request_id, user_id, approved_at) VALUES ($1, $2, $3)
     ON CONFLICT (request_id, user_id) DO UPDATE SET approved_at = EXCLUDED.approved_at, revoked_at = NULL
       WHERE payout_approvals.revoked_at IS NOT NULL`,
    [requestId, userId, at],
  );
  return rowCount > 0;
}

/** Marks approvals that no longer count (their givers are no longer approvers); kept as evidence. */
export async function revokeApprovals(q: Queryable, requestId: string, userIds: readonly string[], at: Date): Promise<void> {
  if (userIds.length === 0) return;
  await q.query(
    'UPDATE payout_approvals SET revoked_at = $3 WHERE request_id = $1 AND user_id = ANY($2::text[]) AND revoked_at IS NULL',
    [requestId, [...userIds], at],
  );
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

/** The total one requester requested in the window, their bulk rows waiting or being sent included. */
export async function sumRequested(q: Queryable, input: { requestedBy: string } & DayWindow): Promise<number> {
  const { rows } = await q.query<{ total: unknown }>(
    `SELECT (SELECT COALESCE(SUM(amount_minor), 0) FROM payout_requests
       WHERE requested_by = $1 AND currency = $2 AND requested_at >= $3 AND requested_at < $4 AND state = ANY($5::text[]))
     + (SELECT COALESCE(SUM(r.amount_minor), 0) FROM payout_batch_rows r JOIN payout_batches b ON b.id = r.batch_id
       WHERE b.requested_by = $1 ${BATCH_ROWS_COUNTING}) AS total`,
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
         WHERE recipient_key = k.key AND currency = $2 AND requested_at >= $3 AND requested_at < $4 AND state = ANY($5::text[]))
       + (SELECT COALESCE(SUM(r.amount_minor), 0) FROM payout_batch_rows r JOIN payout_batches b ON b.id = r.batch_id
         WHERE r.recipient_key = k.key ${BATCH_ROWS_COUNTING}) AS total
     FROM unnest($1::text[]) AS k(key)`,
    [keys, input.currency, input.from, input.to, [...input.states]],
  );
  return new Map(rows.map((row) => [row.key, Number(row.total ?? 0)]));
}

export async function appendEvent(
  q: Queryable,
  event: { requestId: string; event: PayoutEventName; userId?: string | undefined; at: Date; details?: Record<string, unknown> },
): Promise<void> {
  await q.query(
    'INSERT INTO payout_events (request_id, event, user_id, at, details) VALUES ($1, $2, $3, $4, $5::jsonb)',
    [event.requestId, event.event, event.userId ?? null, event.at, JSON.stringify(event.details ?? {})],
  );
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
  const { rows } = await q.query<PayoutRow>('SELECT * FROM payout_requests WHERE requested_by = $1 ORDER BY requested_at DESC, id LIMIT $2', [requestedBy, limit]);
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
  const { rows } = await q.query<PayoutRow>(
    `SELECT * FROM payout_requests ${where} ORDER BY requested_at DESC, id LIMIT $${params.length + 1}`,
    [...params, limit],
  );
  const counted = await q.query<{ total: string | number }>(`SELECT count(*) AS total FROM payout_requests ${where}`, params);
  return { requests: await Promise.all(rows.map((row) => withApprovals(q, row))), total: Number(counted.rows[0]?.total ?? 0) };
}

/** `%`, `_` and `\` typed by a person match themselves in a LIKE pattern. */
function likeEscape(text: string): string {
  return text.replace(/[\\%_]/g, (character) => `\\${character}`);
}

/** Approved requests that no process has started sending since `before` (their process died). */
export async function listStaleApproved(q: Queryable, before: Date, limit: number): Promise<string[]> {
  const { rows } = await q.query(
    `SELECT id FROM payout_requests WHERE state = 'approved' AND updated_at <= $1 ORDER BY updated_at LIMIT $2`,
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
  const { rows } = await q.query<{ user_id: string; approved_at: Timestamp; revoked_at: Timestamp | null }>(
    'SELECT user_id, approved_at, revoked_at FROM payout_approvals WHERE request_id = $1 ORDER BY approved_at, user_id',
    [row.id],
  );
  const approvals = rows.map((approval) => ({
    userId: approval.user_id,
    at: toDate(approval.approved_at),
    ...(approval.revoked_at ? { revokedAt: toDate(approval.revoked_at) } : {}),
  }));
  // Only an unknown payout has retry approvals or a likely match that still matter.
  if (row.state !== 'unknown') return toRequest(row, approvals);
  return toRequest(row, approvals, {
    retryApprovals: await listRetryApprovals(q, row.id, Number(row.attempts) + 1),
    likelyMatch: await findProposedMatch(q, row.id),
  });
}

/** Records one approver's agreement to send attempt `attempt`; false when they had already given it. */
export async function insertRetryApproval(q: Queryable, requestId: string, attempt: number, userId: string, at: Date): Promise<boolean> {
  const { rowCount } = await q.query(
    `INSERT INTO payout_retry_approvals (request_id, attempt, user_id, approved_at) VALUES ($1, $2, $3, $4)
     ON CONFLICT (request_id, attempt, user_id) DO NOTHING`,
    [requestId, attempt, userId, at],
  );
  return rowCount > 0;
}

async function listRetryApprovals(q: Queryable, requestId: string, attempt: number): Promise<PayoutRequest['retryApprovals']> {
  const { rows } = await q.query<{ user_id: string; approved_at: Timestamp }>(
    'SELECT user_id, approved_at FROM payout_retry_approvals WHERE request_id = $1 AND attempt = $2 ORDER BY approved_at, user_id',
    [requestId, attempt],
  );
  return rows.map((approval) => ({ userId: approval.user_id, at: toDate(approval.approved_at) }));
}

/** The entry fields kept for a likely match, as the transaction list gave them. */
export type LikelyMatchEntry = Omit<LikelyMatch, 'id' | 'proposedAt'>;

/**
 * Proposes an entry as a likely match; false when it was proposed or decided before, or another
 * proposal still waits (the partial unique index allows one).
 */
export async function proposeLikelyMatch(q: Queryable, requestId: string, matchId: string, entry: LikelyMatchEntry, at: Date): Promise<boolean> {
  const { rowCount } = await q.query(
    `INSERT INTO payout_likely_matches (request_id, match_id, entry, status, proposed_at) VALUES ($1, $2, $3::jsonb, 'proposed', $4)
     ON CONFLICT DO NOTHING`,
    [requestId, matchId, JSON.stringify(entry), at],
  );
  return rowCount > 0;
}

/** Confirms or rejects the proposal `matchId`; false when it is not (or no longer) the one proposed. */
export async function decideLikelyMatch(
  q: Queryable,
  decision: { requestId: string; matchId: string; status: 'confirmed' | 'rejected'; userId: string; at: Date },
): Promise<boolean> {
  const { rowCount } = await q.query(
    `UPDATE payout_likely_matches SET status = $3, decided_by = $4, decided_at = $5
     WHERE request_id = $1 AND match_id = $2 AND status = 'proposed'`,
    [decision.requestId, decision.matchId, decision.status, decision.userId, decision.at],
  );
  return rowCount > 0;
}

/** What became of one proposal, if it exists. */
export async function likelyMatchStatus(q: Queryable, requestId: string, matchId: string): Promise<'proposed' | 'confirmed' | 'rejected' | undefined> {
  const { rows } = await q.query<{ status: 'proposed' | 'confirmed' | 'rejected' }>(
    'SELECT status FROM payout_likely_matches WHERE request_id = $1 AND match_id = $2',
    [requestId, matchId],
  );
  return rows[0]?.status;
}

/** Entries already proposed for this request (whatever the answer): never proposed twice. */
export async function listProposedMatchIds(q: Queryable, requestId: string): Promise<Set<string>> {
  const { rows } = await q.query<{ match_id: string }>('SELECT match_id FROM payout_likely_matches WHERE request_id = $1', [requestId]);
  return new Set(rows.map((row) => row.match_id));
}

async function findProposedMatch(q: Queryable, requestId: string): Promise<LikelyMatch | undefined> {
  const { rows } = await q.query<{ match_id: string; entry: unknown; proposed_at: Timestamp }>(
    "SELECT match_id, entry, proposed_at FROM payout_likely_matches WHERE request_id = $1 AND status = 'proposed'",
    [requestId],
  );
  const row = rows[0];
  if (!row) return undefined;
  const entry = parseDetails(row.entry);
  const text = (value: unknown) => (typeof value === 'string' ? value : '');
  return {
    id: row.match_id,
    reference: text(entry.reference),
    date: text(entry.date),
    amount: Number(entry.amount),
    currency: text(entry.currency),
    description: text(entry.description),
    proposedAt: toDate(row.proposed_at),
  };
}

function parseDetails(value: unknown): Record<string, unknown> {
  if (typeof value === 'string') return JSON.parse(value) as Record<string, unknown>;
  return typeof value === 'object' && value !== null ? value as Record<string, unknown> : {};
}

/**
 * SQL for bulk payout batches, their rows and approvals. Holds no rules: every change is a
 * conditional UPDATE whose WHERE says what must still be true, and the caller learns whether it won.
 */
import type { Queryable } from '../../store/db.js';
import type { BatchRow } from './rows.js';
import type { BatchProgress, BatchRowResult, BatchState, PayoutBatch, StoredBatchRow } from './model.js';
import type { DualApprovalRule, PayoutDraft } from '../model.js';
import { toDualApproval, type DualApprovalColumns } from '../rows.js';
import { recipientKey } from '../policy.js';

type Timestamp = Date | string;
const date = (value: Timestamp): Date => (value instanceof Date ? value : new Date(value));
const maybeDate = (value: Timestamp | null): Date | undefined => (value === null ? undefined : date(value));

interface BatchDbRow extends DualApprovalColumns {
  id: string;
  requested_by: string;
  created_at: Timestamp;
  requested_at: Timestamp | null;
  expires_at: Timestamp;
  state: BatchState;
  row_count: number;
  totals: Record<string, number | string> | string;
  new_recipients: number;
  required_approvals: number;
  rejected_by: string | null;
  reject_reason: string | null;
  stopped_by: string | null;
  approval_channel: string | null;
  approval_ts: string | null;
  progress_channel: string | null;
  progress_ts: string | null;
  finished_at: Timestamp | null;
  version: number;
  file_name: string | null;
  dual_approval_currency?: string | null;
}

async function toBatch(q: Queryable, row: BatchDbRow): Promise<PayoutBatch> {
  const { rows: approvals } = await q.query<{ user_id: string; approved_at: Timestamp; senior: boolean }>(
    'SELECT user_id, approved_at, senior FROM payout_batch_approvals WHERE batch_id = $1 ORDER BY approved_at, user_id',
    [row.id],
  );
  const totals = typeof row.totals === 'string' ? (JSON.parse(row.totals) as Record<string, number>) : row.totals;
  return {
    id: row.id,
    requestedBy: row.requested_by,
    createdAt: date(row.created_at),
    requestedAt: maybeDate(row.requested_at),
    expiresAt: date(row.expires_at),
    state: row.state,
    rowCount: Number(row.row_count),
    totals: new Map(Object.entries(totals).map(([currency, minor]) => [currency, Number(minor)])),
    newRecipients: Number(row.new_recipients),
    requiredApprovals: Number(row.required_approvals),
    dualApproval: toDualApproval(row),
    dualApprovalCurrency: row.dual_approval_currency ?? undefined,
    approvals: approvals.map((approval) => ({ userId: approval.user_id, at: date(approval.approved_at), ...(approval.senior ? { senior: true } : {}) })),
    rejectedBy: row.rejected_by ?? undefined,
    rejectReason: row.reject_reason ?? undefined,
    stoppedBy: row.stopped_by ?? undefined,
    approvalMessage: row.approval_channel && row.approval_ts ? { channel: row.approval_channel, ts: row.approval_ts } : undefined,
    progressMessage: row.progress_channel && row.progress_ts ? { channel: row.progress_channel, ts: row.progress_ts } : undefined,
    finishedAt: maybeDate(row.finished_at),
    version: Number(row.version),
    fileName: row.file_name ?? undefined,
  };
}

export interface NewBatch {
  id: string;
  requestedBy: string;
  createdAt: Date;
  expiresAt: Date;
  totals: ReadonlyMap<string, number>;
  rows: readonly BatchRow[];
  /** The name of the file chosen in Slack; undefined for pasted rows. */
  fileName?: string | undefined;
}

/** Stores a checked file as a draft with its rows, in one transaction of the caller's. */
export async function insertDraftBatch(q: Queryable, batch: NewBatch): Promise<void> {
  await q.query(
    `INSERT INTO payout_batches (id, requested_by, created_at, expires_at, state, row_count, totals, new_recipients, updated_at, file_name)
     VALUES ($1, $2, $3, $4, 'draft', $5, $6, $7, $3, $8)`,
    [
      batch.id,
      batch.requestedBy,
      batch.createdAt,
      batch.expiresAt,
      batch.rows.length,
      JSON.stringify(Object.fromEntries(batch.totals)),
      batch.rows.filter((row) => row.newRecipient).length,
      batch.fileName ?? null,
    ],
  );
  // One statement for every row: a 500-row file is one round trip, not 500.
  await q.query(
    `INSERT INTO payout_batch_rows (batch_id, row_number, draft, reference, amount_minor, currency, recipient_key, new_recipient)
     SELECT $1, r.row_number, r.draft, r.reference, r.amount_minor, r.currency, r.recipient_key, r.new_recipient
     FROM jsonb_to_recordset($2::jsonb) AS r(row_number integer, draft jsonb, reference text, amount_minor bigint, currency text, recipient_key text, new_recipient boolean)`,
    [
      batch.id,
      JSON.stringify(
        batch.rows.map((row) => ({
          row_number: row.rowNumber,
          draft: row.draft,
          reference: row.draft.reference,
          amount_minor: row.draft.amountMinor,
          currency: row.draft.currency,
          recipient_key: recipientKey(row.draft),
          new_recipient: row.newRecipient,
        })),
      ),
    ],
  );
}

/**
 * True when some bulk payout may have work for the sender: one sending, or one stopped whose results
 * are not yet sent. One read, so that a sender with nothing to do costs one statement a look.
 */
export async function anyBatchToSend(q: Queryable): Promise<boolean> {
  const { rows } = await q.query<{ open: boolean }>(
    `SELECT EXISTS (SELECT 1 FROM payout_batches WHERE state = 'sending' OR (state = 'stopped' AND results_sent_at IS NULL)) AS open`,
  );
  return rows[0]?.open === true;
}

export async function findBatch(q: Queryable, id: string): Promise<PayoutBatch | undefined> {
  const { rows } = await q.query<BatchDbRow>('SELECT * FROM payout_batches WHERE id = $1', [id]);
  return rows[0] ? toBatch(q, rows[0]) : undefined;
}

/** Submitted batches still pending at `now` that `userId` did not ask for, newest first. */
export async function listPendingBatches(q: Queryable, notRequestedBy: string, now: Date, limit: number): Promise<PayoutBatch[]> {
  const { rows } = await q.query<BatchDbRow>(
    `SELECT * FROM payout_batches WHERE state = 'pending' AND expires_at > $2 AND requested_by <> $1 ORDER BY requested_at DESC, id DESC LIMIT $3`,
    [notRequestedBy, now, limit],
  );
  return Promise.all(rows.map((row) => toBatch(q, row)));
}

/** Submitted batches (never drafts), newest first; only `requestedBy`'s when given. */
export async function listRecentBatches(q: Queryable, options: { requestedBy?: string; limit: number }): Promise<PayoutBatch[]> {
  const { rows } =
    options.requestedBy === undefined
      ? await q.query<BatchDbRow>("SELECT * FROM payout_batches WHERE state <> 'draft' ORDER BY requested_at DESC, id DESC LIMIT $1", [options.limit])
      : await q.query<BatchDbRow>("SELECT * FROM payout_batches WHERE state <> 'draft' AND requested_by = $1 ORDER BY requested_at DESC, id DESC LIMIT $2", [
          options.requestedBy,
          options.limit,
        ]);
  return Promise.all(rows.map((row) => toBatch(q, row)));
}

/**
 * Submitted batches in which every word is found (any case): in the batch id or the file's name, or
 * in one of its rows' reference, recipient name, phone or account number (spaces in numbers
 * ignored). Newest first, with how many match in all.
 */
export async function searchBatches(q: Queryable, words: readonly string[], limit: number): Promise<{ batches: PayoutBatch[]; total: number }> {
  const params: unknown[] = [];
  const conditions = words.map((word) => {
    params.push(`%${likeEscape(word.toLowerCase())}%`, `%${likeEscape(word.replace(/\s+/g, '').toLowerCase())}%`);
    const text = `$${params.length - 1}`;
    const compact = `$${params.length}`;
    return `(lower(b.id) LIKE ${text} ESCAPE '\\' OR lower(coalesce(b.file_name, '')) LIKE ${text} ESCAPE '\\'
      OR EXISTS (SELECT 1 FROM payout_batch_rows r WHERE r.batch_id = b.id AND (lower(r.reference) LIKE ${text} ESCAPE '\\'
        OR lower(r.draft->'recipient'->>'name') LIKE ${text} ESCAPE '\\'
        OR lower(replace(coalesce(r.draft->'recipient'->>'phone', r.draft->'recipient'->>'accountNumber', ''), ' ', '')) LIKE ${compact} ESCAPE '\\')))`;
  });
  const where = ["b.state <> 'draft'", ...conditions].join(' AND ');
  const { rows } = await q.query<BatchDbRow>(
    `SELECT b.* FROM payout_batches b WHERE ${where} ORDER BY b.requested_at DESC, b.id DESC LIMIT $${params.length + 1}`,
    [...params, limit],
  );
  const counted = await q.query<{ total: string | number }>(`SELECT count(*) AS total FROM payout_batches b WHERE ${where}`, params);
  return { batches: await Promise.all(rows.map((row) => toBatch(q, row))), total: Number(counted.rows[0]?.total ?? 0) };
}

/** `%`, `_` and `\` typed by a person match themselves in a LIKE pattern. */
function likeEscape(text: string): string {
  return text.replace(/[\\%_]/g, (character) => `\\${character}`);
}

export interface BatchChanges {
  state?: BatchState;
  requestedAt?: Date;
  expiresAt?: Date;
  requiredApprovals?: number;
  dualApprovalRule?: DualApprovalRule;
  dualApprovalTotalMinor?: number | null;
  dualApprovalThresholdMinor?: number | null;
  dualApprovalCurrency?: string | null;
  rejectedBy?: string;
  rejectReason?: string;
  stoppedBy?: string;
  finishedAt?: Date;
}

const COLUMNS: Record<keyof BatchChanges, string> = {
  state: 'state',
  requestedAt: 'requested_at',
  expiresAt: 'expires_at',
  requiredApprovals: 'required_approvals',
  rejectedBy: 'rejected_by',
  dualApprovalRule: 'dual_approval_rule',
  dualApprovalTotalMinor: 'dual_approval_total_minor',
  dualApprovalThresholdMinor: 'dual_approval_threshold_minor',
  dualApprovalCurrency: 'dual_approval_currency',
  rejectReason: 'reject_reason',
  stoppedBy: 'stopped_by',
  finishedAt: 'finished_at',
};

/** Applies `changes` when the batch is in one of `states` (and unexpired at `unexpiredAt`); the batch after, or undefined. */
export async function updateBatch(
  q: Queryable,
  id: string,
  expected: { states: readonly BatchState[]; unexpiredAt?: Date },
  changes: BatchChanges,
  now: Date,
): Promise<PayoutBatch | undefined> {
  const sets = ['updated_at = $3', 'version = version + 1'];
  const params: unknown[] = [id, [...expected.states], now];
  for (const [key, value] of Object.entries(changes) as Array<[keyof BatchChanges, unknown]>) {
    params.push(value);
    sets.push(`${COLUMNS[key]} = $${params.length}`);
  }
  let where = 'id = $1 AND state = ANY($2::text[])';
  if (expected.unexpiredAt) {
    params.push(expected.unexpiredAt);
    where += ` AND expires_at > $${params.length}`;
  }
  const { rows } = await q.query<BatchDbRow>(`UPDATE payout_batches SET ${sets.join(', ')} WHERE ${where} RETURNING *`, params);
  return rows[0] ? toBatch(q, rows[0]) : undefined;
}

/** Records an approval; false when this person had already approved. */
export async function insertBatchApproval(q: Queryable, id: string, userId: string, at: Date, senior = false): Promise<boolean> {
  const { rowCount } = await q.query(
    'INSERT INTO payout_batch_approvals (batch_id, user_id, approved_at, senior) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING',
    [id, userId, at, senior],
  );
  return rowCount === 1;
}

export async function appendBatchEvent(
  q: Queryable,
  event: { batchId: string; event: string; userId?: string | undefined; at: Date; details?: Record<string, unknown> },
): Promise<void> {
  await q.query('INSERT INTO payout_batch_events (batch_id, event, user_id, at, details) VALUES ($1, $2, $3, $4, $5)', [
    event.batchId,
    event.event,
    event.userId ?? null,
    event.at,
    JSON.stringify(event.details ?? {}),
  ]);
}

export async function setBatchMessage(q: Queryable, id: string, which: 'approval' | 'progress', channel: string, ts: string): Promise<boolean> {
  const prefix = which === 'approval' ? 'approval' : 'progress';
  const { rowCount } = await q.query(`UPDATE payout_batches SET ${prefix}_channel = $2, ${prefix}_ts = $3 WHERE id = $1 AND ${prefix}_ts IS NULL`, [
    id,
    channel,
    ts,
  ]);
  return rowCount === 1;
}

interface RowDbRow {
  row_number: number;
  draft: PayoutDraft | string;
  new_recipient: boolean;
  request_id: string | null;
  skipped: 'stopped' | 'reference_used' | null;
}

const toRow = (row: RowDbRow): StoredBatchRow => ({
  rowNumber: Number(row.row_number),
  draft: typeof row.draft === 'string' ? (JSON.parse(row.draft) as PayoutDraft) : row.draft,
  newRecipient: row.new_recipient,
  requestId: row.request_id ?? undefined,
  skipped: row.skipped ?? undefined,
});

export async function listBatchRows(q: Queryable, id: string): Promise<StoredBatchRow[]> {
  const { rows } = await q.query<RowDbRow>(
    'SELECT row_number, draft, new_recipient, request_id, skipped FROM payout_batch_rows WHERE batch_id = $1 ORDER BY row_number',
    [id],
  );
  return rows.map(toRow);
}

/** The largest row of each currency. */
export async function largestBatchRows(q: Queryable, id: string): Promise<StoredBatchRow[]> {
  const { rows } = await q.query<RowDbRow>(
    `SELECT DISTINCT ON (currency) row_number, draft, new_recipient, request_id, skipped FROM payout_batch_rows
     WHERE batch_id = $1 ORDER BY currency, amount_minor DESC, row_number`,
    [id],
  );
  return rows.map(toRow);
}

/** How far sending got, from the rows and the payout requests made for them. */
export async function batchProgress(q: Queryable, id: string): Promise<BatchProgress> {
  const { rows } = await q.query<{ outcome: string; count: number | string }>(
    `SELECT CASE WHEN r.skipped IS NOT NULL THEN 'skipped' WHEN p.id IS NULL THEN 'remaining' ELSE p.state END AS outcome, COUNT(*) AS count
     FROM payout_batch_rows r LEFT JOIN payout_requests p ON p.id = r.request_id WHERE r.batch_id = $1 GROUP BY 1`,
    [id],
  );
  const progress: BatchProgress = { sent: 0, failed: 0, unknown: 0, remaining: 0, skipped: 0 };
  for (const { outcome, count } of rows) {
    const n = Number(count);
    if (outcome === 'completed') progress.sent += n;
    else if (outcome === 'failed') progress.failed += n;
    else if (outcome === 'unknown') progress.unknown += n;
    else if (outcome === 'skipped') progress.skipped += n;
    else progress.remaining += n;
  }
  return progress;
}

/** Each row with its payout request's outcome, in row order. */
export async function batchResults(q: Queryable, id: string): Promise<BatchRowResult[]> {
  const { rows } = await q.query<{
    row_number: number;
    reference: string;
    state: string | null;
    transaction_id: string | null;
    failure_reason: string | null;
    skipped: string | null;
  }>(
    `SELECT r.row_number, r.reference, p.state, p.transaction_id, p.failure_reason, r.skipped FROM payout_batch_rows r
     LEFT JOIN payout_requests p ON p.id = r.request_id WHERE r.batch_id = $1 ORDER BY r.row_number`,
    [id],
  );
  const outcome = (state: string | null, skipped: string | null): BatchRowResult['outcome'] => {
    if (skipped) return 'not_sent';
    if (state === 'completed') return 'sent';
    if (state === 'failed' || state === 'unknown') return state;
    return 'not_sent';
  };
  return rows.map((row) => ({
    rowNumber: Number(row.row_number),
    reference: row.reference,
    outcome: outcome(row.state, row.skipped),
    transactionId: row.transaction_id ?? undefined,
    reason: row.skipped ?? row.failure_reason ?? undefined,
  }));
}

/**
 * Claims the delivery of a finished batch's results for one attempt: only when not yet delivered and
 * no attempt began within `retrySeconds` times the attempts so far (a failed or interrupted attempt
 * is retried, each time after a longer wait). Judged by the database's clock, so replicas agree.
 */
export async function claimResultsDelivery(q: Queryable, id: string, retrySeconds: number): Promise<boolean> {
  const { rowCount } = await q.query(
    `UPDATE payout_batches SET results_attempted_at = now(), results_attempts = results_attempts + 1
     WHERE id = $1 AND results_sent_at IS NOT NULL AND results_delivered_at IS NULL
       AND (results_attempted_at IS NULL OR results_attempted_at <= now() - make_interval(secs => $2::float8 * results_attempts))`,
    [id, retrySeconds],
  );
  return rowCount === 1;
}

export async function markResultsDelivered(q: Queryable, id: string): Promise<void> {
  await q.query('UPDATE payout_batches SET results_delivered_at = now() WHERE id = $1 AND results_delivered_at IS NULL', [id]);
}

/** Finished batches whose results have not reached the requester and whose next attempt is due. */
export async function listResultsDue(q: Queryable, retrySeconds: number, limit: number): Promise<string[]> {
  const { rows } = await q.query<{ id: string }>(
    `SELECT id FROM payout_batches WHERE results_sent_at IS NOT NULL AND results_delivered_at IS NULL
       AND (results_attempted_at IS NULL OR results_attempted_at <= now() - make_interval(secs => $1::float8 * results_attempts))
     ORDER BY results_sent_at LIMIT $2`,
    [retrySeconds, limit],
  );
  return rows.map((row) => row.id);
}

/**
 * Locks the one pace row that every replica's take of a row holds first (made on first use). A
 * change that locks a sending batch and then its rows (Stop) takes it first too, so that it never
 * waits on a take that waits on it: each waits for the other to finish instead.
 */
export async function lockBatchPace(tx: Queryable): Promise<void> {
  await tx.query("INSERT INTO payout_batch_pace (name, next_at) VALUES ($1, 'epoch') ON CONFLICT DO NOTHING", [BATCH_PACE]);
  await tx.query('SELECT 1 FROM payout_batch_pace WHERE name = $1 FOR UPDATE', [BATCH_PACE]);
}

/** The name of the pace row shared by every replica. */
export const BATCH_PACE = 'batches';

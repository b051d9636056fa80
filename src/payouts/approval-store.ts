/**
 * SQL for approvals: the approvals of a pending request (revoked ones kept as evidence) and the
 * agreements to send an unknown payout again, per attempt. Holds no rules; the primary keys say
 * whether a person's approval already stands.
 */
import type { Queryable } from '../store/db.js';
import type { PayoutRequest } from './model.js';
import { toDate, type Timestamp } from './rows.js';

/** Everyone's approvals of one request, in the order given, revoked ones included (with when). */
export async function listApprovals(q: Queryable, requestId: string): Promise<PayoutRequest['approvals']> {
  const { rows } = await q.query<{ user_id: string; approved_at: Timestamp; revoked_at: Timestamp | null; senior: boolean }>(
    'SELECT user_id, approved_at, revoked_at, senior FROM payout_approvals WHERE request_id = $1 ORDER BY approved_at, user_id',
    [requestId],
  );
  return rows.map((approval) => ({
    userId: approval.user_id,
    at: toDate(approval.approved_at),
    ...(approval.revoked_at ? { revokedAt: toDate(approval.revoked_at) } : {}),
    ...(approval.senior ? { senior: true } : {}),
  }));
}

/**
 * Records an approval; false when this person's approval already stands (the primary key says so).
 * An approval of theirs that was revoked is given again: it counts from `at`.
 */
export async function insertApproval(q: Queryable, requestId: string, userId: string, at: Date, senior = false): Promise<boolean> {
  const { rowCount } = await q.query(
    `INSERT INTO payout_approvals (request_id, user_id, approved_at, senior) VALUES ($1, $2, $3, $4)
     ON CONFLICT (tenant_id, request_id, user_id) DO UPDATE SET approved_at = EXCLUDED.approved_at, revoked_at = NULL, senior = EXCLUDED.senior
       WHERE payout_approvals.revoked_at IS NOT NULL`,
    [requestId, userId, at, senior],
  );
  return rowCount > 0;
}

/** Marks approvals that no longer count (their givers are no longer approvers); kept as evidence. */
export async function revokeApprovals(q: Queryable, requestId: string, userIds: readonly string[], at: Date): Promise<void> {
  if (userIds.length === 0) return;
  await q.query('UPDATE payout_approvals SET revoked_at = $3 WHERE request_id = $1 AND user_id = ANY($2::text[]) AND revoked_at IS NULL', [
    requestId,
    [...userIds],
    at,
  ]);
}

/** Records one approver's agreement to send attempt `attempt`; false when they had already given it. */
export async function insertRetryApproval(q: Queryable, requestId: string, attempt: number, userId: string, at: Date): Promise<boolean> {
  const { rowCount } = await q.query(
    `INSERT INTO payout_retry_approvals (request_id, attempt, user_id, approved_at) VALUES ($1, $2, $3, $4)
     ON CONFLICT (tenant_id, request_id, attempt, user_id) DO NOTHING`,
    [requestId, attempt, userId, at],
  );
  return rowCount > 0;
}

/** The agreements given to send attempt `attempt` of an unknown payout, in the order given. */
export async function listRetryApprovals(q: Queryable, requestId: string, attempt: number): Promise<PayoutRequest['retryApprovals']> {
  const { rows } = await q.query<{ user_id: string; approved_at: Timestamp }>(
    'SELECT user_id, approved_at FROM payout_retry_approvals WHERE request_id = $1 AND attempt = $2 ORDER BY approved_at, user_id',
    [requestId, attempt],
  );
  return rows.map((approval) => ({ userId: approval.user_id, at: toDate(approval.approved_at) }));
}

/** An approver whose approval stands approves again (a held request): it counts from `at`. False when it does not stand. */
export async function renewApproval(q: Queryable, requestId: string, userId: string, at: Date): Promise<boolean> {
  const { rowCount } = await q.query('UPDATE payout_approvals SET approved_at = $3 WHERE request_id = $1 AND user_id = $2 AND revoked_at IS NULL', [
    requestId,
    userId,
    at,
  ]);
  return rowCount > 0;
}

/** An approver agrees again to send attempt `attempt` (a held unknown payout): the agreement counts from `at`. */
export async function renewRetryApproval(q: Queryable, requestId: string, attempt: number, userId: string, at: Date): Promise<boolean> {
  const { rowCount } = await q.query('UPDATE payout_retry_approvals SET approved_at = $4 WHERE request_id = $1 AND attempt = $2 AND user_id = $3', [
    requestId,
    attempt,
    userId,
    at,
  ]);
  return rowCount > 0;
}

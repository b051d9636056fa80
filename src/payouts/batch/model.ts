/** What a bulk payout batch is once stored: its states, its approvals, and how far its sending got. */
import type { ApprovalMessageRef, DualApprovalReason, PayoutDraft } from '../model.js';

export const BATCH_STATES = ['draft', 'pending', 'sending', 'done', 'stopped', 'rejected', 'expired', 'cancelled'] as const;
export type BatchState = (typeof BATCH_STATES)[number];

export interface PayoutBatch {
  /** `PB-7K3F9Q`. */
  id: string;
  requestedBy: string;
  createdAt: Date;
  /** When it was submitted for approval; undefined for a draft. */
  requestedAt: Date | undefined;
  expiresAt: Date;
  state: BatchState;
  rowCount: number;
  /** Per currency, in minor units. */
  totals: Map<string, number>;
  newRecipients: number;
  /** As for a single request (`PayoutLifecycle.requiredApprovals`): measured over every row at request, raised at approval or release, never lowered. */
  requiredApprovals: number;
  /** Why more than one approver is needed; undefined when one is enough (and on batches stored before the rule). */
  dualApproval?: DualApprovalReason | undefined;
  /** The currency of the row that gave `dualApproval` (its amounts are in it). */
  dualApprovalCurrency?: string | undefined;
  /** In order of approval; never the requester. */
  /** `senior`: given by a senior approver (`tiers.ts`), as looked up when given. */
  approvals: Array<{ userId: string; at: Date; senior?: boolean }>;
  rejectedBy: string | undefined;
  rejectReason: string | undefined;
  stoppedBy: string | undefined;
  approvalMessage: ApprovalMessageRef | undefined;
  progressMessage: ApprovalMessageRef | undefined;
  finishedAt: Date | undefined;
  version: number;
  /** The name of the file chosen in Slack (cut to 200 characters); undefined for pasted rows. */
  fileName?: string | undefined;
}

/** One stored row of a batch. */
export interface StoredBatchRow {
  rowNumber: number;
  draft: PayoutDraft;
  newRecipient: boolean;
  /** The payout request made for this row once it was taken to be sent. */
  requestId: string | undefined;
  skipped: 'stopped' | 'reference_used' | undefined;
}

/** How far sending got: rows sent (completed), failed, unknown (being looked for), not yet sent, never sent. */
export interface BatchProgress {
  sent: number;
  failed: number;
  unknown: number;
  /** Taken but not finished (executing), or not yet taken. */
  remaining: number;
  /** Stopped by an approver, or whose reference a single payout took first. */
  skipped: number;
}

export type BatchRefusalCode =
  | 'not_found'
  | 'not_requester'
  | 'not_approver'
  | 'own_request'
  | 'already_approved'
  | 'not_pending'
  | 'not_sending'
  | 'expired'
  | 'not_draft'
  | 'duplicate_unconfirmed'
  | 'over_daily_limit'
  | 'not_allowed'
  | 'roles_unavailable'
  | 'reason_required'
  /** Above PAYOUT_SENIOR_APPROVAL_ABOVE in a currency: one approval must come from a senior approver. */
  | 'needs_senior';

export interface BatchRefusal {
  ok: false;
  code: BatchRefusalCode;
  batch?: PayoutBatch;
  /** For `over_daily_limit`: the currency, the limit and what was left; for `duplicate_unconfirmed`: how many rows may repeat a payout. */
  details?: { currency?: string; limitMinor?: number; leftMinor?: number; duplicateRows?: number };
}

export type BatchResult = { ok: true; batch: PayoutBatch } | BatchRefusal;

/** Whether `actor` may reject `batch` now: an approver, never the requester, the batch still pending. */
export function batchRejectionRefusal(batch: PayoutBatch, actor: { userId: string; canApprove: boolean }): BatchRefusal | undefined {
  if (!actor.canApprove) return batchRefusal('not_approver', { batch });
  if (batch.requestedBy === actor.userId) return batchRefusal('own_request', { batch });
  if (batch.state !== 'pending') return batchRefusal('not_pending', { batch });
  return undefined;
}

/**
 * Whether `actor` may approve `batch` now: an approver, never the requester, the batch pending and
 * unexpired, not already approved by them. The one rule for the approval message and the Home.
 */
export function batchApprovalRefusal(batch: PayoutBatch, actor: { userId: string; canApprove: boolean }, now: Date): BatchRefusal | undefined {
  if (!actor.canApprove) return batchRefusal('not_approver', { batch });
  if (batch.requestedBy === actor.userId) return batchRefusal('own_request', { batch });
  if (batch.state !== 'pending') return batchRefusal('not_pending', { batch });
  if (batch.expiresAt.getTime() <= now.getTime()) return batchRefusal('expired', { batch });
  if (batch.approvals.some((approval) => approval.userId === actor.userId)) return batchRefusal('already_approved', { batch });
  return undefined;
}

export function batchRefusal(code: BatchRefusalCode, extra: Omit<BatchRefusal, 'ok' | 'code'> = {}): BatchRefusal {
  return { ok: false, code, ...extra };
}

/** One row's outcome in the results file. */
export interface BatchRowResult {
  rowNumber: number;
  reference: string;
  outcome: 'sent' | 'failed' | 'unknown' | 'not_sent';
  transactionId: string | undefined;
  /** Why it failed or was not sent (the Fleet client's words, or `stopped` / `reference_used`). */
  reason: string | undefined;
}

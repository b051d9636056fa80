/** How rows of the payout tables arrive from either driver, and how they become model objects. */
import { z } from 'zod';
import type { ChangedDetails, DualApprovalReason, DualApprovalRule, PayoutHold, PayoutRequest, PayoutState, SearchOutcome } from './model.js';
import { storedRail } from './rails/index.js';

export type Timestamp = Date | string;

/** A `payout_requests` row as either driver returns it (bigint may arrive as a string). */
export interface PayoutRow extends DualApprovalColumns {
  id: string;
  kind: string;
  recipient_name: string;
  country_code: string;
  phone: string | null;
  operator: string | null;
  account_number: string | null;
  bank_code: string | null;
  amount_minor: string | number;
  currency: string;
  reference: string;
  note: string;
  requested_by: string;
  requested_at: Timestamp;
  expires_at: Timestamp;
  state: string;
  required_approvals: number;
  transaction_id: string | null;
  failure_reason: string | null;
  rejected_by: string | null;
  reject_reason: string | null;
  approval_channel: string | null;
  approval_ts: string | null;
  needs_review: boolean;
  attempts: number;
  last_sent_at: Timestamp | null;
  unknown_since: Timestamp | null;
  reference_generated: boolean;
  last_search: string | null;
  updated_at: Timestamp;
  version: number;
  recipient_key?: string | null;
  hold_reason?: string | null;
  new_recipient?: boolean | null;
  previous_recipient_name?: string | null;
  batch_id?: string | null;
  batch_row?: number | null;
  resubmit_of?: string | null;
  changed_details?: unknown;
  requested_through?: string | null;
}

export interface EventRow {
  id: string | number;
  request_id: string;
  event: string;
  user_id: string | null;
  at: Timestamp;
  details: unknown;
}

/** What `toRequest` takes from tables other than `payout_requests`. */
export interface RelatedRows {
  retryApprovals: PayoutRequest['retryApprovals'];
  likelyMatch: PayoutRequest['likelyMatch'];
}

const NONE_RELATED: RelatedRows = { retryApprovals: [], likelyMatch: undefined };

export function toRequest(row: PayoutRow, approvals: PayoutRequest['approvals'], related: RelatedRows = NONE_RELATED): PayoutRequest {
  const common = {
    amountMinor: Number(row.amount_minor),
    currency: row.currency,
    reference: row.reference,
    note: row.note,
    id: row.id,
    requestedBy: row.requested_by,
    requestedAt: toDate(row.requested_at),
    expiresAt: toDate(row.expires_at),
    state: row.state as PayoutState,
    approvals,
    requiredApprovals: Math.max(1, Number(row.required_approvals)),
    transactionId: row.transaction_id ?? undefined,
    failureReason: row.failure_reason ?? undefined,
    rejectedBy: row.rejected_by ?? undefined,
    rejectReason: row.reject_reason ?? undefined,
    approvalMessage: row.approval_channel && row.approval_ts ? { channel: row.approval_channel, ts: row.approval_ts } : undefined,
    needsReview: row.needs_review,
    attempts: Number(row.attempts),
    referenceGenerated: row.reference_generated === true,
    retryApprovals: related.retryApprovals,
    likelyMatch: related.likelyMatch,
    lastSearch: toSearchOutcome(row.last_search),
    updatedAt: toDate(row.updated_at),
    version: Number(row.version),
    dualApproval: toDualApproval(row),
    newRecipient: row.new_recipient === true,
    previousRecipientName: row.previous_recipient_name ?? undefined,
    batch: row.batch_id ? { id: row.batch_id, row: Number(row.batch_row) } : undefined,
    resubmitOf: row.resubmit_of ?? undefined,
    changedDetails: toChangedDetails(row.changed_details),
    requestedThrough: row.requested_through === 'workflow' ? ('workflow' as const) : undefined,
    hold: (row.hold_reason ?? undefined) as PayoutHold | undefined,
  };
  const { recipient_name: name, country_code: countryCode } = row;
  return { ...storedRail(row.kind).fromColumns(row, { name, countryCode }), ...common };
}

export function toDate(value: Timestamp): Date {
  return value instanceof Date ? value : new Date(value);
}

export function optionalDate(value: Timestamp | null | undefined): Date | undefined {
  return value === null || value === undefined ? undefined : toDate(value);
}

/** The three columns that keep why a request or a bulk batch needs more than one approver. */
export interface DualApprovalColumns {
  dual_approval_rule?: string | null;
  dual_approval_total_minor?: string | number | null;
  dual_approval_threshold_minor?: string | number | null;
}

export function toDualApproval(row: DualApprovalColumns): DualApprovalReason | undefined {
  const rule = row.dual_approval_rule as DualApprovalRule | null | undefined;
  if (!rule) return undefined;
  if (rule === 'new_recipient') return { rule };
  return { rule, totalMinor: Number(row.dual_approval_total_minor ?? 0), thresholdMinor: Number(row.dual_approval_threshold_minor ?? 0) };
}

/** A reason as the changes that store it (the new-recipient rule has no amounts). */
export function dualApprovalChanges(reason: DualApprovalReason): {
  dualApprovalRule: DualApprovalRule;
  dualApprovalTotalMinor: number | null;
  dualApprovalThresholdMinor: number | null;
} {
  return reason.rule === 'new_recipient'
    ? { dualApprovalRule: reason.rule, dualApprovalTotalMinor: null, dualApprovalThresholdMinor: null }
    : { dualApprovalRule: reason.rule, dualApprovalTotalMinor: reason.totalMinor, dualApprovalThresholdMinor: reason.thresholdMinor };
}

function toSearchOutcome(value: string | null): SearchOutcome | undefined {
  return value === 'not_found' || value === 'could_not_check' ? value : undefined;
}

const changedDetailsSchema = z.object({
  saved: z.object({ identity: z.string(), name: z.string() }),
  changes: z.array(z.object({ field: z.enum(['phone', 'operator', 'accountNumber', 'bankCode']), from: z.string(), to: z.string() })),
  matches: z.object({ name: z.string(), lastPayoutId: z.string() }).optional(),
});

/** Migration 028's column: undefined when empty (or, never expected, not in the shape the intake writes). */
function toChangedDetails(value: unknown): ChangedDetails | undefined {
  if (value === null || value === undefined) return undefined;
  const parsed = changedDetailsSchema.safeParse(typeof value === 'string' ? JSON.parse(value) : value);
  return parsed.success ? { ...parsed.data, matches: parsed.data.matches } : undefined;
}

/** A jsonb column as either driver returns it (text or an object). */
export function parseDetails(value: unknown): Record<string, unknown> {
  if (typeof value === 'string') return JSON.parse(value) as Record<string, unknown>;
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
}

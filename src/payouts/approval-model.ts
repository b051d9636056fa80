/** The vocabulary of approving a payout request: an approval, the rules that call for more than one approver, and the holds. */

export interface PayoutApproval {
  userId: string;
  at: Date;
  /** Set when its giver was no longer an approver as the payout was about to be sent: it no longer counts. */
  revokedAt?: Date | undefined;
  /** Given by a senior approver (PAYOUT_SENIOR_APPROVERS), as looked up when given (`tiers.ts`). */
  senior?: boolean | undefined;
}

/** What makes more than one approver necessary: an amount rule (this request alone, or a day total in its currency), or a recipient never paid before. */
export const DUAL_APPROVAL_RULES = ['amount', 'requester_total', 'recipient_total', 'new_recipient'] as const;
export type DualApprovalRule = (typeof DUAL_APPROVAL_RULES)[number];
export type AmountApprovalRule = Exclude<DualApprovalRule, 'new_recipient'>;

/**
 * Why a request needs more than one approver: an amount rule with the amount or day total it
 * measured and the threshold it is above, or the new-recipient rule.
 */
export type DualApprovalReason = { rule: AmountApprovalRule; totalMinor: number; thresholdMinor: number } | { rule: 'new_recipient' };

/**
 * Why a request with its approvals was not sent: a control of the gate before sending (`gate.ts`)
 * that no longer passes. Each says what the request waits for (see docs/payouts.md).
 */
export const PAYOUT_HOLDS = [
  'requester_not_allowed',
  'roles_unavailable',
  'needs_approvers',
  'needs_senior',
  'over_daily_limit',
  'over_max_amount',
  'not_offered',
  'duplicate_unchecked',
  'missed',
] as const;
export type PayoutHold = (typeof PAYOUT_HOLDS)[number];

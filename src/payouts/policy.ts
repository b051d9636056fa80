/**
 * Who may do what to a payout request, as pure functions of the stored request, the actor and the
 * time. Each refusal carries a code and the facts to tell it with (`RefusalDetails`), never a sentence:
 * the Slack layer writes it in the reader's language.
 */
import type { AmountApprovalRule, DualApprovalReason, PayoutApproval, PayoutHold, PayoutRefusalCode, PayoutRequest, RefusalDetails } from './model.js';

/** The person acting, with the roles the Slack layer resolved for them (access lists, user groups). */
export interface PayoutActor {
  userId: string;
  canRequest: boolean;
  canApprove: boolean;
}

export type PolicyDecision = { ok: true } | { ok: false; code: PayoutRefusalCode; details: RefusalDetails };

const allowed: PolicyDecision = { ok: true };
const refuse = (code: PayoutRefusalCode, details: RefusalDetails = {}): PolicyDecision => ({ ok: false, code, details });

/** The facts of a refusal about a request that has moved on: which one, and where it is now. */
export function movedOn(request: Pick<PayoutRequest, 'id' | 'state'>): RefusalDetails {
  return { payoutId: request.id, state: request.state };
}

/** Different approvers a payout above the dual-approval threshold needs (fixed; configuration checks enough approvers exist). */
export const DUAL_APPROVAL_APPROVERS = 2;

/** How many approvers a request needs, and why more than one when it does. */
export interface ApprovalRequirement {
  required: number;
  reason: DualApprovalReason | undefined;
}

/**
 * Two approvers when the request alone, or the requester's or the recipient's total in its currency
 * for its day (`payoutDay`; each including this request), is above the currency's threshold. The first rule
 * that applies, in that order, is the reason given. A recipient never paid before needs
 * `newRecipientApprovals` whatever the amount: the larger requirement wins, and on a tie the amount
 * rule is the reason given (the screens say "new recipient" on their own line anyway).
 */
export function approvalRequirement(
  input: { amountMinor: number; requesterTotalMinor: number; recipientTotalMinor: number; currency: string; newRecipient?: boolean },
  dualApprovalAbove: ReadonlyMap<string, number>,
  newRecipientApprovals = 1,
): ApprovalRequirement {
  // No threshold: fail closed, as if it were zero.
  const thresholdMinor = dualApprovalAbove.get(input.currency) ?? 0;
  const measured: Array<[AmountApprovalRule, number]> = [
    ['amount', input.amountMinor],
    ['requester_total', input.requesterTotalMinor],
    ['recipient_total', input.recipientTotalMinor],
  ];
  const over = measured.find(([, totalMinor]) => totalMinor > thresholdMinor);
  const byAmount: ApprovalRequirement = over
    ? { required: DUAL_APPROVAL_APPROVERS, reason: { rule: over[0], totalMinor: over[1], thresholdMinor } }
    : { required: 1, reason: undefined };
  if (input.newRecipient === true && newRecipientApprovals > byAmount.required) {
    return { required: newRecipientApprovals, reason: { rule: 'new_recipient' } };
  }
  return byAmount;
}

/** The day totals' key of a recipient; defined with the recipient identity in `recipients.ts`. */
export { recipientKey } from './recipients.js';

/** Distinct approvers other than the requester whose approval was not revoked: the only approvals that count. */
export function countingApprovers(request: Pick<PayoutRequest, 'approvals' | 'requestedBy'>): string[] {
  const standing = request.approvals.filter((approval) => approval.revokedAt === undefined);
  return [...new Set(standing.map((approval) => approval.userId))].filter((userId) => userId !== request.requestedBy);
}

/** Approvals that no longer count because their giver was no longer an approver when it mattered. */
export function revokedApprovals(request: Pick<PayoutRequest, 'approvals' | 'requestedBy'>): PayoutApproval[] {
  return request.approvals.filter((approval) => approval.revokedAt !== undefined && approval.userId !== request.requestedBy);
}

export function hasEnoughApprovals(request: Pick<PayoutRequest, 'approvals' | 'requestedBy' | 'requiredApprovals'>): boolean {
  return countingApprovers(request).length >= request.requiredApprovals;
}

export function canRequest(actor: PayoutActor): PolicyDecision {
  return actor.canRequest ? allowed : refuse('not_requester', { action: 'request' });
}

function pendingAndCurrent(request: PayoutRequest, now: Date): PolicyDecision {
  if (request.state !== 'pending') return refuse('not_pending', movedOn(request));
  if (now.getTime() >= request.expiresAt.getTime()) return refuse('expired', { payoutId: request.id });
  return allowed;
}

export function canApprove(request: PayoutRequest, actor: PayoutActor, now: Date): PolicyDecision {
  if (!actor.canApprove) return refuse('not_approver', { action: 'approve' });
  if (actor.userId === request.requestedBy) return refuse('own_request', { action: 'approve', payoutId: request.id });
  const state = pendingAndCurrent(request, now);
  if (!state.ok) return state;
  // On a held request, an approver whose approval stands may press Approve again to have it checked again.
  if (countingApprovers(request).includes(actor.userId) && !(request.hold && hasEnoughApprovals(request))) {
    return refuse('already_approved', { action: 'approve', payoutId: request.id });
  }
  return allowed;
}

/** What the fresh role lookups at release answered; `unreadable` when any of them failed. */
export interface ReleaseRoles {
  requesterMayRequest: boolean;
  /** Each approver looked up, and whether they may still approve. */
  approvers: ReadonlyMap<string, boolean>;
  /** Above the senior tier: each counted approver who gave a senior approval, and whether they still are a senior approver. */
  seniors?: ReadonlyMap<string, boolean> | undefined;
  unreadable: boolean;
}

export interface ReleaseDecision {
  /** Approvals that stop counting: their givers are no longer approvers. */
  revoke: string[];
  hold: PayoutHold | undefined;
  release: boolean;
}

/**
 * The check on the approval that would release a payout, with roles read fresh: an approver who is
 * no longer one stops counting; a requester who may no longer request, or roles that could not be
 * read, hold the payout (nothing sent, nothing revoked on a failed read). `required` is the number
 * of approvers the request needs now.
 */
export function decideRelease(
  request: Pick<PayoutRequest, 'approvals' | 'requestedBy'>,
  roles: ReleaseRoles,
  required: number,
  seniorNeeded = false,
): ReleaseDecision {
  const counting = countingApprovers(request);
  if (roles.unreadable) return { revoke: [], hold: 'roles_unavailable', release: false };
  const revoke = counting.filter((userId) => roles.approvers.get(userId) !== true);
  // A senior approval whose giver is no longer a senior approver is revoked, as an approver's who is no longer one.
  const seniorGivers = seniorApprovers(request);
  if (seniorNeeded) revoke.push(...seniorGivers.filter((userId) => !revoke.includes(userId) && roles.seniors?.get(userId) !== true));
  const standingSenior = seniorGivers.some((userId) => !revoke.includes(userId));
  const hold = roles.requesterMayRequest ? undefined : 'requester_not_allowed';
  const enough = counting.length - revoke.length >= required && (!seniorNeeded || standingSenior);
  return { revoke, hold, release: enough && hold === undefined };
}

/** The counted approvers whose approval was given as a senior approver's. */
export function seniorApprovers(request: Pick<PayoutRequest, 'approvals' | 'requestedBy'>): string[] {
  const counting = new Set(countingApprovers(request));
  return request.approvals
    .filter((approval) => approval.revokedAt === undefined && approval.senior === true && counting.has(approval.userId))
    .map((approval) => approval.userId);
}

/** Approvers may reject; a requester withdraws their own request with cancel instead. */
export function canReject(request: PayoutRequest, actor: PayoutActor, now: Date): PolicyDecision {
  if (!actor.canApprove) return refuse('not_approver', { action: 'reject' });
  if (actor.userId === request.requestedBy) return refuse('own_request', { action: 'reject', payoutId: request.id });
  return pendingAndCurrent(request, now);
}

export function canCancel(request: PayoutRequest, actor: Pick<PayoutActor, 'userId'>): PolicyDecision {
  if (actor.userId !== request.requestedBy) return refuse('not_cancellable', { action: 'cancel', cause: 'not_requester', payoutId: request.id });
  if (request.state !== 'pending') return refuse('not_pending', movedOn(request));
  if (request.approvals.length > 0) return refuse('not_cancellable', { action: 'cancel', cause: 'has_approval', payoutId: request.id });
  return allowed;
}

/**
 * Sending again is for approvers other than the requester (the same separation as approving), as
 * many as the payout needed, and only once reconciliation gave up: before that, the first attempt
 * may still show up. A likely match must be answered first.
 */
export function canRetry(request: PayoutRequest, actor: PayoutActor): PolicyDecision {
  if (!actor.canApprove) return refuse('not_approver', { action: 'retry' });
  if (actor.userId === request.requestedBy) return refuse('own_request', { action: 'retry', payoutId: request.id });
  if (request.state !== 'unknown' || !request.needsReview) {
    return refuse('not_retryable', request.state === 'unknown' ? { payoutId: request.id, cause: 'still_searching' } : movedOn(request));
  }
  if (request.likelyMatch) return refuse('likely_match', { action: 'retry', payoutId: request.id });
  const agreed = countingRetryApprovers(request);
  if (agreed.includes(actor.userId) && agreed.length < request.requiredApprovals) return alreadyAgreedToRetry(request);
  return allowed;
}

/** An approver who already agreed to send the payout again, while another agreement is still needed. */
export function alreadyAgreedToRetry(request: Pick<PayoutRequest, 'id' | 'requiredApprovals'>): PolicyDecision & { ok: false } {
  return { ok: false, code: 'already_approved', details: { action: 'retry', payoutId: request.id, requiredApprovals: request.requiredApprovals } };
}

/** Distinct approvers other than the requester who agreed to send the next attempt. */
export function countingRetryApprovers(request: Pick<PayoutRequest, 'retryApprovals' | 'requestedBy'>): string[] {
  return [...new Set(request.retryApprovals.map((approval) => approval.userId))].filter((userId) => userId !== request.requestedBy);
}

/** Confirming or turning down a likely match settles money questions: an approver other than the requester. */
export function canDecideMatch(request: PayoutRequest, actor: PayoutActor, matchId: string): PolicyDecision {
  if (!actor.canApprove) return refuse('not_approver', { action: 'decide_match' });
  if (actor.userId === request.requestedBy) return refuse('own_request', { action: 'decide_match', payoutId: request.id });
  if (request.state !== 'unknown') return refuse('no_such_match', movedOn(request));
  if (request.likelyMatch?.id !== matchId) return refuse('no_such_match', { payoutId: request.id, cause: 'match_gone' });
  return allowed;
}

/** Reason for a rejection: told to the requester, so it must say something. */
export function checkRejectReason(reason: string): PolicyDecision {
  const length = reason.trim().length;
  if (length < 3) return refuse('reason_required', { cause: 'too_short' });
  if (length > 500) return refuse('reason_required', { cause: 'too_long' });
  return allowed;
}

export function checkMaxAmount(amountMinor: number, currency: string, maxAmount: ReadonlyMap<string, number>): PolicyDecision {
  const max = maxAmount.get(currency);
  if (max === undefined) return refuse('over_max_amount', { cause: 'not_configured', currency });
  if (amountMinor > max) return refuse('over_max_amount', { maxMinor: max, currency });
  return allowed;
}

/**
 * The requester's total for the currency on this day (`payoutDay`), this request included, must stay within
 * the limit. `alreadyRequestedMinor` counts only requests in `STATES_COUNTING_TOWARDS_LIMIT`.
 */
export function checkDailyLimit(
  input: { alreadyRequestedMinor: number; amountMinor: number; currency: string },
  dailyLimit: ReadonlyMap<string, number>,
): PolicyDecision {
  const limit = dailyLimit.get(input.currency);
  if (limit === undefined) return refuse('over_daily_limit', { cause: 'not_configured', currency: input.currency });
  if (input.alreadyRequestedMinor + input.amountMinor <= limit) return allowed;
  const left = Math.max(0, limit - input.alreadyRequestedMinor);
  return refuse('over_daily_limit', { limitMinor: limit, leftMinor: left, currency: input.currency });
}

/**
 * Approval tiers: above PAYOUT_SENIOR_APPROVAL_ABOVE (per currency, strictly above; a payout's
 * amount or the requester's or the recipient's day total, measured in `day-totals.ts`; a bulk
 * payout's total in each currency) one of the counted approvals must come from a senior approver
 * (PAYOUT_SENIOR_APPROVERS, who must also be approvers). Checked when an approval would complete the
 * count (refused from a non-senior approver when no senior approval is among the others), at
 * release, and in the gate before sending (`gate.ts`) with fresh lookups: a senior approver no
 * longer one leaves the request waiting for another.
 */
import type { CurrencyAmounts } from '../core/money.js';
import type { PayoutBatch } from './batch/model.js';
import type { PayoutRequest } from './model.js';

/** The part of the roles port (`roles.ts`) the tier asks: whether someone is a senior approver. */
interface SeniorRoles {
  isSenior?(userId: string, lookup?: { fresh?: boolean }): Promise<boolean>;
}

/** The tier a payout is above: its currency and threshold; undefined below every tier (or none set). */
export interface SeniorTier {
  currency: string;
  thresholdMinor: number;
}

/** The first of `amounts` (currency, minor units) strictly above its currency's senior threshold. */
export function seniorTier(amounts: Iterable<readonly [string, number]>, seniorAbove: CurrencyAmounts): SeniorTier | undefined {
  for (const [currency, minor] of amounts) {
    const thresholdMinor = seniorAbove.get(currency);
    if (thresholdMinor !== undefined && minor > thresholdMinor) return { currency, thresholdMinor };
  }
  return undefined;
}

/** A senior tier a request or a bulk payout waits under, and who gave the senior approval that counts, if anyone did. */
export interface SeniorRequirement extends SeniorTier {
  givenBy?: string | undefined;
}

/** The day's totals a request is measured with (the approval signals' `dayTotals`). */
export interface SeniorDayTotals {
  requesterMinor: number;
  recipientMinor: number;
}

/**
 * The senior tier a pending request waits under: above its currency's threshold by its amount or by
 * the requester's or the recipient's day total, or held by the gate for a senior approval. The senior
 * approval that counts is one not revoked. Undefined below every tier, and once it no longer waits.
 */
export function requestSeniorRequirement(
  request: Pick<PayoutRequest, 'amountMinor' | 'currency' | 'hold' | 'state' | 'approvals'>,
  seniorAbove: CurrencyAmounts,
  dayTotals?: SeniorDayTotals,
): SeniorRequirement | undefined {
  const biggest = Math.max(request.amountMinor, dayTotals?.requesterMinor ?? 0, dayTotals?.recipientMinor ?? 0);
  const threshold = seniorAbove.get(request.currency);
  const tier =
    seniorTier([[request.currency, biggest]], seniorAbove) ??
    (request.hold === 'needs_senior' && threshold !== undefined ? { currency: request.currency, thresholdMinor: threshold } : undefined);
  if (!tier || request.state !== 'pending') return undefined;
  const given = request.approvals.find((approval) => approval.senior === true && approval.revokedAt === undefined);
  return { ...tier, givenBy: given?.userId };
}

/** The same for a bulk payout, by its total in each currency, while it waits. */
export function batchSeniorRequirement(
  batch: Pick<PayoutBatch, 'totals' | 'state' | 'approvals'>,
  seniorAbove: CurrencyAmounts,
): SeniorRequirement | undefined {
  const tier = seniorTier(batch.totals, seniorAbove);
  if (!tier || batch.state !== 'pending') return undefined;
  const given = batch.approvals.find((approval) => approval.senior === true);
  return { ...tier, givenBy: given?.userId };
}

/** Whether `userId` is a senior approver; a port without the question has none (fail closed). */
export async function isSeniorApprover(roles: SeniorRoles, userId: string, lookup?: { fresh?: boolean }): Promise<boolean> {
  if (!roles.isSenior) return false;
  return roles.isSenior(userId, lookup);
}

/** Which of `approvers` are senior approvers; looked up fresh at release. A failed lookup rejects. */
export async function seniorsAmong(roles: SeniorRoles, approvers: readonly string[], lookup?: { fresh?: boolean }): Promise<Map<string, boolean>> {
  const answers = await Promise.all(approvers.map((approver) => isSeniorApprover(roles, approver, lookup)));
  return new Map(approvers.map((approver, index) => [approver, answers[index] === true]));
}

/**
 * Approval tiers: above PAYOUT_SENIOR_APPROVAL_ABOVE (per currency, strictly above; a payout's
 * amount or the requester's or the recipient's day total, measured in `day-totals.ts`; a bulk
 * payout's total in each currency) one of the counted approvals must come from a senior approver
 * (PAYOUT_SENIOR_APPROVERS, who must also be approvers). Checked when an approval would complete the
 * count (refused from a non-senior approver when no senior approval is among the others), at
 * release, and in the gate before sending (`gate.ts`) with fresh lookups: a senior approver no
 * longer one leaves the request waiting for another.
 */
import type { CurrencyAmounts } from '../money.js';
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

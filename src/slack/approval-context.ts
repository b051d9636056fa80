/**
 * What the approval message and the approve window show beside the request: the signals read in one
 * query (`payouts/signals.ts`) and, above the senior tier, the senior approvers it calls for.
 */
import type { AccessList } from '../config.js';
import { seniorTier, type PayoutBatch, type PayoutRequest, type PayoutSettings } from '../payouts/index.js';
import type { SlackContext } from './context.js';
import { approverMentions, notToCall } from './publishers/approver-notices.js';
import type { ApprovalContext, SeniorCall } from './views/approval-signals.js';

/** The day's totals a request is measured with (the approval signals' `dayTotals`). */
export interface SeniorDayTotals {
  requesterMinor: number;
  recipientMinor: number;
}

/**
 * Above PAYOUT_SENIOR_APPROVAL_ABOVE (by the amount, or the requester's or the recipient's day total),
 * or held by the gate for a senior approval, while pending: whom to call (PAYOUT_SENIOR_APPROVERS),
 * or who gave the senior approval.
 */
export function seniorCall(
  request: PayoutRequest, settings: Pick<PayoutSettings, 'seniorApprovalAbove'>, seniors: AccessList, dayTotals?: SeniorDayTotals,
): SeniorCall | undefined {
  const biggest = Math.max(request.amountMinor, dayTotals?.requesterMinor ?? 0, dayTotals?.recipientMinor ?? 0);
  const threshold = settings.seniorApprovalAbove.get(request.currency);
  const tier = seniorTier([[request.currency, biggest]], settings.seniorApprovalAbove)
    ?? (request.hold === 'needs_senior' && threshold !== undefined ? { currency: request.currency, thresholdMinor: threshold } : undefined);
  if (!tier || request.state !== 'pending') return undefined;
  const given = request.approvals.find((approval) => approval.senior === true && approval.revokedAt === undefined);
  return { ...tier, approvers: approverMentions(seniors, notToCall(request)), givenBy: given?.userId };
}

/** The same for a bulk payout, by its total in each currency, while it waits. */
export function batchSeniorCall(batch: PayoutBatch, settings: Pick<PayoutSettings, 'seniorApprovalAbove'>, seniors: AccessList): SeniorCall | undefined {
  const tier = seniorTier(batch.totals, settings.seniorApprovalAbove);
  if (!tier || batch.state !== 'pending') return undefined;
  const given = batch.approvals.find((approval) => approval.senior === true);
  return { ...tier, approvers: approverMentions(seniors, notToCall(batch)), givenBy: given?.userId };
}

export async function approvalContext(
  ctx: Pick<SlackContext, 'payouts' | 'payoutSettings' | 'logger' | 'accessLists'>,
  request: PayoutRequest,
): Promise<ApprovalContext> {
  const duplicateWindowHours = ctx.payoutSettings.duplicateWindowHours;
  const senior = (dayTotals?: SeniorDayTotals) => seniorCall(request, ctx.payoutSettings, ctx.accessLists.seniorApprovers, dayTotals);
  try {
    const signals = await ctx.payouts.signals(request);
    return { signals, duplicateWindowHours, senior: senior(signals.dayTotals) };
  } catch (error) {
    ctx.logger.warn({ err: error, payoutId: request.id }, 'could not read what approvers should notice about a payout');
    return { duplicateWindowHours, senior: senior() };
  }
}

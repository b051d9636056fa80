/**
 * What the approval message and the approve window show beside the request: the signals read in one
 * query (`payouts/signals.ts`) and, above the senior tier (`payouts/tiers.ts`), the senior approvers it calls for.
 */
import type { AccessList } from '../config/config.js';
import {
  batchSeniorRequirement,
  requestSeniorRequirement,
  type PayoutBatch,
  type PayoutRequest,
  type PayoutSettings,
  type SeniorDayTotals,
} from '../payouts/index.js';
import type { SlackContext } from './context.js';
import { approverMentions, notToCall } from './publishers/approver-notices.js';
import type { ApprovalContext, SeniorCall } from './views/approval-signals.js';

/**
 * Above PAYOUT_SENIOR_APPROVAL_ABOVE or held for a senior approval, while pending (`payouts/tiers.ts`
 * decides): whom to call (PAYOUT_SENIOR_APPROVERS), or who gave the senior approval.
 */
export function seniorCall(
  request: PayoutRequest,
  settings: Pick<PayoutSettings, 'seniorApprovalAbove'>,
  seniors: AccessList,
  dayTotals?: SeniorDayTotals,
): SeniorCall | undefined {
  const requirement = requestSeniorRequirement(request, settings.seniorApprovalAbove, dayTotals);
  return requirement && { ...requirement, approvers: approverMentions(seniors, notToCall(request)) };
}

/** The same for a bulk payout, by its total in each currency, while it waits. */
export function batchSeniorCall(batch: PayoutBatch, settings: Pick<PayoutSettings, 'seniorApprovalAbove'>, seniors: AccessList): SeniorCall | undefined {
  const requirement = batchSeniorRequirement(batch, settings.seniorApprovalAbove);
  return requirement && { ...requirement, approvers: approverMentions(seniors, notToCall(batch)) };
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

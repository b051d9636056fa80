/**
 * What the approve window shows beside the request, read as the approval message reads it: the
 * signals in one query (`payouts/signals.ts`) and the senior approvers a payout above the tier needs.
 */
import type { PayoutRequest } from '../payouts/index.js';
import type { SlackContext } from './context.js';
import type { ApprovalContext } from './views/approval-signals.js';

export async function approvalContext(ctx: Pick<SlackContext, 'payouts' | 'payoutSettings' | 'logger'>, request: PayoutRequest): Promise<ApprovalContext> {
  const duplicateWindowHours = ctx.payoutSettings.duplicateWindowHours;
  try {
    return { signals: await ctx.payouts.signals(request), duplicateWindowHours };
  } catch (error) {
    ctx.logger.warn({ err: error, payoutId: request.id }, 'could not read what approvers should notice about a payout');
    return { duplicateWindowHours };
  }
}

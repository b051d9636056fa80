/** The direct messages a requester receives: the receipt, each approval, and every outcome. */
import type { KnownBlock } from '@slack/types';
import type { PayoutEventName, PayoutRequest } from '../../payouts/index.js';
import type { Reply } from './common.js';
import { codeSpan, escapeWithin, mentionChannel, mentionUser, sandboxFooter, sandboxMarked, type Surface } from './text.js';
import { dualApprovalLine, payoutSummary, plainSummary } from './payout-details.js';

// Transaction ids come from the Fleet API and references may be long: both are cut where shown.
const CODE_MAX = 80;

/**
 * The message for one event, or undefined when the requester need not hear of it (sending has
 * started, or an approval that only leads straight to the outcome, which gets its own message).
 */
export function buildRequesterUpdate(
  surface: Surface,
  request: PayoutRequest,
  event: PayoutEventName,
  actor: string | undefined,
  approvalChannelId?: string,
): Reply | undefined {
  const payout = `*${request.id}* (${payoutSummary(request)})`;
  const by = actor ? mentionUser(actor) : 'An approver';
  const transaction = request.transactionId ? ` Transaction ${codeSpan(request.transactionId, CODE_MAX)}.` : '';
  const reason = (text: string | undefined) => escapeWithin(text ?? 'no reason given', 400);
  let line: string;
  switch (event) {
    case 'requested': {
      const where = approvalChannelId ? ` in ${mentionChannel(approvalChannelId)}` : '';
      line = `:inbox_tray: Your payout request ${payout} is waiting for approval${where}. Reference ${codeSpan(request.reference, CODE_MAX)}. You can cancel it from the approval message until someone approves it.`;
      break;
    }
    case 'approved':
      // Sent at once (the outcome has its own message), or held (the held message says why).
      if (request.state !== 'pending' || request.hold) return undefined;
      line = `:+1: ${by} approved your payout ${payout}. One more approver must approve it before it is sent.`;
      break;
    case 'approvals_raised':
      line = `:busts_in_silhouette: Your payout ${payout} now needs two approvers. ${dualApprovalLine(request.dualApproval, request.currency)}`;
      break;
    case 'approval_revoked':
      return undefined;
    case 'held':
      // A failed role lookup is for approvers to retry; the requester hears only of their own access.
      if (request.hold !== 'requester_not_allowed') return undefined;
      line = `:no_entry: Your payout ${payout} was not sent: you may no longer request payouts. Ask your Slack admin; once your access is restored, an approver can approve it again.`;
      break;
    case 'executing':
      return undefined;
    case 'completed':
    case 'reconciled':
      line = `:white_check_mark: Your payout ${payout} was sent.${transaction}`;
      break;
    case 'failed':
      line = `:x: Your payout ${payout} failed: ${reason(request.failureReason)} No money moved.`;
      break;
    case 'unknown':
      line = `:grey_question: The Fleet API gave no clear answer for your payout ${payout} (${reason(request.failureReason)}). It may have gone through: the app is checking the Fleet API's transactions and will tell you.`;
      break;
    case 'needs_review':
      line = `:warning: Your payout ${payout} was not found in the Fleet API's transactions. It may or may not have gone through; an approver will check and may send it again with the same reference.`;
      break;
    case 'retried':
      line = `:repeat: ${by} sent your payout ${payout} again with the same reference, after review.`;
      break;
    case 'match_confirmed':
      line = `:white_check_mark: Your payout ${payout} was sent: ${by} confirmed its transaction in the Fleet API's list.${transaction}`;
      break;
    // Steps approvers take between themselves; the requester hears of the outcome.
    case 'retry_approved':
    case 'likely_match':
    case 'match_rejected':
      return undefined;
    case 'rejected':
      line = `:no_entry: ${request.rejectedBy ? mentionUser(request.rejectedBy) : by} rejected your payout ${payout}: ${reason(request.rejectReason)}`;
      break;
    case 'expired':
      line = `:hourglass: Your payout request ${payout} expired without enough approvals. Nothing was sent; request it again if it is still needed.`;
      break;
    case 'cancelled':
      line = `:heavy_multiplication_x: Your payout request ${payout} is cancelled. Nothing was sent.`;
      break;
  }
  const blocks: KnownBlock[] = [{ type: 'section', text: { type: 'mrkdwn', text: line } }];
  blocks.push(...sandboxFooter(surface));
  const outcome = request.transactionId && (event === 'completed' || event === 'reconciled' || event === 'match_confirmed') ? ` (transaction ${escapeWithin(request.transactionId, CODE_MAX, { oneLine: true })})` : '';
  return { text: `${sandboxMarked(surface, `Payout ${request.id}`)}: ${plainSummary(request)}: ${event.replace('_', ' ')}${outcome}`, blocks };
}

/** The direct messages a requester receives, in the requester's language: the receipt, each approval, and every outcome. */
import type { KnownBlock } from '@slack/types';
import { PAYOUT_ACTIONS, PAYOUT_BLOCKS } from '../ids.js';
import { textsFor, type Locale } from '../../i18n/index.js';
import type { PayoutEventName, PayoutRequest } from '../../payouts/index.js';
import type { Reply } from './notice.js';
import { codeSpan, escapeWithin, mentionChannel, mentionUser, plainText, sandboxFooter, sandboxMarked, type Surface } from './text.js';
import { dualApprovalLine, failureWords, heldWhy, payoutSummary, plainSummary } from './payout-details.js';

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
  const { locale } = surface;
  const t = textsFor(locale);
  const payout = t('payoutApproval.dm.payout', { id: request.id, summary: payoutSummary(request, locale) });
  const by = actor ? mentionUser(actor) : t('payoutApproval.dm.anApprover');
  const transaction = request.transactionId ? t('payoutApproval.dm.transaction', { id: codeSpan(request.transactionId, CODE_MAX) }) : '';
  const reason = (text: string | undefined) => escapeWithin(text ?? t('payoutApproval.noReason'), 400);
  let line: string;
  switch (event) {
    case 'requested': {
      const where = approvalChannelId ? t('payoutApproval.dm.inChannel', { channel: mentionChannel(approvalChannelId) }) : '';
      line = t('payoutApproval.dm.requested', { payout, where, reference: codeSpan(request.reference, CODE_MAX) });
      break;
    }
    case 'approved':
      // Sent at once (the outcome has its own message), or held (the held message says why).
      if (request.state !== 'pending' || request.hold) return undefined;
      line = t('payoutApproval.dm.approved', { by, payout });
      break;
    case 'approvals_raised':
      line = t('payoutApproval.dm.approvalsRaised', {
        payout,
        why: dualApprovalLine(request.dualApproval, request.currency, locale, request.requiredApprovals),
      });
      break;
    case 'approval_revoked':
      return undefined;
    case 'held':
      // A failed role lookup is for approvers to retry; every other hold of the gate before sending is told.
      if (request.hold === 'requester_not_allowed') line = t('payoutApproval.dm.held', { payout });
      else if (request.hold && request.hold !== 'roles_unavailable') line = t('payoutApproval.dm.heldByGate', { payout, why: t(heldWhy(request.hold)) });
      else return undefined;
      break;
    case 'executing':
      return undefined;
    case 'completed':
    case 'reconciled':
      line = t('payoutApproval.dm.sent', { payout, transaction });
      break;
    case 'failed':
      line = t('payoutApproval.dm.failed', { payout, reason: failureWords(request.failureReason, locale) });
      break;
    case 'unknown':
      line = t('payoutApproval.dm.unknown', { payout, reason: failureWords(request.failureReason, locale) });
      break;
    case 'needs_review':
      line = t('payoutApproval.dm.needsReview', { payout });
      break;
    case 'retried':
      line = t('payoutApproval.dm.retried', { by, payout });
      break;
    case 'match_confirmed':
      line = t('payoutApproval.dm.matchConfirmed', { payout, by, transaction });
      break;
    // Steps approvers take between themselves; the requester hears of the outcome.
    case 'retry_approved':
    case 'likely_match':
    case 'match_rejected':
      return undefined;
    case 'rejected':
      line = t('payoutApproval.dm.rejected', { by: request.rejectedBy ? mentionUser(request.rejectedBy) : by, payout, reason: reason(request.rejectReason) });
      break;
    case 'expired':
      line = t('payoutApproval.dm.expired', { payout });
      break;
    case 'cancelled':
      line = t('payoutApproval.dm.cancelled', { payout });
      break;
  }
  const blocks: KnownBlock[] = [{ type: 'section', text: { type: 'mrkdwn', text: line } }];
  if (event === 'rejected' && request.state === 'rejected') {
    // Only the request's id: who may use it is decided from the stored request when it is pressed.
    blocks.push({
      type: 'actions',
      block_id: PAYOUT_BLOCKS.resubmitActions,
      elements: [{ type: 'button', action_id: PAYOUT_ACTIONS.resubmit, text: plainText(t('payoutApproval.dm.resubmit'), 75), value: request.id }],
    });
  }
  blocks.push(...sandboxFooter(surface));
  const outcome =
    request.transactionId && (event === 'completed' || event === 'reconciled' || event === 'match_confirmed')
      ? t('payoutApproval.transactionSuffix', { id: escapeWithin(request.transactionId, CODE_MAX, { oneLine: true }) })
      : '';
  const title = sandboxMarked(surface, t('payoutApproval.title', { id: request.id }));
  return { text: `${title}: ${plainSummary(request, locale)}: ${eventWord(locale, event)}${outcome}`, blocks };
}

/** The event in a word or two, for the notification text. */
function eventWord(locale: Locale, event: PayoutEventName): string {
  const t = textsFor(locale);
  switch (event) {
    case 'requested':
      return t('payoutApproval.event.requested');
    case 'approved':
      return t('payoutApproval.event.approved');
    case 'approvals_raised':
      return t('payoutApproval.event.approvalsRaised');
    case 'held':
      return t('payoutApproval.event.held');
    case 'completed':
      return t('payoutApproval.event.completed');
    case 'reconciled':
      return t('payoutApproval.event.reconciled');
    case 'failed':
      return t('payoutApproval.event.failed');
    case 'unknown':
      return t('payoutApproval.event.unknown');
    case 'needs_review':
      return t('payoutApproval.event.needsReview');
    case 'retried':
      return t('payoutApproval.event.retried');
    case 'match_confirmed':
      return t('payoutApproval.event.matchConfirmed');
    case 'rejected':
      return t('payoutApproval.event.rejected');
    case 'expired':
      return t('payoutApproval.event.expired');
    case 'cancelled':
      return t('payoutApproval.event.cancelled');
    default:
      return event.replace(/_/g, ' ');
  }
}

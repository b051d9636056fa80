/**
 * The approvers' side: the message in the approval channel (always the request's current state, with
 * only the buttons that can still do something), the approve and reject modals, and the outcome of
 * an approval as the approver sees it.
 */
import type { Button, KnownBlock, ModalView } from '@slack/types';
import { countingApprovers, revokedApprovals, type PayoutActionResult, type PayoutRequest } from '../../payouts/index.js';
import { PAYOUT_ACTIONS, PAYOUT_BLOCKS, PAYOUT_VIEWS } from '../ids.js';
import { refusalMessage } from '../payout-refusals.js';
import type { Reply } from './common.js';
import { escapeWithin, footer, mentionUser, plainText, sandboxFooter, sandboxMarked, slackDate, type Surface } from './text.js';
import {
  amountText, approvalLines, detailBlocks, dualApprovalLine, holdLine, likelyMatchLines, payoutSummary, plainSummary, retryApprovalLine, revokedLine,
  stateLine, stateWord,
} from './payout-details.js';


function button(actionId: string, label: string, requestId: string, style?: 'primary' | 'danger'): Button {
  return { type: 'button', action_id: actionId, text: plainText(label), value: requestId, ...(style ? { style } : {}) };
}

/** The buttons that can still change something; none once the request is final. */
function messageButtons(request: PayoutRequest): Button[] {
  if (request.state === 'pending') {
    const buttons = [
      button(PAYOUT_ACTIONS.approve, 'Approve', request.id, 'primary'),
      button(PAYOUT_ACTIONS.reject, 'Reject', request.id, 'danger'),
    ];
    if (request.approvals.length === 0) buttons.push(button(PAYOUT_ACTIONS.cancel, 'Cancel request', request.id));
    return buttons;
  }
  if (request.state === 'unknown' && request.likelyMatch) {
    // Only a request id and which entry: the service reads the proposal from the store again.
    const value = `${request.id}:${request.likelyMatch.id}`;
    return [
      {
        type: 'button', action_id: PAYOUT_ACTIONS.confirmMatch, text: plainText('Confirm it was sent'), value, style: 'primary',
        confirm: {
          title: plainText('Is this the payout?'),
          text: plainText('The payout is then marked sent with this transaction, and nobody can send it again. Confirm only if you are sure this entry is this payout.'),
          confirm: plainText('It is this payout'),
          deny: plainText('Not sure'),
        },
      },
      { type: 'button', action_id: PAYOUT_ACTIONS.rejectMatch, text: plainText('Not this one'), value },
    ];
  }
  if (request.state === 'unknown' && request.needsReview) {
    return [{
      ...button(PAYOUT_ACTIONS.retry, 'Retry with the same reference', request.id, 'danger'),
      confirm: {
        title: plainText('Send this payout again?'),
        text: plainText(
          `The first attempt was not found in the Fleet API's transactions, but it may still have gone through. Check with the Fleet provider first. Sending again uses the same reference, ${request.reference}.${request.requiredApprovals > 1 ? ` It needs ${request.requiredApprovals} approvers, as the payout did.` : ''}`,
          300,
        ),
        confirm: plainText('Send again'),
        deny: plainText('Not yet'),
        style: 'danger',
      },
    }];
  }
  return [];
}

/** The approval channel's message for one request: details, approvals, state or outcome, buttons. */
export function buildApprovalMessage(surface: Surface, request: PayoutRequest): Reply {
  const blocks: KnownBlock[] = [
    { type: 'header', text: plainText(`Payout ${request.id} · ${amountText(request)}`) },
    { type: 'section', text: { type: 'mrkdwn', text: `${mentionUser(request.requestedBy)} asks to send ${payoutSummary(request)}.` } },
    ...detailBlocks(request),
    { type: 'section', text: { type: 'mrkdwn', text: approvalLines(request) } },
    { type: 'section', text: { type: 'mrkdwn', text: `*Status*\n${stateLine(request)}` } },
  ];
  for (const extra of [likelyMatchLines(request), retryApprovalLine(request)]) {
    if (extra) blocks.push({ type: 'section', text: { type: 'mrkdwn', text: extra } });
  }
  const buttons = messageButtons(request);
  if (buttons.length > 0) blocks.push({ type: 'actions', block_id: PAYOUT_BLOCKS.messageActions, elements: buttons });
  blocks.push(footer(surface, `Requested ${slackDate(request.requestedAt)} · \`/fleet payouts ${request.id}\` for its history`));
  const outcome = request.state === 'completed' && request.transactionId ? ` (transaction ${escapeWithin(request.transactionId, 80, { oneLine: true })})` : '';
  const text = `${sandboxMarked(surface, `Payout ${request.id}`)}: ${plainSummary(request)}: ${stateWord(request)}${outcome}`;
  return { text, blocks };
}

/** Step two of the confirmation: the approver sees every detail again; only submitting approves. */
export function buildApproveModal(surface: Surface, request: PayoutRequest): ModalView {
  const counted = countingApprovers(request).length;
  const held = counted >= request.requiredApprovals ? holdLine(request) : undefined;
  const last = counted + 1 >= request.requiredApprovals;
  const consequence = held
    ? `:no_entry: ${held}\n:warning: *Approve and send checks everyone's roles again and sends the payout to the Fleet API if they allow it.*`
    : last
      ? ':warning: *Your approval is the last one needed: the payout is sent to the Fleet API as soon as you press Approve and send*, once the roles of the requester and approvers are checked again with Slack.'
      : `:information_source: ${dualApprovalLine(request.dualApproval, request.currency)} After yours, one more approver must approve before anything is sent.`;
  const blocks: KnownBlock[] = [
    { type: 'section', text: { type: 'mrkdwn', text: `${mentionUser(request.requestedBy)} asks to send ${payoutSummary(request)}.` } },
    ...detailBlocks(request),
    { type: 'section', text: { type: 'mrkdwn', text: approvalLines(request) } },
    { type: 'section', text: { type: 'mrkdwn', text: consequence } },
  ];
  blocks.push(...sandboxFooter(surface));
  return {
    type: 'modal',
    callback_id: PAYOUT_VIEWS.approve,
    title: plainText(`Approve ${request.id}`),
    submit: plainText(last ? 'Approve and send' : 'Approve'),
    close: plainText('Cancel'),
    // Only which request; the request itself is read from the store again on submission.
    private_metadata: request.id,
    blocks,
  };
}

/** Rejecting needs a reason, which the requester is sent. */
export function buildRejectModal(surface: Surface, request: PayoutRequest): ModalView {
  const blocks: KnownBlock[] = [
    { type: 'section', text: { type: 'mrkdwn', text: `${mentionUser(request.requestedBy)} asks to send ${payoutSummary(request)}.` } },
    ...detailBlocks(request),
    {
      type: 'input',
      block_id: PAYOUT_BLOCKS.rejectReason,
      label: plainText('Reason'),
      hint: plainText('The requester sees it.'),
      element: { type: 'plain_text_input', action_id: PAYOUT_ACTIONS.input, multiline: true, max_length: 500 },
    },
  ];
  blocks.push(...sandboxFooter(surface));
  return {
    type: 'modal',
    callback_id: PAYOUT_VIEWS.reject,
    title: plainText(`Reject ${request.id}`),
    submit: plainText('Reject'),
    close: plainText('Cancel'),
    private_metadata: request.id,
    blocks,
  };
}

/**
 * What the approver is told once their approval was handled: a title and mrkdwn text. A refusal of a
 * request that already holds their approval (the same submission delivered twice) is no refusal to
 * them: their approval stands, and they see where the request is now.
 */
export function approvalOutcome(result: PayoutActionResult, approverId: string): { title: string; text: string } {
  if (result.ok) return approvalRecorded(result.request);
  const standing = result.request?.approvals.some((approval) => approval.userId === approverId) ? result.request : undefined;
  if (standing) return approvalRecorded(standing);
  return { title: 'Not approved', text: `:no_entry: ${escapeWithin(refusalMessage(result), 2000)}\nNothing was changed.` };
}

function approvalRecorded(request: PayoutRequest): { title: string; text: string } {
  const title = `Payout ${request.id}`;
  if (request.state !== 'pending') return { title, text: `Your approval is recorded.\n${stateLine(request)}` };
  const held = holdLine(request);
  if (held) return { title, text: `:no_entry: Your approval is recorded, but nothing was sent. ${held}` };
  const missing = Math.max(1, request.requiredApprovals - countingApprovers(request).length);
  const lines = [
    `:white_check_mark: Your approval is recorded. ${missing === 1 ? 'One more approver' : `${missing} more approvers`} must approve before anything is sent.`,
  ];
  if (request.requiredApprovals === 2) lines.push(dualApprovalLine(request.dualApproval, request.currency));
  for (const approval of revokedApprovals(request)) lines.push(`${revokedLine(approval.userId)}.`);
  return { title, text: lines.join('\n') };
}

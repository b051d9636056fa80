/**
 * The approvers' side: the message in the approval channel (always the request's current state, with
 * only the buttons that can still do something), the approve and reject modals, and the outcome of
 * an approval as the approver sees it. Each is written in its surface's language: the channel's for
 * the message, the approver's for a modal.
 */
import type { Button, KnownBlock, ModalView } from '@slack/types';
import { textsFor, type Locale, type Texts } from '../../i18n/index.js';
import { countingApprovers, revokedApprovals, type PayoutActionResult, type PayoutRequest } from '../../payouts/index.js';
import { PAYOUT_ACTIONS, PAYOUT_BLOCKS, PAYOUT_VIEWS } from '../ids.js';
import { refusalMessage } from '../refusals/payout-refusals.js';
import type { Reply } from './notice.js';
import { escapeWithin, footer, mentionUser, plainText, sandboxFooter, sandboxMarked, type Surface } from './text.js';
import { slackDate } from './dates.js';
import {
  amountText,
  approvalLines,
  detailBlocks,
  dualApprovalLine,
  holdLine,
  likelyMatchLines,
  payoutSummary,
  plainSummary,
  retryApprovalLine,
  revokedLine,
  stateLine,
  stateWord,
} from './payout-details.js';
import { recipientFlagBlocks, requestFlags } from './recipient-flags.js';
import { dayTotalsBlocks, duplicateTickBlock, signalBlocks, type ApprovalContext } from './approval-signals.js';
import { scheduleMessageBlocks, scheduleWhenBlocks } from './payout-schedule.js';

// Slack's limits: button texts 75, confirm dialog titles 100 and texts 300, modal titles 24.
const BUTTON_MAX = 75;
const CONFIRM_TITLE_MAX = 100;
const CONFIRM_TEXT_MAX = 300;
const MODAL_TITLE_MAX = 24;

function button(actionId: string, label: string, requestId: string, style?: 'primary' | 'danger'): Button {
  return { type: 'button', action_id: actionId, text: plainText(label, BUTTON_MAX), value: requestId, ...(style ? { style } : {}) };
}

/** The buttons that can still change something; none once the request is final. */
function messageButtons(t: Texts, request: PayoutRequest): Button[] {
  if (request.state === 'pending') {
    const buttons = [
      button(PAYOUT_ACTIONS.approve, t('payoutApproval.button.approve'), request.id, 'primary'),
      button(PAYOUT_ACTIONS.reject, t('payoutApproval.button.reject'), request.id, 'danger'),
    ];
    if (request.approvals.length === 0) {
      // Cancelling cannot be undone (a new request is needed), so Slack asks first.
      buttons.push({
        ...button(PAYOUT_ACTIONS.cancel, t('payoutApproval.button.cancel'), request.id),
        confirm: {
          title: plainText(t('payoutApproval.confirmCancel.title'), CONFIRM_TITLE_MAX),
          text: plainText(t('payoutApproval.confirmCancel.text', { id: request.id }), CONFIRM_TEXT_MAX),
          confirm: plainText(t('payoutApproval.confirmCancel.confirm'), 30),
          deny: plainText(t('payoutApproval.confirmCancel.deny'), 30),
        },
      });
    }
    return buttons;
  }
  if (request.state === 'unknown' && request.likelyMatch) {
    // Only a request id and which entry: the service reads the proposal from the store again.
    const value = `${request.id}:${request.likelyMatch.id}`;
    return [
      {
        type: 'button',
        action_id: PAYOUT_ACTIONS.confirmMatch,
        text: plainText(t('payoutApproval.button.confirmMatch'), BUTTON_MAX),
        value,
        style: 'primary',
        confirm: {
          title: plainText(t('payoutApproval.confirmMatch.title'), CONFIRM_TITLE_MAX),
          text: plainText(t('payoutApproval.confirmMatch.text'), CONFIRM_TEXT_MAX),
          confirm: plainText(t('payoutApproval.confirmMatch.confirm'), 30),
          deny: plainText(t('payoutApproval.confirmMatch.deny'), 30),
        },
      },
      { type: 'button', action_id: PAYOUT_ACTIONS.rejectMatch, text: plainText(t('payoutApproval.button.rejectMatch'), BUTTON_MAX), value },
    ];
  }
  if (request.state === 'unknown' && request.needsReview) {
    const approvers = request.requiredApprovals > 1 ? t('payoutApproval.confirmRetry.approvers', { count: request.requiredApprovals }) : '';
    return [
      {
        ...button(PAYOUT_ACTIONS.retry, t('payoutApproval.button.retry'), request.id, 'danger'),
        confirm: {
          title: plainText(t('payoutApproval.confirmRetry.title'), CONFIRM_TITLE_MAX),
          text: plainText(t('payoutApproval.confirmRetry.text', { reference: request.reference, approvers }), CONFIRM_TEXT_MAX),
          confirm: plainText(t('payoutApproval.confirmRetry.confirm'), 30),
          deny: plainText(t('payoutApproval.confirmRetry.deny'), 30),
          style: 'danger',
        },
      },
    ];
  }
  return [];
}

function sectionIf(text: string | undefined): KnownBlock[] {
  return text === undefined ? [] : [{ type: 'section', text: { type: 'mrkdwn', text } }];
}

/** `Jean asks to send *1 500,50 USD* by mobile money to *Amani*.` */
function askLine(request: PayoutRequest, locale: Locale): KnownBlock {
  const text = textsFor(locale)('payoutApproval.asks', { user: mentionUser(request.requestedBy), summary: payoutSummary(request, locale) });
  return { type: 'section', text: { type: 'mrkdwn', text } };
}

/** A request a workflow made in the requester's name says so, and that they confirmed it (docs/workflow-step.md). */
function throughBlocks(request: PayoutRequest, locale: Locale): KnownBlock[] {
  if (request.requestedThrough !== 'workflow') return [];
  return [{ type: 'section', text: { type: 'mrkdwn', text: textsFor(locale)('payoutApproval.throughWorkflow', { user: mentionUser(request.requestedBy) }) } }];
}

/** `Corrects the rejected request PR-…`: a resubmission names the request it corrects, and where its history is. */
function resubmitLine(oldId: string, locale: Locale): string {
  const id = escapeWithin(oldId, 20, { oneLine: true });
  return textsFor(locale)('payoutApproval.resubmitOf', { id, command: `\`/fleet payouts ${id}\`` });
}

/**
 * `:warning: Only 1 person besides the requester can approve (FLEET_APPROVERS), and this request needs 2...`,
 * while a pending request needs more approvers than `available`; undefined otherwise.
 */
export function notEnoughApproversLine(
  pending: { state: string; requiredApprovals: number },
  available: number | undefined,
  locale: Locale,
): string | undefined {
  if (pending.state !== 'pending' || available === undefined || available >= pending.requiredApprovals) return undefined;
  return textsFor(locale)('payoutApproval.notEnoughApprovers', { count: available, required: pending.requiredApprovals, variable: '`FLEET_APPROVERS`' });
}

/**
 * The approval channel's message for one request: details, approvals, state or outcome, buttons.
 * `approvers`: the mentions that call its approvers (see `approverMentions`), shown while it is pending;
 * `approversAvailable`: how many people besides the requester can approve, when known.
 */
export function buildApprovalMessage(
  surface: Surface,
  request: PayoutRequest,
  options: { approvers?: string; approversAvailable?: number | undefined; context?: ApprovalContext | undefined } = {},
): Reply {
  const { locale } = surface;
  const t = textsFor(locale);
  const call = request.state === 'pending' && options.approvers ? t('payoutApproval.callApprovers', { approvers: options.approvers }) : undefined;
  const blocks: KnownBlock[] = [
    { type: 'header', text: plainText(t('payoutApproval.header', { id: request.id, amount: amountText(request, locale) }), 150) },
    askLine(request, locale),
    ...throughBlocks(request, locale),
    ...(call ? [{ type: 'section', text: { type: 'mrkdwn', text: call } } satisfies KnownBlock] : []),
    ...(request.resubmitOf ? [{ type: 'section', text: { type: 'mrkdwn', text: resubmitLine(request.resubmitOf, locale) } } satisfies KnownBlock] : []),
    ...recipientFlagBlocks(request.kind, requestFlags(request), locale),
    ...(request.state === 'pending' ? signalBlocks(options.context ?? {}, locale) : []),
    ...detailBlocks(request, locale),
    ...dayTotalsBlocks(options.context?.signals, request.requestedBy, locale),
    { type: 'section', text: { type: 'mrkdwn', text: approvalLines(request, surface) } },
    ...sectionIf(notEnoughApproversLine(request, options.approversAvailable, locale)),
    { type: 'section', text: { type: 'mrkdwn', text: t('payoutApproval.status', { state: stateLine(request, surface) }) } },
    ...scheduleMessageBlocks(surface, request),
  ];
  for (const extra of [likelyMatchLines(request, surface), retryApprovalLine(request, locale)]) {
    if (extra) blocks.push({ type: 'section', text: { type: 'mrkdwn', text: extra } });
  }
  const buttons = messageButtons(t, request);
  if (buttons.length > 0) blocks.push({ type: 'actions', block_id: PAYOUT_BLOCKS.messageActions, elements: buttons });
  blocks.push(
    footer(surface, t('payoutApproval.requestedAt', { date: slackDate(request.requestedAt, undefined, surface), command: `\`/fleet payouts ${request.id}\`` })),
  );
  const outcome =
    request.state === 'completed' && request.transactionId
      ? t('payoutApproval.transactionSuffix', { id: escapeWithin(request.transactionId, 80, { oneLine: true }) })
      : '';
  const text = `${sandboxMarked(surface, t('payoutApproval.title', { id: request.id }))}: ${plainSummary(request, locale)}: ${stateWord(request, locale)}${outcome}`;
  // In the notification text too, which is what Slack notifies with.
  return { text: call ? `${text} ${options.approvers}` : text, blocks };
}

/** Step two of the confirmation: the approver sees every detail again, the amount their way; only submitting approves. */
export function buildApproveModal(surface: Surface, request: PayoutRequest, context: ApprovalContext = {}): ModalView {
  const { locale } = surface;
  const t = textsFor(locale);
  const counted = countingApprovers(request).length;
  const held = counted >= request.requiredApprovals ? holdLine(request, locale) : undefined;
  const last = counted + 1 >= request.requiredApprovals;
  // A scheduled request is approved ahead: the last approval sends nothing now, each payout goes at its time.
  const scheduled = request.schedule !== undefined;
  const consequence = held
    ? t('payoutApproval.approve.held', { held })
    : last
      ? t(scheduled ? 'payoutSchedule.approve.last' : 'payoutApproval.approve.last')
      : // Why two are needed stands once, under the approvals.
        t('payoutApproval.approve.oneMore');
  const blocks: KnownBlock[] = [
    askLine(request, locale),
    ...throughBlocks(request, locale),
    ...recipientFlagBlocks(request.kind, requestFlags(request), locale),
    ...signalBlocks(context, locale),
    ...detailBlocks(request, locale),
    ...scheduleWhenBlocks(request, locale),
    ...dayTotalsBlocks(context.signals, request.requestedBy, locale),
    { type: 'section', text: { type: 'mrkdwn', text: approvalLines(request, surface) } },
    { type: 'section', text: { type: 'mrkdwn', text: consequence } },
    // A possible duplicate is approved only with the tick; the service checks it again.
    ...(context.signals?.duplicateOf ? [duplicateTickBlock(locale)] : []),
  ];
  blocks.push(...sandboxFooter(surface));
  return {
    type: 'modal',
    callback_id: PAYOUT_VIEWS.approve,
    title: plainText(t('payoutApproval.approve.title', { id: request.id }), MODAL_TITLE_MAX),
    submit: plainText(last && !scheduled ? t('payoutApproval.approve.submitAndSend') : t('payoutApproval.approve.submit'), MODAL_TITLE_MAX),
    close: plainText(t('payoutApproval.modal.close'), MODAL_TITLE_MAX),
    // Only which request; the request itself is read from the store again on submission.
    private_metadata: request.id,
    blocks,
  };
}

/** Rejecting needs a reason, which the requester is sent. */
export function buildRejectModal(surface: Surface, request: PayoutRequest): ModalView {
  const { locale } = surface;
  const t = textsFor(locale);
  const blocks: KnownBlock[] = [
    askLine(request, locale),
    ...detailBlocks(request, locale),
    {
      type: 'input',
      block_id: PAYOUT_BLOCKS.rejectReason,
      label: plainText(t('payoutApproval.reject.reason'), 2000),
      hint: plainText(t('payoutApproval.reject.hint'), 2000),
      element: { type: 'plain_text_input', action_id: PAYOUT_ACTIONS.input, multiline: true, max_length: 500 },
    },
  ];
  blocks.push(...sandboxFooter(surface));
  return {
    type: 'modal',
    callback_id: PAYOUT_VIEWS.reject,
    title: plainText(t('payoutApproval.reject.title', { id: request.id }), MODAL_TITLE_MAX),
    submit: plainText(t('payoutApproval.reject.submit'), MODAL_TITLE_MAX),
    close: plainText(t('payoutApproval.modal.close'), MODAL_TITLE_MAX),
    private_metadata: request.id,
    blocks,
  };
}

/**
 * What the approver is told once their approval was handled: a title and mrkdwn text, in their
 * language. A refusal of a request that already holds their approval (the same submission delivered
 * twice) is no refusal to them: their approval stands, and they see where the request is now.
 */
export function approvalOutcome(result: PayoutActionResult, approverId: string, locale: Locale = 'en'): { title: string; text: string } {
  if (result.ok) return approvalRecorded(result.request, locale);
  const standing = result.request?.approvals.some((approval) => approval.userId === approverId) ? result.request : undefined;
  if (standing) return approvalRecorded(standing, locale);
  const t = textsFor(locale);
  return { title: t('payoutApproval.outcome.notApproved'), text: refusedText(locale, escapeWithin(refusalMessage(result, locale), 2000)) };
}

/** `:no_entry: <why>` and that nothing changed; `why` is mrkdwn already escaped. */
export function refusedText(locale: Locale, why: string): string {
  return textsFor(locale)('payoutApproval.outcome.refused', { why });
}

function approvalRecorded(request: PayoutRequest, locale: Locale): { title: string; text: string } {
  const t = textsFor(locale);
  const title = t('payoutApproval.title', { id: request.id });
  if (request.state !== 'pending') return { title, text: t('payoutApproval.outcome.recorded', { state: stateLine(request, locale) }) };
  const held = holdLine(request, locale);
  if (held) return { title, text: t('payoutApproval.outcome.recordedHeld', { held }) };
  const missing = Math.max(1, request.requiredApprovals - countingApprovers(request).length);
  const lines = [t('payoutApproval.outcome.recordedWaiting', { count: missing })];
  if (request.requiredApprovals > 1) lines.push(dualApprovalLine(request.dualApproval, request.currency, locale, request.requiredApprovals));
  for (const approval of revokedApprovals(request)) lines.push(`${revokedLine(approval.userId, locale)}.`);
  return { title, text: lines.join('\n') };
}

/**
 * A bulk payout's one message in the approval channel: who asks, how many rows, totals per currency,
 * the largest row of each currency, new recipients, the approvals so far or the sending's progress,
 * and the buttons that still apply. Edited at every change; its thread holds the rows as a CSV.
 */
import type { ActionsBlock, Button, KnownBlock } from '@slack/types';
import { textsFor, type Locale, type Texts } from '../../i18n/index.js';
import { formatMinor } from '../../core/money.js';
import type { BatchProgress, PayoutBatch, StoredBatchRow } from '../../payouts/index.js';
import { PAYOUT_BATCH_ACTIONS } from '../ids.js';
import type { Reply } from './notice.js';
import { notEnoughApproversLine } from './payout-approval.js';
import { signalBlocks, type SeniorCall } from './approval-signals.js';
import { dualApprovalLine } from './payout-details.js';
import { codeSpan, cutMrkdwn, escapeMrkdwn, escapeWithin, mentionUser, plainText, sandboxFooter, type Surface } from './text.js';

export interface BatchMessageFacts {
  batch: PayoutBatch;
  largest: readonly StoredBatchRow[];
  progress: BatchProgress;
  /** The mentions that call its approvers (see `approverMentions`), shown while it is pending. */
  approvers?: string;
  /** How many people besides the requester can approve, when known. */
  approversAvailable?: number | undefined;
  /** Above the senior tier in a currency: the senior approvers it calls for (`approval-signals.ts`). */
  senior?: SeniorCall | undefined;
}

export function buildBatchApprovalMessage(surface: Surface, facts: BatchMessageFacts): Reply {
  const { batch, largest, progress } = facts;
  const { locale } = surface;
  const t = textsFor(locale);
  const amount = (minor: number, currency: string) => formatMinor(minor, currency, { locale }).trim();
  const totals = batchTotalsText(batch, locale);
  const asks = t('payoutBatch.message.asks', { user: mentionUser(batch.requestedBy), count: batch.rowCount, id: batch.id });
  const lines = [
    t('payoutBatch.totals', { totals }),
    ...largest.map((row) =>
      t('payoutBatch.largest', {
        row: row.rowNumber,
        amount: amount(row.draft.amountMinor, row.draft.currency),
        name: escapeWithin(row.draft.recipient.name, 100, { oneLine: true }),
      }),
    ),
    ...(batch.newRecipients > 0 ? [t('payoutBatch.message.newRecipients', { count: batch.newRecipients })] : []),
    stateLine(t, batch),
    ...(batch.state === 'pending' && batch.requiredApprovals > 1 ? [batchApprovalsLine(batch, locale)] : []),
    ...[notEnoughApproversLine(batch, facts.approversAvailable, locale)].filter((line) => line !== undefined),
    ...(batch.state === 'pending' && facts.senior ? signalBlocks({ senior: facts.senior }, locale).map(sectionText) : []),
    ...(batch.state === 'sending' || batch.state === 'done' || batch.state === 'stopped' ? [t('payoutBatch.message.progress', { ...progress })] : []),
    ...(progress.skipped > 0 ? [t('payoutBatch.message.skipped', { count: progress.skipped })] : []),
  ];
  const call = batch.state === 'pending' && facts.approvers ? t('payoutApproval.callApprovers', { approvers: facts.approvers }) : undefined;
  const blocks: KnownBlock[] = [
    { type: 'section', text: { type: 'mrkdwn', text: cutMrkdwn(asks, 3000) } },
    ...(call ? [{ type: 'section', text: { type: 'mrkdwn', text: call } } satisfies KnownBlock] : []),
    { type: 'section', text: { type: 'mrkdwn', text: cutMrkdwn(lines.join('\n'), 3000) } },
  ];
  // Said while approvers decide and the rows go out; a finished batch's message keeps only its outcome.
  if (batch.state === 'pending' || batch.state === 'sending')
    blocks.push({ type: 'context', elements: [{ type: 'mrkdwn', text: t('payoutBatch.moneyFlow') }] });
  const actions = buttons(t, batch, locale);
  if (actions) blocks.push(actions);
  blocks.push(...sandboxFooter(surface));
  return { text: `${asks} ${stateLine(t, batch)}${call ? ` ${facts.approvers}` : ''}`, blocks };
}

/** Why the batch needs more than one approver, in the single payout's words; an amount reason without its currency says only how many. */
function batchApprovalsLine(batch: PayoutBatch, locale: Surface['locale']): string {
  const currency = batch.dualApprovalCurrency;
  const reason = batch.dualApproval?.rule === 'new_recipient' || currency !== undefined ? batch.dualApproval : undefined;
  return dualApprovalLine(reason, currency ?? '', locale, batch.requiredApprovals);
}

function stateLine(t: Texts, batch: PayoutBatch): string {
  const approvers = batch.approvals.map((approval) => mentionUser(approval.userId));
  switch (batch.state) {
    case 'pending':
      return (
        t('payoutBatch.message.state.pending', { approvals: approvers.length, required: batch.requiredApprovals }) +
        (approvers.length > 0 ? ` (${approvers.join(', ')})` : '')
      );
    case 'sending':
      return t('payoutBatch.message.state.sending', { approvers: approvers.join(', ') });
    // A finished batch still says who let its rows go.
    case 'done':
      return t('payoutBatch.message.state.done', { approvers: approvers.join(', ') });
    case 'stopped':
      return t('payoutBatch.message.state.stopped', { user: mentionUser(batch.stoppedBy ?? ''), approvers: approvers.join(', ') });
    case 'rejected':
      return t('payoutBatch.message.state.rejected', {
        user: mentionUser(batch.rejectedBy ?? ''),
        reason: escapeWithin(batch.rejectReason ?? '', 300, { oneLine: true }),
      });
    default:
      return t(`payoutBatch.message.state.${batch.state}`);
  }
}

/** One line for a bulk payout in lists (Home, `/fleet payouts`): its rows, its totals, the file it came from. */
export function bulkPayoutSummary(batch: PayoutBatch, locale: Locale): string {
  const t = textsFor(locale);
  const summary = t('payoutBatch.summary', { count: batch.rowCount, totals: escapeMrkdwn(batchTotalsText(batch, locale)) });
  return batch.fileName ? `${summary} · ${codeSpan(batch.fileName, 60)}` : summary;
}

/** A bulk payout's state in one word or two, as a request's state is worded in lists. */
export function batchStateWord(batch: Pick<PayoutBatch, 'state'>, locale: Locale): string {
  const t = textsFor(locale);
  switch (batch.state) {
    case 'pending':
      return t('payoutApproval.word.pending');
    case 'sending':
      return t('payoutApproval.word.sending');
    case 'rejected':
      return t('payoutApproval.word.rejected');
    case 'expired':
      return t('payoutApproval.word.expired');
    case 'cancelled':
      return t('payoutApproval.word.cancelled');
    default:
      return t(`payoutBatch.word.${batch.state}`);
  }
}

/** A batch's total in each currency, through the one money formatter in the reader's language: `75,000.00 CDF · 1,500.50 USD`. */
export function batchTotalsText(batch: Pick<PayoutBatch, 'totals'>, locale: Locale): string {
  // In currency order: the stored totals come back in whatever order the database keeps them.
  return [...batch.totals]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([currency, minor]) => formatMinor(minor, currency, { locale }).trim())
    .join(' · ');
}

/** A button whose value is the batch id; with `confirm`, Slack asks first. */
function button(
  t: Texts,
  actionId: string,
  text: string,
  batch: PayoutBatch,
  confirm: { title: string; text: string } | undefined,
  style?: 'primary' | 'danger',
): Button {
  return {
    type: 'button',
    action_id: actionId,
    value: batch.id,
    text: plainText(text, 75),
    ...(style ? { style } : {}),
    ...(confirm
      ? {
          confirm: {
            title: plainText(confirm.title, 100),
            // Slack's confirm text holds 300 characters: plainText cuts a long list of currencies.
            text: plainText(confirm.text, 300),
            confirm: plainText(t('payoutBatch.confirm.yes'), 30),
            deny: plainText(t('payoutBatch.confirm.no'), 30),
          },
        }
      : {}),
  };
}

/** Approve and send all, and Reject, of a pending batch: on its approval message and in the approvers' Home. */
export function batchDecisionButtons(batch: PayoutBatch, locale: Locale): Button[] {
  const t = textsFor(locale);
  const id = batch.id;
  const count = batch.rowCount;
  return [
    button(
      t,
      PAYOUT_BATCH_ACTIONS.approve,
      t('payoutBatch.message.approve'),
      batch,
      {
        title: t('payoutBatch.confirmApprove.title'),
        text: t('payoutBatch.confirmApprove.text', { id, count, totals: batchTotalsText(batch, locale) }),
      },
      'primary',
    ),
    // Reject opens a modal asking the reason, which is its confirmation.
    button(t, PAYOUT_BATCH_ACTIONS.reject, t('payoutBatch.message.reject'), batch, undefined, 'danger'),
  ];
}

function buttons(t: Texts, batch: PayoutBatch, locale: Locale): ActionsBlock | undefined {
  if (batch.state === 'pending') return { type: 'actions', elements: batchDecisionButtons(batch, locale) };
  if (batch.state === 'sending') {
    const confirm = { title: t('payoutBatch.confirmStop.title'), text: t('payoutBatch.confirmStop.text', { id: batch.id }) };
    return { type: 'actions', elements: [button(t, PAYOUT_BATCH_ACTIONS.stop, t('payoutBatch.message.stop'), batch, confirm, 'danger')] };
  }
  return undefined;
}

function sectionText(block: KnownBlock): string {
  return block.type === 'section' && block.text ? block.text.text : '';
}

/** How a payout reads on every payout surface: its recipient, its amount as sent, its state in words. */
import type { KnownBlock, SectionBlock } from '@slack/types';
import { formatMinor, fromMinor } from '../../money.js';
import type { PayoutDraft, PayoutKind, PayoutRequest } from '../../payouts/index.js';
import { escapeMrkdwn, mentionUser, slackDate } from '../mrkdwn.js';

export const KIND_WORDS: Record<PayoutKind, string> = { mobile_money: 'mobile money', bank_account: 'bank transfer' };

type Field = NonNullable<SectionBlock['fields']>[number];

/**
 * Escapes text people typed, then cuts it to `max` characters without splitting an entity such as
 * `&amp;`: the budget holds after escaping, however many `<` or `&` the text has.
 */
export function escapeWithin(text: string, max: number): string {
  const escaped = escapeMrkdwn(text);
  if (escaped.length <= max) return escaped;
  let cut = escaped.slice(0, max - 1);
  const amp = cut.lastIndexOf('&');
  if (amp !== -1 && !cut.slice(amp).includes(';')) cut = cut.slice(0, amp);
  return `${cut}…`;
}

const field = (label: string, value: string): Field => ({ type: 'mrkdwn', text: `*${label}*\n${value}` });

/** `1,500.00 USD`: how people read the amount. */
export function amountText(payout: Pick<PayoutDraft, 'amountMinor' | 'currency'>): string {
  return formatMinor(payout.amountMinor, payout.currency);
}

/** `*150.00 USD* by mobile money to *Amani Kabila*`: the one-line summary used in headlines and lists. */
export function payoutSummary(payout: PayoutDraft): string {
  return `*${escapeMrkdwn(amountText(payout))}* by ${KIND_WORDS[payout.kind]} to *${escapeWithin(payout.recipient.name, 100)}*`;
}

/** The same without formatting, for notification text. */
export function plainSummary(payout: PayoutDraft): string {
  return `${amountText(payout)} by ${KIND_WORDS[payout.kind]} to ${escapeWithin(payout.recipient.name, 100)}`;
}

/** Every field that goes to the Fleet API, as a section of label/value pairs (at most 8 of Slack's 10). */
export function detailFields(payout: PayoutDraft): Field[] {
  const code = (value: string) => `\`${escapeMrkdwn(value.replace(/`/g, "'"))}\``;
  const amount = field('Amount', `*${escapeMrkdwn(amountText(payout))}*`);
  const reference = field('Reference', code(payout.reference));
  const country = field('Country', escapeMrkdwn(payout.recipient.countryCode));
  if (payout.kind === 'mobile_money') {
    return [
      field('Recipient', escapeWithin(payout.recipient.name, 100)),
      field('Phone', code(payout.recipient.phone)),
      field('Operator', escapeMrkdwn(payout.operator)),
      country,
      amount,
      reference,
    ];
  }
  return [
    field('Account holder', escapeWithin(payout.recipient.name, 100)),
    field('Account number', code(payout.recipient.accountNumber)),
    field('Bank code (BIC)', code(payout.recipient.bankCode)),
    country,
    amount,
    reference,
  ];
}

/**
 * The details, the note, and the amount exactly as the Fleet API will receive it, so that what a
 * person approves is what is sent.
 */
export function detailBlocks(payout: PayoutDraft): KnownBlock[] {
  const blocks: KnownBlock[] = [{ type: 'section', fields: detailFields(payout) }];
  if (payout.note.trim() !== '') {
    blocks.push({ type: 'section', text: { type: 'mrkdwn', text: `*Note for the approver*\n${escapeWithin(payout.note, 600)}` } });
  }
  const sent = JSON.stringify(fromMinor(payout.amountMinor, payout.currency));
  blocks.push({
    type: 'context',
    elements: [{
      type: 'mrkdwn',
      text: `Sent to the Fleet API as amount \`${sent}\`, currency \`${escapeMrkdwn(payout.currency)}\`, reference \`${escapeMrkdwn(payout.reference)}\`${payout.kind === 'mobile_money' ? `, operator \`${escapeMrkdwn(payout.operator)}\`` : ''}.`,
    }],
  });
  return blocks;
}

/** Who approved and when, and how many approvals are still needed. */
export function approvalLines(request: PayoutRequest): string {
  const counted = request.approvals.filter((approval) => approval.userId !== request.requestedBy);
  const lines = counted.map((approval) => `:white_check_mark: Approved by ${mentionUser(approval.userId)} · ${slackDate(approval.at)}`);
  const missing = Math.max(0, request.requiredApprovals - counted.length);
  const needed = request.requiredApprovals === 2 ? 'two different approvers' : 'one approver';
  const head = `*Approvals* (${counted.length} of ${request.requiredApprovals}; this amount needs ${needed})`;
  if (request.state === 'pending' && missing > 0) lines.push(`:hourglass_flowing_sand: Waiting for ${missing === 1 ? 'one more approval' : `${missing} approvals`}`);
  if (lines.length === 0) lines.push('None.');
  return `${head}\n${lines.join('\n')}`;
}

/** The current state in plain words, with the outcome when there is one. */
export function stateLine(request: PayoutRequest): string {
  const reason = (text: string | undefined) => escapeWithin(text ?? 'no reason given', 400);
  const again = request.attempts > 1 ? ` (sent ${request.attempts} times with the same reference after review)` : '';
  switch (request.state) {
    case 'pending':
      return `:hourglass_flowing_sand: *Waiting for approval.* Expires ${slackDate(request.expiresAt)}.`;
    case 'approved':
    case 'executing':
      return ':outbox_tray: *Approved: sending to the Fleet API…*';
    case 'completed':
      return request.transactionId
        ? `:white_check_mark: *Sent.* Transaction \`${escapeMrkdwn(request.transactionId)}\`${again}.`
        : `:white_check_mark: *Sent.* The Fleet API gave no transaction id; it accepted reference \`${escapeMrkdwn(request.reference)}\`${again}.`;
    case 'failed':
      return `:x: *Failed:* ${reason(request.failureReason)} The Fleet API did not take the payout: no money moved.`;
    case 'unknown':
      if (request.needsReview && request.lastSearch === 'could_not_check') {
        return `:warning: *Needs review.* The Fleet API gave no clear answer (${reason(request.failureReason)}) and its transactions could not all be checked back to this request. It may or may not have gone through; it can be sent again only after a complete check finds nothing.`;
      }
      return request.needsReview
        ? `:warning: *Needs review.* The Fleet API gave no clear answer (${reason(request.failureReason)}) and the payout was not found in its transactions. It may or may not have gone through: check with the Fleet provider before sending it again.`
        : `:grey_question: *Outcome unknown:* ${reason(request.failureReason)} Looking for reference \`${escapeMrkdwn(request.reference)}\` in the Fleet API's transactions…`;
    case 'rejected':
      return `:no_entry: *Rejected* by ${request.rejectedBy ? mentionUser(request.rejectedBy) : 'an approver'}: ${reason(request.rejectReason)}`;
    case 'expired':
      return `:hourglass: *Expired* ${slackDate(request.expiresAt)} without enough approvals. Nothing was sent.`;
    case 'cancelled':
      return ':heavy_multiplication_x: *Cancelled* by the requester. Nothing was sent.';
  }
}

/** The state as one or two words, for lists and notification text. */
export function stateWord(request: Pick<PayoutRequest, 'state' | 'needsReview'>): string {
  if (request.state === 'unknown') return request.needsReview ? 'needs review' : 'outcome unknown';
  if (request.state === 'approved' || request.state === 'executing') return 'sending';
  if (request.state === 'completed') return 'sent';
  if (request.state === 'pending') return 'waiting for approval';
  return request.state;
}

/**
 * A transaction that quotes the payout's typed reference only in its description: what approvers
 * need to judge whether it is this payout. Every value came from the API, so it is escaped and cut.
 */
export function likelyMatchLines(request: PayoutRequest): string | undefined {
  const match = request.state === 'unknown' ? request.likelyMatch : undefined;
  if (!match) return undefined;
  const amount = Number.isFinite(match.amount) ? String(match.amount) : '?';
  return [
    `:mag: *Likely match:* a transaction of the same amount quotes reference \`${escapeWithin(request.reference, 60)}\` in its description only. It may be this payout, or an unrelated payment that mentions it: an approver other than the requester must say which.`,
    `*Transaction* \`${escapeWithin(match.reference.replace(/`/g, "'"), 80)}\` · ${slackDate(match.date)} · *${escapeWithin(`${amount} ${match.currency}`, 40)}*`,
    `*Description* ${escapeWithin(match.description, 300) || '(none)'}`,
  ].join('\n');
}

/** "Retry approved by …; one more approver needed": agreements to send an unknown payout again. */
export function retryApprovalLine(request: PayoutRequest): string | undefined {
  if (request.state !== 'unknown' || request.retryApprovals.length === 0) return undefined;
  const agreed = [...new Set(request.retryApprovals.map((approval) => approval.userId))].filter((userId) => userId !== request.requestedBy);
  const missing = Math.max(0, request.requiredApprovals - agreed.length);
  const who = agreed.map(mentionUser).join(' and ');
  return missing > 0
    ? `:repeat: Retry approved by ${who}; ${missing === 1 ? 'one more approver' : `${missing} more approvers`} needed before it is sent again.`
    : `:repeat: Retry approved by ${who}.`;
}

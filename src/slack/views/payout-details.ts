/** How a payout reads on every payout surface: its recipient, its amount as sent, its state in words. */
import type { KnownBlock, SectionBlock } from '@slack/types';
import { formatMinor, fromMinor } from '../../money.js';
import { countingApprovers, PAYOUT_FIELD_LIMITS, revokedApprovals, type DualApprovalReason, type PayoutDraft, type PayoutKind, type PayoutRequest } from '../../payouts/index.js';
import { codeSpan, escapeMrkdwn, escapeWithin, mentionUser, slackDate } from './text.js';

/** How a summary names each kind: `150.00 USD by mobile money to …`. */
const KIND_NAMES: Record<PayoutKind, string> = { mobile_money: 'mobile money', bank_account: 'bank transfer' };

type Field = NonNullable<SectionBlock['fields']>[number];

// Budgets after escaping (`&` becomes five characters). A valid name or note is always shown whole:
// approvers must read all of what they approve. Codes and ids (validated, or from the API) are cut.
const ESCAPED = 5;
const NAME_MAX = PAYOUT_FIELD_LIMITS.name.max * ESCAPED;
const NOTE_MAX = PAYOUT_FIELD_LIMITS.note.max * ESCAPED;
const SUMMARY_NAME_MAX = 100;
const CODE_MAX = 80;
const WORD_MAX = 40;

const field = (label: string, value: string): Field => ({ type: 'mrkdwn', text: `*${label}*\n${value}` });

/** `1,500.00 USD`: how people read the amount. */
export function amountText(payout: Pick<PayoutDraft, 'amountMinor' | 'currency'>): string {
  return formatMinor(payout.amountMinor, payout.currency);
}

/** `*150.00 USD* by mobile money to *Amani Kabila*`: the one-line summary used in headlines and lists. */
export function payoutSummary(payout: PayoutDraft): string {
  return `*${escapeMrkdwn(amountText(payout))}* by ${KIND_NAMES[payout.kind]} to *${escapeWithin(payout.recipient.name, SUMMARY_NAME_MAX, { oneLine: true })}*`;
}

/** The same without formatting, for notification text. */
export function plainSummary(payout: PayoutDraft): string {
  return `${amountText(payout)} by ${KIND_NAMES[payout.kind]} to ${escapeWithin(payout.recipient.name, SUMMARY_NAME_MAX, { oneLine: true })}`;
}

/**
 * What sending the payout does to the money (spec §1, §4.3): the platform's wallet user is debited
 * and the fleet account credited; the partner then credits its own customer, the recipient.
 */
export function moneyFlowText(payout: Pick<PayoutDraft, 'amountMinor' | 'currency'>): string {
  const currency = escapeWithin(payout.currency, WORD_MAX, { oneLine: true });
  return `Sending this payout debits the platform's wallet user and credits the fleet account with *${escapeMrkdwn(amountText(payout))}*: `
    + `the fleet account's ${currency} balance goes up by that amount. The partner then credits its own customer, the recipient above.`;
}

/** Every field that goes to the Fleet API, as a section of label/value pairs (at most 8 of Slack's 10). */
export function detailFields(payout: PayoutDraft): Field[] {
  const code = (value: string) => codeSpan(value, CODE_MAX);
  const word = (value: string) => escapeWithin(value, WORD_MAX, { oneLine: true });
  const amount = field('Amount', `*${escapeMrkdwn(amountText(payout))}*`);
  const reference = field('Reference', code(payout.reference));
  const country = field('Country', word(payout.recipient.countryCode));
  if (payout.kind === 'mobile_money') {
    return [
      field('Recipient', escapeWithin(payout.recipient.name, NAME_MAX)),
      field('Phone', code(payout.recipient.phone)),
      field('Operator', word(payout.operator)),
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
  const blocks: KnownBlock[] = [
    { type: 'section', fields: detailFields(payout) },
    { type: 'section', text: { type: 'mrkdwn', text: moneyFlowText(payout) } },
  ];
  if (payout.note.trim() !== '') {
    blocks.push({ type: 'section', text: { type: 'mrkdwn', text: `*Note for the approver*\n${escapeWithin(payout.note, NOTE_MAX)}` } });
  }
  const sent = JSON.stringify(fromMinor(payout.amountMinor, payout.currency));
  blocks.push({
    type: 'context',
    elements: [{
      type: 'mrkdwn',
      text: `Sent to the Fleet API as amount \`${sent}\`, currency ${codeSpan(payout.currency, WORD_MAX)}, reference ${codeSpan(payout.reference, CODE_MAX)}${payout.kind === 'mobile_money' ? `, operator ${codeSpan(payout.operator, CODE_MAX)}` : ''}.`,
    }],
  });
  return blocks;
}

const RULE_WORDS: Record<DualApprovalReason['rule'], (currency: string) => string> = {
  amount: () => 'this amount',
  requester_total: (currency) => `the requester's ${currency} total for the day (UTC)`,
  recipient_total: (currency) => `the recipient's ${currency} total for the day (UTC)`,
};

/** `Needs 2 approvers: the requester's USD total for the day (UTC), 5,000.00 USD, is above 1,000.00 USD.` */
export function dualApprovalLine(reason: DualApprovalReason | undefined, currency: string): string {
  if (!reason) return 'Needs 2 different approvers.';
  const words = `${RULE_WORDS[reason.rule](currency)}, ${formatMinor(reason.totalMinor, currency)}, is above ${formatMinor(reason.thresholdMinor, currency)}`;
  return `Needs 2 approvers: ${escapeMrkdwn(words)}.`;
}

/** An approval that stopped counting, as approvers read it. */
export function revokedLine(userId: string): string {
  return `${mentionUser(userId)}'s approval no longer counts: no longer an approver`;
}

/** Why a request with its approvals was not sent, for approvers; undefined when it was not held. */
export function holdLine(request: PayoutRequest): string | undefined {
  switch (request.hold) {
    case 'requester_not_allowed':
      return `Not sent: ${mentionUser(request.requestedBy)} may no longer request payouts. If their access is restored, an approver who approved can press Approve again; otherwise reject it.`;
    case 'roles_unavailable':
      return 'Not sent: the app could not check with Slack that the requester and approvers still have their roles. An approver who approved can press Approve again to check again.';
    default:
      return undefined;
  }
}

/** Who approved and when, approvals that no longer count, why two are needed, and how many are still missing. */
export function approvalLines(request: PayoutRequest): string {
  const counting = new Set(countingApprovers(request));
  const counted = request.approvals.filter((approval) => counting.has(approval.userId) && approval.revokedAt === undefined);
  const lines = counted.map((approval) => `:white_check_mark: Approved by ${mentionUser(approval.userId)} · ${slackDate(approval.at)}`);
  for (const approval of revokedApprovals(request)) lines.push(`:heavy_multiplication_x: ${revokedLine(approval.userId)} · approved ${slackDate(approval.at)}`);
  const missing = Math.max(0, request.requiredApprovals - counted.length);
  const head = `*Approvals* (${counted.length} of ${request.requiredApprovals})`;
  const why = request.requiredApprovals === 2 ? `\n${dualApprovalLine(request.dualApproval, request.currency)}` : '';
  if (request.state === 'pending' && missing > 0) lines.push(`:hourglass_flowing_sand: Waiting for ${missing === 1 ? 'one more approval' : `${missing} approvals`}`);
  if (lines.length === 0) lines.push('None.');
  return withinSection(`${head}${why}`, lines);
}

// A section's text holds 3,000 characters; many approvals (some no longer counting) must still fit.
const SECTION_BUDGET = 2900;

function withinSection(head: string, lines: string[]): string {
  let text = head;
  for (const [index, line] of lines.entries()) {
    const rest = lines.length - index;
    if (text.length + line.length + 1 > SECTION_BUDGET - 40) return `${text}\n…and ${rest} more`;
    text = `${text}\n${line}`;
  }
  return text;
}

/** The current state in plain words, with the outcome when there is one. */
export function stateLine(request: PayoutRequest): string {
  const reason = (text: string | undefined) => escapeWithin(text ?? 'no reason given', 400);
  const again = request.attempts > 1 ? ` (sent ${request.attempts} times with the same reference after review)` : '';
  switch (request.state) {
    case 'pending': {
      const held = holdLine(request);
      return held
        ? `:no_entry: *Held.* ${held} Expires ${slackDate(request.expiresAt)}.`
        : `:hourglass_flowing_sand: *Waiting for approval.* Expires ${slackDate(request.expiresAt)}.`;
    }
    case 'approved':
    case 'executing':
      return ':outbox_tray: *Approved: sending to the Fleet API…*';
    case 'completed':
      return request.transactionId
        ? `:white_check_mark: *Sent.* Transaction ${codeSpan(request.transactionId, CODE_MAX)}${again}.`
        : `:white_check_mark: *Sent.* The Fleet API gave no transaction id; it accepted reference ${codeSpan(request.reference, CODE_MAX)}${again}.`;
    case 'failed':
      return `:x: *Failed:* ${reason(request.failureReason)} The Fleet API did not take the payout: no money moved.`;
    case 'unknown':
      if (request.needsReview && request.lastSearch === 'could_not_check') {
        return `:warning: *Needs review.* The Fleet API gave no clear answer (${reason(request.failureReason)}) and its transactions could not all be checked back to this request. It may or may not have gone through; it can be sent again only after a complete check finds nothing.`;
      }
      return request.needsReview
        ? `:warning: *Needs review.* The Fleet API gave no clear answer (${reason(request.failureReason)}) and the payout was not found in its transactions. It may or may not have gone through: check with the Fleet provider before sending it again.`
        : `:grey_question: *Outcome unknown:* ${reason(request.failureReason)} Looking for reference ${codeSpan(request.reference, CODE_MAX)} in the Fleet API's transactions…`;
    case 'rejected':
      return `:no_entry: *Rejected* by ${request.rejectedBy ? mentionUser(request.rejectedBy) : 'an approver'}: ${reason(request.rejectReason)}`;
    case 'expired':
      return `:hourglass: *Expired* ${slackDate(request.expiresAt)} without enough approvals. Nothing was sent.`;
    case 'cancelled':
      return ':heavy_multiplication_x: *Cancelled* by the requester. Nothing was sent.';
  }
}

/** The state as one or two words, for lists and notification text. */
export function stateWord(request: Pick<PayoutRequest, 'state' | 'needsReview' | 'hold'>): string {
  if (request.state === 'unknown') return request.needsReview ? 'needs review' : 'outcome unknown';
  if (request.state === 'approved' || request.state === 'executing') return 'sending';
  if (request.state === 'completed') return 'sent';
  if (request.state === 'pending') return request.hold ? 'held, not sent' : 'waiting for approval';
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
    `*Transaction* ${codeSpan(match.reference, 80)} · ${slackDate(match.date)} · *${escapeWithin(`${amount} ${match.currency}`, 40)}*`,
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

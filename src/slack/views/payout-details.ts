/**
 * How a payout reads on every payout surface, in the reader's language: its recipient, its amount as
 * sent (written the reader's way), its state in words. Every function takes the reader's locale last;
 * those that write an amount require it, the others default to English.
 */
import type { KnownBlock, SectionBlock } from '@slack/types';
import { textsFor, type Locale, type Texts } from '../../i18n/index.js';
import { formatAmount, formatMinor, fromMinor } from '../../core/money.js';
import {
  countingApprovers,
  currentFailureReason,
  INTERRUPTED_FAILURE,
  PAYOUT_FIELD_LIMITS,
  readFleetFailure,
  revokedApprovals,
  isSinglePayout,
  sendsItself,
  type AmountApprovalRule,
  type DualApprovalReason,
  type PayoutDraft,
  type PayoutHold,
  type PayoutKind,
  type PayoutRequest,
} from '../../payouts/index.js';
import { codeSpan, escapeMrkdwn, escapeWithin, mentionUser } from './text.js';
import { localeOf, slackDate, type DateReader } from './dates.js';
import { railWording } from './rail-wording.js';
import { fleetCodeText } from '../refusals/failures.js';

/** How a summary names each kind: `150.00 USD by mobile money to …`. */
function kindName(t: Texts, kind: PayoutKind): string {
  return railWording(kind).kindName(t);
}

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

/** `1,500.00 USD` in English, `1 500,00 USD` in French: how the reader reads the amount. */
export function amountText(payout: Pick<PayoutDraft, 'amountMinor' | 'currency'>, locale: Locale): string {
  return formatMinor(payout.amountMinor, payout.currency, { locale });
}

/** `*150.00 USD* by mobile money to *Amani Kabila*`: the one-line summary used in headlines and lists. */
export function payoutSummary(payout: PayoutDraft, locale: Locale): string {
  const t = textsFor(locale);
  return t('payoutApproval.summary', {
    amount: escapeMrkdwn(amountText(payout, locale)),
    kind: kindName(t, payout.kind),
    name: escapeWithin(payout.recipient.name, SUMMARY_NAME_MAX, { oneLine: true }),
  });
}

/** The same without formatting, for notification text. */
export function plainSummary(payout: PayoutDraft, locale: Locale): string {
  const t = textsFor(locale);
  return t('payoutApproval.plainSummary', {
    amount: amountText(payout, locale),
    kind: kindName(t, payout.kind),
    name: escapeWithin(payout.recipient.name, SUMMARY_NAME_MAX, { oneLine: true }),
  });
}

/**
 * What sending the payout does to the money (spec §1, §4.3): the platform's wallet user is debited
 * and the fleet account credited; the partner then credits its own customer, the recipient.
 */
function moneyFlowText(payout: Pick<PayoutDraft, 'currency'>, locale: Locale): string {
  // The amount itself stands once, in the Amount field above this line.
  return textsFor(locale)('payoutApproval.moneyFlow', { currency: escapeWithin(payout.currency, WORD_MAX, { oneLine: true }) });
}

/** Every field that goes to the Fleet API, as a section of label/value pairs (at most 8 of Slack's 10). */
function detailFields(payout: PayoutDraft, locale: Locale): Field[] {
  const t = textsFor(locale);
  const code = (value: string) => codeSpan(value, CODE_MAX);
  const word = (value: string) => escapeWithin(value, WORD_MAX, { oneLine: true });
  const amount = field(t('payoutApproval.field.amount'), `*${escapeMrkdwn(amountText(payout, locale))}*`);
  const reference = field(t('payoutApproval.field.reference'), code(payout.reference));
  const country = field(t('payoutApproval.field.country'), word(payout.recipient.countryCode));
  const recipient = railWording(payout.kind).recipientFields(t, payout, { code, word, name: escapeWithin, field, nameMax: NAME_MAX });
  return [...recipient, country, amount, reference];
}

/**
 * The details, the note, and the amount exactly as the Fleet API will receive it, so that what a
 * person approves is what is sent.
 */
export function detailBlocks(payout: PayoutDraft, locale: Locale): KnownBlock[] {
  const t = textsFor(locale);
  const blocks: KnownBlock[] = [
    { type: 'section', fields: detailFields(payout, locale) },
    { type: 'section', text: { type: 'mrkdwn', text: moneyFlowText(payout, locale) } },
  ];
  if (payout.note.trim() !== '') {
    blocks.push({ type: 'section', text: { type: 'mrkdwn', text: t('payoutApproval.note', { note: escapeWithin(payout.note, NOTE_MAX) }) } });
  }
  // The wire value stays as the API receives it (a JSON number with a dot), in every language.
  const sent = JSON.stringify(fromMinor(payout.amountMinor, payout.currency));
  const vars = { amount: `\`${sent}\``, currency: codeSpan(payout.currency, WORD_MAX), reference: codeSpan(payout.reference, CODE_MAX) };
  blocks.push({
    type: 'context',
    elements: [
      {
        type: 'mrkdwn',
        text: railWording(payout.kind).sentAs(t, payout, vars, (value) => codeSpan(value, CODE_MAX)),
      },
    ],
  });
  return blocks;
}

function ruleWords(t: Texts, rule: Exclude<AmountApprovalRule, 'amount'>, currency: string): string {
  switch (rule) {
    case 'requester_total':
      return t('payoutApproval.rule.requesterTotal', { currency });
    case 'recipient_total':
      return t('payoutApproval.rule.recipientTotal', { currency });
  }
}

/**
 * `Needs 2 approvers: the requester's USD total for the team’s day, 5,000.00 USD, is above 1,000.00 USD.`
 * (`Needs 2 approvers: the amount is above 1,000.00 USD.` for the amount alone),
 * or for a recipient never paid before `Needs 3 different approvers: ...`; `required` is the request's count.
 */
export function dualApprovalLine(reason: DualApprovalReason | undefined, currency: string, locale: Locale = 'en', required = 2): string {
  const t = textsFor(locale);
  if (!reason) return t('payoutApproval.dualApproval.plain', { count: required });
  if (reason.rule === 'new_recipient') return t('payoutApproval.dualApproval.newRecipient', { count: required });
  const threshold = escapeMrkdwn(formatMinor(reason.thresholdMinor, currency, { locale }));
  // The amount itself is shown beside this line: only the threshold it is above.
  if (reason.rule === 'amount') return t('payoutApproval.dualApproval.amount', { threshold });
  const code = escapeMrkdwn(currency);
  return t('payoutApproval.dualApproval.why', {
    what: ruleWords(t, reason.rule, code),
    total: escapeMrkdwn(formatMinor(reason.totalMinor, currency, { locale })),
    threshold,
  });
}

/** An approval that stopped counting, as approvers read it. */
export function revokedLine(userId: string, locale: Locale = 'en'): string {
  return textsFor(locale)('payoutApproval.revoked', { user: mentionUser(userId) });
}

/** Why a request was not sent, by the gate's hold (`payouts/gate.ts`), in the history's words. */
const HELD_WHY = {
  requester_not_allowed: 'payoutRecords.heldRequester',
  roles_unavailable: 'payoutRecords.heldRoles',
  needs_approvers: 'payoutRecords.heldApprovers',
  needs_senior: 'payoutRecords.heldSenior',
  over_daily_limit: 'payoutRecords.heldDailyLimit',
  over_max_amount: 'payoutRecords.heldMaxAmount',
  not_offered: 'payoutRecords.heldNotOffered',
  duplicate_unchecked: 'payoutRecords.heldDuplicate',
  missed: 'payoutRecords.heldMissed',
} as const satisfies Record<PayoutHold, string>;

export function heldWhy(reason: string | undefined): (typeof HELD_WHY)[PayoutHold] {
  return reason !== undefined && Object.hasOwn(HELD_WHY, reason) ? HELD_WHY[reason as PayoutHold] : HELD_WHY.roles_unavailable;
}

/** Why a request with its approvals was not sent, and what it waits for, for approvers; undefined when it was not held. */
export function holdLine(request: PayoutRequest, locale: Locale = 'en'): string | undefined {
  const t = textsFor(locale);
  // An unknown payout held by the gate waits for "Retry with the same reference", not for an approval.
  const action = t(request.state === 'unknown' ? 'payoutApproval.hold.actionRetry' : 'payoutApproval.hold.actionApprove');
  const currency = escapeMrkdwn(request.currency);
  switch (request.hold) {
    case 'requester_not_allowed':
      return t('payoutApproval.hold.requesterNotAllowed', { user: mentionUser(request.requestedBy) });
    case 'roles_unavailable':
      return t('payoutApproval.hold.rolesUnavailable');
    case 'needs_approvers':
      return t('payoutApproval.hold.needsApprovers', { action });
    case 'needs_senior':
      return t('payoutApproval.hold.needsSenior', { action });
    case 'over_daily_limit':
      return t('payoutApproval.hold.overDailyLimit', { user: mentionUser(request.requestedBy), currency, action });
    case 'over_max_amount':
      return t('payoutApproval.hold.overMaxAmount', { currency, action });
    case 'not_offered':
      return t('payoutApproval.hold.notOffered', { action });
    case 'duplicate_unchecked':
      return t('payoutApproval.hold.duplicateUnchecked', { action });
    case 'missed':
      return t('payoutApproval.hold.missed', { action });
    case undefined:
      return undefined;
  }
}

/** Who approved and when, approvals that no longer count, why two are needed, and how many are still missing. */
export function approvalLines(request: PayoutRequest, reader: Locale | DateReader = 'en'): string {
  const locale = localeOf(reader);
  const t = textsFor(locale);
  const counting = new Set(countingApprovers(request));
  const counted = request.approvals.filter((approval) => counting.has(approval.userId) && approval.revokedAt === undefined);
  const lines = counted.map((approval) =>
    t('payoutApproval.approvedBy', { user: mentionUser(approval.userId), date: slackDate(approval.at, undefined, reader) }),
  );
  for (const approval of revokedApprovals(request)) {
    lines.push(t('payoutApproval.revokedAt', { revoked: revokedLine(approval.userId, locale), date: slackDate(approval.at, undefined, reader) }));
  }
  const missing = Math.max(0, request.requiredApprovals - counted.length);
  const head = t('payoutApproval.approvalsHead', { counted: counted.length, required: request.requiredApprovals });
  const why = request.requiredApprovals > 1 ? `\n${dualApprovalLine(request.dualApproval, request.currency, locale, request.requiredApprovals)}` : '';
  if (request.state === 'pending' && missing > 0) lines.push(t('payoutApproval.waitingFor', { count: missing }));
  if (lines.length === 0) lines.push(t('payoutApproval.noApprovals'));
  return withinSection(`${head}${why}`, lines, (rest) => t('payoutApproval.andMore', { count: rest }));
}

// A section's text holds 3,000 characters; many approvals (some no longer counting) must still fit.
const SECTION_BUDGET = 2900;

function withinSection(head: string, lines: string[], andMore: (rest: number) => string): string {
  let text = head;
  for (const [index, line] of lines.entries()) {
    const rest = lines.length - index;
    if (text.length + line.length + 1 > SECTION_BUDGET - 40) return `${text}\n${andMore(rest)}`;
    text = `${text}\n${line}`;
  }
  return text;
}

/**
 * Why a payout failed or has no known outcome, as mrkdwn in the reader's language: the Fleet
 * error's code worded from the catalog (the API's own words escaped) or the app's own reason, also
 * for an older row that stored the English sentence; a sentence the app never wrote, escaped.
 */
export function failureWords(stored: string | undefined, locale: Locale = 'en'): string {
  const t = textsFor(locale);
  if (stored === undefined) return t('payoutApproval.noReason');
  const reason = currentFailureReason(stored);
  if (reason === INTERRUPTED_FAILURE) return t('payoutApproval.interrupted');
  const failure = readFleetFailure(reason);
  if (!failure) return escapeWithin(reason, 400);
  const refused = failure.apiMessage ? t('fleetError.rejectedSaying', { message: escapeWithin(failure.apiMessage, 300) }) : t('fleetError.rejectedBare');
  if (failure.code === 'conflict') return t('payoutApproval.conflict', { refused });
  if (failure.code === 'rejected') return refused;
  return fleetCodeText(locale, failure.code) ?? escapeWithin(reason, 400);
}

/** The current state in plain words, with the outcome when there is one. */
export function stateLine(request: PayoutRequest, reader: Locale | DateReader = 'en'): string {
  const locale = localeOf(reader);
  const t = textsFor(locale);
  const reason = (text: string | undefined) => failureWords(text, locale);
  const again = request.attempts > 1 ? t('payoutApproval.sentTimes', { count: request.attempts }) : '';
  switch (request.state) {
    case 'pending': {
      const held = holdLine(request, locale);
      return held
        ? t('payoutApproval.state.held', { held, date: slackDate(request.expiresAt, undefined, reader) })
        : t('payoutApproval.state.pending', { date: slackDate(request.expiresAt, undefined, reader) });
    }
    case 'approved':
      if (request.schedule && !releasedItself(request.schedule)) return scheduledState(request.schedule, locale);
      return t('payoutApproval.state.sending');
    case 'executing':
      return t('payoutApproval.state.sending');
    case 'completed':
      return request.transactionId
        ? t('payoutApproval.state.sent', { transaction: codeSpan(request.transactionId, CODE_MAX), again })
        : t('payoutApproval.state.sentWithoutId', { reference: codeSpan(request.reference, CODE_MAX), again });
    case 'failed':
      return t('payoutApproval.state.failed', { reason: reason(request.failureReason) });
    case 'unknown': {
      if (!request.needsReview)
        return t('payoutApproval.state.unknown', { reason: reason(request.failureReason), reference: codeSpan(request.reference, CODE_MAX) });
      const review =
        request.lastSearch === 'could_not_check'
          ? t('payoutApproval.state.reviewUnchecked', { reason: reason(request.failureReason) })
          : t('payoutApproval.state.review', { reason: reason(request.failureReason) });
      // A retry the gate before sending held: why, and what it waits for.
      const held = holdLine(request, locale);
      return held ? `${review}\n${held}` : review;
    }
    case 'rejected':
      return t('payoutApproval.state.rejected', {
        user: request.rejectedBy ? mentionUser(request.rejectedBy) : t('payoutApproval.anApprover'),
        reason: escapeWithin(request.rejectReason ?? t('payoutApproval.noReason'), 400),
      });
    case 'expired':
      return t('payoutApproval.state.expired', { date: slackDate(request.expiresAt, undefined, reader) });
    case 'cancelled':
      return t('payoutApproval.state.cancelled');
  }
}

/**
 * The state as one or two words, for lists and notification text: the one wording of a request's
 * state. An approved scheduled request is *scheduled* (it is sent at its time); approved otherwise,
 * it is being sent.
 */
export function stateWord(request: Pick<PayoutRequest, 'state' | 'needsReview' | 'hold' | 'schedule'>, locale: Locale = 'en'): string {
  const t = textsFor(locale);
  switch (request.state) {
    case 'unknown':
      return request.needsReview ? t('payoutApproval.word.needsReview') : t('payoutApproval.word.unknown');
    case 'approved':
      return request.schedule && !releasedItself(request.schedule) ? t('payoutApproval.word.scheduled') : t('payoutApproval.word.sending');
    case 'executing':
      return t('payoutApproval.word.sending');
    case 'completed':
      return t('payoutApproval.word.sent');
    case 'pending':
      return request.hold ? t('payoutApproval.word.held') : t('payoutApproval.word.pending');
    case 'failed':
      return t('payoutApproval.word.failed');
    case 'rejected':
      return t('payoutApproval.word.rejected');
    case 'expired':
      return t('payoutApproval.word.expired');
    case 'cancelled':
      return t('payoutApproval.word.cancelled');
  }
}

/** A one-off released at its time as the request itself: no longer waiting, being sent. */
function releasedItself(schedule: NonNullable<PayoutRequest['schedule']>): boolean {
  return sendsItself(schedule) && schedule.occurrences[0]?.state === 'released';
}

/** An approved scheduled request: waiting for its time(s), or what its occurrences became once none waits. */
function scheduledState(schedule: NonNullable<PayoutRequest['schedule']>, locale: Locale): string {
  const t = textsFor(locale);
  const waiting = schedule.occurrences.some((occurrence) => ['scheduled', 'held', 'missed'].includes(occurrence.state));
  if (isSinglePayout(schedule)) {
    const [only] = schedule.occurrences;
    if (!waiting && only?.payoutId) return t('payoutSchedule.state.releasedOnce', { payoutId: only.payoutId });
    return t('payoutSchedule.state.approvedAheadOnce');
  }
  return waiting ? t('payoutSchedule.state.approvedAhead') : t('payoutSchedule.state.allReleased');
}

/**
 * The state of an earlier payout a possible duplicate repeats (`duplicates.ts`), which is known by its
 * state alone: approved reads *approved, not sent yet*, since a scheduled one waits for its time.
 */
export function earlierPayoutStateWord(state: PayoutRequest['state'], locale: Locale): string {
  const t = textsFor(locale);
  switch (state) {
    case 'approved':
      return t('payoutApproval.word.approved');
    case 'executing':
      return t('payoutApproval.word.sending');
    case 'unknown':
      return t('payoutApproval.word.unknown');
    case 'completed':
      return t('payoutApproval.word.sent');
    default:
      return t('payoutApproval.word.pending');
  }
}

/** A likely match's amount, the reader's way; as given when it cannot be read as an amount. */
function matchAmount(amount: number, currency: string, locale: Locale): string {
  if (!Number.isFinite(amount)) return `? ${currency}`;
  try {
    return formatAmount(amount, currency, { locale });
  } catch {
    return `${String(amount)} ${currency}`;
  }
}

/**
 * A transaction that quotes the payout's typed reference only in its description: what approvers
 * need to judge whether it is this payout. Every value came from the API, so it is escaped and cut.
 */
export function likelyMatchLines(request: PayoutRequest, reader: Locale | DateReader = 'en'): string | undefined {
  const locale = localeOf(reader);
  const t = textsFor(locale);
  const match = request.state === 'unknown' ? request.likelyMatch : undefined;
  if (!match) return undefined;
  return [
    t('payoutApproval.match.intro', { reference: `\`${escapeWithin(request.reference, 60)}\`` }),
    t('payoutApproval.match.transaction', {
      id: codeSpan(match.reference, 80),
      date: slackDate(match.date, undefined, reader),
      amount: escapeWithin(matchAmount(match.amount, match.currency, locale), 40),
    }),
    t('payoutApproval.match.description', { description: escapeWithin(match.description, 300) || t('payoutApproval.match.noDescription') }),
  ].join('\n');
}

/** "Retry approved by …; one more approver needed": agreements to send an unknown payout again. */
export function retryApprovalLine(request: PayoutRequest, locale: Locale = 'en'): string | undefined {
  const t = textsFor(locale);
  if (request.state !== 'unknown' || request.retryApprovals.length === 0) return undefined;
  const agreed = [...new Set(request.retryApprovals.map((approval) => approval.userId))].filter((userId) => userId !== request.requestedBy);
  const missing = Math.max(0, request.requiredApprovals - agreed.length);
  const who = agreed.map(mentionUser).join(t('payoutApproval.and'));
  return missing > 0 ? t('payoutApproval.retryApprovedMissing', { who, count: missing }) : t('payoutApproval.retryApproved', { who });
}

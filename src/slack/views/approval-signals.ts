/**
 * What the approver should see about a payout (`payouts/signals.ts`), as blocks for the approval
 * message, the approve window and the review screen: a possible duplicate linking the earlier one,
 * an unusual amount, the senior approvers a payout above the tier needs, and the day's totals (always,
 * as context). Nothing is said of an ordinary payout beyond the totals. Also the tick a possible
 * duplicate asks for in the approve window, and the line on details edited after a saved recipient
 * was picked (shown with the other facts about the recipient, `recipient-flags.ts`).
 */
import type { KnownBlock } from '@slack/types';
import { textsFor, type Locale } from '../../i18n/index.js';
import { formatMinor, formatNumber } from '../../core/money.js';
import { USUAL_AMOUNT_DAYS, type ApprovalSignals, type ChangedDetails } from '../../payouts/index.js';
import { earlierPayoutStateWord } from './payout-details.js';
import { PAYOUT_ACTIONS, PAYOUT_BLOCKS } from '../ids.js';
import { operatorName } from './operators.js';
import { formatDay } from './dates.js';
import { codeSpan, escapeWithin, mentionUser, plainText } from './text.js';

const NAME_MAX = 200;
const DETAIL_MAX = 60;

/** A payout above PAYOUT_SENIOR_APPROVAL_ABOVE: the threshold, whom to call, and the senior approver who approved, once one did. */
export interface SeniorCall {
  thresholdMinor: number;
  currency: string;
  /** The mentions of PAYOUT_SENIOR_APPROVERS (`approverMentions`). */
  approvers: string;
  givenBy?: string | undefined;
}

/** What the card says beside the request itself; each part optional, for surfaces that lack one. */
export interface ApprovalContext {
  signals?: ApprovalSignals | undefined;
  senior?: SeniorCall | undefined;
  duplicateWindowHours?: number | undefined;
}

function section(text: string): KnownBlock {
  return { type: 'section', text: { type: 'mrkdwn', text } };
}

/** The possible-duplicate line, naming the earlier payout and the command that shows it. */
export function duplicateLine(signals: ApprovalSignals | undefined, hours: number, locale: Locale): string | undefined {
  const earlier = signals?.duplicateOf;
  if (!earlier) return undefined;
  const t = textsFor(locale);
  if (earlier.kind === 'request') {
    const id = escapeWithin(earlier.requestId, 20, { oneLine: true });
    const state = earlierPayoutStateWord(earlier.state, locale);
    return t('approvalSignals.duplicate.request', { id, state, hours, command: codeSpan(`/fleet payouts ${earlier.requestId}`, 60) });
  }
  const batch = escapeWithin(earlier.batchId, 20, { oneLine: true });
  return t('approvalSignals.duplicate.batchRow', { row: earlier.rowNumber, batch, hours, command: codeSpan(`/fleet payouts ${earlier.batchId}`, 60) });
}

/** The warnings (duplicate, unusual amount, senior approvers), one section each; none for an ordinary payout. */
export function signalBlocks(context: ApprovalContext, locale: Locale): KnownBlock[] {
  const t = textsFor(locale);
  const { signals, senior } = context;
  const lines: string[] = [];
  const duplicate = duplicateLine(signals, context.duplicateWindowHours ?? 72, locale);
  if (duplicate) lines.push(duplicate);
  const unusual = signals?.unusualAmount;
  if (signals && unusual) {
    const times = formatNumber(unusual.times, locale, 'tenths');
    const usual = formatMinor(Math.round(unusual.usualMinor), signals.dayTotals.currency, { locale });
    lines.push(t('approvalSignals.unusual', { times, usual, count: unusual.payouts, currency: signals.dayTotals.currency, days: USUAL_AMOUNT_DAYS }));
  }
  if (senior) {
    const threshold = formatMinor(senior.thresholdMinor, senior.currency, { locale });
    lines.push(
      senior.givenBy
        ? t('approvalSignals.senior.given', { threshold, approver: mentionUser(senior.givenBy) })
        : t('approvalSignals.senior.needs', { threshold, approvers: senior.approvers || codeSpan('PAYOUT_SENIOR_APPROVERS', 40) }),
    );
  }
  return lines.map(section);
}

/** The day's totals as a context line: always shown, the same totals the policy counts (a schedule's busiest day for a scheduled request). */
export function dayTotalsBlocks(
  signals: ApprovalSignals | undefined,
  requestedBy: string,
  locale: Locale,
  who: 'requester' | 'you' = 'requester',
): KnownBlock[] {
  if (!signals) return [];
  const t = textsFor(locale);
  const { currency, requesterMinor, recipientMinor, day } = signals.dayTotals;
  const values = {
    currency,
    requester: who === 'you' ? t('approvalSignals.you') : mentionUser(requestedBy),
    requesterTotal: formatMinor(requesterMinor, currency, { locale }),
    recipientTotal: formatMinor(recipientMinor, currency, { locale }),
  };
  // A scheduled request counts on the days it is sent on: its busiest one is shown.
  const text = day ? t('approvalSignals.dayTotals.scheduled', { ...values, day: formatDay(day, locale) }) : t('approvalSignals.dayTotals', values);
  return [{ type: 'context', elements: [{ type: 'mrkdwn', text }] }];
}

/** The approve window's tick for a possible duplicate: approving is refused without it. */
export function duplicateTickBlock(locale: Locale): KnownBlock {
  const t = textsFor(locale);
  return {
    type: 'input',
    block_id: PAYOUT_BLOCKS.duplicateCheck,
    label: plainText(t('approvalSignals.tick.label'), 2000),
    element: {
      type: 'checkboxes',
      action_id: PAYOUT_ACTIONS.input,
      options: [{ text: plainText(t('approvalSignals.tick.option'), 75), value: 'checked' }],
    },
  };
}

/**
 * `Changed details: filled from the saved recipient Amani, then edited: the number (`…` → `…`).`, and
 * the known recipient the edited details belong to when there is one (otherwise the new-recipient
 * mark says they were never paid).
 */
export function changedDetailsLine(changed: ChangedDetails, locale: Locale): string {
  const t = textsFor(locale);
  const shown = (field: string, value: string) =>
    field === 'operator' ? escapeWithin(operatorName(value), DETAIL_MAX, { oneLine: true }) : codeSpan(value, DETAIL_MAX);
  const changes = changed.changes.map(({ field, from, to }) => t(`approvalSignals.changed.${field}`, { from: shown(field, from), to: shown(field, to) }));
  const line = t('approvalSignals.changed', {
    name: escapeWithin(changed.saved.name, NAME_MAX, { oneLine: true }),
    changes: new Intl.ListFormat(locale, { type: 'conjunction' }).format(changes),
  });
  if (!changed.matches) return line;
  const other = t('approvalSignals.changed.matches', {
    name: escapeWithin(changed.matches.name, NAME_MAX, { oneLine: true }),
    id: codeSpan(changed.matches.lastPayoutId, 20),
  });
  return `${line} ${other}`;
}

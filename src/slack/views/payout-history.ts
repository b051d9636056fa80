/** `/fleet payouts`: recent requests and bulk payouts with their state, and one request's audit history, in the reader's language. */
import type { KnownBlock } from '@slack/types';
import { textsFor } from '../../i18n/index.js';
import { DUAL_APPROVAL_RULES, type AmountApprovalRule, type PayoutBatch, type PayoutEvent, type PayoutRequest } from '../../payouts/index.js';
import type { Reply } from './notice.js';
import { batchStateWord, bulkPayoutSummary } from './payout-batch-message.js';
import { scheduleWhenBlocks } from './payout-schedule.js';
import { codeSpan, cutMrkdwn, escapeWithin, footer, mentionUser, plainText, sandboxMarked, type Surface } from './text.js';
import { slackDate, type DateReader } from './dates.js';
import {
  approvalLines,
  detailBlocks,
  dualApprovalLine,
  failureWords,
  heldWhy,
  payoutSummary,
  plainSummary,
  revokedLine,
  stateLine,
  stateWord,
} from './payout-details.js';

// A long history is cut to its latest events, and its lines shared across sections of at most
// SECTION_MAX characters, to stay inside Slack's per-section and per-message text limits.
const MAX_EVENTS = 25;
const SECTION_MAX = 2900;
const DETAIL_MAX = 120;
const CODE_MAX = 80;
const HEADER_MAX = 150;

/** Bulk payouts shown under the requests: the newest, or those a search found (`total` in all). */
export interface BulkPayoutsListed {
  batches: PayoutBatch[];
  total: number;
}

/**
 * The recent requests, or with `search` the requests its words found (newest first, `total` in all),
 * then the recent bulk payouts, or those the search found.
 */
export function buildPayoutList(surface: Surface, requests: PayoutRequest[], search?: { words: string[]; total: number }, bulk?: BulkPayoutsListed): Reply {
  const { locale } = surface;
  const t = textsFor(locale);
  const title = search ? t('payoutRecords.found') : t('payoutRecords.recent');
  const blocks: KnownBlock[] = [{ type: 'header', text: plainText(title, HEADER_MAX) }];
  const bulkFound = bulk?.total ?? 0;
  if (search) {
    const words = search.words.map((word) => codeSpan(word, 40)).join(' ');
    const count =
      search.total === 0 && bulkFound > 0
        ? t('payoutRecords.bulkFoundCount', { count: bulkFound, words })
        : search.total === 0
          ? t('payoutRecords.foundNone', { words })
          : search.total > requests.length
            ? t('payoutRecords.foundMore', { count: search.total, shown: requests.length, words })
            : t('payoutRecords.foundCount', { count: search.total, words });
    blocks.push({ type: 'section', text: { type: 'mrkdwn', text: cutMrkdwn(count, 3000) } });
  } else if (requests.length === 0) {
    blocks.push({ type: 'section', text: { type: 'mrkdwn', text: t('payoutRecords.noneYet') } });
  }
  for (const request of requests) {
    blocks.push({
      type: 'section',
      text: {
        type: 'mrkdwn',
        text: t('payoutRecords.listLine', {
          id: `\`${request.id}\``,
          reference: codeSpan(request.reference, 60),
          summary: payoutSummary(request, locale),
          state: stateWord(request, locale),
          user: mentionUser(request.requestedBy),
          date: slackDate(request.requestedAt, undefined, surface),
        }),
      },
    });
  }
  if (bulk && bulk.batches.length > 0) {
    blocks.push({ type: 'section', text: { type: 'mrkdwn', text: t('payoutRecords.bulkHeading') } });
    if (search && search.total > 0)
      blocks.push({
        type: 'section',
        text: {
          type: 'mrkdwn',
          text: cutMrkdwn(t('payoutRecords.bulkFoundCount', { count: bulkFound, words: search.words.map((word) => codeSpan(word, 40)).join(' ') }), 3000),
        },
      });
    for (const batch of bulk.batches) {
      blocks.push({
        type: 'section',
        text: {
          type: 'mrkdwn',
          text: cutMrkdwn(
            t('payoutRecords.bulkLine', {
              id: `\`${batch.id}\``,
              summary: bulkPayoutSummary(batch, locale),
              state: batchStateWord(batch, locale),
              user: mentionUser(batch.requestedBy),
              date: slackDate(batch.requestedAt ?? batch.createdAt, undefined, surface),
            }),
            3000,
          ),
        },
      });
    }
  }
  blocks.push(footer(surface, t('payoutRecords.listFooter')));
  const states =
    [
      ...requests.map((request) => `${request.id} ${stateWord(request, locale)}`),
      ...(bulk?.batches ?? []).map((batch) => `${batch.id} ${batchStateWord(batch, locale)}`),
    ].join(', ') || t('payoutRecords.none');
  return { text: `${sandboxMarked(surface, title)}: ${states}`, blocks };
}

export function buildPayoutHistory(surface: Surface, request: PayoutRequest, events: PayoutEvent[]): Reply {
  const { locale } = surface;
  const t = textsFor(locale);
  const shown = events.slice(-MAX_EVENTS);
  const title = t('payoutApproval.title', { id: request.id });
  const historyHead = events.length > shown.length ? t('payoutRecords.historyCut', { shown: shown.length, total: events.length }) : t('payoutRecords.history');
  const blocks: KnownBlock[] = [
    { type: 'header', text: plainText(title, HEADER_MAX) },
    {
      type: 'section',
      text: { type: 'mrkdwn', text: t('payoutRecords.requestedBy', { user: mentionUser(request.requestedBy), summary: payoutSummary(request, locale) }) },
    },
    ...detailBlocks(request, locale),
    ...scheduleWhenBlocks(request, locale),
    { type: 'section', text: { type: 'mrkdwn', text: approvalLines(request, surface) } },
    { type: 'section', text: { type: 'mrkdwn', text: t('payoutApproval.status', { state: stateLine(request, surface) }) } },
    ...sections([historyHead, ...shown.map((event) => eventLine(event, surface))]),
    footer(surface, t('payoutRecords.historyFooter')),
  ];
  return { text: `${sandboxMarked(surface, title)}: ${plainSummary(request, locale)}: ${stateWord(request, locale)}`, blocks };
}

function sections(lines: string[]): KnownBlock[] {
  const blocks: KnownBlock[] = [];
  let current = '';
  for (const line of lines) {
    if (current !== '' && current.length + 1 + line.length > SECTION_MAX) {
      blocks.push({ type: 'section', text: { type: 'mrkdwn', text: current } });
      current = '';
    }
    current = current === '' ? line : `${current}\n${line}`;
  }
  if (current !== '') blocks.push({ type: 'section', text: { type: 'mrkdwn', text: current } });
  return blocks;
}

function detail(event: PayoutEvent, key: string): string | undefined {
  const value = event.details[key];
  if (typeof value === 'string' && value !== '') return value;
  if (typeof value === 'number') return String(value);
  return undefined;
}

/** The transaction id an event names, cut so that a long one from the API cannot break the line. */
function transactionRef(event: PayoutEvent): string | undefined {
  const value = detail(event, 'transactionId');
  return value === undefined ? undefined : value.slice(0, DETAIL_MAX);
}

/** One audit event in words: when, who, what, and the details that matter. */
function eventLine(event: PayoutEvent, reader: DateReader): string {
  const { locale } = reader;
  const t = textsFor(locale);
  const who = event.userId ? t('payoutRecords.by', { user: mentionUser(event.userId) }) : '';
  const code = (value: string | undefined) => (value ? ` ${codeSpan(value, CODE_MAX)}` : '');
  const words = (value: string | undefined) => (value ? t('payoutRecords.detail', { text: escapeWithin(value, DETAIL_MAX) }) : '');
  // A Fleet failure is stored as its code: worded in the reader's language, like the state line.
  const failure = (value: string | undefined) => (value ? t('payoutRecords.detail', { text: cutMrkdwn(failureWords(value, locale), DETAIL_MAX) }) : '');
  const counts = () => {
    const count = detail(event, 'approvals');
    const required = detail(event, 'required');
    return count && required ? t('payoutRecords.countOf', { given: escapeWithin(count, 10), required: escapeWithin(required, 10) }) : '';
  };
  let what: string;
  switch (event.event) {
    case 'requested': {
      const corrects = detail(event, 'resubmitOf');
      what =
        t('payoutRecords.event.requested', { who }) +
        (corrects ? t('payoutRecords.resubmitOf', { id: codeSpan(corrects, 20) }) : '') +
        (detail(event, 'through') === 'workflow' ? t('payoutRecords.throughWorkflow') : '');
      break;
    }
    case 'approved':
      // The tick of a possible duplicate is part of the record.
      what = t('payoutRecords.event.approved', { who, counts: counts() }) + (event.details.duplicateChecked ? t('approvalSignals.history.checked') : '');
      break;
    case 'rejected':
      what = t('payoutRecords.event.rejected', { who, reason: words(detail(event, 'reason')) });
      break;
    case 'executing': {
      const attempt = detail(event, 'attempt');
      what = t('payoutRecords.event.executing', {
        attempt: attempt ? t('payoutRecords.attempt', { attempt: escapeWithin(attempt, 10, { oneLine: true }) }) : '',
      });
      break;
    }
    case 'completed':
      what = t('payoutRecords.event.completed', { transaction: code(detail(event, 'transactionId')) || t('payoutRecords.noTransactionId') });
      break;
    case 'failed':
      what = t('payoutRecords.event.failed', { reason: failure(detail(event, 'reason')) });
      break;
    case 'unknown':
      // Recovery records `reason: 'interrupted'` for a row a stopped process left behind.
      what = t('payoutRecords.event.unknown', {
        reason: detail(event, 'reason') === 'interrupted' ? words(t('payoutRecords.interrupted')) : failure(detail(event, 'reason')),
      });
      break;
    case 'needs_review':
      what = detail(event, 'lastSearch') === 'could_not_check' ? t('payoutRecords.event.needsReviewUnchecked') : t('payoutRecords.event.needsReview');
      break;
    case 'reconciled':
      what = t('payoutRecords.event.reconciled', { transaction: code(detail(event, 'transactionId')) });
      break;
    case 'expired':
      what = t('payoutRecords.event.expired');
      break;
    case 'cancelled':
      what = t('payoutRecords.event.cancelled', { who });
      break;
    case 'retried':
      what = t('payoutRecords.event.retried', { who });
      break;
    case 'approvals_raised': {
      const rule = detail(event, 'rule');
      const total = Number(event.details.totalMinor);
      const threshold = Number(event.details.thresholdMinor);
      const required = Number(event.details.required);
      const known = (DUAL_APPROVAL_RULES as readonly string[]).includes(rule ?? '') && Number.isFinite(total) && Number.isFinite(threshold);
      const currency = detail(event, 'currency');
      if (rule === 'new_recipient' && currency && Number.isInteger(required)) {
        what = dualApprovalLine({ rule }, currency, locale, required);
      } else {
        what =
          known && currency
            ? dualApprovalLine({ rule: rule as AmountApprovalRule, totalMinor: total, thresholdMinor: threshold }, currency, locale)
            : t('payoutRecords.event.approvalsRaised');
      }
      break;
    }
    case 'approval_revoked':
      what = t('payoutRecords.event.approvalRevoked', { revoked: revokedLine(detail(event, 'approver') ?? t('payoutApproval.anApprover'), locale), who });
      break;
    case 'held':
      what = t('payoutRecords.event.held', {
        on: who ? t('payoutRecords.onApproval', { who }) : '',
        why: t(heldWhy(detail(event, 'reason'))),
      });
      break;
    case 'retry_approved':
      what = t('payoutRecords.event.retryApproved', { who, counts: counts() });
      break;
    case 'likely_match':
      what = t('payoutRecords.event.likelyMatch', { transaction: code(transactionRef(event)) });
      break;
    case 'match_confirmed':
      what = t('payoutRecords.event.matchConfirmed', { who, transaction: code(transactionRef(event)) });
      break;
    case 'match_rejected':
      what = t('payoutRecords.event.matchRejected', { who, transaction: code(transactionRef(event)) });
      break;
  }
  return `• ${slackDate(event.at, undefined, reader)} ${what}`;
}

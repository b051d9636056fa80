/** `/fleet payouts`: recent requests with their state, and one request's audit history. */
import type { KnownBlock } from '@slack/types';
import { DUAL_APPROVAL_RULES, type DualApprovalRule, type PayoutEvent, type PayoutRequest } from '../../payouts/index.js';
import type { Reply } from './common.js';
import { codeSpan, escapeWithin, footer, mentionUser, sandboxMarked, slackDate, type Surface } from './text.js';
import {
  approvalLines, detailBlocks, dualApprovalLine, payoutSummary, plainSummary, revokedLine, stateLine, stateWord,
} from './payout-details.js';

// A long history is cut to its latest events, and its lines shared across sections of at most
// SECTION_MAX characters, to stay inside Slack's per-section and per-message text limits.
const MAX_EVENTS = 25;
const SECTION_MAX = 2900;
const DETAIL_MAX = 120;
const CODE_MAX = 80;

export function buildPayoutList(surface: Surface, requests: PayoutRequest[]): Reply {
  const blocks: KnownBlock[] = [{ type: 'header', text: { type: 'plain_text', text: 'Recent payouts' } }];
  if (requests.length === 0) {
    blocks.push({ type: 'section', text: { type: 'mrkdwn', text: 'No payout has been requested yet. Start one with `/fleet payout`.' } });
  }
  for (const request of requests) {
    blocks.push({
      type: 'section',
      text: {
        type: 'mrkdwn',
        text: `\`${request.id}\` · ${payoutSummary(request)} · *${stateWord(request)}*\nRequested by ${mentionUser(request.requestedBy)} ${slackDate(request.requestedAt)}`,
      },
    });
  }
  blocks.push(footer(surface, 'Newest first · `/fleet payouts PR-…` shows one request\'s history'));
  const text = `${sandboxMarked(surface, 'Recent payouts')}: ${requests.map((request) => `${request.id} ${stateWord(request)}`).join(', ') || 'none'}`;
  return { text, blocks };
}

export function buildPayoutHistory(surface: Surface, request: PayoutRequest, events: PayoutEvent[]): Reply {
  const shown = events.slice(-MAX_EVENTS);
  const blocks: KnownBlock[] = [
    { type: 'header', text: { type: 'plain_text', text: `Payout ${request.id}` } },
    { type: 'section', text: { type: 'mrkdwn', text: `Requested by ${mentionUser(request.requestedBy)}: ${payoutSummary(request)}.` } },
    ...detailBlocks(request),
    { type: 'section', text: { type: 'mrkdwn', text: approvalLines(request) } },
    { type: 'section', text: { type: 'mrkdwn', text: `*Status*\n${stateLine(request)}` } },
    ...sections([`*History*${events.length > shown.length ? ` (last ${shown.length} of ${events.length})` : ''}`, ...shown.map(eventLine)]),
    footer(surface, 'The history is append-only: every line was recorded when it happened.'),
  ];
  return { text: `${sandboxMarked(surface, `Payout ${request.id}`)}: ${plainSummary(request)}: ${stateWord(request)}`, blocks };
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
export function eventLine(event: PayoutEvent): string {
  const who = event.userId ? ` by ${mentionUser(event.userId)}` : '';
  const code = (value: string | undefined) => (value ? ` ${codeSpan(value, CODE_MAX)}` : '');
  const words = (value: string | undefined) => (value ? `: ${escapeWithin(value, DETAIL_MAX)}` : '');
  let what: string;
  switch (event.event) {
    case 'requested':
      what = `Requested${who}`;
      break;
    case 'approved': {
      const count = detail(event, 'approvals');
      const required = detail(event, 'required');
      what = `Approved${who}${count && required ? ` (${count} of ${required})` : ''}`;
      break;
    }
    case 'rejected':
      what = `Rejected${who}${words(detail(event, 'reason'))}`;
      break;
    case 'executing': {
      const attempt = detail(event, 'attempt');
      what = `Sent to the Fleet API${attempt ? ` (attempt ${escapeWithin(attempt, 10, { oneLine: true })})` : ''}`;
      break;
    }
    case 'completed':
      what = `Completed: transaction${code(detail(event, 'transactionId')) || ' id not given'}`;
      break;
    case 'failed':
      what = `Failed${words(detail(event, 'reason'))}`;
      break;
    case 'unknown':
      // Recovery records `reason: 'interrupted'` for a row a stopped process left behind.
      what = `Outcome unknown${words(detail(event, 'reason') === 'interrupted' ? 'the app stopped while sending' : detail(event, 'reason'))}`;
      break;
    case 'needs_review':
      what = detail(event, 'lastSearch') === 'could_not_check'
        ? 'The Fleet API\'s transactions could not all be checked in time: needs review'
        : 'Not found in the Fleet API\'s transactions in time: needs review';
      break;
    case 'reconciled':
      what = `Found in the Fleet API's transactions: transaction${code(detail(event, 'transactionId'))}`;
      break;
    case 'expired':
      what = 'Expired without enough approvals';
      break;
    case 'cancelled':
      what = `Cancelled${who}`;
      break;
    case 'retried':
      what = `Sent again with the same reference${who}`;
      break;
    case 'approvals_raised': {
      const rule = detail(event, 'rule');
      const total = Number(event.details.totalMinor);
      const threshold = Number(event.details.thresholdMinor);
      const known = (DUAL_APPROVAL_RULES as readonly string[]).includes(rule ?? '') && Number.isFinite(total) && Number.isFinite(threshold);
      const currency = detail(event, 'currency');
      what = known && currency
        ? dualApprovalLine({ rule: rule as DualApprovalRule, totalMinor: total, thresholdMinor: threshold }, currency)
        : 'Now needs 2 different approvers';
      break;
    }
    case 'approval_revoked':
      what = `${revokedLine(detail(event, 'approver') ?? 'an approver')} (checked${who})`;
      break;
    case 'held':
      what = `Not sent${who ? ` on the approval${who}` : ''}: ${detail(event, 'reason') === 'requester_not_allowed' ? 'the requester may no longer request payouts' : 'the roles could not be checked with Slack'}`;
      break;
    case 'retry_approved': {
      const count = detail(event, 'approvals');
      const required = detail(event, 'required');
      what = `Agreed to send it again${who}${count && required ? ` (${count} of ${required})` : ''}`;
      break;
    }
    case 'likely_match':
      what = `A transaction may be this payout: transaction${code(transactionRef(event))}; an approver must confirm it`;
      break;
    case 'match_confirmed':
      what = `Confirmed as this payout${who}: transaction${code(transactionRef(event))}`;
      break;
    case 'match_rejected':
      what = `Turned down as this payout${who}: transaction${code(transactionRef(event))}`;
      break;
  }
  return `• ${slackDate(event.at)} ${what}`;
}

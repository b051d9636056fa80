/**
 * The App Home tab, per person: for viewers the balances (with their reading time, or the last known
 * ones and their age when the Fleet API failed), the feed's and the history's status, buttons for a
 * new payout, transactions and last month's export, the requests and bulk payouts waiting for their
 * approval (each with its approval message's own Approve and Reject) and their own last ones. Everyone else
 * sees the access message only. Within Slack's 100 blocks of a home view, whatever the counts.
 */
import type { ActionsBlock, Button, HomeView, KnownBlock } from '@slack/types';
import type { BalanceReading } from '../../account/account-reader.js';
import type { FeedStatus } from '../../feed/types.js';
import { textsFor, type Texts } from '../../i18n/index.js';
import type { LedgerStatus } from '../../ledger/types.js';
import { countingApprovers, type EarlierPayout, type PayoutBatch, type PayoutRequest } from '../../payouts/index.js';
import { HOME, PAYOUT_ACTIONS } from '../ids.js';
import { balanceSections } from './balance.js';
import { runwaySummary } from './runway.js';
import type { Runway } from '../../runway/index.js';
import { plainHealth } from './feed-status.js';
import { ledgerHeadline } from './ledger-status.js';
import { batchDecisionButtons, batchStateWord, bulkPayoutSummary } from './payout-batch-message.js';
import { payoutSummary, stateWord } from './payout-details.js';
import { cutMrkdwn, escapeWithin, footer, formatDuration, mentionUser, plainText, sandboxFooter, type Surface } from './text.js';
import { slackDate } from './dates.js';
import { scheduledHomeBlocks, type ScheduledEntry } from './payout-schedule.js';

/** Slack's limit for a home view. */
export const HOME_MAX_BLOCKS = 100;
/** Requests shown under "Waiting for you" (two blocks each); the rest are counted and pointed to `/fleet payouts`. */
export const WAITING_SHOWN = 20;
/** Requests shown under "Your requests". */
export const MINE_SHOWN = 10;
const BALANCE_SECTIONS = 3;
const RUNWAY_LINES = 10;

export interface HomeBalance {
  /** The latest good reading; undefined when none was ever made. */
  reading: BalanceReading | undefined;
  /** True when the read for this home failed: `reading`, if any, is the last known one. */
  failed: boolean;
}

export interface ViewerHome {
  kind: 'viewer';
  now: Date;
  balance: HomeBalance;
  /**
   * Undefined for a person who may not approve. `total` counts the requests and the bulk payouts;
   * `duplicates`: the earlier payout each listed request may repeat, by request id.
   */
  waiting: { requests: PayoutRequest[]; batches?: PayoutBatch[]; total: number; duplicates?: ReadonlyMap<string, EarlierPayout> } | undefined;
  /** Undefined for a person who may not request and never did. */
  mine: PayoutRequest[] | undefined;
  /** Their own bulk payouts, newest first, listed with their requests. */
  mineBatches?: PayoutBatch[];
  /** `off` when the feed or the ledger is not turned on; undefined when its status could not be read. */
  feed: FeedStatus | 'off' | undefined;
  ledger: LedgerStatus | 'off' | undefined;
  buttons: { newPayout: boolean; export: boolean };
  /** The next scheduled payouts, for requesters and approvers; undefined when none. */
  scheduled?: { entries: ScheduledEntry[]; timeZone: string } | undefined;
  /** The runway now; undefined when it could not be computed (the Home then leaves it out). */
  runway?: Runway;
}

export type HomeContent = { kind: 'outsider' } | ViewerHome;

export function buildHomeView(surface: Surface, content: HomeContent): HomeView {
  const t = textsFor(surface.locale);
  if (content.kind === 'outsider') {
    return { type: 'home', blocks: [{ type: 'section', text: { type: 'mrkdwn', text: t('access.noViewer') } }, ...sandboxFooter(surface)] };
  }
  const blocks: KnownBlock[] = [
    { type: 'header', text: plainText(t('home.title')) },
    ...balanceBlocks(surface, content),
    ...(content.runway ? [runwayBlock(surface, content.runway)] : []),
    actionButtons(t, content),
    footer(surface, statusLine(surface, content)),
  ];
  if (content.waiting) blocks.push(...waitingBlocks(surface, content.waiting));
  if (content.mine) blocks.push(...mineBlocks(surface, content.mine, content.mineBatches ?? []));
  if (content.scheduled) blocks.push(...scheduledHomeBlocks(surface, content.scheduled.entries, content.scheduled.timeZone));
  return { type: 'home', blocks: blocks.slice(0, HOME_MAX_BLOCKS) };
}

function balanceBlocks(surface: Surface, content: ViewerHome): KnownBlock[] {
  const t = textsFor(surface.locale);
  const { reading, failed } = content.balance;
  if (!reading) return [{ type: 'section', text: { type: 'mrkdwn', text: t('home.balanceNone') } }];
  const blocks: KnownBlock[] = [
    { type: 'section', text: { type: 'mrkdwn', text: t('home.balances') } },
    ...balanceSections(reading, surface.locale, BALANCE_SECTIONS),
  ];
  const hidden = Object.keys(reading.balances).length - BALANCE_SECTIONS * 10;
  if (hidden > 0) blocks.push(footer({ ...surface, sandbox: false }, t('home.moreCurrencies', { count: hidden })));
  const date = slackDate(reading.readAt, undefined, surface);
  const when = failed
    ? t('home.balanceStale', { date, age: formatDuration(content.now.getTime() - reading.readAt.getTime(), surface.locale) })
    : t('balance.readAt', { date });
  blocks.push(footer({ ...surface, sandbox: false }, when));
  return blocks;
}

/** The runway in one block, a line per currency (the first ten), whatever the count: the Home's budget is 100 blocks. */
function runwayBlock(surface: Surface, runway: Runway): KnownBlock {
  return { type: 'section', text: { type: 'mrkdwn', text: cutMrkdwn(runwaySummary(surface, runway, RUNWAY_LINES), 3000) } };
}

function actionButtons(t: Texts, content: ViewerHome): ActionsBlock {
  const button = (actionId: string, label: string, style?: 'primary'): Button => ({
    type: 'button',
    action_id: actionId,
    text: plainText(label),
    value: actionId,
    ...(style ? { style } : {}),
  });
  return {
    type: 'actions',
    block_id: HOME.actionsBlock,
    elements: [
      button(HOME.refresh, t('home.refresh')),
      ...(content.buttons.newPayout ? [button(HOME.newPayout, t('home.newPayout'), 'primary')] : []),
      button(HOME.transactions, t('home.transactions')),
      ...(content.buttons.export ? [button(HOME.export, t('home.export'))] : []),
    ],
  };
}

/** The feed's and the history's status in one line, from the same data as `/fleet feed` and `/fleet ledger`. */
function statusLine(surface: Surface, content: ViewerHome): string {
  const t = textsFor(surface.locale);
  if (content.feed === undefined || content.ledger === undefined) return t('home.statusUnavailable');
  const feed = content.feed === 'off' ? t('home.feedOff') : plainHealth(surface.locale, content.feed);
  const ledger = content.ledger === 'off' ? t('home.ledgerOff') : ledgerHeadline(surface, content.ledger);
  return t('home.status', { feed, ledger });
}

function waitingBlocks(surface: Surface, waiting: NonNullable<ViewerHome['waiting']>): KnownBlock[] {
  const t = textsFor(surface.locale);
  const blocks: KnownBlock[] = [{ type: 'divider' }, { type: 'header', text: plainText(t('home.waiting')) }];
  if (waiting.total === 0) {
    blocks.push({ type: 'section', text: { type: 'mrkdwn', text: t('home.waitingNone') } });
    return blocks;
  }
  // Requests and bulk payouts together, newest first: a new one is never hidden behind older ones.
  const shown = newestFirst(waiting.requests, waiting.batches ?? []).slice(0, WAITING_SHOWN);
  for (const item of shown) {
    if (item.kind === 'batch') {
      blocks.push(...waitingBatchBlocks(surface, item.batch));
      continue;
    }
    const { request } = item;
    const line = t('home.waitingLine', {
      id: request.id,
      summary: payoutSummary(request, surface.locale),
      requester: mentionUser(request.requestedBy),
      date: slackDate(request.requestedAt, undefined, surface),
      // The noun agrees with the approvals given: `1 approbation sur 2`, `1 approval of 2`.
      approvals: t('home.approvals', { count: countingApprovers(request).length, required: request.requiredApprovals }),
      expires: slackDate(request.expiresAt, undefined, surface),
    });
    const earlier = waiting.duplicates?.get(request.id);
    blocks.push({ type: 'section', text: { type: 'mrkdwn', text: earlier ? `${line}\n${duplicateMark(t, earlier)}` : line } });
    blocks.push({
      type: 'actions',
      block_id: `${HOME.waitingBlockPrefix}${request.id}`,
      elements: [
        { type: 'button', action_id: PAYOUT_ACTIONS.approve, text: plainText(t('payoutApproval.button.approve')), value: request.id, style: 'primary' },
        { type: 'button', action_id: PAYOUT_ACTIONS.reject, text: plainText(t('payoutApproval.button.reject')), value: request.id, style: 'danger' },
      ],
    });
  }
  const more = waiting.total - shown.length;
  if (more > 0) blocks.push(footer({ ...surface, sandbox: false }, t('home.waitingMore', { count: more })));
  return blocks;
}

/** `:warning: Possible duplicate of PR-…`: the approve window then asks for the tick. */
function duplicateMark(t: Texts, earlier: EarlierPayout): string {
  const of =
    earlier.kind === 'request'
      ? escapeWithin(earlier.requestId, 20, { oneLine: true })
      : t('home.duplicateRow', { row: earlier.rowNumber, batch: escapeWithin(earlier.batchId, 20, { oneLine: true }) });
  return t('home.waitingDuplicate', { of });
}

type Listed = { kind: 'request'; request: PayoutRequest; at: Date } | { kind: 'batch'; batch: PayoutBatch; at: Date };

function newestFirst(requests: readonly PayoutRequest[], batches: readonly PayoutBatch[]): Listed[] {
  const listed: Listed[] = [
    ...requests.map((request): Listed => ({ kind: 'request', request, at: request.requestedAt })),
    ...batches.map((batch): Listed => ({ kind: 'batch', batch, at: batch.requestedAt ?? batch.createdAt })),
  ];
  return listed.sort((a, b) => b.at.getTime() - a.at.getTime());
}

/** A bulk payout waiting for the viewer: its rows and totals, and the approval message's own Approve and Reject. */
function waitingBatchBlocks(surface: Surface, batch: PayoutBatch): KnownBlock[] {
  const t = textsFor(surface.locale);
  const line = t('home.waitingLine', {
    id: batch.id,
    summary: bulkPayoutSummary(batch, surface.locale),
    requester: mentionUser(batch.requestedBy),
    date: slackDate(batch.requestedAt ?? batch.createdAt, undefined, surface),
    approvals: t('home.approvals', {
      count: batch.approvals.filter((approval) => approval.userId !== batch.requestedBy).length,
      required: batch.requiredApprovals,
    }),
    expires: slackDate(batch.expiresAt, undefined, surface),
  });
  return [
    { type: 'section', text: { type: 'mrkdwn', text: cutMrkdwn(line, 3000) } },
    { type: 'actions', block_id: `${HOME.waitingBlockPrefix}${batch.id}`, elements: batchDecisionButtons(batch, surface.locale) },
  ];
}

function mineBlocks(surface: Surface, mine: PayoutRequest[], mineBatches: PayoutBatch[]): KnownBlock[] {
  const t = textsFor(surface.locale);
  const blocks: KnownBlock[] = [{ type: 'divider' }, { type: 'header', text: plainText(t('home.mine')) }];
  if (mine.length === 0 && mineBatches.length === 0) {
    blocks.push({ type: 'section', text: { type: 'mrkdwn', text: t('home.mineNone') } });
    return blocks;
  }
  const lines = newestFirst(mine, mineBatches)
    .slice(0, MINE_SHOWN)
    .map((item) =>
      item.kind === 'batch'
        ? t('home.mineLine', {
            id: item.batch.id,
            summary: bulkPayoutSummary(item.batch, surface.locale),
            state: batchStateWord(item.batch, surface.locale),
            date: slackDate(item.at, undefined, surface),
          })
        : t('home.mineLine', {
            id: item.request.id,
            summary: payoutSummary(item.request, surface.locale),
            state: stateWord(item.request, surface.locale),
            date: slackDate(item.at, undefined, surface),
          }),
    );
  // Each line is a few hundred characters at most (names are cut in the summary): ten fit in a section's 3,000.
  blocks.push({ type: 'section', text: { type: 'mrkdwn', text: lines.join('\n') } });
  blocks.push(footer(surface, t('home.mineFooter', { count: lines.length })));
  return blocks;
}

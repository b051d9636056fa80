/** Feed messages as Block Kit: batches of new entries with totals, notes on gaps, balance alerts. */
import type { ContextBlock, KnownBlock } from '@slack/types';
import type { Transaction } from '../../fleet/schemas.js';
import { MAX_CLOCK_SKEW_MS } from '../../feed/cursor.js';
import type { FeedNote, FeedPost } from '../../feed/types.js';
import { totalsByCurrency, type CurrencyTotals } from '../../feed/totals.js';
import { formatMinor, toMinor, type FormatOptions } from '../../money.js';
import type { Reply } from './common.js';
import { codeSpan, escapeMrkdwn, escapeWithin, footer, formatDuration, sandboxFooter, sandboxMarked, slackDate, truncate, type Surface } from './text.js';

// Per-row budgets keep 20 rows well inside Slack's total size for a message's blocks.
const DESCRIPTION_MAX = 200;
const REFERENCE_MAX = 80;
const TYPE_MAX = 40;
const CURRENCY_MAX = 12;
const CONTEXT_ELEMENTS_MAX = 10;
// Slack cuts message text beyond 40,000 characters; stay well inside it.
const FALLBACK_TEXT_MAX = 30_000;

export function buildFeedMessage(surface: Surface, post: FeedPost): Reply {
  switch (post.kind) {
    case 'transactions':
      return buildTransactionsPost(surface, post.entries, post.notes);
    case 'notice':
      return withFooter(surface, post.notes.map((note) => noteText(note, false)), post.notes.map((note) => noteText(note, false)).join(' '));
    case 'balance_low': {
      const line = `:warning: *${escapeMrkdwn(post.currency)} balance is low*: ${escapeMrkdwn(formatMinor(post.balanceMinor, post.currency))}, below the alert threshold of ${escapeMrkdwn(formatMinor(post.thresholdMinor, post.currency))}.`;
      return withFooter(surface, [line], `Low ${post.currency} balance: ${formatMinor(post.balanceMinor, post.currency)}`);
    }
    case 'balance_recovered': {
      const line = `:white_check_mark: *${escapeMrkdwn(post.currency)} balance has recovered*: ${escapeMrkdwn(formatMinor(post.balanceMinor, post.currency))}, back at or above the alert threshold of ${escapeMrkdwn(formatMinor(post.thresholdMinor, post.currency))}.`;
      return withFooter(surface, [line], `${post.currency} balance recovered: ${formatMinor(post.balanceMinor, post.currency)}`);
    }
  }
}

function buildTransactionsPost(surface: Surface, entries: Transaction[], notes: FeedNote[]): Reply {
  const totals = totalsByCurrency(entries);
  const credits = entries.filter((tx) => tx.amount >= 0).length;
  const debits = entries.length - credits;
  const headline = `*${entries.length} new fleet ${entries.length === 1 ? 'transaction' : 'transactions'}*  ·  :large_green_circle: ${credits} in  ·  :red_circle: ${debits} out`;
  const blocks: KnownBlock[] = [
    ...notes.map((note): KnownBlock => ({ type: 'section', text: { type: 'mrkdwn', text: noteText(note, true) } })),
    { type: 'section', text: { type: 'mrkdwn', text: headline } },
    ...entries.map((tx): KnownBlock => ({ type: 'section', text: { type: 'mrkdwn', text: feedEntryLine(tx) } })),
    totalsBlock(totals),
  ];
  blocks.push(footer(surface, 'Oldest first · `/fleet transactions` for the full list'));
  const net = totals.map((row) => money(row.netMinor, row.currency, { signed: true })).join(', ');
  const text = `${sandboxMarked(surface, `${entries.length} new fleet ${entries.length === 1 ? 'transaction' : 'transactions'}`)}: net ${net}`;
  return { text, blocks };
}

/**
 * The same post as mrkdwn text without blocks, for when Slack refuses the blocks: an unpostable
 * message would otherwise be retried at every poll and hold the feed up for good.
 */
export function buildFeedFallbackText(surface: Surface, post: FeedPost): string {
  const message = buildFeedMessage(surface, post);
  if (post.kind !== 'transactions') return message.text;
  const lines = [
    ...post.notes.map((note) => noteText(note, true)),
    `*${escapeMrkdwn(message.text)}*`,
    ...post.entries.map(feedEntryLine),
  ];
  return truncate(lines.join('\n'), FALLBACK_TEXT_MAX);
}

/** One entry: direction marker and signed amount first, so credits and debits read at a glance. */
export function feedEntryLine(tx: Transaction): string {
  const credit = tx.amount >= 0;
  const marker = credit ? ':large_green_circle:' : ':red_circle:';
  const amount = money(toMinor(tx.amount, tx.currency), tx.currency, { signed: true });
  const description = tx.description.trim() ? `\n${escapeWithin(oneLine(tx.description), DESCRIPTION_MAX)}` : '';
  return `${marker} *${amount}*  ·  ${escapeWithin(tx.type, TYPE_MAX)}  ·  ${slackDate(tx.date)}${description}\n${codeSpan(tx.reference, REFERENCE_MAX)}`;
}

function totalsBlock(totals: CurrencyTotals[]): ContextBlock {
  const lines = totals.map((row) => {
    const parts = [`*${escapeWithin(row.currency, CURRENCY_MAX)}*`];
    if (row.creditCount > 0) parts.push(`in ${money(row.creditMinor, row.currency, { signed: true })} (${row.creditCount})`);
    if (row.debitCount > 0) parts.push(`out ${money(row.debitMinor, row.currency, { signed: true })} (${row.debitCount})`);
    parts.push(`net ${money(row.netMinor, row.currency, { signed: true })}`);
    return parts.join(' · ');
  });
  // A context block holds at most 10 elements: beyond that, currencies share an element.
  const perElement = Math.max(1, Math.ceil(lines.length / CONTEXT_ELEMENTS_MAX));
  const elements: ContextBlock['elements'] = [];
  for (let i = 0; i < lines.length; i += perElement) {
    elements.push({ type: 'mrkdwn', text: `${i === 0 ? 'Totals: ' : ''}${lines.slice(i, i + perElement).join('\n')}` });
  }
  return { type: 'context', elements: elements.length > 0 ? elements : [{ type: 'mrkdwn', text: 'Totals: none' }] };
}

/**
 * An amount with its currency, escaped. Currency codes come from the Fleet API unchecked; one long
 * enough to push a message past Slack's limits would be refused at every poll and stall the feed.
 */
function money(minor: number, currency: string, options: FormatOptions): string {
  const formatted = formatMinor(minor, currency, options);
  return `${escapeMrkdwn(formatted.slice(0, formatted.length - currency.length))}${escapeWithin(currency, CURRENCY_MAX)}`;
}

function noteText(note: FeedNote, withEntries: boolean): string {
  switch (note.kind) {
    case 'caught_up':
      return `:hourglass_flowing_sand: The feed was *${formatDuration(note.behindMs)} behind* (an outage or a restart) and has caught up: ${withEntries ? 'the entries below arrived meanwhile.' : 'no transactions arrived meanwhile.'}`;
    case 'overflow': {
      const count = `${note.atLeast ? 'at least ' : ''}${note.count.toLocaleString('en-US')}`;
      return `:fast_forward: *${count} earlier ${note.count === 1 && !note.atLeast ? 'transaction was' : 'transactions were'} not posted*: more arrived at once than the feed posts (FEED_MAX_BACKLOG). See \`/fleet transactions\` for the full list.`;
    }
    case 'late':
      return `:rewind: *${countOf(note.count)} late*: dated before entries already posted, ${note.count === 1 ? 'it' : 'they'} showed up in the list only now.`;
    case 'future_dated':
      return `:warning: *${countOf(note.count)} dated in the future*, more than ${formatDuration(MAX_CLOCK_SKEW_MS)} ahead of the database clock: posted now, marked, and not used to judge what is new.`;
  }
}

function countOf(count: number): string {
  return `${count.toLocaleString('en-US')} ${count === 1 ? 'transaction' : 'transactions'}`;
}

function withFooter(surface: Surface, lines: string[], text: string): Reply {
  const blocks: KnownBlock[] = lines.map((line) => ({ type: 'section', text: { type: 'mrkdwn', text: line } }));
  blocks.push(...sandboxFooter(surface));
  return { text: sandboxMarked(surface, text), blocks };
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

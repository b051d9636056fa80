/** Feed messages as Block Kit: batches of new entries with totals, notes on gaps, balance alerts. */
import type { ContextBlock, KnownBlock } from '@slack/types';
import type { Transaction } from '../../fleet/schemas.js';
import { MAX_CLOCK_SKEW_MS } from '../../feed/cursor.js';
import type { FeedNote, FeedPost } from '../../feed/types.js';
import { totalsByCurrency, type CurrencyTotals } from '../../feed/totals.js';
import { textsFor, type Locale } from '../../i18n/index.js';
import { formatMinor, toMinor, type FormatOptions } from '../../core/money.js';
import type { Reply } from './notice.js';
import { codeSpan, cutMrkdwn, escapeMrkdwn, escapeWithin, footer, formatDuration, sandboxFooter, sandboxMarked, type Surface } from './text.js';
import { slackDate, type DateReader } from './dates.js';

// Per-row budgets keep 20 rows well inside Slack's total size for a message's blocks.
const DESCRIPTION_MAX = 200;
const REFERENCE_MAX = 80;
const TYPE_MAX = 40;
const STATUS_MAX = 30;
const CURRENCY_MAX = 12;
const CONTEXT_ELEMENTS_MAX = 10;
// Slack cuts message text beyond 40,000 characters; stay well inside it.
const FALLBACK_TEXT_MAX = 30_000;

export function buildFeedMessage(surface: Surface, post: FeedPost): Reply {
  const t = textsFor(surface.locale);
  switch (post.kind) {
    case 'transactions':
      return buildTransactionsPost(surface, post.entries, post.notes);
    case 'notice': {
      const lines = post.notes.map((note) => noteText(surface.locale, note, false));
      return withFooter(surface, lines, lines.join(' '));
    }
    case 'balance_low':
    case 'balance_recovered': {
      const currency = escapeWithin(post.currency, CURRENCY_MAX);
      const balance = money(surface.locale, post.balanceMinor, post.currency);
      const threshold = money(surface.locale, post.thresholdMinor, post.currency);
      return post.kind === 'balance_low'
        ? withFooter(surface, [t('feed.balanceLow', { currency, balance, threshold })], t('feed.balanceLowText', { currency, balance }))
        : withFooter(surface, [t('feed.balanceRecovered', { currency, balance, threshold })], t('feed.balanceRecoveredText', { currency, balance }));
    }
  }
}

function buildTransactionsPost(surface: Surface, entries: Transaction[], notes: FeedNote[]): Reply {
  const { locale } = surface;
  const t = textsFor(locale);
  // One entry reads as one line: the headline, totals and footer would be three times its size.
  const [only] = entries;
  if (only && entries.length === 1 && notes.length === 0) {
    const blocks: KnownBlock[] = [{ type: 'section', text: { type: 'mrkdwn', text: compactEntryLine(surface, only) } }, ...sandboxFooter(surface)];
    const amount = formatMinor(toMinor(only.amount, only.currency), only.currency, { signed: true, locale });
    const word = (text: string, max: number) => escapeWithin(text, max, { oneLine: true });
    return {
      text: sandboxMarked(
        surface,
        t('feed.singleText', { amount: word(amount, 60), type: word(only.type, TYPE_MAX), reference: word(only.reference, REFERENCE_MAX) }),
      ),
      blocks,
    };
  }
  const totals = totalsByCurrency(entries);
  const credits = entries.filter((tx) => tx.amount >= 0).length;
  const debits = entries.length - credits;
  const count = t('feed.newTransactions', { count: entries.length });
  const blocks: KnownBlock[] = [
    ...notes.map((note): KnownBlock => ({ type: 'section', text: { type: 'mrkdwn', text: noteText(locale, note, true) } })),
    { type: 'section', text: { type: 'mrkdwn', text: t('feed.headline', { transactions: count, credits, debits }) } },
    ...entries.map((tx): KnownBlock => ({ type: 'section', text: { type: 'mrkdwn', text: feedEntryLine(surface, tx) } })),
    totalsBlock(locale, totals),
  ];
  blocks.push(footer(surface, t('feed.footer')));
  const net = totals.map((row) => money(locale, row.netMinor, row.currency, { signed: true })).join(', ');
  const text = t('feed.text', { transactions: sandboxMarked(surface, count), net });
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
    ...post.notes.map((note) => noteText(surface.locale, note, true)),
    `*${escapeMrkdwn(message.text)}*`,
    ...post.entries.map((tx) => feedEntryLine(surface, tx)),
  ];
  return cutMrkdwn(lines.join('\n'), FALLBACK_TEXT_MAX);
}

/** One entry: direction marker and signed amount first, so credits and debits read at a glance. */
function feedEntryLine(reader: DateReader, tx: Transaction): string {
  const { locale } = reader;
  const credit = tx.amount >= 0;
  const marker = credit ? ':large_green_circle:' : ':red_circle:';
  const amount = money(locale, toMinor(tx.amount, tx.currency), tx.currency, { signed: true });
  const description = tx.description.trim() ? `\n${escapeWithin(oneLine(tx.description), DESCRIPTION_MAX)}` : '';
  return `${marker} *${amount}*  ·  ${escapeWithin(tx.type, TYPE_MAX)}${statusWord(tx, '  ·  ')}  ·  ${slackDate(tx.date, undefined, reader)}${description}\n${codeSpan(tx.reference, REFERENCE_MAX)}`;
}

/** One entry on one line: marker, signed amount, type, reference, date, then its description cut short. */
function compactEntryLine(reader: DateReader, tx: Transaction): string {
  const { locale } = reader;
  const marker = tx.amount >= 0 ? ':large_green_circle:' : ':red_circle:';
  const amount = money(locale, toMinor(tx.amount, tx.currency), tx.currency, { signed: true });
  const description = tx.description.trim() ? ` — ${escapeWithin(oneLine(tx.description), DESCRIPTION_MAX)}` : '';
  return `${marker} *${amount}* · ${escapeWithin(oneLine(tx.type), TYPE_MAX)}${statusWord(tx, ' · ')} · ${codeSpan(tx.reference, REFERENCE_MAX)} · ${slackDate(tx.date, undefined, reader)}${description}`;
}

/**
 * The entry's status as the API sent it, when it is not `Completed` (a `Pending` entry, say): the
 * feed posts each entry once, when it first appears, so the line says it had not completed then.
 */
function statusWord(tx: Transaction, separator: string): string {
  return tx.status === 'Completed' ? '' : `${separator}_${escapeWithin(oneLine(tx.status), STATUS_MAX, { oneLine: true })}_`;
}

function totalsBlock(locale: Locale, totals: CurrencyTotals[]): ContextBlock {
  const t = textsFor(locale);
  const lines = totals.map((row) => {
    const parts = [`*${escapeWithin(row.currency, CURRENCY_MAX)}*`];
    if (row.creditCount > 0) parts.push(t('feed.totalIn', { amount: money(locale, row.creditMinor, row.currency, { signed: true }), count: row.creditCount }));
    if (row.debitCount > 0) parts.push(t('feed.totalOut', { amount: money(locale, row.debitMinor, row.currency, { signed: true }), count: row.debitCount }));
    parts.push(t('feed.totalNet', { amount: money(locale, row.netMinor, row.currency, { signed: true }) }));
    return parts.join(' · ');
  });
  // A context block holds at most 10 elements: beyond that, currencies share an element.
  const perElement = Math.max(1, Math.ceil(lines.length / CONTEXT_ELEMENTS_MAX));
  const elements: ContextBlock['elements'] = [];
  for (let i = 0; i < lines.length; i += perElement) {
    const text = lines.slice(i, i + perElement).join('\n');
    elements.push({ type: 'mrkdwn', text: i === 0 ? t('feed.totals', { lines: text }) : text });
  }
  return { type: 'context', elements: elements.length > 0 ? elements : [{ type: 'mrkdwn', text: t('feed.totalsNone') }] };
}

/**
 * An amount with its currency, written the reader's way, escaped. Currency codes come from the Fleet
 * API unchecked; one long enough to push a message past Slack's limits would be refused at every
 * poll and stall the feed.
 */
function money(locale: Locale, minor: number, currency: string, options: Omit<FormatOptions, 'locale'> = {}): string {
  const formatted = formatMinor(minor, currency, { ...options, locale });
  return `${escapeMrkdwn(formatted.slice(0, formatted.length - currency.length))}${escapeWithin(currency, CURRENCY_MAX)}`;
}

function noteText(locale: Locale, note: FeedNote, withEntries: boolean): string {
  const t = textsFor(locale);
  switch (note.kind) {
    case 'caught_up': {
      const duration = formatDuration(note.behindMs, locale);
      return withEntries ? t('feed.note.caughtUpWithEntries', { duration }) : t('feed.note.caughtUpNothing', { duration });
    }
    case 'overflow':
      return t(note.atLeast ? 'feed.note.overflowAtLeast' : 'feed.note.overflow', { count: note.count });
    case 'late':
      return t('feed.note.late', { count: note.count });
    case 'future_dated':
      return t('feed.note.futureDated', { count: note.count, duration: formatDuration(MAX_CLOCK_SKEW_MS, locale) });
  }
}

function withFooter(surface: Surface, lines: string[], text: string): Reply {
  const blocks: KnownBlock[] = lines.map((line) => ({ type: 'section', text: { type: 'mrkdwn', text: line } }));
  blocks.push(...sandboxFooter(surface));
  return { text: sandboxMarked(surface, text), blocks };
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/**
 * The `/fleet transactions` replies: one page of the newest-first list read from the Fleet API, or
 * one page of a search in the ledger with the search in words and how many match; both with
 * Previous and Next. Also the usage reply for a search that cannot be read.
 */
import type { Button, KnownBlock } from '@slack/types';
import type { TransactionPage } from '../../account/account-reader.js';
import { textsFor, type Locale, type Texts } from '../../i18n/index.js';
import { MAX_QUERY_LENGTH, isEmptySearch, parseSearchText, searchToText, type QueryProblem, type TransactionSearch } from '../../ledger/query-text.js';
import { MATCH_COUNT_LIMIT, type LedgerEntry, type LedgerStatus } from '../../ledger/types.js';
import { formatDecimal, formatMinor, formatNumber, toMinor } from '../../core/money.js';
import { ACTIONS, BLOCKS } from '../ids.js';
import { notice, type Reply } from './notice.js';
import { codeSpan, cutMrkdwn, escapeWithin, footer, mentionUser, sandboxMarked, type Surface } from './text.js';
import { formatDay, slackDate, type DateReader } from './dates.js';

/** What a paging, share or Filter button carries: where to go and what was searched, never who may look. */
export interface PageRequest {
  /** 1-based from the newest; negative when counted from the end (-1 is the last page), as when the total is "more than 10,000". */
  page: number;
  pageSize: number;
  /** Absent or empty: the plain newest-first list. */
  search?: TransactionSearch;
  /** The ledger point the first page was read at, so that later pages (and Share) read the same list. */
  asOf?: number;
  /**
   * Where the page starts when a button was clicked: after or before an entry of the page shown
   * (its ledger seq; Next and Previous read by keyset), or the last page. Absent: by page number.
   */
  position?: PagePosition;
}

export type PagePosition = { after: number } | { before: number } | { last: true };

function encodePosition(position: PagePosition | undefined): string {
  if (!position) return '';
  if ('after' in position) return `a${position.after}`;
  if ('before' in position) return `b${position.before}`;
  return 'l';
}

/**
 * `page|size|search words`. The search is written back as `/fleet tx` text (at most a few hundred
 * characters, far under a button value's 2,000) and read again by the same parser on every click.
 */
export function encodePageRequest(request: PageRequest): string {
  const page = request.asOf === undefined ? `${request.page}` : `${request.page}.${request.asOf}`;
  return `${page}${encodePosition(request.position)}|${request.pageSize}|${request.search ? searchToText(request.search) : ''}`;
}

/** Reads a button value back; anything unreadable is `undefined` (the listener then shows page 1). */
export function decodePageRequest(value: string | undefined, maxPageSize: number): PageRequest | undefined {
  if (value === undefined) return undefined;
  // Buttons sent before searches existed carry `{"page":2,"size":10}`.
  const legacy = /^\{"page":(\d{1,6}),"size":(\d{1,2})\}$/.exec(value);
  // `page[.asOf][position]|size|search`; buttons sent before paging was pinned have no `.asOf`, and
  // before keyset pages no position (`a<seq>` after, `b<seq>` before an entry, `l` the last page).
  const match = legacy ?? /^(-?\d{1,6})(?:\.(\d{1,15}))?(?:([ab])(\d{1,15})|(l))?\|(\d{1,2})\|([\s\S]*)$/.exec(value);
  if (!match) return undefined;
  const page = Number(match[1]);
  const asOf = legacy || match[2] === undefined ? undefined : Number(match[2]);
  const pageSize = Number(legacy ? match[2] : match[6]);
  // A page counted from the end only makes sense with the position that reads it.
  const position: PagePosition | undefined = legacy
    ? undefined
    : match[3] === 'a'
      ? { after: Number(match[4]) }
      : match[3] === 'b'
        ? { before: Number(match[4]) }
        : match[5]
          ? { last: true }
          : undefined;
  if (page === 0 || (page < 0 && !position) || pageSize < 1 || pageSize > maxPageSize) return undefined;
  const text = (legacy ? '' : match[7]) ?? '';
  if (text.length > MAX_QUERY_LENGTH) return undefined;
  const read = parseSearchText(text);
  if (!read.ok) return undefined;
  return {
    page,
    pageSize,
    ...(isEmptySearch(read.search) ? {} : { search: read.search }),
    ...(asOf === undefined ? {} : { asOf }),
    ...(position ? { position } : {}),
  };
}

// Slack refuses messages whose blocks carry much more than ~12k characters: long descriptions
// share a budget across the page, and every other field from the API has its own cap (after escaping),
// so that 25 rows of the longest values stay near 10k.
const DESCRIPTION_BUDGET = 4000;
const REFERENCE_MAX = 60;
const WORD_MAX = 30;
const AMOUNT_MAX = 40;
const SEARCH_WORD_MAX = 60;
const SEARCH_LINE_MAX = 1500;

interface Row {
  reference: string;
  type: string;
  status: string;
  description: string;
  date: string;
  currency: string;
  amountMinor: number;
}

function rowLine(reader: DateReader, row: Row, descriptionMax: number): string {
  const { locale } = reader;
  const marker = row.amountMinor >= 0 ? ':large_green_circle:' : ':red_circle:';
  const amount = escapeWithin(formatMinor(row.amountMinor, row.currency, { signed: true, locale }), AMOUNT_MAX, { oneLine: true });
  const description = row.description ? `\n${escapeWithin(row.description, descriptionMax)}` : '';
  const word = (text: string) => escapeWithin(text, WORD_MAX, { oneLine: true });
  return `${marker} *${amount}* · ${word(row.type)} · ${word(row.status)}${description}\n${codeSpan(row.reference, REFERENCE_MAX)} · ${slackDate(row.date, undefined, reader)}`;
}

function rowBlocks(reader: DateReader, rows: Row[]): KnownBlock[] {
  const descriptionMax = Math.min(500, Math.floor(DESCRIPTION_BUDGET / Math.max(rows.length, 1)));
  return rows.map((row) => ({ type: 'section', text: { type: 'mrkdwn', text: rowLine(reader, row, descriptionMax) } }));
}

/** The newest-first list read from the Fleet API, as before the ledger; `filterButton` when searches work. */
export function buildTransactionsMessage(surface: Surface, page: TransactionPage, options: { sharedBy?: string; filterButton?: boolean } = {}): Reply {
  const t = textsFor(surface.locale);
  const last = page.firstItem + page.transactions.length - 1;
  const range =
    page.transactions.length === 0
      ? page.page === 1
        ? t('transactions.noneYet')
        : t('transactions.pageEmpty', { page: page.page, item: (page.page - 1) * page.pageSize })
      : t('transactions.showing', { from: page.firstItem, to: last, page: page.page, size: page.pageSize });
  const blocks: KnownBlock[] = [
    { type: 'header', text: { type: 'plain_text', text: t('transactions.title') } },
    { type: 'section', text: { type: 'mrkdwn', text: range } },
    ...rowBlocks(
      surface,
      page.transactions.map((tx) => ({ ...tx, amountMinor: toMinor(tx.amount, tx.currency) })),
    ),
  ];
  blocks.push(footer(surface, signature(t, t('transactions.readAt', { date: slackDate(page.readAt, undefined, surface) }), options.sharedBy)));
  if (!options.sharedBy) {
    const here = { page: page.page, pageSize: page.pageSize };
    const actions = pagingButtons(t, here, page.page > 1, page.hasNext, page.transactions.length > 0, options.filterButton ?? false);
    if (actions) blocks.push(actions);
  }
  return { text: `${sandboxMarked(surface, t('transactions.title'))}: ${range}`, blocks };
}

/** One page of a ledger search, with what it is, how far the history goes and the days' time zone. */
export interface SearchResults {
  search: TransactionSearch;
  page: number;
  pageSize: number;
  entries: LedgerEntry[];
  /** How many match, exactly up to 10,000; with `totalCapped`, more than that. */
  total: number;
  totalCapped?: boolean;
  /** Whether there are matches before and after this page; without them, judged from the page number and total. */
  hasPrevious?: boolean;
  hasNext?: boolean;
  /** The ledger seq of the page's first and last entries, where Previous and Next read from. */
  bounds?: { first: number; last: number };
  /** The position this page was read from (kept by Share so that it shows this very page). */
  position?: PagePosition;
  /** The ledger point the list was read at (carried by the buttons), and how many matches arrived since. */
  storedUpTo: number;
  newer: number;
  status: LedgerStatus;
  timeZone: string;
}

/** A page of the ledger: a search's matches, or with an empty search the whole list, newest first. */
export function buildSearchResultsMessage(surface: Surface, results: SearchResults, options: { sharedBy?: string } = {}): Reply {
  const t = textsFor(surface.locale);
  const everything = isEmptySearch(results.search);
  const capped = results.totalCapped === true;
  const fromEnd = results.page < 0;
  const first = (results.page - 1) * results.pageSize + 1;
  const lastPage = Math.max(1, Math.ceil(results.total / results.pageSize));
  const limit = formatNumber(MATCH_COUNT_LIMIT, surface.locale);
  const range = { from: first, to: first + results.entries.length - 1 };
  const summary =
    results.total === 0
      ? t(everything ? 'transactions.noneYet' : 'transactions.noMatch')
      : results.entries.length === 0
        ? capped
          ? t(everything ? 'transactions.pastEndAllMany' : 'transactions.pastEndMany', { page: results.page })
          : t(everything ? 'transactions.pastEndAll' : 'transactions.pastEnd', { count: results.total, page: results.page })
        : !capped
          ? t(everything ? 'transactions.countShowing' : 'transactions.matches', { count: results.total, ...range })
          : fromEnd
            ? t(everything ? 'transactions.countFromEnd' : 'transactions.matchesFromEnd', { limit, page: -results.page })
            : t(everything ? 'transactions.countShowingMany' : 'transactions.matchesMany', { limit, ...range });
  const lines = everything
    ? [summary]
    : [cutMrkdwn(t('transactions.filterLine', { filter: describeSearch(surface.locale, results.search) }), SEARCH_LINE_MAX), summary];
  if (results.newer > 0 && !options.sharedBy) lines.push(t(everything ? 'transactions.newerAll' : 'transactions.newer', { count: results.newer }));
  if (!results.status.historyComplete) lines.push(historyNote(t, results.status));
  const blocks: KnownBlock[] = [
    { type: 'header', text: { type: 'plain_text', text: t('transactions.title') } },
    { type: 'section', text: { type: 'mrkdwn', text: lines.join('\n') } },
    ...rowBlocks(surface, results.entries),
  ];
  const checked = results.status.lastPollAt ? [t('transactions.ledgerAsOf', { date: slackDate(results.status.lastPollAt, undefined, surface) })] : [];
  const zone = everything ? [] : [t('transactions.daysIn', { zone: escapeWithin(results.timeZone, 60, { oneLine: true }) })];
  blocks.push(footer(surface, signature(t, [...checked, ...zone].join(' · '), options.sharedBy)));
  if (!options.sharedBy) {
    const pinned = { pageSize: results.pageSize, asOf: results.storedUpTo, ...(everything ? {} : { search: results.search }) };
    // Share and Filter read this very page again: the position that read it, pinned.
    const here: PageRequest = { ...pinned, page: results.page, ...(results.position ? { position: results.position } : {}) };
    // The last page: numbered when the total is exact, else the first counted from the end.
    const last: PageRequest = { ...pinned, page: capped ? -1 : lastPage, position: { last: true } };
    const lastLabel = capped ? t('transactions.lastPageUnnumbered') : t('transactions.lastPage', { page: lastPage });
    const hasNext = results.entries.length > 0 && (results.hasNext ?? first - 1 + results.entries.length < results.total);
    const hasPrevious = results.entries.length > 0 && (results.hasPrevious ?? results.page > 1);
    const buttons: Button[] = [];
    if (results.entries.length === 0 && results.total > 0) {
      // Past the end: the way back is the last page, not a Previous into more empty pages.
      buttons.push(pageButton(lastLabel, last, 'last'));
    } else {
      const step = (delta: number) => (results.page + delta === 0 ? results.page + 2 * delta : results.page + delta);
      if (hasPrevious)
        buttons.push(
          pageButton(
            t('transactions.previous'),
            { ...pinned, page: step(-1), ...(results.bounds ? { position: { before: results.bounds.first } } : {}) },
            'previous',
          ),
        );
      if (hasNext)
        buttons.push(
          pageButton(t('transactions.next'), { ...pinned, page: step(1), ...(results.bounds ? { position: { after: results.bounds.last } } : {}) }, 'next'),
        );
      // Two pages or more ahead: straight to the end, read from the other end however long the list.
      if (hasNext && (capped || results.page + 1 < lastPage)) buttons.push(pageButton(lastLabel, last, 'last'));
      if (results.entries.length > 0) buttons.push(shareButton(t, here));
      buttons.push(filterButton(t, { ...pinned, page: 1 }));
    }
    blocks.push({ type: 'actions', block_id: BLOCKS.accountActions, elements: buttons });
  }
  return { text: `${sandboxMarked(surface, t('transactions.title'))}: ${summary}`, blocks };
}

function historyNote(t: Texts, status: LedgerStatus): string {
  return status.estimatedTotal !== undefined && status.estimatedTotal >= status.loaded
    ? t('transactions.historyLoading', { count: status.loaded, total: status.estimatedTotal })
    : t('transactions.historyLoadingUnknown', { count: status.loaded });
}

function signature(t: Texts, when: string, sharedBy: string | undefined): string {
  return sharedBy ? t('transactions.sharedBy', { when, user: mentionUser(sharedBy) }) : when;
}

function pagingButtons(t: Texts, here: PageRequest, hasPrevious: boolean, hasNext: boolean, canShare: boolean, canFilter: boolean): KnownBlock | undefined {
  const buttons: Button[] = [];
  if (hasPrevious) buttons.push(pageButton(t('transactions.previous'), { ...here, page: here.page - 1 }, 'previous'));
  if (hasNext) buttons.push(pageButton(t('transactions.next'), { ...here, page: here.page + 1 }, 'next'));
  if (canShare) buttons.push(shareButton(t, here));
  if (canFilter) buttons.push(filterButton(t, { ...here, page: 1 }));
  return buttons.length > 0 ? { type: 'actions', block_id: BLOCKS.accountActions, elements: buttons } : undefined;
}

function shareButton(t: Texts, here: PageRequest): Button {
  return { type: 'button', action_id: ACTIONS.transactionsShare, text: { type: 'plain_text', text: t('transactions.share') }, value: encodePageRequest(here) };
}

function filterButton(t: Texts, request: PageRequest): Button {
  return {
    type: 'button',
    action_id: ACTIONS.transactionsFilter,
    text: { type: 'plain_text', text: t('transactions.filter') },
    value: encodePageRequest(request),
  };
}

function pageButton(label: string, request: PageRequest, direction: string): Button {
  return {
    type: 'button',
    // Two buttons with one handler need distinct action_ids within a block.
    action_id: `${ACTIONS.transactionsPage}:${direction}`,
    text: { type: 'plain_text', text: label },
    value: encodePageRequest(request),
  };
}

/** The search in words, as mrkdwn with every typed word escaped: `in USD · money out · from Nov 1, 2026 to …`. */
export function describeSearch(locale: Locale, search: TransactionSearch): string {
  const t = textsFor(locale);
  const word = (text: string) => escapeWithin(text, SEARCH_WORD_MAX, { oneLine: true });
  const parts: string[] = [];
  if (search.currency) parts.push(t('transactions.describe.currency', { currency: word(search.currency) }));
  if (search.type) parts.push(t('transactions.describe.type', { type: `\`${word(search.type)}\`` }));
  if (search.status) parts.push(t('transactions.describe.status', { status: `\`${word(search.status)}\`` }));
  if (search.direction) parts.push(t(search.direction === 'in' ? 'transactions.describe.in' : 'transactions.describe.out'));
  const day = (text: string) => formatDay(text, locale);
  if (search.since && search.until) parts.push(t('transactions.describe.between', { since: day(search.since), until: day(search.until) }));
  else if (search.since) parts.push(t('transactions.describe.since', { since: day(search.since) }));
  else if (search.until) parts.push(t('transactions.describe.until', { until: day(search.until) }));
  const amount = (text: string) => formatDecimal(text, locale);
  if (search.min && search.max) parts.push(t('transactions.describe.amountBetween', { min: amount(search.min), max: amount(search.max) }));
  else if (search.min) parts.push(t('transactions.describe.amountMin', { min: amount(search.min) }));
  else if (search.max) parts.push(t('transactions.describe.amountMax', { max: amount(search.max) }));
  if (search.words && search.words.length > 0) {
    const words = search.words.map((text) => t('transactions.describe.word', { word: word(text) })).join(', ');
    parts.push(t('transactions.describe.words', { words }));
  }
  return parts.length > 0 ? parts.join(' · ') : t('transactions.describe.all');
}

/** What could not be read, named, with the usage lines after it. */
export function problemText(t: Texts, problem: QueryProblem, limits: { maxPageSize: number }): string {
  const word = codeSpan(problem.word, 80);
  switch (problem.code) {
    case 'bad_page_size':
      return t('transactions.problem.bad_page_size', { word, max: limits.maxPageSize });
    case 'too_long':
      return t('transactions.problem.too_long', { word, max: MAX_QUERY_LENGTH });
    default:
      return t(`transactions.problem.${problem.code}`, { word });
  }
}

export function buildQueryProblemMessage(surface: Surface, problem: QueryProblem, limits: { maxPageSize: number }): Reply {
  const t = textsFor(surface.locale);
  return notice(surface, `${problemText(t, problem, limits)}\n${t('transactions.usage')}`);
}

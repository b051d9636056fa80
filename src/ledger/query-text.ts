/**
 * Reads what a person types after `/fleet tx` (or into the Filter modal's text field) into a search
 * over the ledger: filter words in English or French, free words and quoted phrases, and the old
 * `[page] [size]` numbers. Calendar days (as `calendar.ts` reads them) become instants in the
 * ledger's time zone here, so that `/fleet tx`, the Filter modal and `/fleet export` all mean the
 * same thing by `until:2026-11-15`.
 */
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../account/account-reader.js';
import { isCalendarDay, nextDay, startOfDay } from '../core/calendar.js';
import type { Locale } from '../i18n/index.js';
import { readDecimal as readTypedDecimal } from '../core/money.js';
import type { Direction, LedgerFilter } from './types.js';

/**
 * A search as the person wrote it: days as `YYYY-MM-DD` (both inclusive) and amounts as exact
 * decimals. `ledgerFilterFor` turns it into the store's `LedgerFilter`; `searchToText` writes it
 * back as text that reads into the same search (for button values and the modal).
 */
export interface TransactionSearch {
  /** Upper-case ISO 4217 code. */
  currency?: string;
  type?: string;
  status?: string;
  direction?: Direction;
  /** First calendar day included. */
  since?: string;
  /** Last calendar day included. */
  until?: string;
  /** Smallest and largest absolute amount, canonical decimals (`"100"`, `"5000.5"`). */
  min?: string;
  max?: string;
  /** Free words and phrases, each matched against reference and description. */
  words?: string[];
}

export interface TransactionQuery {
  search: TransactionSearch;
  /** 1-based. */
  page: number;
  pageSize: number;
}

/** What was wrong, and the word it was wrong in (as typed), for a usage reply that names it. */
export type QueryProblemCode =
  | 'unknown_filter'
  | 'empty_value'
  | 'bad_currency'
  | 'bad_date'
  | 'bad_amount'
  | 'ambiguous_amount'
  | 'bad_page'
  | 'bad_page_size'
  | 'too_many_numbers'
  | 'repeated_filter'
  | 'dates_reversed'
  | 'amounts_reversed'
  | 'too_long';

export interface QueryProblem {
  code: QueryProblemCode;
  word: string;
}

export type QueryResult = { ok: true; query: TransactionQuery } | { ok: false; problem: QueryProblem };
export type SearchResult = { ok: true; search: TransactionSearch } | { ok: false; problem: QueryProblem };

/** Longest text read; keeps a search small enough to ride in a button value (2,000 characters). */
export const MAX_QUERY_LENGTH = 500;
const MAX_VALUE_LENGTH = 100;
const MAX_PAGE = 999_999;

type FilterField = 'currency' | 'type' | 'status' | 'direction' | 'since' | 'until' | 'min' | 'max' | 'page' | 'size';

/** Every filter word, English first; apostrophes are folded to `'` before lookup. */
const FILTER_KEYS: Record<string, FilterField> = {
  currency: 'currency',
  cur: 'currency',
  devise: 'currency',
  type: 'type',
  status: 'status',
  statut: 'status',
  etat: 'status',
  état: 'status',
  direction: 'direction',
  sens: 'direction',
  since: 'since',
  from: 'since',
  depuis: 'since',
  du: 'since',
  until: 'until',
  to: 'until',
  "jusqu'au": 'until',
  jusquau: 'until',
  jusqua: 'until',
  au: 'until',
  min: 'min',
  max: 'max',
  page: 'page',
  size: 'size',
  per_page: 'size',
  taille: 'size',
};

const DIRECTION_WORDS: Record<string, Direction> = {
  in: 'in',
  incoming: 'in',
  entrant: 'in',
  entrants: 'in',
  entrée: 'in',
  entrées: 'in',
  entree: 'in',
  entrees: 'in',
  out: 'out',
  outgoing: 'out',
  sortant: 'out',
  sortants: 'out',
  sortie: 'out',
  sorties: 'out',
};

// Straight, curly (Slack's clients turn " into “ ”), low and angle quotes all open and close a phrase.
const QUOTES = new Set(['"', '“', '”', '„', '«', '»']);

interface Token {
  text: string;
  /** The token began with a quote: always a free phrase, never a filter word. */
  phrase: boolean;
}

/** Splits on white space, keeping quoted phrases whole; an unclosed quote runs to the end. */
export function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let current = '';
  let phrase = false;
  let started = false;
  let inQuote = false;
  const flush = () => {
    const trimmed = phrase ? current.trim().replace(/\s+/g, ' ') : current;
    if (started && trimmed !== '') tokens.push({ text: trimmed, phrase });
    current = '';
    phrase = false;
    started = false;
  };
  for (const char of text) {
    if (QUOTES.has(char)) {
      if (!started) phrase = true;
      started = true;
      inQuote = !inQuote;
    } else if (!inQuote && /\s/.test(char)) {
      flush();
    } else {
      started = true;
      current += char;
    }
  }
  flush();
  return tokens;
}

const foldApostrophes = (text: string) => text.replace(/[’‘`]/g, "'");

/** A `word:value` (or `word=value`) token: its word lower-cased and its value trimmed; undefined for a free word. Other commands read their own words with it. */
export function filterPair(token: string): { key: string; value: string } | undefined {
  const pair = /^([\p{L}_']+)[:=](.*)$/u.exec(foldApostrophes(token));
  return pair ? { key: pair[1]!.toLowerCase(), value: pair[2]!.trim() } : undefined;
}

/**
 * Reads `/fleet tx` text into a search and a page. Bare whole numbers are the page and page size
 * (the forms before filters existed: `2`, `2 25`, `page 2`, `size=25`); quote a number to search it.
 */
export function parseTransactionQuery(text: string, options: { locale?: Locale } = {}): QueryResult {
  const read = readQuery(text, options.locale ?? 'en', true);
  if (!read.ok) return read;
  const { search, page, pageSize } = read;
  return { ok: true, query: { search, page: page ?? 1, pageSize: pageSize ?? DEFAULT_PAGE_SIZE } };
}

/** Reads a search alone (the Filter modal's text field): no page numbers, every number is a word. */
export function parseSearchText(text: string, options: { locale?: Locale } = {}): SearchResult {
  const read = readQuery(text, options.locale ?? 'en', false);
  return read.ok ? { ok: true, search: read.search } : read;
}

type Read = { ok: true; search: TransactionSearch; page?: number; pageSize?: number } | { ok: false; problem: QueryProblem };

function readQuery(text: string, locale: Locale, paging: boolean): Read {
  const fail = (code: QueryProblemCode, word: string): Read => ({ ok: false, problem: { code, word } });
  if (text.length > MAX_QUERY_LENGTH) return fail('too_long', `${text.slice(0, 40)}…`);
  const tokens = tokenize(text);
  const search: TransactionSearch = {};
  const words: string[] = [];
  const numbers: string[] = [];
  let page: number | undefined;
  let pageSize: number | undefined;
  // Which token set each field, so that a second, different value is refused by name.
  const setBy = new Map<FilterField, string>();

  const set = (field: FilterField, value: string | number, token: string): QueryProblem | undefined => {
    const previous = setBy.get(field);
    const current = field === 'page' ? page : field === 'size' ? pageSize : search[field as keyof TransactionSearch];
    if (previous !== undefined && current !== value) return { code: 'repeated_filter', word: token };
    setBy.set(field, token);
    if (field === 'page') page = value as number;
    else if (field === 'size') pageSize = value as number;
    else (search as Record<string, unknown>)[field] = value;
    return undefined;
  };

  for (let index = 0; index < tokens.length; index += 1) {
    const token = tokens[index]!;
    if (token.phrase) {
      words.push(token.text);
      continue;
    }
    const folded = foldApostrophes(token.text);
    const lower = folded.toLowerCase();
    const direction = DIRECTION_WORDS[lower];
    if (direction) {
      const problem = set('direction', direction, token.text);
      if (problem) return { ok: false, problem };
      continue;
    }
    if (paging && /^\d+$/.test(lower)) {
      numbers.push(token.text);
      continue;
    }
    // `page 2` and `size 25`, as before filters existed.
    if (paging && (lower === 'page' || lower === 'size') && tokens[index + 1] && !tokens[index + 1]!.phrase) {
      const next = tokens[index + 1]!.text;
      index += 1;
      const problem = readPaging(lower, next, `${token.text} ${next}`, set);
      if (problem) return { ok: false, problem };
      continue;
    }
    const pair = filterPair(folded);
    if (!pair) {
      words.push(token.text);
      continue;
    }
    const { key, value } = pair;
    const field = FILTER_KEYS[key];
    if (!field || (!paging && (field === 'page' || field === 'size'))) return fail('unknown_filter', token.text);
    if (value === '') return fail('empty_value', token.text);
    if (value.length > MAX_VALUE_LENGTH) return fail('too_long', token.text);
    const problem = readField(field, value, token.text, locale, set);
    if (problem) return { ok: false, problem };
  }

  if (numbers.length > 2 || (numbers.length > 0 && (setBy.has('page') || setBy.has('size')))) {
    return fail('too_many_numbers', numbers.join(' '));
  }
  for (const [position, number] of numbers.entries()) {
    const problem = readPaging(position === 0 ? 'page' : 'size', number, number, set);
    if (problem) return { ok: false, problem };
  }
  if (words.length > 0) search.words = words;
  if (search.since && search.until && search.since > search.until) return fail('dates_reversed', `${search.since} > ${search.until}`);
  if (search.min && search.max && compareDecimals(search.min, search.max) > 0) return fail('amounts_reversed', `${search.min} > ${search.max}`);
  return { ok: true, search, ...(page !== undefined ? { page } : {}), ...(pageSize !== undefined ? { pageSize } : {}) };
}

type Setter = (field: FilterField, value: string | number, token: string) => QueryProblem | undefined;

function readPaging(field: 'page' | 'size', value: string, token: string, set: Setter): QueryProblem | undefined {
  const number = /^\d{1,6}$/.test(value) ? Number(value) : undefined;
  if (field === 'page') {
    if (number === undefined || number < 1 || number > MAX_PAGE) return { code: 'bad_page', word: token };
    return set('page', number, token);
  }
  if (number === undefined || number < 1 || number > MAX_PAGE_SIZE) return { code: 'bad_page_size', word: token };
  return set('size', number, token);
}

function readField(field: FilterField, value: string, token: string, locale: Locale, set: Setter): QueryProblem | undefined {
  switch (field) {
    case 'currency':
      if (!/^[A-Za-z]{3}$/.test(value)) return { code: 'bad_currency', word: token };
      return set('currency', value.toUpperCase(), token);
    case 'type':
    case 'status':
      return set(field, value, token);
    case 'direction': {
      const direction = DIRECTION_WORDS[value.toLowerCase()];
      if (!direction) return { code: 'unknown_filter', word: token };
      return set('direction', direction, token);
    }
    case 'since':
    case 'until':
      if (!isCalendarDay(value)) return { code: 'bad_date', word: token };
      return set(field, value, token);
    case 'min':
    case 'max': {
      const amount = readDecimal(value, locale);
      if (!amount.ok) return { code: amount.code, word: token };
      return set(field, amount.value, token);
    }
    case 'page':
    case 'size':
      return readPaging(field, value, token, set);
  }
}

/** An amount typed in a search, read by the same rules as a payout's amount (`money.readDecimal`). */
export function readDecimal(text: string, locale: Locale): { ok: true; value: string } | { ok: false; code: 'bad_amount' | 'ambiguous_amount' } {
  const read = readTypedDecimal(text, locale);
  if (read.ok) return read;
  return { ok: false, code: read.code === 'ambiguous' ? 'ambiguous_amount' : 'bad_amount' };
}

/** Compares two canonical decimals exactly. */
function compareDecimals(a: string, b: string): number {
  const [aWhole = '0', aFraction = ''] = a.split('.');
  const [bWhole = '0', bFraction = ''] = b.split('.');
  const width = Math.max(aFraction.length, bFraction.length);
  const left = BigInt(aWhole + aFraction.padEnd(width, '0'));
  const right = BigInt(bWhole + bFraction.padEnd(width, '0'));
  return left < right ? -1 : left > right ? 1 : 0;
}

/** True when the search narrows nothing. */
export function isEmptySearch(search: TransactionSearch): boolean {
  return Object.entries(search).every(([, value]) => value === undefined || (Array.isArray(value) && value.length === 0));
}

/**
 * The search written back as filter words, in a fixed order, with phrases quoted: parsing it gives
 * the same search. Button values carry this (and are read again, so a forged value is checked).
 */
export function searchToText(search: TransactionSearch): string {
  const parts: string[] = [];
  const value = (text: string) => (/[\s"“”„«»]/.test(text) ? `"${text.replace(/["“”„«»]/g, '')}"` : text);
  if (search.currency) parts.push(`currency:${search.currency}`);
  if (search.type) parts.push(`type:${value(search.type)}`);
  if (search.status) parts.push(`status:${value(search.status)}`);
  if (search.direction) parts.push(search.direction);
  if (search.since) parts.push(`since:${search.since}`);
  if (search.until) parts.push(`until:${search.until}`);
  if (search.min) parts.push(`min:${search.min}`);
  if (search.max) parts.push(`max:${search.max}`);
  for (const word of search.words ?? []) {
    // A word that would read as a filter or a number is quoted so that it stays a word.
    const plain =
      !/[\s"“”„«»]/.test(word) &&
      !/^\d+$/.test(word) &&
      !/^[\p{L}_'’‘`]+[:=]/u.test(word) &&
      !DIRECTION_WORDS[foldApostrophes(word).toLowerCase()] &&
      !['page', 'size'].includes(word.toLowerCase());
    parts.push(plain ? word : `"${word.replace(/["“”„«»]/g, '')}"`);
  }
  return parts.join(' ');
}

/** The store's filter for a search: days become instants in `timeZone` (IANA), `until` inclusive. */
export function ledgerFilterFor(search: TransactionSearch, timeZone: string): LedgerFilter {
  const filter: LedgerFilter = {};
  if (search.currency) filter.currency = search.currency;
  if (search.type) filter.type = search.type;
  if (search.status) filter.status = search.status;
  if (search.direction) filter.direction = search.direction;
  if (search.since) filter.since = startOfDay(search.since, timeZone);
  if (search.until) filter.before = startOfDay(nextDay(search.until), timeZone);
  if (search.min) filter.minAmount = search.min;
  if (search.max) filter.maxAmount = search.max;
  if (search.words && search.words.length > 0) filter.words = [...search.words];
  return filter;
}

/** What the Filter modal sends: each field as entered (absent when empty or "any"). */
export interface SearchFields {
  currency?: string;
  type?: string;
  direction?: string;
  since?: string;
  until?: string;
  min?: string;
  max?: string;
  /** Words, phrases and any filter words, read like `/fleet tx` text (without paging). */
  text?: string;
}

export type SearchFieldName = keyof SearchFields;
export type FieldsResult = { ok: true; search: TransactionSearch } | { ok: false; errors: Partial<Record<SearchFieldName, QueryProblem>> };

/**
 * A search from the Filter modal's fields: the text field is read first, then each field that is set
 * wins over the same filter typed in the text. Problems are returned per field, so that the modal
 * shows each under its own input.
 */
export function searchFromFields(fields: SearchFields, options: { locale?: Locale } = {}): FieldsResult {
  const locale = options.locale ?? 'en';
  const errors: Partial<Record<SearchFieldName, QueryProblem>> = {};
  let search: TransactionSearch = {};
  const text = fields.text?.trim();
  if (text) {
    const read = parseSearchText(text, { locale });
    if (read.ok) search = read.search;
    else errors.text = read.problem;
  }
  const currency = fields.currency?.trim();
  if (currency) {
    if (/^[A-Za-z]{3}$/.test(currency)) search.currency = currency.toUpperCase();
    else errors.currency = { code: 'bad_currency', word: currency };
  }
  const type = fields.type?.trim();
  if (type) search.type = type.slice(0, MAX_VALUE_LENGTH);
  const direction = fields.direction?.trim().toLowerCase();
  if (direction) {
    const read = DIRECTION_WORDS[direction];
    if (read) search.direction = read;
    else errors.direction = { code: 'unknown_filter', word: direction };
  }
  for (const field of ['since', 'until'] as const) {
    const day = fields[field]?.trim();
    if (!day) continue;
    if (isCalendarDay(day)) search[field] = day;
    else errors[field] = { code: 'bad_date', word: day };
  }
  for (const field of ['min', 'max'] as const) {
    const amount = fields[field]?.trim();
    if (!amount) continue;
    const read = readDecimal(amount, locale);
    if (read.ok) search[field] = read.value;
    else errors[field] = { code: read.code, word: amount };
  }
  if (!errors.since && !errors.until && search.since && search.until && search.since > search.until) {
    errors.until = { code: 'dates_reversed', word: `${search.since} > ${search.until}` };
  }
  if (!errors.min && !errors.max && search.min && search.max && compareDecimals(search.min, search.max) > 0) {
    errors.max = { code: 'amounts_reversed', word: `${search.min} > ${search.max}` };
  }
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  if (search.words?.length === 0) delete search.words;
  return { ok: true, search };
}

/**
 * A ledger filter as SQL conditions over ledger_entries. Each condition is written the way an index
 * of migration 026 (or 007) is declared, so that the planner can read matches in list order from it:
 * `currency = …`, `upper(type) = …`, `upper(status) = …`, `amount_minor > 0` / `< 0` (the partial
 * indexes of each direction), `abs(amount)` ranges, `entry_at` ranges and `words @> …` (GIN). The
 * word table's queries (word-search.ts) reuse the same conditions on the entry each posting names.
 */
import { normaliseWord, searchWords } from './identity.js';
import type { LedgerFilter } from './types.js';

const DECIMAL = /^\d+(\.\d+)?$/;

/** What a filter's words ask: words each entry must hold (`words`), and phrases its text must contain as written. */
export interface WordTerms {
  required: string[];
  phrases: string[];
}

/**
 * What a search matches: a word (no white space inside) matches an entry holding it among its words
 * (`searchWords`: lower case, without surrounding punctuation, whole chunks and their letter-and-digit
 * pieces). A phrase matches an entry holding each of its words whose reference and description,
 * lower-cased, contain the phrase as typed (trimmed, without its quotes). A word of punctuation only
 * (`&`) is checked like a phrase.
 */
export function wordTerms(filter: LedgerFilter): WordTerms {
  const required = new Set<string>();
  const phrases: string[] = [];
  for (const raw of filter.words ?? []) {
    // The parser hands phrases over without their quotes; quotes left on are not part of the text.
    const word = raw.trim().replace(/^"(.*)"$/su, '$1');
    const single = normaliseWord(word);
    const isPhrase = /\s/u.test(word.trim());
    if (!isPhrase && single !== '') {
      required.add(single);
      continue;
    }
    // A phrase (or a word of punctuation only): its words narrow through an index, the text itself is checked as written.
    for (const piece of searchWords(word)) required.add(piece);
    const text = word.trim().toLowerCase();
    if (text !== '') phrases.push(text);
  }
  return { required: [...required], phrases };
}

/** A parameter pusher: adds `value` to `params` and returns its placeholder. */
export function placeholder(params: unknown[]): (value: unknown) => string {
  return (value) => {
    params.push(value);
    return `$${params.length}`;
  };
}

/**
 * The filter's bounds on (entry_at, seq): its date range and `storedUpTo`. Written over the column
 * names that ledger_entries and ledger_words share, so that either table's list index reads them as a range.
 */
export function rangeConditions(filter: LedgerFilter, params: unknown[]): string[] {
  const add = placeholder(params);
  const where: string[] = [];
  if (filter.since !== undefined) where.push(`entry_at >= ${add(filter.since.toISOString())}::timestamptz`);
  if (filter.before !== undefined) where.push(`entry_at < ${add(filter.before.toISOString())}::timestamptz`);
  if (filter.storedUpTo !== undefined) where.push(`seq <= ${add(filter.storedUpTo)}`);
  return where;
}

/** A filter as SQL conditions over ledger_entries, with their parameters numbered from `params.length + 1`. */
export function filterConditions(filter: LedgerFilter, params: unknown[]): string[] {
  const where: string[] = [];
  const add = placeholder(params);
  if (filter.currency !== undefined) where.push(`currency = ${add(filter.currency.toUpperCase())}`);
  if (filter.type !== undefined) where.push(`upper(type) = ${add(filter.type.toUpperCase())}`);
  if (filter.status !== undefined) where.push(`upper(status) = ${add(filter.status.toUpperCase())}`);
  if (filter.direction === 'in') where.push('amount_minor > 0');
  if (filter.direction === 'out') where.push('amount_minor < 0');
  for (const [bound, operator] of [
    [filter.minAmount, '>='],
    [filter.maxAmount, '<='],
  ] as const) {
    if (bound === undefined) continue;
    if (!DECIMAL.test(bound)) throw new RangeError(`not a decimal amount: ${JSON.stringify(bound)}`);
    where.push(`abs(amount) ${operator} ${add(bound)}::numeric`);
  }
  const { required, phrases } = wordTerms(filter);
  for (const text of phrases) where.push(`strpos(lower(reference || ' ' || description), ${add(text)}) > 0`);
  if (required.length > 0) where.push(`words @> ${add(required)}::text[]`);
  where.push(...rangeConditions(filter, params));
  return where;
}

export const whereClause = (conditions: string[]) => (conditions.length > 0 ? `WHERE ${conditions.join(' AND ')}` : '');

/**
 * A ledger filter as SQL conditions over ledger_entries. Each condition is written the way an index
 * of migration 026 (or 007) is declared, so that the planner can read matches in list order from it:
 * `currency = …`, `upper(type) = …`, `upper(status) = …`, `amount_minor > 0` / `< 0` (the partial
 * indexes of each direction), `abs(amount)` ranges, `entry_at` ranges and `words @> …` (GIN).
 */
import { normaliseWord, searchWords } from './identity.js';
import type { LedgerFilter } from './types.js';

const DECIMAL = /^\d+(\.\d+)?$/;

/** A filter as SQL conditions over ledger_entries, with their parameters numbered from `params.length + 1`. */
export function filterConditions(filter: LedgerFilter, params: unknown[]): string[] {
  const where: string[] = [];
  const add = (value: unknown) => {
    params.push(value);
    return `$${params.length}`;
  };
  if (filter.currency !== undefined) where.push(`currency = ${add(filter.currency.toUpperCase())}`);
  if (filter.type !== undefined) where.push(`upper(type) = ${add(filter.type.toUpperCase())}`);
  if (filter.status !== undefined) where.push(`upper(status) = ${add(filter.status.toUpperCase())}`);
  if (filter.direction === 'in') where.push('amount_minor > 0');
  if (filter.direction === 'out') where.push('amount_minor < 0');
  if (filter.since !== undefined) where.push(`entry_at >= ${add(filter.since.toISOString())}::timestamptz`);
  if (filter.before !== undefined) where.push(`entry_at < ${add(filter.before.toISOString())}::timestamptz`);
  for (const [bound, operator] of [[filter.minAmount, '>='], [filter.maxAmount, '<=']] as const) {
    if (bound === undefined) continue;
    if (!DECIMAL.test(bound)) throw new RangeError(`not a decimal amount: ${JSON.stringify(bound)}`);
    where.push(`abs(amount) ${operator} ${add(bound)}::numeric`);
  }
  const required = new Set<string>();
  for (const raw of filter.words ?? []) {
    // The parser hands phrases over without their quotes; quotes left on are not part of the text.
    const word = raw.trim().replace(/^"(.*)"$/su, '$1');
    const single = normaliseWord(word);
    const isPhrase = /\s/u.test(word.trim());
    if (!isPhrase && single !== '') {
      required.add(single);
      continue;
    }
    // A phrase (or a word of punctuation only): its words narrow through the index, the text itself is checked as written.
    for (const piece of searchWords(word)) required.add(piece);
    const text = word.trim().toLowerCase();
    if (text !== '') where.push(`strpos(lower(reference || ' ' || description), ${add(text)}) > 0`);
  }
  if (required.size > 0) where.push(`words @> ${add([...required])}::text[]`);
  if (filter.storedUpTo !== undefined) where.push(`seq <= ${add(filter.storedUpTo)}`);
  return where;
}

export const whereClause = (conditions: string[]) => (conditions.length > 0 ? `WHERE ${conditions.join(' AND ')}` : '');


/**
 * What identifies a ledger entry, and the words it is found by.
 *
 * The Fleet API gives transactions no id and does not promise unique references, so an entry is
 * identified by its reference, its date (to the millisecond), its amount in minor units and its
 * currency, plus an occurrence number: when one page of the API holds several entries identical in
 * all four, they are occurrences 1, 2, … of that identity. The ledger keeps, for each identity, as
 * many occurrences as the most it ever saw on one page; readers start each page again at the first
 * entry sharing the previous page's last millisecond, so identical entries are always counted
 * together on one page (up to a page's size).
 */
import type { Transaction } from '../fleet/schemas.js';
import { toMinor } from '../core/money.js';

export interface IdentifiedEntry {
  key: string;
  occurrence: number;
  transaction: Transaction;
  amountMinor: number;
  entryMs: number;
}

export function entryMs(tx: Transaction): number {
  return Date.parse(tx.date);
}

/** The identity without its occurrence: equal for entries that cannot be told apart. */
function baseIdentity(tx: Transaction): string {
  return [tx.reference, new Date(entryMs(tx)).toISOString(), String(toMinor(tx.amount, tx.currency)), tx.currency].join('|');
}

/** Keys for one page of the API, in the page's order; identical entries on the page are numbered 1, 2, … */
export function identifyPage(page: readonly Transaction[]): IdentifiedEntry[] {
  const seen = new Map<string, number>();
  return page.map((transaction) => {
    const base = baseIdentity(transaction);
    const occurrence = (seen.get(base) ?? 0) + 1;
    seen.set(base, occurrence);
    return {
      key: `${base}#${occurrence}`,
      occurrence,
      transaction,
      amountMinor: toMinor(transaction.amount, transaction.currency),
      entryMs: entryMs(transaction),
    };
  });
}

/**
 * How many entries at the end of a page share its last entry's millisecond: the next page starts
 * again at the first of them (so that identical entries are counted on one page), unless the whole
 * page is one millisecond, when it moves on by the full page.
 */
export function trailingSameMillisecond(page: readonly Transaction[]): number {
  const last = page.at(-1);
  if (!last) return 0;
  const ms = entryMs(last);
  let count = 0;
  for (let index = page.length - 1; index >= 0 && entryMs(page[index] as Transaction) === ms; index -= 1) count += 1;
  return count === page.length ? 0 : count;
}

// Letters and digits of any script; everything else separates words.
const SEPARATOR = /[^\p{L}\p{N}]+/u;

/**
 * The words an entry is found by: each whitespace-separated chunk of its reference and description,
 * lower-cased and stripped of surrounding punctuation (`inv-42`), and the letter-and-digit pieces of
 * that chunk (`inv`, `42`). A search word matches an entry when it equals one of them.
 */
export function searchWords(...texts: string[]): string[] {
  const words = new Set<string>();
  for (const text of texts) {
    for (const chunk of text.toLowerCase().split(/\s+/u)) {
      const trimmed = normaliseWord(chunk);
      if (trimmed === '') continue;
      words.add(trimmed);
      for (const piece of trimmed.split(SEPARATOR)) if (piece !== '') words.add(piece);
    }
  }
  return [...words];
}

/** A search word as the index holds it: lower case, without surrounding punctuation. */
export function normaliseWord(word: string): string {
  return word.toLowerCase().replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '');
}

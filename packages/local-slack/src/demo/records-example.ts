/**
 * The demo's example records file for `/fleet reconcile`: the partner's own books of the two days
 * before today (UTC days, the demo's LEDGER_TIMEZONE), written from the sandbox's transactions, so
 * that a first check matches nearly every record and shows one exception of each kind: an amount
 * typed differently, a bank charge the fleet account never saw, and a ledger entry left out of the
 * books. The same transactions and day give the same file.
 */
import { amountNoEntryHas, exampleDays, periodEntries, type PeriodEntry } from './example-period.js';
import { minorToPlain, type Transaction } from './product.js';

export const RECORDS_EXAMPLE_NAME = 'records.csv';

/** The bank charge the ledger lacks: USD 12.50 out, moved by a cent until no entry near it has that amount. */
const CHARGE_MINOR = -1250;

/** The two UTC days before `now`'s, oldest first: the period of every example file. */
export const recordsExampleDays = exampleDays;

/** The partner's own words for an entry: they book by what the money was for, not by the API's description. */
function noteFor(entry: PeriodEntry): string {
  if (entry.transaction.type === 'B2B_JIT_FUNDING') return 'Card spend';
  return entry.minor > 0 ? 'Driver wallet withdrawal' : 'Payout to a driver';
}

const cell = (text: string) => (/[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text);

/**
 * The file's text. `transactions` as the sandbox lists them (any order). Records without a reference
 * (every fourth, when its amount is the only one of its kind those days) match by amount and day;
 * some give a time, some leave the direction to the sign.
 */
export function recordsExample(transactions: readonly Transaction[], now: Date): string {
  const days = exampleDays(now);
  const entries = periodEntries(transactions, now);
  const amountCount = new Map<string, number>();
  for (const entry of entries)
    amountCount.set(`${entry.transaction.currency}:${entry.minor}`, (amountCount.get(`${entry.transaction.currency}:${entry.minor}`) ?? 0) + 1);

  const leftOut = entries[1];
  const typedDifferently = entries[3];
  const rows: string[] = ['reference,date,amount,currency,direction,note'];
  for (const [index, entry] of entries.entries()) {
    if (entry === leftOut) continue;
    const { transaction } = entry;
    const minor = entry === typedDifferently ? entry.minor + (entry.minor < 0 ? -100 : 100) : entry.minor;
    const unique = amountCount.get(`${transaction.currency}:${entry.minor}`) === 1;
    const reference = index % 4 === 2 && unique && entry !== typedDifferently ? '' : transaction.reference;
    const date = index % 3 === 0 ? `${entry.day} ${transaction.date.slice(11, 16)}` : entry.day;
    // Most rows say the direction with an unsigned amount; every fifth leaves it to the sign.
    const signed = index % 5 === 4;
    const amount = minorToPlain(signed ? minor : Math.abs(minor), transaction.currency);
    const direction = signed ? '' : minor < 0 ? 'out' : 'in';
    const note = entry === typedDifferently ? `${noteFor(entry)} (amount as our books have it)` : noteFor(entry);
    rows.push([reference, date, amount, transaction.currency, direction, note].map(cell).join(','));
  }
  // Not an amount of any USD entry, so that it matches none whatever the day.
  const charge = amountNoEntryHas(CHARGE_MINOR, 'USD', transactions);
  rows.push(['', days[1], minorToPlain(Math.abs(charge), 'USD'), 'USD', 'out', 'Bank charges, not yet in the fleet account'].map(cell).join(','));
  return `${rows.join('\r\n')}\r\n`;
}

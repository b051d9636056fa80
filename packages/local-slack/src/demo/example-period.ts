/**
 * What the demo's example files share: the period they cover (the two UTC days before today, the
 * demo's LEDGER_TIMEZONE), the sandbox's transactions of that period in one order, amounts written
 * as an export writes them, and the bytes of the two one-byte-per-character and UTF-16 encodings.
 */
import { minorToPlain, toMinor, type Transaction } from './product.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/** A sandbox transaction of the period, with its signed minor amount, UTC day and instant. */
export interface PeriodEntry {
  transaction: Transaction;
  minor: number;
  day: string;
  at: number;
}

/** The two UTC days before `now`'s, oldest first. */
export function exampleDays(now: Date): [string, string] {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return [new Date(today - 2 * DAY_MS).toISOString().slice(0, 10), new Date(today - DAY_MS).toISOString().slice(0, 10)];
}

/** The day after `day` (YYYY-MM-DD). */
export function nextDay(day: string): string {
  return new Date(Date.parse(`${day}T00:00:00.000Z`) + DAY_MS).toISOString().slice(0, 10);
}

/** `transactions` (any order) dated in the period, oldest first, then by reference. */
export function periodEntries(transactions: readonly Transaction[], now: Date): PeriodEntry[] {
  const days = exampleDays(now);
  return transactions
    .map((transaction) => ({
      transaction,
      minor: toMinor(transaction.amount, transaction.currency),
      day: transaction.date.slice(0, 10),
      at: Date.parse(transaction.date),
    }))
    .filter((entry) => days.includes(entry.day))
    .sort((a, b) => a.transaction.date.localeCompare(b.transaction.date) || a.transaction.reference.localeCompare(b.transaction.reference));
}

/** `minor`, moved by one minor unit away from zero until no transaction of `currency` has that amount: a record that matches none. */
export function amountNoEntryHas(minor: number, currency: string, transactions: readonly Transaction[]): number {
  const taken = new Set(transactions.filter((transaction) => transaction.currency === currency).map((transaction) => toMinor(transaction.amount, currency)));
  let amount = minor;
  while (taken.has(amount)) amount += amount < 0 ? -1 : 1;
  return amount;
}

export interface WrittenNumbers {
  decimalMark: '.' | ',';
  grouping: 'none' | ',' | '.' | ' ';
}

/** `minor` as an export writes it: `-1,234.50`, `1 234,50`; a minus only when negative. */
export function writeAmount(minor: number, currency: string, numbers: WrittenNumbers): string {
  const [whole = '0', fraction] = minorToPlain(Math.abs(minor), currency).split('.');
  const grouped = numbers.grouping === 'none' ? whole : whole.replace(/\B(?=(\d{3})+$)/g, numbers.grouping);
  return `${minor < 0 ? '-' : ''}${grouped}${fraction === undefined ? '' : `${numbers.decimalMark}${fraction}`}`;
}

/** A cell, quoted when it holds the delimiter, a quote or a line break. */
export function writeCell(text: string, delimiter: string): string {
  return text.includes(delimiter) || /["\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** Windows-1252's characters at 0x80–0x9F that the examples write. */
const WINDOWS_1252_HIGH = new Map([
  ['€', 0x80],
  ['’', 0x92],
  ['•', 0x95],
  ['–', 0x96],
  ['—', 0x97],
]);

/** `text` in Windows-1252; throws on a character the encoding lacks, so that an example never writes a `?`. */
export function windows1252(text: string): Uint8Array {
  const bytes = new Uint8Array(text.length);
  for (let index = 0; index < text.length; index++) {
    const char = text[index] ?? '';
    const code = char.charCodeAt(0);
    const byte = code < 0x80 || (code >= 0xa0 && code <= 0xff) ? code : WINDOWS_1252_HIGH.get(char);
    if (byte === undefined) throw new Error(`Windows-1252 has no ${JSON.stringify(char)}`);
    bytes[index] = byte;
  }
  return bytes;
}

/** `text` in UTF-16 little-endian after its byte-order mark, as spreadsheet and accounting programs write "Unicode text". */
export function utf16le(text: string): Uint8Array {
  const body = Buffer.from(text, 'utf16le');
  const bytes = new Uint8Array(body.length + 2);
  bytes.set([0xff, 0xfe]);
  bytes.set(body, 2);
  return bytes;
}

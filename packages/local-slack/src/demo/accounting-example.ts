/**
 * The demo's example accounting export (profile: ACCOUNTING_EXPORT_PROFILE): the fleet account's
 * register in the partner's accounting system for the period of the example records, saved as
 * "Unicode text": UTF-16 with its byte-order mark, tabs, US dates, one signed amount with thousands
 * grouped by commas. Every transaction of the sandbox in those days is a row with its reference and
 * amount; the third was booked a day late (its day moved, still within the match's tolerance), and a
 * journal entry for the bank's service charge has no counterpart in the fleet account.
 */
import { amountNoEntryHas, exampleDays, nextDay, periodEntries, utf16le, writeAmount, writeCell, type PeriodEntry } from './example-period.js';
import type { Transaction } from './product.js';

export const ACCOUNTING_EXPORT_NAME = 'accounting-export.txt';

/** The bank's service charge booked by journal entry (USD 12.00 out), moved by a cent until no USD transaction has that amount. */
const SERVICE_CHARGE_MINOR = -1200;
/** The row booked a day after the fleet account's day. */
const BOOKED_LATE = 2;
const NUMBERS = { decimalMark: '.', grouping: ',' } as const;

interface RegisterRow {
  day: string;
  type: string;
  num: string;
  description: string;
  memo: string;
  minor: number;
  currency: string;
}

const usDay = (day: string) => `${day.slice(5, 7)}/${day.slice(8, 10)}/${day.slice(0, 4)}`;

function describe(entry: PeriodEntry): Pick<RegisterRow, 'type' | 'description' | 'memo'> {
  const { transaction } = entry;
  if (transaction.type === 'B2B_JIT_FUNDING') {
    const merchant = transaction.description.split(' — ').slice(1).join(' — ') || transaction.description;
    return { type: 'Expense', description: `Card purchase — ${merchant}`, memo: 'Card spend funded from the fleet account' };
  }
  return entry.minor > 0
    ? { type: 'Deposit', description: 'Fleet account — wallet withdrawal', memo: 'Driver wallet withdrawal' }
    : { type: 'Check', description: 'Fleet account — payment', memo: 'Payment to a customer' };
}

/** The register's rows by day, as the accounting system sorts them (rows of one day in the fleet account's order). */
function registerRows(transactions: readonly Transaction[], now: Date): RegisterRow[] {
  const rows = periodEntries(transactions, now).map((entry, index): RegisterRow => {
    const late = index === BOOKED_LATE;
    const written = describe(entry);
    return {
      day: late ? nextDay(entry.day) : entry.day,
      ...written,
      num: entry.transaction.reference,
      memo: late ? `${written.memo}, booked on receipt of the bank statement` : written.memo,
      minor: entry.minor,
      currency: entry.transaction.currency,
    };
  });
  rows.push({
    day: exampleDays(now)[1],
    type: 'Journal Entry',
    num: '',
    description: 'Bank service charge',
    memo: 'Monthly fee on the settlement account',
    minor: amountNoEntryHas(SERVICE_CHARGE_MINOR, 'USD', transactions),
    currency: 'USD',
  });
  // Sort is stable: rows of one day keep their order.
  return rows.sort((a, b) => a.day.localeCompare(b.day));
}

/** The export's bytes: UTF-16 little-endian with its byte-order mark. */
export function accountingExportExample(transactions: readonly Transaction[], now: Date): Uint8Array {
  const lines = [
    ['Date', 'Transaction Type', 'Num', 'Description', 'Memo', 'Amount', 'Currency'].join('\t'),
    ...registerRows(transactions, now).map((row) =>
      [usDay(row.day), row.type, row.num, row.description, row.memo, writeAmount(row.minor, row.currency, NUMBERS), row.currency]
        .map((cell) => writeCell(cell, '\t'))
        .join('\t'),
    ),
  ];
  return utf16le(`${lines.join('\r\n')}\r\n`);
}

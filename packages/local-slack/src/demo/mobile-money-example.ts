/**
 * The demo's example mobile-money statement (profile: MOBILE_MONEY_PROFILE): the partner's business
 * account statement for the period of the example records, as an East or Southern African provider
 * writes it: newest first, times on Kinshasa's clock, an unsigned amount with its direction, a
 * status and a currency. Every transaction of the sandbox in those days is a row with its reference
 * and amount, with three rows the reconcile does not count as they are: a payout that failed once
 * before it went through (same reference, Failed), the newest transaction still Pending when the
 * statement was taken, and the provider's own charge, which the fleet account never saw.
 */
import { amountNoEntryHas, exampleDays, periodEntries, writeAmount, writeCell, type PeriodEntry } from './example-period.js';
import type { Transaction } from './product.js';

export const MOBILE_MONEY_STATEMENT_NAME = 'mobile-money-statement.csv';

/** Where the provider's clock is. */
const PROVIDER_ZONE = 'Africa/Kinshasa';
/** The provider's charge on the business account (USD 0.50 out), moved by a cent until no USD transaction has that amount. */
const ACCOUNT_CHARGE_MINOR = -50;
/** The failed attempt came this long before the payout that went through. */
const RETRY_AFTER_MS = 3 * 60_000;
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const NUMBERS = { decimalMark: '.', grouping: ',' } as const;

interface StatementRow {
  at: number;
  reference: string;
  details: string;
  status: 'Completed' | 'Failed' | 'Pending';
  minor: number;
  currency: string;
}

const clock = new Intl.DateTimeFormat('en-US', {
  timeZone: PROVIDER_ZONE,
  year: 'numeric',
  month: 'numeric',
  day: 'numeric',
  hour: 'numeric',
  minute: 'numeric',
  hourCycle: 'h23',
});

/** `05-Nov-2026 14:05`, on the provider's clock. */
function providerTime(at: number): string {
  const parts = Object.fromEntries(clock.formatToParts(at).map((part) => [part.type, part.value]));
  const two = (value: string | undefined) => (value ?? '').padStart(2, '0');
  return `${two(parts.day)}-${MONTHS[Number(parts.month) - 1] ?? ''}-${parts.year ?? ''} ${two(parts.hour)}:${two(parts.minute)}`;
}

function detailsFor(entry: PeriodEntry): string {
  const { transaction } = entry;
  if (transaction.type === 'B2B_JIT_FUNDING') return `Card funding — ${transaction.description.split(' — ').slice(1).join(' — ') || transaction.description}`;
  return entry.minor > 0 ? 'Fleet payout received — wallet withdrawal' : 'Business payment to customer';
}

/** The statement's rows, newest first. */
function statementRows(transactions: readonly Transaction[], now: Date): StatementRow[] {
  const entries = periodEntries(transactions, now);
  const pending = entries[entries.length - 1];
  const retried = entries.find((entry) => entry.minor > 0 && entry !== pending);
  const rows: StatementRow[] = [];
  for (const entry of entries) {
    const row = {
      at: entry.at,
      reference: entry.transaction.reference,
      details: detailsFor(entry),
      minor: entry.minor,
      currency: entry.transaction.currency,
    };
    rows.push({ ...row, status: entry === pending ? 'Pending' : 'Completed' });
    if (entry === retried) rows.push({ ...row, at: entry.at - RETRY_AFTER_MS, status: 'Failed' });
  }
  const lastDay = exampleDays(now)[1];
  rows.push({
    // 17:00 in Kinshasa.
    at: Date.parse(`${lastDay}T16:00:00.000Z`),
    reference: `CHG${lastDay.replace(/-/g, '')}`,
    details: 'Business account charge',
    status: 'Completed',
    minor: amountNoEntryHas(ACCOUNT_CHARGE_MINOR, 'USD', transactions),
    currency: 'USD',
  });
  // Newest first; rows of the same minute keep their order reversed too, as the provider lists them.
  return rows
    .map((row, index) => ({ row, index }))
    .sort((a, b) => b.row.at - a.row.at || b.index - a.index)
    .map(({ row }) => row);
}

/** The statement's text (UTF-8). */
export function mobileMoneyStatementExample(transactions: readonly Transaction[], now: Date): string {
  const lines = [
    'Receipt No.,Completion Time,Details,Transaction Status,Direction,Amount,Currency',
    ...statementRows(transactions, now).map((row) =>
      [
        row.reference,
        providerTime(row.at),
        row.details,
        row.status,
        row.minor < 0 ? 'Debit' : 'Credit',
        writeAmount(Math.abs(row.minor), row.currency, NUMBERS),
        row.currency,
      ]
        .map((cell) => writeCell(cell, ','))
        .join(','),
    ),
  ];
  return `${lines.join('\r\n')}\r\n`;
}

/**
 * The demo's three example exports (bank statement, mobile-money statement, accounting export):
 * each read through its profile gives exactly the sandbox's transactions of the period, as each
 * file's source writes them, in the encoding it claims; docs/examples holds the files a demo started
 * on 2026-11-05 offers.
 */
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { accountingExportExample } from '../../src/demo/accounting-example.js';
import { bankStatementExample } from '../../src/demo/bank-statement-example.js';
import { ACCOUNTING_EXPORT_PROFILE, BANK_STATEMENT_PROFILE, MOBILE_MONEY_PROFILE } from '../../src/demo/example-profiles.js';
import { mobileMoneyStatementExample } from '../../src/demo/mobile-money-example.js';
import { recordsExampleDays } from '../../src/demo/records-example.js';
import { toMinor } from '../../../../src/core/money.js';
import type { Transaction } from '../../../../src/fleet/schemas.js';
import { matchRecords, type LedgerCandidate } from '../../../../src/partner-records/match.js';
import { IMPORT_PROFILE, type ImportProfile } from '../../../../src/partner-records/profile.js';
import { readWithProfile, type ProfileRecord } from '../../../../src/partner-records/profile-reader.js';
import { dayGrid } from '../../../../src/partner-records/service.js';
import { startSandbox } from '../../../../src/sandbox/server.js';

/** The moment the files in docs/examples were written for. */
const DOCS_EXAMPLE_NOW = new Date('2026-11-05T09:00:00.000Z');
const NOWS = ['2026-11-05T09:00:00.000Z', '2026-11-28T21:40:00.000Z', '2027-02-01T00:10:00.000Z'].map((now) => new Date(now));
const LIMITS = { maxBytes: 1_000_000, maxRows: 1_000, timeZone: 'UTC', currencies: new Set(['USD', 'EUR', 'CDF']) };

/** The sandbox's transactions at `now`, newest first as the API lists them. */
async function sandboxTransactions(now: Date): Promise<Transaction[]> {
  const sandbox = await startSandbox({ clock: { now: () => now, sleep: async () => undefined } });
  try {
    return sandbox.transactions();
  } finally {
    await sandbox.close();
  }
}

interface Expected {
  reference: string;
  day: string;
  amountMinor: number;
  currency: string;
}

const minorOf = (tx: Transaction) => toMinor(tx.amount, tx.currency);
const expected = (tx: Transaction): Expected => ({ reference: tx.reference, day: tx.date.slice(0, 10), amountMinor: minorOf(tx), currency: tx.currency });

/** The period's transactions, oldest first (then by reference). */
function oldestFirst(transactions: readonly Transaction[], now: Date): Transaction[] {
  const days = recordsExampleDays(now);
  return transactions
    .filter((tx) => days.includes(tx.date.slice(0, 10)))
    .sort((a, b) => a.date.localeCompare(b.date) || a.reference.localeCompare(b.reference));
}

/** `minor`, moved away from zero until no transaction of `currency` has it. */
function amountNoneHas(minor: number, currency: string, transactions: readonly Transaction[]): number {
  let amount = minor;
  while (transactions.some((tx) => tx.currency === currency && minorOf(tx) === amount)) amount -= 1;
  return amount;
}

async function read(content: Uint8Array | string, profile: ImportProfile) {
  const reading = await readWithProfile(content, profile, LIMITS);
  if (!reading.ok) throw new Error(`the example does not read: ${JSON.stringify(reading.problem)}`);
  expect(reading.problems).toEqual([]);
  return reading;
}

const written = ({ row, reference, day, amountMinor, currency }: ProfileRecord) => ({ row, reference, day, amountMinor, currency });
const numbered = (rows: Expected[], firstRow: number) => rows.map((row, index) => ({ row: firstRow + index, ...row }));

/** What a first `/fleet reconcile` finds, the ledger holding every one of `transactions` (UTC days, one day of tolerance, as in the demo). */
async function reconcile(records: ProfileRecord[], transactions: readonly Transaction[]) {
  const grid = await dayGrid(records, 1, 'UTC');
  const entries: LedgerCandidate[] = transactions
    .map((tx) => ({
      key: tx.reference,
      reference: tx.reference,
      partnerReference: undefined,
      amountMinor: minorOf(tx),
      currency: tx.currency,
      at: Date.parse(tx.date),
      date: tx.date,
      description: tx.description,
    }))
    .filter((entry) => entry.at >= grid.starts[0]! && entry.at < grid.starts[grid.starts.length - 1]!)
    .sort((a, b) => a.at - b.at);
  return matchRecords({ records, windowEntries: entries, referencedEntries: [], grid, toleranceDays: 1, ledgerComplete: true });
}

describe("the demo's example exports", () => {
  it('keeps each profile as plain JSON that the import profile schema accepts as it is', () => {
    for (const profile of [BANK_STATEMENT_PROFILE, MOBILE_MONEY_PROFILE, ACCOUNTING_EXPORT_PROFILE]) {
      const stored: unknown = JSON.parse(JSON.stringify(profile));
      expect(IMPORT_PROFILE.parse(stored)).toEqual(profile);
    }
  });

  it('reads each example export exactly: the bank statement gives every USD transaction, the first credit as transfer, commission and VAT', async () => {
    for (const now of NOWS) {
      const transactions = await sandboxTransactions(now);
      const usd = oldestFirst(transactions, now).filter((tx) => tx.currency === 'USD');
      const grouped = usd.find((tx) => minorOf(tx) > 0)!;
      const lastDay = recordsExampleDays(now)[1];
      const rows = usd.flatMap((tx): Expected[] =>
        tx === grouped
          ? [
              { ...expected(tx), amountMinor: minorOf(tx) + 580 },
              { ...expected(tx), amountMinor: -500 },
              { ...expected(tx), amountMinor: -80 },
            ]
          : [expected(tx)],
      );
      rows.push({ reference: `FTC${lastDay.replace(/-/g, '')}`, day: lastDay, amountMinor: amountNoneHas(-1500, 'USD', transactions), currency: 'USD' });

      const reading = await read(bankStatementExample(transactions, now), BANK_STATEMENT_PROFILE);
      // Two title lines and the header above: the first record is the spreadsheet's row 4.
      expect(reading.records.map(written), now.toISOString()).toEqual(numbered(rows, 4));
      expect(reading.leftOut).toEqual([]);
      expect(reading.records.filter((record) => record.reference === grouped.reference).reduce((sum, record) => sum + record.amountMinor, 0)).toBe(
        minorOf(grouped),
      );
      expect(reading.records.filter((record) => record.reference === grouped.reference).map((record) => record.description)).toEqual([
        'Virement reçu — retrait de portefeuille',
        'Commission sur virement reçu',
        'TVA 16 % sur commission',
      ]);
    }
  });

  it('reads each example export exactly: the mobile-money statement counts its Completed rows and leaves out the Failed and the Pending one', async () => {
    for (const now of NOWS) {
      const transactions = await sandboxTransactions(now);
      const days = recordsExampleDays(now);
      // Newest first, as the sandbox lists them and the provider writes them.
      const period = transactions.filter((tx) => days.includes(tx.date.slice(0, 10)));
      const pending = period[0]!;
      const retried = oldestFirst(transactions, now).find((tx) => minorOf(tx) > 0 && tx !== pending)!;
      const charge = { reference: `CHG${days[1].replace(/-/g, '')}`, day: days[1], amountMinor: amountNoneHas(-50, 'USD', transactions), currency: 'USD' };
      const chargeAt = Date.parse(`${days[1]}T16:00:00.000Z`);
      const lines: Array<Expected & { status: string; at: number }> = [];
      for (const tx of period) {
        if (chargeAt > Date.parse(tx.date) && !lines.some((line) => line.reference === charge.reference))
          lines.push({ ...charge, status: 'Completed', at: chargeAt });
        lines.push({ ...expected(tx), status: tx === pending ? 'Pending' : 'Completed', at: Date.parse(tx.date) });
        if (tx === retried) lines.push({ ...expected(tx), status: 'Failed', at: Date.parse(tx.date) - 180_000 });
      }
      const rows = lines.map((line, index) => ({ ...line, row: index + 2 }));

      const reading = await read(mobileMoneyStatementExample(transactions, now), MOBILE_MONEY_PROFILE);
      expect(reading.records.map(written), now.toISOString()).toEqual(
        rows
          .filter((line) => line.status === 'Completed')
          .map(({ row, reference, day, amountMinor, currency }) => ({ row, reference, day, amountMinor, currency })),
      );
      expect(reading.leftOut).toEqual([
        { row: rows.find((line) => line.status === 'Pending')!.row, status: 'Pending' },
        { row: rows.find((line) => line.status === 'Failed')!.row, status: 'Failed' },
      ]);
      // Written to the minute on Kinshasa's clock, read back to the same instant.
      expect(reading.records.map((record) => record.at)).toEqual(
        rows.filter((line) => line.status === 'Completed').map((line) => Math.floor(line.at / 60_000) * 60_000),
      );
    }
  });

  it('reads each example export exactly: the accounting export gives every transaction, one booked a day late, and a journal entry', async () => {
    for (const now of NOWS) {
      const transactions = await sandboxTransactions(now);
      const lastDay = recordsExampleDays(now)[1];
      const rows = oldestFirst(transactions, now).map((tx, index) => {
        const row = expected(tx);
        if (index !== 2) return row;
        const late = new Date(Date.parse(`${row.day}T00:00:00.000Z`) + 86_400_000).toISOString().slice(0, 10);
        return { ...row, day: late };
      });
      rows.push({ reference: '', day: lastDay, amountMinor: amountNoneHas(-1200, 'USD', transactions), currency: 'USD' });
      rows.sort((a, b) => a.day.localeCompare(b.day));

      const reading = await read(accountingExportExample(transactions, now), ACCOUNTING_EXPORT_PROFILE);
      expect(reading.records.map(written), now.toISOString()).toEqual(numbered(rows, 2));
      expect(reading.leftOut).toEqual([]);
      expect(reading.records.find((record) => record.reference === '')).toMatchObject({
        description: 'Bank service charge',
        note: 'Monthly fee on the settlement account',
      });
    }
  });

  it('writes the bank statement in Windows-1252 and the accounting export in UTF-16 LE with its byte-order mark', async () => {
    const transactions = await sandboxTransactions(DOCS_EXAMPLE_NOW);
    const bank = Buffer.from(bankStatementExample(transactions, DOCS_EXAMPLE_NOW));
    expect(bank.includes(Buffer.from('Virement re\u00e7u', 'latin1'))).toBe(true);
    expect(bank.includes(Buffer.from('Frais de tenue', 'latin1'))).toBe(true);
    // The em dash is Windows-1252's 0x97, which ISO-8859-1 lacks.
    expect(bank.includes(Buffer.from([0x20, 0x97, 0x20]))).toBe(true);
    expect(bank.includes(0)).toBe(false);
    expect(() => new TextDecoder('utf-8', { fatal: true }).decode(bank)).toThrow();
    expect(await readWithProfile(bank, { ...BANK_STATEMENT_PROFILE, encoding: 'utf-8' }, LIMITS)).toEqual({
      ok: false,
      problem: { code: 'file_encoding', encoding: 'utf-8' },
    });

    const accounting = Buffer.from(accountingExportExample(transactions, DOCS_EXAMPLE_NOW));
    expect([...accounting.subarray(0, 8)]).toEqual([0xff, 0xfe, 0x44, 0x00, 0x61, 0x00, 0x74, 0x00]);
    expect(accounting.length % 2).toBe(0);
    expect(accounting.subarray(2).toString('utf16le').split('\r\n')[0]).toBe('Date\tTransaction Type\tNum\tDescription\tMemo\tAmount\tCurrency');

    const mobile = Buffer.from(mobileMoneyStatementExample(transactions, DOCS_EXAMPLE_NOW), 'utf8');
    expect(new TextDecoder('utf-8', { fatal: true }).decode(mobile)).toContain('Card funding — ');
  });

  it("reconciles the bank statement, its transfer, commission and VAT matching the fleet account's credit by their sum", async () => {
    for (const now of NOWS) {
      const transactions = await sandboxTransactions(now);
      const grouped = oldestFirst(transactions, now).find((tx) => tx.currency === 'USD' && minorOf(tx) > 0)!;
      const records = (await read(bankStatementExample(transactions, now), BANK_STATEMENT_PROFILE)).records;
      const bank = await reconcile(records, transactions);
      expect(
        bank.bySum.map((group) => [group.reference, group.entry.reference, group.records.length]),
        now.toISOString(),
      ).toEqual([[grouped.reference, grouped.reference, 3]]);
      expect(bank.matched).toHaveLength(records.length - 1);
      expect(bank.notInLedger.map((record) => record.reference)).toEqual([`FTC${recordsExampleDays(now)[1].replace(/-/g, '')}`]);
      expect(bank.differences).toEqual([]);
      // The statement is the USD account's: the other currencies' entries are not in it.
      expect(bank.notInRecords.every((entry) => entry.currency !== 'USD')).toBe(true);
    }
  });

  it('reconciles the mobile-money statement and the accounting export but for their honest exceptions', async () => {
    for (const now of NOWS) {
      const transactions = await sandboxTransactions(now);
      const lastDay = recordsExampleDays(now)[1].replace(/-/g, '');
      const mobileRecords = (await read(mobileMoneyStatementExample(transactions, now), MOBILE_MONEY_PROFILE)).records;
      const mobile = await reconcile(mobileRecords, transactions);
      expect(mobile.matched).toHaveLength(mobileRecords.length - 1);
      expect(mobile.notInLedger.map((record) => record.reference)).toEqual([`CHG${lastDay}`]);
      expect(mobile.notInRecords.map((entry) => entry.reference)).toEqual([
        transactions.find((tx) => recordsExampleDays(now).includes(tx.date.slice(0, 10)))!.reference,
      ]);
      expect(mobile.differences).toEqual([]);

      const accountingRecords = (await read(accountingExportExample(transactions, now), ACCOUNTING_EXPORT_PROFILE)).records;
      const accounting = await reconcile(accountingRecords, transactions);
      expect(accounting.matched).toHaveLength(accountingRecords.length - 1);
      expect(accounting.notInLedger.map((record) => [record.reference, record.currency, record.amountMinor])).toEqual([
        ['', 'USD', amountNoneHas(-1200, 'USD', transactions)],
      ]);
      expect(accounting.notInRecords).toEqual([]);
      expect(accounting.differences).toEqual([]);
    }
  });

  it('is in docs/examples as a demo started on 2026-11-05 offers it', async () => {
    const transactions = await sandboxTransactions(DOCS_EXAMPLE_NOW);
    const docs = (name: string) => readFile(new URL(`../../../../docs/examples/${name}`, import.meta.url));
    expect(await docs('bank-statement.csv')).toEqual(Buffer.from(bankStatementExample(transactions, DOCS_EXAMPLE_NOW)));
    expect((await docs('mobile-money-statement.csv')).toString('utf8')).toBe(mobileMoneyStatementExample(transactions, DOCS_EXAMPLE_NOW));
    expect(await docs('accounting-export.txt')).toEqual(Buffer.from(accountingExportExample(transactions, DOCS_EXAMPLE_NOW)));
    expect(bankStatementExample([...transactions].reverse(), DOCS_EXAMPLE_NOW)).toEqual(bankStatementExample(transactions, DOCS_EXAMPLE_NOW));
  });
});

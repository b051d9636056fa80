import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import type { RecordsLimits } from '../../src/partner-records/file.js';
import { readWithProfile, type ProfileReading } from '../../src/partner-records/profile-reader.js';
import { defaultProfile } from '../../src/partner-records/profile.js';

const LIMITS: RecordsLimits = { maxBytes: 10_000, maxRows: 5, timeZone: 'Africa/Kinshasa', currencies: new Set(['USD', 'EUR', 'CDF']) };
const read = (text: string | Uint8Array, limits: Partial<RecordsLimits> = {}) =>
  readWithProfile(text, defaultProfile(LIMITS.timeZone), { ...LIMITS, ...limits });
/** The rows' problems, as the preview lists them. */
const problemsOf = (reading: ProfileReading) => (reading.ok ? { problems: reading.problems, more: reading.moreProblems } : reading.problem);

describe("reading today's records layout through the built-in profile", () => {
  it('reads English headers, days and times in LEDGER_TIMEZONE, signs and directions as the export writes them', async () => {
    const reading = await read(
      [
        'reference,date,amount,currency,direction,note',
        'TX-1,2026-11-02,150.50,USD,in,Driver payout',
        'TX-2,2026-11-02T08:30,-12.5,USD,out,Fuel',
        'TX-3,2026-11-03 23:30:15,20,EUR,out,',
        ',2026-11-03T10:00:00.000Z,1000,CDF,,UTC date from the export',
      ].join('\r\n'),
    );
    expect(reading.ok && reading.problems).toEqual([]);
    if (!reading.ok) return;
    expect(reading.records).toEqual([
      {
        row: 2,
        reference: 'TX-1',
        day: '2026-11-02',
        at: undefined,
        dateText: '2026-11-02',
        amountMinor: 15050,
        currency: 'USD',
        note: 'Driver payout',
        description: '',
      },
      {
        row: 3,
        reference: 'TX-2',
        day: '2026-11-02',
        at: Date.parse('2026-11-02T07:30:00.000Z'),
        dateText: '2026-11-02T08:30',
        amountMinor: -1250,
        currency: 'USD',
        note: 'Fuel',
        description: '',
      },
      {
        row: 4,
        reference: 'TX-3',
        day: '2026-11-03',
        at: Date.parse('2026-11-03T22:30:15.000Z'),
        dateText: '2026-11-03 23:30:15',
        amountMinor: -2000,
        currency: 'EUR',
        note: '',
        description: '',
      },
      {
        row: 5,
        reference: '',
        day: '2026-11-03',
        at: Date.parse('2026-11-03T10:00:00.000Z'),
        dateText: '2026-11-03T10:00:00.000Z',
        amountMinor: 100000,
        currency: 'CDF',
        note: 'UTC date from the export',
        description: '',
      },
    ]);
  });

  it('reads French headers and directions, in any column order, leaving other columns alone', async () => {
    const reading = await read('\uFEFFMontant,Devise,Référence,Date,Sens,Compte\n12.5,usd,A-1,2026-11-02,sortie,512\n3,CDF,A-2,2026-11-02,entrée,512\n');
    expect(reading.ok && reading.records.map((record) => [record.reference, record.amountMinor, record.currency])).toEqual([
      ['A-1', -1250, 'USD'],
      ['A-2', 300, 'CDF'],
    ]);
  });

  it('lets the sign decide without a direction', async () => {
    const reading = await read('reference,date,amount,currency\nA,2026-11-02,-3,USD\nB,2026-11-02,3,USD\n');
    expect(reading.ok && reading.records.map((record) => record.amountMinor)).toEqual([-300, 300]);
  });

  it('refuses a file without an amount column, naming it', async () => {
    expect(await read('reference,date,currency\nA,2026-11-02,USD\n')).toEqual({ ok: false, problem: { code: 'file_missing_columns', columns: ['amount'] } });
  });

  it('lists an unknown currency, a date that is not a date and a bad amount, naming each row and column and what was found', async () => {
    const reading = await read(
      'reference,date,Montant,currency\nA,2026-11-02,1,XYZ\nB,2026-02-30,1,USD\nC,02/11/2026,1,USD\nD,2026-11-02,1 000,USD\nE,2026-11-02,1.234,USD\n',
    );
    expect(problemsOf(reading)).toEqual({
      more: 0,
      problems: [
        { row: 2, column: 'currency', position: 4, code: 'currency_unknown', found: 'XYZ' },
        { row: 3, column: 'date', position: 2, code: 'date_invalid', found: '2026-02-30' },
        { row: 4, column: 'date', position: 2, code: 'date_invalid', found: '02/11/2026' },
        { row: 5, column: 'Montant', position: 3, code: 'amount_invalid', found: '1 000' },
        {
          row: 6,
          column: 'Montant',
          position: 3,
          code: 'amount_decimals',
          found: '1.234',
          amount: { code: 'amount_too_many_decimals', currency: 'USD', decimals: 2, typed: '1.234', thousands: 123_400 },
        },
      ],
    });
  });

  it("lists decimals beyond the currency's even when they are zeros, with the thousands reading", async () => {
    const reading = await read(
      'reference,date,amount,currency\nA,2026-11-02,75.000,CDF\nB,2026-11-02,-1.500,USD\nC,2026-11-02,150.000,XAF\nD,2026-11-02,20.2500,EUR\nE,2026-11-02,150000,XAF\n',
      {
        currencies: new Set(['USD', 'EUR', 'CDF', 'XAF']),
      },
    );
    const decimals = (row: number, typed: string, currency: string, places: number, thousands?: number) => ({
      row,
      column: 'amount',
      position: 3,
      code: 'amount_decimals',
      found: typed,
      amount: { code: 'amount_too_many_decimals', currency, decimals: places, typed, ...(thousands === undefined ? {} : { thousands }) },
    });
    expect(problemsOf(reading)).toEqual({
      more: 0,
      problems: [
        decimals(2, '75.000', 'CDF', 2, 7_500_000),
        decimals(3, '-1.500', 'USD', 2, 150_000),
        decimals(4, '150.000', 'XAF', 0, 150_000),
        decimals(5, '20.2500', 'EUR', 2),
      ],
    });
  });

  it('keeps every record sharing a reference (a transfer and its fee)', async () => {
    const reading = await read('reference,date,amount,currency\nA,2026-11-02,1,USD\n,2026-11-02,1,USD\nA,2026-11-03,2,USD\n');
    expect(reading.ok && reading.problems).toEqual([]);
    expect(reading.ok && reading.records.map((record) => [record.row, record.reference])).toEqual([
      [2, 'A'],
      [3, ''],
      [4, 'A'],
    ]);
  });

  it('refuses a direction against the sign, and a word that is no direction', async () => {
    const reading = await read('reference,date,amount,currency,direction\nA,2026-11-02,-1,USD,in\nB,2026-11-02,1,USD,sideways\n');
    expect(problemsOf(reading)).toEqual({
      more: 0,
      problems: [
        { row: 2, column: 'direction', position: 5, code: 'amount_sign', found: 'in' },
        { row: 3, column: 'direction', position: 5, code: 'flag_invalid', found: 'sideways' },
      ],
    });
  });

  it('refuses an empty file, a header alone, a file over the limits, another delimiter and bytes that are not UTF-8', async () => {
    expect(await read('')).toEqual({ ok: false, problem: { code: 'file_empty' } });
    expect(await read('\uFEFF \r\n')).toEqual({ ok: false, problem: { code: 'file_empty' } });
    expect(await read('reference,date,amount,currency\n')).toEqual({ ok: false, problem: { code: 'file_no_rows' } });
    expect(await read('reference,date,amount,currency\nA,2026-11-02,1,USD\n', { maxBytes: 20 })).toEqual({
      ok: false,
      problem: { code: 'file_too_large', maxBytes: 20 },
    });
    const six = Array.from({ length: 6 }, (_, index) => `R${index},2026-11-02,1,USD`).join('\n');
    expect(await read(`reference,date,amount,currency\n${six}\n`)).toEqual({ ok: false, problem: { code: 'file_too_many_rows', max: 5, rows: 6 } });
    expect(await read('reference;date;amount;currency\nA;2026-11-02;1;USD\n')).toEqual({
      ok: false,
      problem: { code: 'file_missing_columns', columns: ['reference', 'date', 'amount', 'currency'] },
    });
    expect(await read('reference,date,amount,currency\nA,2026-11-02,1,"USD\n')).toEqual({ ok: false, problem: { code: 'file_unreadable', line: 2 } });
    expect(await read(new Uint8Array([0x72, 0, 0x66]))).toEqual({ ok: false, problem: { code: 'file_encoding', encoding: 'utf-8' } });
  });

  it('reads the example file of docs/examples without a problem', async () => {
    const reading = await read(await readFile(new URL('../../docs/examples/records.csv', import.meta.url)), { maxRows: 100 });
    expect(reading.ok && reading.records.slice(0, 4).map((record) => [record.reference, record.amountMinor, record.currency, record.at !== undefined])).toEqual(
      [
        ['TXN-KTJRSUQUDW', 41027, 'USD', true],
        ['', 180279, 'USD', false],
        ['TXN-39XZRQYWFJ', 166467, 'USD', true],
        ['JIT-PKK7EUR27C', -107860000, 'CDF', false],
      ],
    );
    expect(reading.ok && reading.problems).toEqual([]);
    expect(reading.ok && reading.records.at(-1)).toMatchObject({ reference: '', amountMinor: -1250, note: 'Bank charges, not yet in the fleet account' });
  });

  it('reads a file of many thousand rows whole, quoted notes over several lines included, and names a bad row near its end', async () => {
    const rows = Array.from(
      { length: 6_000 },
      (_, index) => `TX-${index},2026-11-02,${index}.25,USD,"note ${index}, ${'long '.repeat(index % 40)}\nsecond line"`,
    );
    const limits = { maxBytes: 5_000_000, maxRows: 10_000 };
    const reading = await read(['reference,date,amount,currency,note', ...rows].join('\n'), limits);
    expect(reading.ok && reading.records.length).toBe(6_000);
    if (!reading.ok) return;
    expect(reading.records[5_999]).toMatchObject({
      row: 12_001,
      reference: 'TX-5999',
      amountMinor: 599_925,
      note: `note 5999, ${'long '.repeat(39)}\nsecond line`,
    });
    const bad = await read(
      ['reference,date,amount,currency,note', ...rows.slice(0, 5_990), 'TX-X,2026-11-02,12.5,XYZ,', ...rows.slice(5_990)].join('\n'),
      limits,
    );
    expect(problemsOf(bad)).toEqual({ problems: [{ row: 11_982, column: 'currency', position: 4, code: 'currency_unknown', found: 'XYZ' }], more: 0 });
  });
});

import { describe, expect, it } from 'vitest';
import type { RecordsLimits } from '../../src/partner-records/file.js';
import { readWithProfile, SHOWN_PROBLEMS, type ProfileReading } from '../../src/partner-records/profile-reader.js';
import { defaultProfile, IMPORT_PROFILE, type ImportProfile } from '../../src/partner-records/profile.js';

const LIMITS: RecordsLimits = { maxBytes: 100_000, maxRows: 1000, timeZone: 'Africa/Kinshasa', currencies: new Set(['USD', 'EUR', 'CDF']) };

/** A profile as a team would save it, checked by the schema. */
const profile = (fields: Partial<ImportProfile>): ImportProfile =>
  IMPORT_PROFILE.parse({ ...defaultProfile('Africa/Kinshasa'), name: 'test', note: undefined, ...fields });

/** What a user sees of each record: row, day, signed minor units, currency, reference. */
const seen = (reading: ProfileReading) => {
  if (!reading.ok) throw new Error(`refused: ${JSON.stringify(reading.problem)}`);
  return reading.records.map(({ row, day, amountMinor, currency, reference }) => ({ row, day, amountMinor, currency, reference }));
};

/** Windows-1252 bytes: Latin-1 characters as themselves, the euro sign as 0x80. */
const windows1252 = (text: string) => Uint8Array.from([...text].map((char) => (char === '€' ? 0x80 : char.charCodeAt(0))));

describe('reading a records file through an import profile', () => {
  it('reads a semicolon statement with decimal commas, DD/MM/YYYY, debit and credit columns, title lines and a totals line', async () => {
    const file = [
      'Relevé de compte courant;;;;',
      'Compte 00123-4567890 EUR;Période du 01/11/2026 au 30/11/2026;;;',
      'Date;Référence;Libellé;Débit;Crédit',
      '02/11/2026;VIR-881;Paiement chauffeurs;;1.250,50',
      '03/11/2026;FRAIS-12;Frais de tenue de compte;12,00;',
      '04/11/2026;VIR-882;Retour de fonds;0,00;75,25',
      'Total;;;12,00;1.325,75',
    ].join('\r\n');
    const reading = await readWithProfile(
      file,
      profile({
        delimiter: ';',
        skipAbove: 2,
        skipBelow: 1,
        reference: 'Référence',
        date: { column: 'Date', format: 'DD/MM/YYYY' },
        amount: { layout: 'debit_credit', debit: 'Débit', credit: 'crédit' },
        numbers: { decimalMark: ',', grouping: '.' },
        currency: { fixed: 'EUR' },
        description: 'Libellé',
      }),
      LIMITS,
    );
    expect(seen(reading)).toEqual([
      { row: 4, day: '2026-11-02', amountMinor: 125050, currency: 'EUR', reference: 'VIR-881' },
      { row: 5, day: '2026-11-03', amountMinor: -1200, currency: 'EUR', reference: 'FRAIS-12' },
      { row: 6, day: '2026-11-04', amountMinor: 7525, currency: 'EUR', reference: 'VIR-882' },
    ]);
    expect(reading.ok && reading.records.map((record) => record.description)).toEqual(['Paiement chauffeurs', 'Frais de tenue de compte', 'Retour de fonds']);
    expect(reading.ok && reading.problems).toEqual([]);
  });

  it('reads a tab-separated UTF-16LE file with its byte-order mark, times on the file’s clock landing on the ledger’s day', async () => {
    const text = ['Posted\tRef\tAmount\tCurrency', '2026-11-02 14:30\tP-100\t-45.10\tUSD', '2026-11-30 23:45\tP-101\t300\tUSD'].join('\n');
    const bytes = Uint8Array.from([0xff, 0xfe, ...Buffer.from(text, 'utf16le')]);
    const layout = {
      delimiter: '\t' as const,
      encoding: 'utf-16' as const,
      reference: 'Ref',
      date: { column: 'Posted', format: 'YYYY-MM-DD' as const },
      timeZone: 'America/New_York',
      amount: { layout: 'signed' as const, amount: 'Amount' },
      currency: { column: 'Currency' },
    };
    const reading = await readWithProfile(bytes, profile(layout), LIMITS);
    // 23:45 in New York on 30 November is 05:45 on 1 December in Kinshasa.
    expect(seen(reading)).toEqual([
      { row: 2, day: '2026-11-02', amountMinor: -4510, currency: 'USD', reference: 'P-100' },
      { row: 3, day: '2026-12-01', amountMinor: 30000, currency: 'USD', reference: 'P-101' },
    ]);
    expect(reading.ok && reading.records[1]?.at).toBe(Date.parse('2026-12-01T04:45:00Z'));
    expect(await readWithProfile(bytes, profile({ ...layout, encoding: 'utf-8' }), LIMITS)).toEqual({
      ok: false,
      problem: { code: 'file_encoding', encoding: 'utf-8' },
    });
  });

  it('reads a Windows-1252 file with accented descriptions, and refuses it read as UTF-8', async () => {
    const bytes = windows1252(['Date;Réf;Libellé;Montant', '05/11/2026;CB-77;Réparation garage Élodie 35€;-35,00'].join('\r\n'));
    const layout = {
      delimiter: ';' as const,
      encoding: 'windows-1252' as const,
      reference: 'Réf',
      date: { column: 'Date', format: 'DD/MM/YYYY' as const },
      amount: { layout: 'signed' as const, amount: 'Montant' },
      numbers: { decimalMark: ',' as const, grouping: 'none' as const },
      currency: { fixed: 'EUR' },
      description: 'Libellé',
    };
    const reading = await readWithProfile(bytes, profile(layout), LIMITS);
    expect(seen(reading)).toEqual([{ row: 2, day: '2026-11-05', amountMinor: -3500, currency: 'EUR', reference: 'CB-77' }]);
    expect(reading.ok && reading.records[0]?.description).toBe('Réparation garage Élodie 35€');
    expect(await readWithProfile(bytes, profile({ ...layout, encoding: 'utf-8' }), LIMITS)).toMatchObject({ ok: false, problem: { code: 'file_encoding' } });
  });

  it('maps a file without a header row by position, and a profile cannot name columns such a file lacks', async () => {
    const positions = {
      header: false,
      date: { column: 1, format: 'DD.MM.YYYY' as const },
      reference: 2,
      amount: { layout: 'signed' as const, amount: 3 },
      currency: { column: 4 },
    };
    const reading = await readWithProfile(
      ['05.11.2026,PAY-1,250.00,USD', '06.11.2026,PAY-2,-40.5,USD', '7.11.2026,PAY-3,150000,CDF'].join('\n'),
      profile(positions),
      LIMITS,
    );
    expect(seen(reading)).toEqual([
      { row: 1, day: '2026-11-05', amountMinor: 25000, currency: 'USD', reference: 'PAY-1' },
      { row: 2, day: '2026-11-06', amountMinor: -4050, currency: 'USD', reference: 'PAY-2' },
      { row: 3, day: '2026-11-07', amountMinor: 15000000, currency: 'CDF', reference: 'PAY-3' },
    ]);
    expect(IMPORT_PROFILE.safeParse({ ...profile(positions), reference: 'Reference' }).success).toBe(false);
  });

  it('refuses a profile that would read an amount two ways or names an unknown time zone', () => {
    const base = defaultProfile('Africa/Kinshasa');
    expect(IMPORT_PROFILE.safeParse({ ...base, numbers: { decimalMark: '.', grouping: '.' } }).success).toBe(false);
    expect(IMPORT_PROFILE.safeParse({ ...base, timeZone: 'Mars/Olympus' }).success).toBe(false);
    expect(IMPORT_PROFILE.safeParse({ ...base, date: { column: 'date', format: 'D/M/YY' } }).success).toBe(false);
  });

  it('reads an unsigned amount with a D/C flag, the flag’s words as the profile gives them', async () => {
    const file = [
      'Value Date,Txn Ref,Narrative,Amount,Dr/Cr,Ccy',
      '02-Nov-2026,FT26306ABC,Payout batch,"1,200.00",C,USD',
      '03-Nov-2026,FT26307XYZ,Card fee,15.00,D,USD',
      '04-nov.-2026,FT26308QRS,Fuel,"2,500,000",d,CDF',
    ].join('\n');
    const reading = await readWithProfile(
      file,
      profile({
        reference: 'Txn Ref',
        date: { column: 'Value Date', format: 'DD-MMM-YYYY' },
        amount: { layout: 'flagged', amount: 'Amount', flag: 'Dr/Cr', inWords: ['C'], outWords: ['D'], flagRequired: true },
        numbers: { decimalMark: '.', grouping: ',' },
        currency: { column: 'Ccy' },
        description: 'Narrative',
      }),
      LIMITS,
    );
    expect(seen(reading)).toEqual([
      { row: 2, day: '2026-11-02', amountMinor: 120000, currency: 'USD', reference: 'FT26306ABC' },
      { row: 3, day: '2026-11-03', amountMinor: -1500, currency: 'USD', reference: 'FT26307XYZ' },
      { row: 4, day: '2026-11-04', amountMinor: -250000000, currency: 'CDF', reference: 'FT26308QRS' },
    ]);
  });

  it('leaves out rows whose status does not count, listing them apart from problems', async () => {
    const file = [
      'Date,Reference,Amount,Currency,Status',
      '2026-11-02,MM-1,100.00,USD,Completed',
      '2026-11-02,MM-2,50.00,USD,Pending',
      '2026-11-03,MM-3,-20.00,USD,SUCCESS',
      '2026-11-03,MM-4,not yet,USD,Failed',
    ].join('\n');
    const reading = await readWithProfile(
      file,
      profile({
        reference: 'Reference',
        date: { column: 'Date', format: 'YYYY-MM-DD' },
        amount: { layout: 'signed', amount: 'Amount' },
        currency: { column: 'Currency' },
        status: { column: 'Status', counted: ['completed', 'success'] },
      }),
      LIMITS,
    );
    expect(seen(reading)).toEqual([
      { row: 2, day: '2026-11-02', amountMinor: 10000, currency: 'USD', reference: 'MM-1' },
      { row: 4, day: '2026-11-03', amountMinor: -2000, currency: 'USD', reference: 'MM-3' },
    ]);
    expect(reading).toMatchObject({
      leftOut: [
        { row: 3, status: 'Pending' },
        { row: 5, status: 'Failed' },
      ],
      problems: [],
      moreProblems: 0,
    });
  });

  it('keeps a transfer, its fee and its VAT that share one bank reference', async () => {
    const file = [
      'Date;Reference;Description;Amount',
      '10/11/2026;TRF-2026-0042;Transfer to fleet account;-500,00',
      '10/11/2026;TRF-2026-0042;Transfer fee;-2,50',
      '10/11/2026;TRF-2026-0042;VAT on fee;-0,40',
    ].join('\n');
    const reading = await readWithProfile(
      file,
      profile({
        delimiter: ';',
        reference: 'Reference',
        date: { column: 'Date', format: 'DD/MM/YYYY' },
        amount: { layout: 'signed', amount: 'Amount' },
        numbers: { decimalMark: ',', grouping: 'none' },
        currency: { fixed: 'USD' },
        description: 'Description',
      }),
      LIMITS,
    );
    expect(seen(reading).map(({ reference, amountMinor }) => [reference, amountMinor])).toEqual([
      ['TRF-2026-0042', -50000],
      ['TRF-2026-0042', -250],
      ['TRF-2026-0042', -40],
    ]);
  });

  it('reports every problem of every row, naming the row, the column and what was found', async () => {
    const file = [
      'reference,date,amount,currency,direction',
      'A-1,2026-13-01,12.5.0,USD,in',
      'A-2,2026-11-02,10.00,XYZ,sideways',
      'A-3,2026-11-02,10.001,USD,out',
      'A-4,2026-11-03',
      'A-5,2026-11-03,-5.00,USD,in',
      'A-6,2026-11-04,7.00,USD,out',
    ].join('\n');
    const reading = await readWithProfile(file, defaultProfile('Africa/Kinshasa'), LIMITS);
    expect(seen(reading)).toEqual([{ row: 7, day: '2026-11-04', amountMinor: -700, currency: 'USD', reference: 'A-6' }]);
    if (!reading.ok) return;
    expect(reading.problems.map(({ row, column, position, code, found }) => ({ row, column, position, code, found }))).toEqual([
      { row: 2, column: 'date', position: 2, code: 'date_invalid', found: '2026-13-01' },
      { row: 2, column: 'amount', position: 3, code: 'amount_invalid', found: '12.5.0' },
      { row: 3, column: 'currency', position: 4, code: 'currency_unknown', found: 'XYZ' },
      { row: 3, column: 'direction', position: 5, code: 'flag_invalid', found: 'sideways' },
      { row: 4, column: 'amount', position: 3, code: 'amount_decimals', found: '10.001' },
      { row: 5, column: 'amount', position: 3, code: 'column_missing', found: '' },
      { row: 5, column: 'currency', position: 4, code: 'column_missing', found: '' },
      { row: 6, column: 'direction', position: 5, code: 'amount_sign', found: 'in' },
    ]);
    expect(reading.problems[4]?.amount).toMatchObject({ currency: 'USD', decimals: 2, typed: '10.001' });
    expect(reading.moreProblems).toBe(0);
  });

  it('lists the first problems and counts the rest', async () => {
    const rows = Array.from({ length: SHOWN_PROBLEMS + 50 }, (_, index) => `B-${index},2026-11-02,ten,USD,`);
    const reading = await readWithProfile(['reference,date,amount,currency', ...rows].join('\n'), defaultProfile('Africa/Kinshasa'), LIMITS);
    expect(reading).toMatchObject({ ok: true, records: [], moreProblems: 50 });
    expect(reading.ok && reading.problems.length).toBe(SHOWN_PROBLEMS);
  });

  it('reads today’s documented layout, in French, through the built-in profile', async () => {
    const file = [
      'référence,date,montant,devise,sens,note',
      'TX-1,2026-11-02,150.50,USD,entrée,Driver payout',
      'TX-2,2026-11-02T08:30,-12.5,USD,out,Fuel',
      'TX-3,2026-11-03 23:30:15,20,EUR,sortie,',
      ',2026-11-03T23:10:00.000Z,1000,CDF,,UTC date from the export',
    ].join('\r\n');
    const reading = await readWithProfile(file, defaultProfile(LIMITS.timeZone), LIMITS);
    expect(reading.ok && reading.problems).toEqual([]);
    expect(seen(reading).map(({ day, amountMinor }) => [day, amountMinor])).toEqual([
      ['2026-11-02', 15050],
      ['2026-11-02', -1250],
      ['2026-11-03', -2000],
      ['2026-11-04', 100000],
    ]);
    expect(IMPORT_PROFILE.safeParse(JSON.parse(JSON.stringify(defaultProfile('Africa/Kinshasa')))).success).toBe(true);
  });
});

import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { readBatchFile, type BatchFileReading } from '../../../src/payouts/batch/file.js';
import { checkBatchRows, checkBatchRowsInSlices, largestRows } from '../../../src/payouts/batch/rows.js';

const HEADER = 'kind,number,provider,name,country,amount,currency,reference,note';
const MOBILE = 'mobile,243812345678,VODACOM_MPESA,Amani Kabila,CD,150.50,USD,,March stipend';
const BANK = 'bank,0001 2345 6789,BCDCCDKI,Ndaya Logistics SARL,CD,2500,EUR,INV-2025-031,';

const settings = {
  operators: ['VODACOM_MPESA', 'ORANGE_MONEY'],
  currencies: ['USD', 'EUR', 'CDF'],
  maxAmount: new Map([
    ['USD', 5_000_000],
    ['EUR', 5_000_000],
    ['CDF', 10_000_000_000],
  ]),
};
const context = { settings, now: new Date('2026-11-23T10:00:00Z'), batchId: 'PB-7K3F9Q' };

function read(content: string | Uint8Array, maxRows = 500): Promise<BatchFileReading> {
  return readBatchFile(content, { maxRows });
}

async function problemOf(content: string | Uint8Array, maxRows = 500) {
  const reading = await read(content, maxRows);
  if (reading.ok) throw new Error('expected the file to be refused');
  return reading.problem;
}

async function check(content: string) {
  const reading = await read(content);
  if (!reading.ok) throw new Error(`expected the file to be read, got ${reading.problem.code}`);
  return checkBatchRows(reading.rows, reading.columnProblems, context);
}

describe('reading a bulk payout file', () => {
  it("refuses a row whose wallet number lacks its country's prefix, as the form does", async () => {
    const checked = await check(
      `${HEADER}\nmobile,0812345678,VODACOM_MPESA,Amani Kabila,CD,10,USD,,\nmobile,254712345678,VODACOM_MPESA,Amani Kabila,KE,10,USD,,\n`,
    );
    expect(checked.problems).toEqual([{ rowNumber: 2, column: 'number', problem: { code: 'phone_country_prefix', countryCode: 'CD', prefix: '243' } }]);
    expect(checked.rows.map((row) => row.rowNumber)).toEqual([3]);
  });

  it('reads a mobile and a bank row into drafts, with row numbers counting the header as row 1', async () => {
    const checked = await check(`${HEADER}\n${MOBILE}\n${BANK}\n`);
    expect(checked.problems).toEqual([]);
    expect(checked.rows.map((row) => [row.rowNumber, row.draft.kind, row.draft.amountMinor, row.draft.reference])).toEqual([
      [2, 'mobile_money', 15050, 'PB-7K3F9Q-2'],
      [3, 'bank_account', 250000, 'INV-2025-031'],
    ]);
    expect(checked.rows[1]?.draft).toMatchObject({ recipient: { accountNumber: '000123456789', bankCode: 'BCDCCDKI' } });
    expect([...checked.totals]).toEqual([
      ['USD', 15050],
      ['EUR', 250000],
    ]);
  });

  it('reads a file with a UTF-8 BOM and Windows line endings like any other', async () => {
    const bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(`${HEADER}\r\n${MOBILE}\r\n${BANK}\r\n`)]);
    const reading = await read(bytes);
    expect(reading.ok && reading.rows.map((row) => row.cells.kind)).toEqual(['mobile', 'bank']);
    expect(reading.ok && reading.rows[0]?.cells.note).toBe('March stipend');
  });

  it('reads quoted fields holding commas, quotes and line breaks', async () => {
    const checked = await check(`${HEADER}\nmobile,243812345678,VODACOM_MPESA,"Kabila, Amani",CD,10,USD,,"Rent, March ""advance"""\n`);
    expect(checked.problems).toEqual([]);
    expect(checked.rows[0]?.draft.recipient.name).toBe('Kabila, Amani');
    expect(checked.rows[0]?.draft.note).toBe('Rent, March "advance"');
  });

  it('takes the header in any case and order, with the optional columns left out', async () => {
    const checked = await check('Amount,Currency,Kind,Number,Provider,Name,Country\n10,USD,MOBILE,243812345678,orange_money,Amani Kabila,cd\n');
    expect(checked.problems).toEqual([]);
    expect(checked.rows[0]?.draft).toMatchObject({ kind: 'mobile_money', operator: 'ORANGE_MONEY', amountMinor: 1000, note: '' });
  });

  it('skips blank lines', async () => {
    expect((await check(`${HEADER}\n\n${MOBILE}\n\n`)).rows).toHaveLength(1);
  });

  it('refuses an empty file, and one with a header but no rows', async () => {
    expect(await problemOf('')).toEqual({ code: 'file_empty' });
    expect(await problemOf('\uFEFF \r\n\n')).toEqual({ code: 'file_empty' });
    expect(await problemOf(`${HEADER}\n`)).toEqual({ code: 'file_no_rows' });
  });

  it('reads a file saved with semicolons or tabs, the delimiter being the one that splits the header into its columns', async () => {
    const comma = await check(`${HEADER}\n${MOBILE}\n${BANK}\n`);
    const semicolons = await check(`${HEADER.replaceAll(',', ';')}\n${MOBILE.replaceAll(',', ';')}\n${BANK.replaceAll(',', ';')}\n`);
    const tabs = await check(`${HEADER.replaceAll(',', '\t')}\r\n${MOBILE.replaceAll(',', '\t')}\r\n${BANK.replaceAll(',', '\t')}\r\n`);
    expect(comma.rows).toHaveLength(2);
    expect(semicolons).toEqual(comma);
    expect(tabs).toEqual(comma);
    // A comma inside a cell of a semicolon file is text, not a delimiter.
    const named = await check(`${HEADER.replaceAll(',', ';')}\n${MOBILE.replaceAll(',', ';').replace('Amani Kabila', 'Kabila, Amani')}\n`);
    expect(named.rows[0]?.draft.recipient.name).toBe('Kabila, Amani');
    expect(await problemOf(`${HEADER.replaceAll(',', ';')}\n`)).toEqual({ code: 'file_no_rows' });
  });

  it('names the columns a header lacks, and those it has that are unknown or repeated', async () => {
    expect(await problemOf('kind,number,name,country,amount\n')).toEqual({ code: 'file_missing_columns', columns: ['provider', 'currency'] });
    expect(await problemOf(`${HEADER},iban\n`)).toEqual({ code: 'file_unknown_columns', columns: ['iban'] });
    expect(await problemOf(`${HEADER},amount\n`)).toEqual({ code: 'file_repeated_column', column: 'amount' });
  });

  it('reports a row with a missing or an extra cell by its row number, and reads the others', async () => {
    const checked = await check(`${HEADER}\n${MOBILE}\nmobile,243812345678,VODACOM_MPESA,Amani Kabila,CD,150,USD,\n${MOBILE},extra\n`);
    expect(checked.rows.map((row) => row.rowNumber)).toEqual([2]);
    expect(checked.problems).toEqual([
      { rowNumber: 3, column: undefined, problem: { code: 'row_column_count', expected: 9, found: 8 } },
      { rowNumber: 4, column: undefined, problem: { code: 'row_column_count', expected: 9, found: 10 } },
    ]);
  });

  it('refuses a file over the size cap without reading it', async () => {
    const big = `${HEADER}\n${`${MOBILE}\n`.repeat(200_000)}`;
    expect(Buffer.byteLength(big)).toBeGreaterThan(10_000_000);
    expect(await problemOf(big)).toEqual({ code: 'file_too_large', maxBytes: 1024 * 1024 });
  });

  it('refuses a file that is not text in its encoding: NUL bytes, broken UTF-8 or control characters; a zip that is no workbook', async () => {
    expect(await problemOf(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x00, 0x08, 0x00]))).toEqual({ code: 'file_encoding', encoding: 'utf-8' });
    expect(await problemOf(Buffer.from([0x6b, 0x69, 0x6e, 0x64, 0xff, 0xfe, 0x0a]))).toEqual({ code: 'file_encoding', encoding: 'utf-8' });
    expect(await problemOf(`${HEADER}\n\u0007${MOBILE}\n`)).toEqual({ code: 'file_encoding', encoding: 'utf-8' });
    expect(await problemOf(Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x00, 0x00, 0x08, 0x00]))).toEqual({ code: 'xlsx_unreadable' });
  });

  it('refuses a file with a quote that never closes, near its line', async () => {
    expect(await problemOf(`${HEADER}\n${MOBILE}\nmobile,"243812345678,VODACOM_MPESA\n`)).toMatchObject({ code: 'file_unreadable' });
  });

  it('refuses more rows than allowed, saying how many there are', async () => {
    expect(await problemOf(`${HEADER}\n${MOBILE}\n${MOBILE}\n${MOBILE}\n`, 2)).toEqual({ code: 'file_too_many_rows', max: 2, rows: 3 });
  });
});

/** A bulk file as Excel saves it: the header and rows given, then whatever `edit` sets on the sheet. */
async function workbook(rows: unknown[][], edit?: (sheet: ExcelJS.Worksheet) => void): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('Payouts');
  for (const row of rows) sheet.addRow(row);
  edit?.(sheet);
  return Buffer.from(await book.xlsx.writeBuffer());
}

async function checkBytes(content: Uint8Array, encoding?: 'utf-8' | 'windows-1252' | 'iso-8859-1') {
  const reading = await readBatchFile(content, { maxRows: 500, ...(encoding ? { encoding } : {}) });
  if (!reading.ok) throw new Error(`expected the file to be read, got ${reading.problem.code}`);
  return checkBatchRows(reading.rows, reading.columnProblems, context);
}

describe('the kinds of bulk payout file read', () => {
  const ACCENTED = 'mobile,243812345678,VODACOM_MPESA,Zoë Mbuyi-Kasaï,CD,150.50,USD,,Prime d’été';

  it('reads UTF-16 with its byte-order mark, either way round, whatever encoding was chosen', async () => {
    const text = `${HEADER.replaceAll(',', '\t')}\r\n${ACCENTED.replaceAll(',', '\t')}\r\n`;
    const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
    const checked = await checkBytes(le, 'windows-1252');
    expect(checked.problems).toEqual([]);
    expect(checked.rows[0]?.draft).toMatchObject({ recipient: { name: 'Zoë Mbuyi-Kasaï' }, note: 'Prime d’été', amountMinor: 15050 });
  });

  it('reads a Windows-1252 file when that encoding is chosen, and refuses it as UTF-8 naming the encoding', async () => {
    const bytes = Uint8Array.from(
      [...`${HEADER.replaceAll(',', ';')}\r\n${ACCENTED.replaceAll(',', ';')}\r\n`].map((char) => (char === '’' ? 0x92 : char.charCodeAt(0))),
    );
    const checked = await checkBytes(bytes, 'windows-1252');
    expect(checked.rows[0]?.draft).toMatchObject({ recipient: { name: 'Zoë Mbuyi-Kasaï' }, note: 'Prime d’été' });
    expect(await problemOf(bytes)).toEqual({ code: 'file_encoding', encoding: 'utf-8' });
  });

  it('reads the first sheet of an Excel workbook, amounts as exact decimals, rows numbered as the sheet shows them', async () => {
    const bytes = await workbook([
      HEADER.split(','),
      ['mobile', '+243812345678', 'VODACOM_MPESA', 'Amani Kabila', 'CD', 1234.56, 'USD', '', 'March'],
      [],
      ['bank', '0001 2345 6789', 'BCDCCDKI', 'Ndaya Logistics SARL', 'CD', 2500, 'EUR', 'INV-2025-031'],
    ]);
    const checked = await checkBytes(bytes);
    expect(checked.problems).toEqual([]);
    expect(checked.rows.map((row) => [row.rowNumber, row.draft.kind, row.draft.amountMinor, row.draft.reference])).toEqual([
      [2, 'mobile_money', 123456, 'PB-7K3F9Q-2'],
      [4, 'bank_account', 250000, 'INV-2025-031'],
    ]);
  });

  it('refuses a phone number a spreadsheet wrote in scientific notation, naming what it found', async () => {
    const checked = await check(`${HEADER}\nmobile,2.43998E+11,VODACOM_MPESA,Amani Kabila,CD,10,USD,,\n${MOBILE}\n`);
    expect(checked.problems).toEqual([{ rowNumber: 2, column: 'number', problem: { code: 'number_scientific', found: '2.43998E+11' } }]);
    expect(checked.rows.map((row) => row.rowNumber)).toEqual([3]);
  });

  it('takes a workbook phone typed as a whole number in full, and refuses one the sheet shows with an exponent or a fraction', async () => {
    const row = (number: unknown) => ['mobile', number, 'VODACOM_MPESA', 'Amani Kabila', 'CD', 10, 'USD'];
    const bytes = await workbook([HEADER.split(',').slice(0, 7), row(243812345678), row(243812345679), row(2438123.5)], (sheet) => {
      sheet.getCell('B3').numFmt = '0.00E+00';
    });
    const checked = await checkBytes(bytes);
    expect(checked.rows.map((entry) => [entry.rowNumber, entry.draft.recipient])).toEqual([[2, expect.objectContaining({ phone: '243812345678' })]]);
    expect(checked.problems).toEqual([
      { rowNumber: 3, column: 'number', problem: { code: 'number_scientific', found: '243812345679', cell: 'B3' } },
      { rowNumber: 4, column: 'number', problem: { code: 'number_scientific', found: '2438123.5', cell: 'B4' } },
    ]);
  });

  it("reports a workbook's formula without its result, and a number Excel cannot hold exactly, in their row and column", async () => {
    const bytes = await workbook([HEADER.split(',').slice(0, 7), ['mobile', '243812345678', 'VODACOM_MPESA', 'Amani Kabila', 'CD', 10, 'USD']], (sheet) => {
      sheet.getCell('F2').value = { formula: 'SUM(F3:F9)' };
      sheet.getRow(3).values = ['mobile', '243812345679', 'VODACOM_MPESA', 'Amani Kabila', 'CD', 0.1 + 0.2, 'USD'];
    });
    const checked = await checkBytes(bytes);
    expect(checked.problems).toEqual([
      { rowNumber: 2, column: 'amount', problem: { code: 'cell_formula_uncached', cell: 'F2', found: '=SUM(F3:F9)' } },
      { rowNumber: 3, column: 'amount', problem: { code: 'cell_number_precision', cell: 'F3', found: '0.30000000000000004' } },
    ]);
  });
});

describe('checking the rows of a bulk payout file', () => {
  it('checks every row with the single payout rules and reports each problem with its row and column', async () => {
    const checked = await check(
      [
        HEADER,
        'cash,243812345678,VODACOM_MPESA,Amani Kabila,CD,10,USD,,',
        'mobile,24381,VODACOM_MPESA,A,CD,10,USD,,',
        'bank,0001 2345 6789,NOTABIC,Ndaya Logistics,CD,60000,EUR,,',
        'mobile,243812345678,VODACOM_MPESA,Amani Kabila,CD,10,GBP,,',
      ].join('\n'),
    );
    expect(checked.rows).toEqual([]);
    expect(checked.problems.map(({ rowNumber, column, problem }) => [rowNumber, column, problem.code])).toEqual([
      [2, 'kind', 'kind_unknown'],
      [3, 'number', 'phone_length'],
      [3, 'name', 'name_length'],
      [4, 'provider', 'bank_code'],
      [4, 'amount', 'amount_over_maximum'],
      [5, 'currency', 'not_offered'],
    ]);
  });

  it('reads amounts with a dot as the decimal mark only, refusing commas, spaces and negative amounts', async () => {
    const checked = await check(
      [
        HEADER,
        ...['1,500', '1 500', '1500,50', '-10', '10.123', 'ten'].map((amount) => `mobile,243812345678,VODACOM_MPESA,Amani Kabila,CD,"${amount}",USD,,`),
      ].join('\n'),
    );
    expect(checked.problems.map(({ rowNumber, problem }) => [rowNumber, problem.code])).toEqual([
      [2, 'amount_format'],
      [3, 'amount_format'],
      [4, 'amount_format'],
      [5, 'amount_not_positive'],
      [6, 'amount_too_many_decimals'],
      [7, 'amount_format'],
    ]);
  });

  it('refuses amounts with more decimals than the currency has, even zeros, as spreadsheets group thousands', async () => {
    const withXaf = {
      ...context,
      settings: { ...settings, currencies: [...settings.currencies, 'XAF'], maxAmount: new Map([...settings.maxAmount, ['XAF', 10_000_000]]) },
    };
    const reading = await read(
      [
        HEADER,
        ...[
          ['75.000', 'CDF'],
          ['1.500', 'USD'],
          ['150.000', 'XAF'],
          ['12.50', 'USD'],
          ['150000', 'XAF'],
        ].map(([amount, currency]) => `mobile,243812345678,VODACOM_MPESA,Amani Kabila,CD,${amount},${currency},,`),
      ].join('\n'),
    );
    if (!reading.ok) throw new Error('expected the file to be read');
    const checked = checkBatchRows(reading.rows, reading.columnProblems, withXaf);
    expect(checked.problems).toEqual([
      { rowNumber: 2, column: 'amount', problem: { code: 'amount_too_many_decimals', currency: 'CDF', decimals: 2, typed: '75.000', thousands: 7_500_000 } },
      { rowNumber: 3, column: 'amount', problem: { code: 'amount_too_many_decimals', currency: 'USD', decimals: 2, typed: '1.500', thousands: 150_000 } },
      { rowNumber: 4, column: 'amount', problem: { code: 'amount_too_many_decimals', currency: 'XAF', decimals: 0, typed: '150.000', thousands: 150_000 } },
    ]);
    expect(checked.rows.map((row) => [row.rowNumber, row.draft.amountMinor])).toEqual([
      [5, 1250],
      [6, 150_000],
    ]);
    expect([...checked.totals]).toEqual([
      ['USD', 1250],
      ['XAF', 150_000],
    ]);
  });

  it('refuses a reference given twice in the file, naming the first row that has it', async () => {
    const checked = await check(`${HEADER}\n${BANK}\n${BANK.replace('2500', '300')}\n`);
    expect(checked.problems).toEqual([{ rowNumber: 3, column: 'reference', problem: { code: 'reference_repeated', firstRow: 2 } }]);
  });

  it('marks a row repeating an earlier one (same recipient, amount and currency) without refusing it', async () => {
    const checked = await check(`${HEADER}\n${MOBILE}\n${MOBILE.replace('VODACOM_MPESA', 'ORANGE_MONEY')}\n${MOBILE.replace('150.50', '20')}\n`);
    expect(checked.problems).toEqual([]);
    expect(checked.rows.map((row) => row.repeatOf)).toEqual([undefined, 2, undefined]);
  });

  it('refuses names with hidden characters and keeps mentions and formula-looking text as plain text', async () => {
    const checked = await check(
      [
        HEADER,
        'mobile,243812345678,VODACOM_MPESA,"Amani\u202EKabila",CD,10,USD,,',
        'mobile,243812345679,VODACOM_MPESA,<!channel> Amani,CD,10,USD,,',
        'mobile,243812345670,VODACOM_MPESA,"=HYPERLINK(""http://x"")",CD,10,USD,,@note',
      ].join('\n'),
    );
    expect(checked.problems).toEqual([{ rowNumber: 2, column: 'name', problem: { code: 'hidden_characters', kind: 'invisible' } }]);
    expect(checked.rows.map((row) => row.draft.recipient.name)).toEqual(['<!channel> Amani', '=HYPERLINK("http://x")']);
  });

  it('marks the rows the caller says go to new recipients', async () => {
    const reading = await read(`${HEADER}\n${MOBILE}\n${BANK}\n`);
    if (!reading.ok) throw new Error('expected the file to be read');
    const checked = checkBatchRows(reading.rows, [], { ...context, isNewRecipient: (draft) => draft.kind === 'bank_account' });
    expect(checked.rows.map((row) => row.newRecipient)).toEqual([false, true]);
  });

  it('reads the same rows whatever the line ends, BOM, spacing or column order', async () => {
    const one = await check(`${HEADER}\n${MOBILE}\n`);
    const two = await check(
      `\uFEFF${HEADER.split(',').reverse().join(',')}\r\n${MOBILE.split(',')
        .map((cell) => ` ${cell} `)
        .reverse()
        .join(',')}\r\n`,
    );
    expect(one.rows).toHaveLength(1);
    expect(two.rows).toEqual(one.rows);
    expect((await check(`${HEADER}\n${MOBILE.replace('150.50', '150.51')}\n`)).rows[0]?.draft.amountMinor).toBe(15_051);
  });

  it('finds the largest row in each currency', async () => {
    const checked = await check(`${HEADER}\n${MOBILE}\n${MOBILE.replace('150.50', '900').replace('678', '679')}\n${BANK}\n`);
    expect([...largestRows(checked.rows)].map(([currency, row]) => [currency, row.rowNumber])).toEqual([
      ['USD', 3],
      ['EUR', 4],
    ]);
  });

  it('reads a 500-row file', async () => {
    const rows = Array.from({ length: 500 }, (_, index) => `mobile,2438${String(10_000_000 + index)},VODACOM_MPESA,Person ${index},CD,${index + 1}.25,USD,,`);
    const checked = await check(`${HEADER}\n${rows.join('\n')}\n`);
    expect(checked.problems).toEqual([]);
    expect(checked.totals.get('USD')).toBe(Array.from({ length: 500 }, (_, index) => (index + 1) * 100 + 25).reduce((a, b) => a + b, 0));
  });

  it('finds the same rows, problems, totals and content hash when it checks a large file in slices', async () => {
    const rows = Array.from({ length: 2000 }, (_, index) =>
      index % 7 === 3
        ? `mobile,0812345678,NOPE,Amani Kabila,CD,ten,GBP,,`
        : index % 11 === 5
          ? BANK.replace('INV-2025-031', 'INV-REPEATED')
          : MOBILE.replace('150.50', String(index + 1)),
    );
    const reading = await read(`${HEADER}\n${rows.join('\n')}\n${MOBILE},extra\n`, 5000);
    if (!reading.ok) throw new Error('expected the file to be read');
    const atOnce = checkBatchRows(reading.rows, reading.columnProblems, context);
    const inSlices = await checkBatchRowsInSlices(reading.rows, reading.columnProblems, context);
    expect(inSlices).toEqual(atOnce);
    expect(atOnce.problems.length).toBeGreaterThan(0);
    expect(atOnce.rows.length).toBeGreaterThan(1000);
  });
});

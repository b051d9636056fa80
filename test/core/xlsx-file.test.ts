/** Excel workbooks read by the shared table reader: dates, exact decimals, formulas' cached results, and the limits a zip bomb meets. */
import ExcelJS from 'exceljs';
import { zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { readTableFile, type TableLayout, type TableReading } from '../../src/core/table-file.js';
import { readWithProfile } from '../../src/partner-records/profile-reader.js';
import { defaultProfile, IMPORT_PROFILE } from '../../src/partner-records/profile.js';

// A profile's delimiter and encoding do not apply to a workbook: these would refuse any UTF-8 CSV with commas.
const LAYOUT: TableLayout = { encoding: 'utf-16', delimiter: ';', skipAbove: 0, skipBelow: 0, header: true };
const LIMITS = { maxBytes: 1024 * 1024, maxRows: 100 };

/** A workbook as Excel would save it: the rows given, then whatever `edit` sets on the first sheet. */
async function workbook(rows: unknown[][], edit?: (sheet: ExcelJS.Worksheet) => void): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('Payouts');
  for (const row of rows) sheet.addRow(row);
  edit?.(sheet);
  book.addWorksheet('Second sheet').addRow(['not read']);
  return Buffer.from(await book.xlsx.writeBuffer());
}

const refused = (reading: TableReading) => (reading.ok ? undefined : reading.problem);

describe('reading an Excel workbook', () => {
  it('reads the first sheet whatever the layout says of delimiters and encodings, with rows numbered as the sheet numbers them', async () => {
    const bytes = await workbook([['ref', 'name'], ['A-1', 'René'], [], ['A-2', 'Zoë; “quoted”, too'], ['A-3']]);
    const reading = await readTableFile(bytes, LAYOUT, LIMITS);
    if (!reading.ok) throw new Error(JSON.stringify(reading.problem));
    expect(reading.format).toBe('xlsx');
    expect(reading.header?.cells).toEqual(['ref', 'name']);
    expect(reading.rows.map((row) => [row.line, ...row.cells])).toEqual([
      [2, 'A-1', 'René'],
      [4, 'A-2', 'Zoë; “quoted”, too'],
      // Its empty last cell is a cell all the same, up to the header's width.
      [5, 'A-3', ''],
    ]);
  });

  it('gives dates as their calendar day (with the time when there is one), numbers as exact decimals, rich text joined', async () => {
    const bytes = await workbook(
      [
        ['date', 'amount', 'note'],
        [new Date(Date.UTC(2026, 10, 2)), 1234.56, { richText: [{ text: 'Fuel ' }, { font: { bold: true }, text: 'Kinshasa' }] }],
        [new Date(Date.UTC(2026, 10, 3, 14, 30)), -12, true],
      ],
      (sheet) => {
        sheet.getCell('A3').numFmt = 'yyyy-mm-dd hh:mm';
      },
    );
    const reading = await readTableFile(bytes, LAYOUT, LIMITS);
    if (!reading.ok) throw new Error(JSON.stringify(reading.problem));
    expect(reading.rows.map((row) => row.cells)).toEqual([
      ['2026-11-02', '1234.56', 'Fuel Kinshasa'],
      ['2026-11-03 14:30:00', '-12', 'TRUE'],
    ]);
    expect(reading.rows[0]?.typed?.[0]).toEqual({ kind: 'date', day: '2026-11-02', time: undefined });
    expect(reading.rows[0]?.typed?.[1]).toMatchObject({ kind: 'number', value: 1234.56 });
  });

  it('gives a formula its cached result only, and names the cell of a formula without one, a number needing an exponent, or too many digits', async () => {
    const bytes = await workbook([['a', 'b', 'c', 'd']], (sheet) => {
      sheet.getCell('A2').value = { formula: '1+1', result: 2 };
      sheet.getCell('B2').value = { formula: 'NOW()' };
      sheet.getCell('C2').value = 1.5e21;
      sheet.getCell('D2').value = 0.1 + 0.2;
    });
    const reading = await readTableFile(bytes, LAYOUT, LIMITS);
    if (!reading.ok) throw new Error(JSON.stringify(reading.problem));
    const [row] = reading.rows;
    expect(row?.cells).toEqual(['2', '', '', '']);
    expect(row?.typed?.slice(1)).toEqual([
      { kind: 'problem', problem: { code: 'cell_formula_uncached', cell: 'B2', found: '=NOW()' } },
      { kind: 'problem', problem: { code: 'cell_number_exponent', cell: 'C2', found: '1.5e+21' } },
      { kind: 'problem', problem: { code: 'cell_number_precision', cell: 'D2', found: '0.30000000000000004' } },
    ]);
  });

  it('skips lines above and below in a sheet as in a CSV', async () => {
    const bytes = await workbook([['Statement, November'], ['ref', 'amount'], ['A', 1], ['B', 2], ['Total', 3]]);
    const reading = await readTableFile(bytes, { ...LAYOUT, skipAbove: 1, skipBelow: 1 }, LIMITS);
    expect(reading.ok && reading.rows.map((row) => `${row.line}: ${row.cells.join('|')}`)).toEqual(['3: A|1', '4: B|2']);
  });

  it('refuses a sheet with more rows than allowed, or more cells, naming the limit', async () => {
    const rows = [['ref'], ...Array.from({ length: 101 }, (_, index) => [`R-${index}`])];
    expect(refused(await readTableFile(await workbook(rows), LAYOUT, LIMITS))).toEqual({ code: 'file_too_many_rows', max: 100, rows: 101 });
    const wide = [Array.from({ length: 200 }, (_, index) => `c${index}`), ...Array.from({ length: 50 }, () => Array.from({ length: 200 }, () => 'x'))];
    expect(refused(await readTableFile(await workbook(wide), LAYOUT, { maxBytes: 1024 * 1024, maxRows: 100 }))).toEqual({
      code: 'xlsx_too_many_cells',
      max: 101 * 64,
    });
  });

  it('refuses a zip bomb by the bytes it really inflates to, before any workbook library reads it, even when its sizes lie', async () => {
    // 30 MB of zeros, past the 20 MB a 1 MiB file may hold once inflated (20 × its limit).
    const zeros = new Uint8Array(30 * 1024 * 1024);
    const bomb = zipSync({ '[Content_Types].xml': new TextEncoder().encode('<Types/>'), 'xl/worksheets/sheet1.xml': zeros }, { level: 9 });
    expect(bomb.byteLength).toBeLessThan(LIMITS.maxBytes);
    const limit = { code: 'xlsx_too_large', maxBytes: 20 * 1024 * 1024 };
    expect(refused(await readTableFile(bomb, LAYOUT, LIMITS))).toEqual(limit);
    // The sizes written in the zip say 1000 bytes: only inflating tells the truth.
    const lying = Buffer.from(bomb);
    for (let at = 0; at < lying.length - 4; at += 1) {
      const signature = lying.readUInt32LE(at);
      if (signature === 0x04034b50 && lying.readUInt32LE(at + 22) === zeros.length) lying.writeUInt32LE(1000, at + 22);
      if (signature === 0x02014b50 && lying.readUInt32LE(at + 24) === zeros.length) lying.writeUInt32LE(1000, at + 24);
    }
    expect(lying.includes(Buffer.from([0x00, 0x00, 0xe0, 0x01]))).toBe(false);
    expect(refused(await readTableFile(lying, LAYOUT, LIMITS))).toEqual(limit);
  });

  it('refuses a zip of too many entries, and a zip that is no workbook', async () => {
    const entries = Object.fromEntries(Array.from({ length: 501 }, (_, index) => [`part${index}.xml`, new Uint8Array(1)]));
    expect(refused(await readTableFile(zipSync(entries), LAYOUT, LIMITS))).toEqual({ code: 'xlsx_too_many_entries', max: 500 });
    expect(refused(await readTableFile(zipSync({ 'notes.txt': new TextEncoder().encode('hello') }), LAYOUT, LIMITS))).toEqual({ code: 'xlsx_unreadable' });
  });
});

describe('reading a records workbook through an import profile', () => {
  it('takes a date cell as a date whatever the profile’s date format, and a number cell as an exact amount whatever its marks', async () => {
    const profile = IMPORT_PROFILE.parse({
      ...defaultProfile('Africa/Kinshasa'),
      name: 'bank',
      note: undefined,
      delimiter: ';',
      date: { column: 'date', format: 'DD/MM/YYYY' },
      numbers: { decimalMark: ',', grouping: '.' },
    });
    const bytes = await workbook(
      [
        ['reference', 'date', 'amount', 'currency'],
        ['VIR-1', new Date(Date.UTC(2026, 10, 2)), 1234.56, 'USD'],
        ['VIR-2', '03/11/2026', '1.250,50', 'EUR'],
      ],
      (sheet) => {
        sheet.getCell('C4').value = { formula: 'C2*2' };
        sheet.getCell('A4').value = 'VIR-3';
        sheet.getCell('B4').value = new Date(Date.UTC(2026, 10, 4));
        sheet.getCell('D4').value = 'USD';
      },
    );
    const limits = { maxBytes: 1024 * 1024, maxRows: 100, timeZone: 'Africa/Kinshasa', currencies: new Set(['USD', 'EUR']) };
    const reading = await readWithProfile(bytes, profile, limits);
    if (!reading.ok) throw new Error(JSON.stringify(reading.problem));
    expect(reading.records.map(({ row, day, amountMinor, currency }) => [row, day, amountMinor, currency])).toEqual([
      [2, '2026-11-02', 123456, 'USD'],
      [3, '2026-11-03', 125050, 'EUR'],
    ]);
    expect(reading.problems).toEqual([
      {
        row: 4,
        column: 'amount',
        position: 3,
        code: 'cell_unreadable',
        found: '=C2*2',
        cell: { code: 'cell_formula_uncached', cell: 'C4', found: '=C2*2' },
      },
    ]);
  });
});

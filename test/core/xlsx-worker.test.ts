/** The workbook worker: exceljs reads off the main thread, whose event loop keeps turning; a worker that fails refuses the workbook. */
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { readSheetInWorker } from '../../src/core/xlsx-file.js';
import { readTableFile } from '../../src/core/table-file.js';

const LAYOUT = { encoding: 'utf-8', delimiter: ',', skipAbove: 0, skipBelow: 0, header: true } as const;

/** A sheet of `rows` payouts under a header, as a bulk file would have them. */
async function largeWorkbook(rows: number): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('Payouts');
  sheet.addRow(['reference', 'phone', 'amount', 'currency', 'date', 'note']);
  for (let row = 1; row <= rows; row += 1)
    sheet.addRow([`P-${row}`, `+24381${String(row).padStart(7, '0')}`, row * 1.25, 'CDF', new Date(Date.UTC(2026, 10, 1 + (row % 28))), `Fuel ${row}`]);
  return Buffer.from(await book.xlsx.writeBuffer());
}

describe('the workbook worker', () => {
  it('keeps the main thread ticking every 10 ms while a sheet of 20,000 rows is read', async () => {
    const bytes = await largeWorkbook(20_000);
    const ticks: number[] = [];
    const ticking = setInterval(() => ticks.push(performance.now()), 10);
    const started = performance.now();
    const reading = await readTableFile(bytes, LAYOUT, { maxBytes: 10 * 1024 * 1024, maxRows: 20_000 });
    const took = performance.now() - started;
    clearInterval(ticking);
    if (!reading.ok) throw new Error(JSON.stringify(reading.problem));
    expect(reading.rows).toHaveLength(20_000);
    expect(reading.rows[19_999]?.cells).toEqual(['P-20000', '+243810020000', '25000', 'CDF', '2026-11-09', 'Fuel 20000']);
    const gaps = ticks.slice(1).map((tick, index) => tick - ticks[index]!);
    const longest = Math.max(...gaps);
    expect(ticks.length).toBeGreaterThan(10);
    // exceljs on the main thread held it for about a third of the read; a ratio, so that a loaded machine does not fail it.
    expect(longest).toBeLessThan(took / 10);
  }, 60_000);

  it('refuses the workbook as unreadable when its worker runs out of its heap or past its time, and the next read goes on', async () => {
    const bytes = await largeWorkbook(20_000);
    const unreadable = { ok: false, problem: { code: 'xlsx_unreadable' } };
    expect(await readSheetInWorker(bytes, { maxRows: 30_000 }, { heapMb: 16 })).toEqual(unreadable);
    expect(await readSheetInWorker(bytes, { maxRows: 30_000 }, { timeoutMs: 1 })).toEqual(unreadable);
    const small = await largeWorkbook(2);
    expect(await readSheetInWorker(small, { maxRows: 10 })).toMatchObject({ ok: true, rows: [{ line: 1 }, { line: 2 }, { line: 3 }] });
  }, 60_000);

  it('reads two workbooks given at once, each its own rows, and leaves the bytes it was given as they were', async () => {
    const [two, three] = [await largeWorkbook(2), await largeWorkbook(3)];
    const copy = Buffer.from(two);
    const [first, second] = await Promise.all([
      readTableFile(two, LAYOUT, { maxBytes: 1024 * 1024, maxRows: 10 }),
      readTableFile(three, LAYOUT, { maxBytes: 1024 * 1024, maxRows: 10 }),
    ]);
    expect(first.ok && first.rows.map((row) => row.cells[0])).toEqual(['P-1', 'P-2']);
    expect(second.ok && second.rows.map((row) => row.cells[0])).toEqual(['P-1', 'P-2', 'P-3']);
    expect(two.equals(copy)).toBe(true);
  });
});

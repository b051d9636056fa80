/**
 * The first worksheet of an Excel workbook as rows of text cells, read with exceljs: dates become their
 * calendar day, numbers their exact decimal, formulas their cached result (nothing is evaluated). Runs
 * in the workbook worker (`xlsx-worker.ts`), never on the main thread: exceljs parses a workbook in one piece.
 */

/** Why a workbook is refused; each names its limit. */
export type XlsxProblem =
  /** Not a workbook that can be read: a broken zip, no worksheet, or parts that are not a workbook's. */
  | { code: 'xlsx_unreadable' }
  /** Its parts, once inflated, exceed `maxBytes`. */
  | { code: 'xlsx_too_large'; maxBytes: number }
  | { code: 'xlsx_too_many_entries'; max: number }
  | { code: 'xlsx_too_many_cells'; max: number };

/** What reading the sheet gives: its rows, or why it was refused. */
export type SheetReading = { ok: true; rows: XlsxRow[] } | { ok: false; problem: XlsxProblem | { code: 'xlsx_too_many_rows'; rows: number } };

export type CellProblemCode =
  /** A number only an exponent writes (`1.5E+21`): its digits are not all there. */
  | 'cell_number_exponent'
  /** More than 15 significant digits: Excel keeps no more, the rest is lost. */
  | 'cell_number_precision'
  /** A formula the workbook holds no result for (saved by a program that does not compute). */
  | 'cell_formula_uncached'
  /** An error value (`#DIV/0!`, `#REF!`…), or a formula whose result is one. */
  | 'cell_error';

/** A cell the workbook gave that cannot be read as text, by its reference (`C12`). */
export interface CellProblem {
  code: CellProblemCode;
  cell: string;
  /** What the cell holds, at most 40 characters. */
  found: string;
}

/** What a workbook's cell was, beyond its text: a date, a number, or a problem (its text then empty). */
export type TableCell =
  | { kind: 'date'; day: string; time: string | undefined }
  /** `scientific`: the sheet shows it with an exponent (a number format with `E+`). */
  | { kind: 'number'; value: number; scientific: boolean }
  | { kind: 'problem'; problem: CellProblem };

export interface XlsxRow {
  cells: string[];
  line: number;
  typed: Array<TableCell | undefined>;
}

/** Cells holding anything, per row allowed: a bulk or records row has about ten. */
export const XLSX_CELLS_PER_ROW = 64;

/** `C12`: a cell's reference as a spreadsheet writes it, from its 1-based column position and row. */
export function cellReference(position: number, row: number): string {
  let letters = '';
  for (let rest = position; rest > 0; rest = Math.floor((rest - 1) / 26)) letters = String.fromCharCode(65 + ((rest - 1) % 26)) + letters;
  return `${letters}${row}`;
}

/** The shortest decimal that reads back as `value`, or the problem when that needs an exponent or more than 15 digits. */
export function exactDecimal(value: number): { text: string } | { problem: CellProblemCode } {
  const text = String(value);
  if (/e/i.test(text)) return { problem: 'cell_number_exponent' };
  const digits = text.replace(/^-/, '').replace('.', '').replace(/^0+/, '');
  const significant = text.includes('.') ? digits : digits.replace(/0+$/, '');
  return significant.length > 15 ? { problem: 'cell_number_precision' } : { text };
}

const cut = (text: string) => text.slice(0, 40);

type Cell = import('exceljs').Cell;
type CellValue = import('exceljs').CellValue;

/** One cell as text, and what it was when that is more than text. */
function readCell(cell: Cell, at: string): { text: string; typed?: TableCell } {
  const value: CellValue = cell.value;
  const problem = (code: CellProblemCode, found: string) => ({ text: '', typed: { kind: 'problem' as const, problem: { code, cell: at, found: cut(found) } } });
  if (value === null || value === undefined) return { text: '' };
  if (typeof value === 'object' && 'formula' in value === false && 'sharedFormula' in value === false && 'richText' in value) {
    return { text: value.richText.map((run) => run.text).join('') };
  }
  const read = (result: unknown, formula: string | undefined): { text: string; typed?: TableCell } => {
    if (result === undefined || result === null) return formula === undefined ? { text: '' } : problem('cell_formula_uncached', `=${formula}`);
    if (result instanceof Date) {
      const iso = result.toISOString();
      const day = iso.slice(0, 10);
      const time = iso.slice(11, 19) === '00:00:00' ? undefined : iso.slice(11, 19);
      return { text: time === undefined ? day : `${day} ${time}`, typed: { kind: 'date', day, time } };
    }
    if (typeof result === 'number') {
      if (!Number.isFinite(result)) return problem('cell_error', String(result));
      const decimal = exactDecimal(result);
      if ('problem' in decimal) return problem(decimal.problem, String(result));
      return { text: decimal.text, typed: { kind: 'number', value: result, scientific: /E[+-]/i.test(cell.numFmt ?? '') } };
    }
    if (typeof result === 'boolean') return { text: result ? 'TRUE' : 'FALSE' };
    if (typeof result === 'string') return { text: result };
    if (typeof result === 'object') {
      if ('error' in result) return problem('cell_error', String(result.error));
      if ('richText' in result) return { text: (result as { richText: Array<{ text: string }> }).richText.map((run) => run.text).join('') };
      if ('text' in result) return read(result.text, undefined);
    }
    return { text: '' };
  };
  if (typeof value === 'object' && !(value instanceof Date) && ('formula' in value || 'sharedFormula' in value)) {
    const formula = 'formula' in value ? value.formula : (value as { sharedFormula: string }).sharedFormula;
    return read((value as { result?: unknown }).result, formula);
  }
  return read(value, undefined);
}

/**
 * The first worksheet's rows that hold anything, as text with each row's number; refused beyond
 * `maxRows` such rows, or `maxRows × XLSX_CELLS_PER_ROW` cells holding anything. Only for bytes
 * already measured as a zip within the limits.
 */
export async function readFirstSheet(bytes: Uint8Array, limits: { maxRows: number }): Promise<SheetReading> {
  const { default: ExcelJS } = await import('exceljs');
  const workbook = new ExcelJS.Workbook();
  try {
    await workbook.xlsx.load(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) as unknown as ArrayBuffer);
  } catch {
    return { ok: false, problem: { code: 'xlsx_unreadable' } };
  }
  const sheet = workbook.worksheets[0];
  if (!sheet) return { ok: false, problem: { code: 'xlsx_unreadable' } };
  if (sheet.actualRowCount > limits.maxRows) return { ok: false, problem: { code: 'xlsx_too_many_rows', rows: sheet.actualRowCount } };
  const maxCells = limits.maxRows * XLSX_CELLS_PER_ROW;
  const rows: XlsxRow[] = [];
  let cells = 0;
  for (let number = 1; number <= sheet.rowCount; number += 1) {
    const row = sheet.findRow(number);
    if (!row || !row.hasValues) continue;
    const texts: string[] = [];
    const typed: Array<TableCell | undefined> = [];
    let blank = true;
    for (let position = 1; position <= row.cellCount; position += 1) {
      const cell = row.findCell(position);
      // A merged cell's value is its first cell's: shown once, as the sheet shows it.
      const read = cell && cell.type !== ExcelJS.ValueType.Merge ? readCell(cell, cellReference(position, number)) : { text: '' };
      texts.push(read.text);
      typed.push(read.typed);
      if (read.text.trim() !== '' || read.typed) blank = false;
      if (read.text !== '' || read.typed) cells += 1;
    }
    if (cells > maxCells) return { ok: false, problem: { code: 'xlsx_too_many_cells', max: maxCells } };
    if (!blank) rows.push({ cells: texts, line: number, typed });
  }
  return { ok: true, rows };
}

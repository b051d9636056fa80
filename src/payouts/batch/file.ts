/**
 * Reads a bulk payout file (CSV with a header row, or the first sheet of an .xlsx workbook) into
 * numbered rows of raw text, or says why the file as a whole cannot be read. The bytes become rows in
 * `core/table-file.ts`, shared with the partner's records; row rules (amounts, phones, …) are `rows.ts`'s job.
 */
import {
  cellReference,
  hasUtf16Bom,
  readTableFile,
  type CellProblem,
  type TableEncoding,
  type TableFileProblem,
  type TableRow,
} from '../../core/table-file.js';
import type { BackgroundTurns } from '../../runtime/turns.js';

/** The columns of a bulk payout file, in the order the example in docs/payouts.md ("Bulk payouts") writes them. */
const BATCH_COLUMNS = ['kind', 'number', 'provider', 'name', 'country', 'amount', 'currency', 'reference', 'note'] as const;
export type BatchColumn = (typeof BATCH_COLUMNS)[number];
/** Columns a file may leave out of its header altogether. */
const OPTIONAL_COLUMNS: readonly BatchColumn[] = ['reference', 'note'];

/** The largest file read at all (bytes): a bulk file of 500 rows is far smaller. */
export const BATCH_FILE_MAX_BYTES = 1024 * 1024;

/** The encodings a person may choose for a bulk file's text; UTF-16 is known by its byte-order mark. */
export const BATCH_FILE_ENCODINGS = ['utf-8', 'windows-1252', 'iso-8859-1'] as const satisfies readonly TableEncoding[];
export type BatchFileEncoding = (typeof BATCH_FILE_ENCODINGS)[number];

/**
 * A cell the reader could not give as typed text: a workbook's cell without a value to read, or a
 * `number` that a spreadsheet turned into a number (`2.43998E+11`), whose digits may be lost.
 */
export type BatchCellProblem = { code: 'number_scientific'; found: string; cell?: string } | CellProblem;

/** One data row as typed, numbered as a spreadsheet numbers it (the header is row 1). */
export interface RawBatchRow {
  rowNumber: number;
  cells: Partial<Record<BatchColumn, string>>;
  /** Cells that could not be read, by column (a workbook's, or a number in scientific notation). */
  cellProblems?: Partial<Record<BatchColumn, BatchCellProblem>>;
}

/** Why a whole file is refused; the Slack layer words each in the reader's language. */
export type BatchFileProblem =
  | TableFileProblem
  | { code: 'file_missing_columns'; columns: BatchColumn[] }
  | { code: 'file_unknown_columns'; columns: string[] }
  | { code: 'file_repeated_column'; column: string }
  | { code: 'file_no_rows' };

/** A row whose cells do not line up with the header: reported with the other row errors. */
export interface ColumnCountProblem {
  rowNumber: number;
  code: 'row_column_count';
  expected: number;
  found: number;
}

export type BatchFileReading = { ok: true; rows: RawBatchRow[]; columnProblems: ColumnCountProblem[] } | { ok: false; problem: BatchFileProblem };

const fail = (problem: BatchFileProblem): { ok: false; problem: BatchFileProblem } => ({ ok: false, problem });

/** The header's names, as compared: unquoted, trimmed, lower-cased. */
const headerName = (cell: string) =>
  cell
    .trim()
    .replace(/^"(.*)"$/, '$1')
    .trim()
    .toLowerCase();

/** The delimiter that splits the header into the documented columns; commas when none does (the header's problem then says what is wrong). */
export function batchDelimiter(headerLine: string): ',' | ';' | '\t' {
  const known = new Set<string>(BATCH_COLUMNS);
  for (const delimiter of [',', ';', '\t'] as const) {
    const names = headerLine.split(delimiter).map(headerName);
    if (names.length > 1 && names.every((name) => known.has(name))) return delimiter;
  }
  return ',';
}

export interface BatchFileOptions {
  maxRows: number;
  maxBytes?: number;
  /** The encoding chosen for a text file (UTF-8 when none); a UTF-16 byte-order mark is read whatever the choice. */
  encoding?: BatchFileEncoding;
  turns?: BackgroundTurns;
}

/**
 * Reads `content` (the file's bytes, or text pasted in the modal). Accepts a UTF-8 BOM, UTF-16 with
 * its BOM, the chosen legacy encoding, commas, semicolons or tabs (the one that splits the header into
 * the columns), Windows or Unix line ends, quoted fields holding commas, quotes or line breaks, blank
 * lines, a header in any case and column order, an .xlsx workbook's first sheet, and leaves the
 * optional columns out when absent.
 */
export async function readBatchFile(content: Uint8Array | string, options: BatchFileOptions): Promise<BatchFileReading> {
  const maxBytes = options.maxBytes ?? BATCH_FILE_MAX_BYTES;
  const encoding: TableEncoding = typeof content !== 'string' && hasUtf16Bom(content) ? 'utf-16' : (options.encoding ?? 'utf-8');
  const table = await readTableFile(
    content,
    { encoding, delimiter: batchDelimiter, skipAbove: 0, skipBelow: 0, header: true },
    { maxBytes, maxRows: options.maxRows },
    options.turns,
  );
  if (!table.ok) return fail(table.problem);
  if (!table.header) return fail({ code: 'file_empty' });
  const columns = readHeader(table.header.cells);
  if (!columns.ok) return columns;
  if (table.rows.length === 0) return fail({ code: 'file_no_rows' });
  return { ok: true, ...toRows(table.rows, columns.columns, table.format) };
}

function readHeader(header: string[]): { ok: true; columns: BatchColumn[] } | { ok: false; problem: BatchFileProblem } {
  const names = header.map((cell) => cell.trim().toLowerCase());
  const known = new Set<string>(BATCH_COLUMNS);
  const unknown = names.filter((name) => !known.has(name));
  if (unknown.length > 0) return fail({ code: 'file_unknown_columns', columns: unknown.map((name) => name.slice(0, 40)) });
  const repeated = names.find((name, index) => names.indexOf(name) !== index);
  if (repeated !== undefined) return fail({ code: 'file_repeated_column', column: repeated });
  const missing = BATCH_COLUMNS.filter((column) => !OPTIONAL_COLUMNS.includes(column) && !names.includes(column));
  if (missing.length > 0) return fail({ code: 'file_missing_columns', columns: missing });
  return { ok: true, columns: names as BatchColumn[] };
}

/** A phone number a spreadsheet wrote in scientific notation (`2.43998E+11`): its last digits are gone. */
const SCIENTIFIC = /^[+-]?\d+(?:[.,]\d+)?E[+-]?\d+$/i;

function toRows(body: TableRow[], columns: BatchColumn[], format: 'csv' | 'xlsx'): { rows: RawBatchRow[]; columnProblems: ColumnCountProblem[] } {
  const rows: RawBatchRow[] = [];
  const columnProblems: ColumnCountProblem[] = [];
  body.forEach((record, index) => {
    // A CSV's rows count the header as row 1 and skip blank lines, as the person's spreadsheet shows no gaps; a sheet's rows are its own.
    const rowNumber = format === 'xlsx' ? record.line : index + 2;
    // A sheet's cells beyond the header's count only when they hold something.
    const length = format === 'xlsx' && record.cells.slice(columns.length).every((cell) => cell.trim() === '') ? columns.length : record.cells.length;
    if (length !== columns.length) {
      columnProblems.push({ rowNumber, code: 'row_column_count', expected: columns.length, found: length });
      return;
    }
    const cells: Partial<Record<BatchColumn, string>> = {};
    const cellProblems: Partial<Record<BatchColumn, BatchCellProblem>> = {};
    columns.forEach((column, at) => {
      const text = record.cells[at] ?? '';
      const typed = record.typed?.[at];
      cells[column] = text;
      if (typed?.kind === 'problem') cellProblems[column] = typed.problem;
      else if (column === 'number' && SCIENTIFIC.test(text.trim())) cellProblems[column] = { code: 'number_scientific', found: text.trim().slice(0, 40) };
      // A number cell in the number column: kept only as a whole number shown in full by the sheet; otherwise its digits may be lost.
      else if (column === 'number' && typed?.kind === 'number' && (typed.scientific || !Number.isSafeInteger(typed.value) || typed.value < 0))
        cellProblems[column] = { code: 'number_scientific', found: text.slice(0, 40), cell: cellReference(at + 1, record.line) };
    });
    rows.push({ rowNumber, cells, ...(Object.keys(cellProblems).length > 0 ? { cellProblems } : {}) });
  });
  return { rows, columnProblems };
}

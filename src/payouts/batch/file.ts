/**
 * Reads a bulk payout file (CSV with a header row) into numbered rows of raw text, or says why the
 * file as a whole cannot be read. Row rules (amounts, phones, …) are `rows.ts`'s job.
 */
import { parse, CsvError } from 'csv-parse/sync';

/** The columns of a bulk payout file, in the order the example in docs/payouts.md ("Bulk payouts") writes them. */
const BATCH_COLUMNS = ['kind', 'number', 'provider', 'name', 'country', 'amount', 'currency', 'reference', 'note'] as const;
export type BatchColumn = (typeof BATCH_COLUMNS)[number];
/** Columns a file may leave out of its header altogether. */
const OPTIONAL_COLUMNS: readonly BatchColumn[] = ['reference', 'note'];

/** The largest file read at all (bytes): a bulk file of 500 rows is far smaller. */
export const BATCH_FILE_MAX_BYTES = 1024 * 1024;

/** One data row as typed, numbered as a spreadsheet numbers it (the header is row 1). */
export interface RawBatchRow {
  rowNumber: number;
  cells: Partial<Record<BatchColumn, string>>;
}

/** Why a whole file is refused; the Slack layer words each in the reader's language. */
export type BatchFileProblem =
  | { code: 'file_empty' }
  | { code: 'file_too_large'; maxBytes: number }
  | { code: 'file_binary' }
  /** The header reads as one column but holds `;` or tabs: saved with another delimiter. */
  | { code: 'file_delimiter'; found: ';' | 'tab' }
  | { code: 'file_missing_columns'; columns: BatchColumn[] }
  | { code: 'file_unknown_columns'; columns: string[] }
  | { code: 'file_repeated_column'; column: string }
  | { code: 'file_no_rows' }
  | { code: 'file_too_many_rows'; max: number; rows: number }
  /** The CSV itself is broken (a quote never closed…), near `line`. */
  | { code: 'file_unreadable'; line: number };

/** A row whose cells do not line up with the header: reported with the other row errors. */
export interface ColumnCountProblem {
  rowNumber: number;
  code: 'row_column_count';
  expected: number;
  found: number;
}

export type BatchFileReading = { ok: true; rows: RawBatchRow[]; columnProblems: ColumnCountProblem[] } | { ok: false; problem: BatchFileProblem };

const fail = (problem: BatchFileProblem): { ok: false; problem: BatchFileProblem } => ({ ok: false, problem });

/** Control characters no text file has (a tab, line ends and form feeds aside). */
function hasControlCharacters(text: string): boolean {
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (code < 0x20 && code !== 0x09 && code !== 0x0a && code !== 0x0c && code !== 0x0d) return true;
  }
  return false;
}

/** Decodes the bytes as UTF-8, refusing what is plainly not text (NUL bytes, broken UTF-8). */
function decode(bytes: Uint8Array): string | undefined {
  if (bytes.includes(0)) return undefined;
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    return undefined;
  }
}

/**
 * Reads `content` (the file's bytes, or text pasted in the modal). Accepts a UTF-8 BOM, Windows or
 * Unix line ends, quoted fields holding commas, quotes or line breaks, blank lines, a header in any
 * case and column order, and leaves the optional columns out when absent.
 */
export function readBatchFile(content: Uint8Array | string, limits: { maxRows: number; maxBytes?: number }): BatchFileReading {
  const maxBytes = limits.maxBytes ?? BATCH_FILE_MAX_BYTES;
  const size = typeof content === 'string' ? Buffer.byteLength(content) : content.byteLength;
  if (size > maxBytes) return fail({ code: 'file_too_large', maxBytes });
  const text = typeof content === 'string' ? content : decode(content);
  if (text === undefined || hasControlCharacters(text)) return fail({ code: 'file_binary' });
  if (text.replace(/^\uFEFF/, '').trim() === '') return fail({ code: 'file_empty' });

  let records: string[][];
  try {
    const parsed: unknown = parse(text, { bom: true, relax_column_count: true, skip_empty_lines: true, trim: false });
    records = parsed as string[][];
  } catch (error) {
    if (error instanceof CsvError) return fail({ code: 'file_unreadable', line: (error as CsvError & { lines?: number }).lines ?? 1 });
    throw error;
  }
  const [header, ...body] = records.filter((record) => record.some((cell) => cell.trim() !== ''));
  if (!header) return fail({ code: 'file_empty' });
  const columns = readHeader(header);
  if (!columns.ok) return columns;
  if (body.length === 0) return fail({ code: 'file_no_rows' });
  if (body.length > limits.maxRows) return fail({ code: 'file_too_many_rows', max: limits.maxRows, rows: body.length });
  return { ok: true, ...toRows(body, columns.columns) };
}

function readHeader(header: string[]): { ok: true; columns: BatchColumn[] } | { ok: false; problem: BatchFileProblem } {
  const names = header.map((cell) => cell.trim().toLowerCase());
  if (names.length === 1) {
    const only = header[0] ?? '';
    if (only.includes(';')) return fail({ code: 'file_delimiter', found: ';' });
    if (only.includes('\t')) return fail({ code: 'file_delimiter', found: 'tab' });
  }
  const known = new Set<string>(BATCH_COLUMNS);
  const unknown = names.filter((name) => !known.has(name));
  if (unknown.length > 0) return fail({ code: 'file_unknown_columns', columns: unknown.map((name) => name.slice(0, 40)) });
  const repeated = names.find((name, index) => names.indexOf(name) !== index);
  if (repeated !== undefined) return fail({ code: 'file_repeated_column', column: repeated });
  const missing = BATCH_COLUMNS.filter((column) => !OPTIONAL_COLUMNS.includes(column) && !names.includes(column));
  if (missing.length > 0) return fail({ code: 'file_missing_columns', columns: missing });
  return { ok: true, columns: names as BatchColumn[] };
}

function toRows(body: string[][], columns: BatchColumn[]): { rows: RawBatchRow[]; columnProblems: ColumnCountProblem[] } {
  // Row numbers count the header as row 1 and skip blank lines, as the person's spreadsheet shows no gaps.
  const rows: RawBatchRow[] = [];
  const columnProblems: ColumnCountProblem[] = [];
  body.forEach((record, index) => {
    const rowNumber = index + 2;
    if (record.length !== columns.length) {
      columnProblems.push({ rowNumber, code: 'row_column_count', expected: columns.length, found: record.length });
      return;
    }
    const cells: Partial<Record<BatchColumn, string>> = {};
    columns.forEach((column, at) => {
      cells[column] = record[at] ?? '';
    });
    rows.push({ rowNumber, cells });
  });
  return { rows, columnProblems };
}

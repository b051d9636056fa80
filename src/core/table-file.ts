/**
 * Turns an uploaded table's bytes (CSV text in one of four encodings, or an Excel workbook) into rows
 * of cells numbered as a spreadsheet numbers them, within limits named before reading, or says why
 * the file as a whole cannot be read. Shared by the partner's records and the bulk payout files, so a
 * fix lands once. Long work runs in slices that let the event loop go.
 */
import { CsvError, parse } from 'csv-parse';
import { EventLoopTurns, SLICE_MS, type BackgroundTurns } from '../runtime/turns.js';
import { readXlsxRows, type TableCell, type XlsxProblem } from './xlsx-file.js';

export { cellReference, inflatedLimit, XLSX_CELLS_PER_ROW, XLSX_MAX_ENTRIES, XLSX_MAX_INFLATED_BYTES } from './xlsx-file.js';
export type { TableCell, CellProblem, CellProblemCode, XlsxProblem } from './xlsx-file.js';

export const TABLE_ENCODINGS = ['utf-8', 'utf-16', 'windows-1252', 'iso-8859-1'] as const;
export type TableEncoding = (typeof TABLE_ENCODINGS)[number];
export type TableDelimiter = ',' | ';' | '\t';

/** Why a whole file cannot be read, whatever it was meant to hold; each refusal names its limit. */
export type TableFileProblem =
  | { code: 'file_empty' }
  | { code: 'file_too_large'; maxBytes: number }
  /** Not text in `encoding`: NUL bytes, control characters, or bytes that encoding does not have. */
  | { code: 'file_encoding'; encoding: TableEncoding }
  /** The CSV itself is broken (a quote never closed…), near `line`. */
  | { code: 'file_unreadable'; line: number }
  /** More data rows than `max`; `rows` counted (for a workbook, its rows holding anything). */
  | { code: 'file_too_many_rows'; max: number; rows: number }
  | XlsxProblem;

export interface TableLayout {
  /** For text; a workbook has none. */
  encoding: TableEncoding;
  /** The delimiter, or how to choose it from the first line that is not blank (after the lines skipped above). */
  delimiter: TableDelimiter | ((firstLine: string) => TableDelimiter);
  /** Lines above the header (or above the first row without one), and below the last row; blank lines are not counted. */
  skipAbove: number;
  skipBelow: number;
  header: boolean;
}

export interface TableLimits {
  maxBytes: number;
  /** Data rows, header and skipped lines aside. */
  maxRows: number;
}

/** One row that is not blank: its cells as text, and the line (CSV) or row (workbook) a spreadsheet shows it on. */
export interface TableRow {
  cells: string[];
  line: number;
  /** A workbook's typed cells by 0-based position (dates, numbers, problems); none for CSV. */
  typed?: ReadonlyArray<TableCell | undefined>;
}

export type TableReading = { ok: true; format: 'csv' | 'xlsx'; header: TableRow | undefined; rows: TableRow[] } | { ok: false; problem: TableFileProblem };

/** A zip archive's first bytes (`PK\x03\x04`): an .xlsx workbook, whatever a profile says of delimiters and encodings. */
export function isZip(bytes: Uint8Array): boolean {
  return bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04;
}

/** A UTF-16 byte-order mark, either way round. */
export function hasUtf16Bom(bytes: Uint8Array): boolean {
  return (bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff);
}

/** Windows-1252's characters for the bytes 0x80 to 0x9F (the five it leaves undefined kept as the byte). */
const WINDOWS_1252_HIGH = [
  0x20ac, 0x81, 0x201a, 0x192, 0x201e, 0x2026, 0x2020, 0x2021, 0x2c6, 0x2030, 0x160, 0x2039, 0x152, 0x8d, 0x17d, 0x8f, 0x90, 0x2018, 0x2019, 0x201c, 0x201d,
  0x2022, 0x2013, 0x2014, 0x2dc, 0x2122, 0x161, 0x203a, 0x153, 0x9d, 0x17e, 0x178,
].map((code) => String.fromCharCode(code));

/** The bytes as text in `encoding`, or undefined when they are not that encoding. */
export function decodeAs(bytes: Uint8Array, encoding: TableEncoding): string | undefined {
  try {
    if (encoding === 'utf-16') {
      // Only with its byte-order mark: without one, the byte order would be a guess.
      if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le', { fatal: true }).decode(bytes);
      if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be', { fatal: true }).decode(bytes);
      return undefined;
    }
    if (encoding === 'utf-8') return bytes.includes(0) ? undefined : new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    // A NUL is never text in a one-byte encoding: most likely a UTF-16 file.
    if (bytes.includes(0)) return undefined;
    const latin1 = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
    // Windows-1252 puts printable characters (`€`, `’`, `—`) where ISO-8859-1 has control codes; Node's decoders read those bytes as Latin-1.
    return encoding === 'windows-1252' ? latin1.replace(/[\u0080-\u009F]/g, (char) => WINDOWS_1252_HIGH[char.charCodeAt(0) - 0x80] ?? char) : latin1;
  } catch {
    return undefined;
  }
}

/** Control characters no text file has (a tab, line ends and form feeds aside): a binary file read as text. */
function hasControlCharacters(text: string): boolean {
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (code < 0x20 && code !== 0x09 && code !== 0x0a && code !== 0x0c && code !== 0x0d) return true;
  }
  return false;
}

const MIN_SLICE_CHARS = 1024;
const MAX_SLICE_CHARS = 64 * 1024;

/**
 * Parses the CSV text in slices, resolving with each non-blank record and the line it ends on; at
 * most `maxRows` plus two records are kept, with `tooMany` set beyond and `count` counting them all.
 */
export async function parseInSlices(
  text: string,
  maxRows: number,
  turns: BackgroundTurns,
  delimiter: TableDelimiter = ',',
): Promise<{ records: Array<{ cells: string[]; line: number }>; tooMany: boolean; count: number }> {
  // A quote inside a field that does not start with one (`Fuel "A"`) is taken as written.
  const parser = parse({ bom: true, delimiter, relax_column_count: true, relax_quotes: true, skip_empty_lines: true, info: true });
  const records: Array<{ cells: string[]; line: number }> = [];
  let tooMany = false;
  let count = 0;
  let failure: Error | undefined;
  parser.on('readable', () => {
    let read: { record: string[]; info: { lines: number } } | null;
    while ((read = parser.read() as typeof read) !== null) {
      if (read.record.every((cell) => cell.trim() === '')) continue;
      count += 1;
      // The header plus maxRows: one more is enough to refuse the file.
      if (records.length > maxRows + 1) tooMany = true;
      else records.push({ cells: read.record, line: read.info.lines });
    }
  });
  const done = new Promise<void>((resolve) => {
    parser.on('end', resolve);
    parser.on('error', (error: Error) => {
      failure ??= error;
      resolve();
    });
  });
  let size = MIN_SLICE_CHARS;
  for (let at = 0; at < text.length && failure === undefined;) {
    const slice = text.slice(at, at + size);
    at += slice.length;
    const started = performance.now();
    // Each slice parsed before the next is written: slices written ahead would wait in the stream's
    // buffer while the records were read, and all be parsed in one turn of the loop then.
    await new Promise<void>((resolve) => {
      try {
        parser.write(slice, () => resolve());
      } catch (error) {
        failure ??= error instanceof Error ? error : new Error(String(error));
        resolve();
      }
    });
    // Slices sized by the time they take: small while the parser's code is not yet compiled or the machine is busy.
    const took = performance.now() - started;
    if (took > SLICE_MS / 2) size = Math.max(MIN_SLICE_CHARS, size / 2);
    else if (took < SLICE_MS / 4) size = Math.min(MAX_SLICE_CHARS, size * 2);
    await turns.nextBackgroundTurn();
  }
  if (failure === undefined) parser.end();
  else parser.destroy();
  if (failure === undefined) await done;
  if (failure !== undefined) throw failure;
  return { records, tooMany, count };
}

const fail = (problem: TableFileProblem): TableReading => ({ ok: false, problem });

/** The first line holding anything after `skipAbove` such lines (a quoted line break aside: a header has none). */
function firstLineAfter(text: string, skipAbove: number): string {
  let seen = 0;
  for (const line of text.replace(/^\uFEFF/, '').split(/\r\n|\n|\r/)) {
    if (line.trim() === '') continue;
    if (seen === skipAbove) return line;
    seen += 1;
  }
  return '';
}

/**
 * Reads `content` (bytes, or text already decoded, as pasted in a modal) into its header and rows
 * as `layout` describes them; a workbook (.xlsx, by its zip signature) is read from its first
 * worksheet whatever the layout's encoding and delimiter. Nothing is kept.
 */
export async function readTableFile(
  content: Uint8Array | string,
  layout: TableLayout,
  limits: TableLimits,
  turns: BackgroundTurns = new EventLoopTurns(),
): Promise<TableReading> {
  const size = typeof content === 'string' ? Buffer.byteLength(content) : content.byteLength;
  if (size > limits.maxBytes) return fail({ code: 'file_too_large', maxBytes: limits.maxBytes });
  const allowed = limits.maxRows + layout.skipAbove + (layout.header ? 1 : 0) + layout.skipBelow;
  let lines: TableRow[];
  let count: number;
  let format: 'csv' | 'xlsx' = 'csv';
  if (typeof content !== 'string' && isZip(content)) {
    const read = await readXlsxRows(content, { maxBytes: limits.maxBytes, maxRows: allowed }, turns);
    if (!read.ok) {
      if (read.problem.code === 'xlsx_too_many_rows')
        return fail({ code: 'file_too_many_rows', max: limits.maxRows, rows: dataRows(read.problem.rows, layout) });
      return fail(read.problem);
    }
    if (read.rows.length === 0) return fail({ code: 'file_empty' });
    lines = read.rows;
    count = read.rows.length;
    format = 'xlsx';
  } else {
    const text = typeof content === 'string' ? content : decodeAs(content, layout.encoding);
    if (text === undefined || hasControlCharacters(text)) return fail({ code: 'file_encoding', encoding: layout.encoding });
    // Stops at the first character that is not a mark or a space: a large file is not copied to find out.
    if (/^\uFEFF?\s*$/u.test(text)) return fail({ code: 'file_empty' });
    const delimiter = typeof layout.delimiter === 'function' ? layout.delimiter(firstLineAfter(text, layout.skipAbove)) : layout.delimiter;
    try {
      const parsed = await parseInSlices(text, allowed, turns, delimiter);
      lines = parsed.records;
      count = parsed.count;
    } catch (error) {
      if (error instanceof CsvError) return fail({ code: 'file_unreadable', line: (error as CsvError & { lines?: number }).lines ?? 1 });
      throw error;
    }
  }
  const rows = lines.slice(layout.skipAbove);
  const header = layout.header ? rows.shift() : undefined;
  if (layout.header && header === undefined) return fail({ code: 'file_empty' });
  const body = rows.slice(0, Math.max(0, rows.length - layout.skipBelow));
  // A sheet's row ends at its last cell holding anything: its empty cells up to the header's width are cells all the same, as in a CSV.
  if (format === 'xlsx' && header) for (const row of body) while (row.cells.length < header.cells.length) row.cells.push('');
  if (count > allowed) return fail({ code: 'file_too_many_rows', max: limits.maxRows, rows: dataRows(count, layout) });
  return { ok: true, format, header, rows: body };
}

function dataRows(count: number, layout: TableLayout): number {
  return Math.max(0, count - layout.skipAbove - (layout.header ? 1 : 0) - layout.skipBelow);
}

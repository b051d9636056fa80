/**
 * The start of an uploaded records file read with a layout (encoding, delimiter, lines above, header
 * or none), for the profile builder to show and to offer as columns. Only the first `SAMPLE_BYTES`
 * are read: the file itself is read whole, later, by `readWithProfile`.
 */
import { CsvError } from 'csv-parse';
import { parse } from 'csv-parse/sync';
import { DATE_FORMATS, type DateFormat, type ImportProfile } from './profile.js';
import { readProfileDate } from './profile-dates.js';
import { decodeAs } from './profile-reader.js';

export const SAMPLE_BYTES = 64 * 1024;
/** Lines shown as written, at least (more when many lines are skipped above the header). */
const FIRST_LINES = 8;
const MAX_FIRST_LINES = 16;
/** Data rows split into cells. */
const FIRST_ROWS = 5;
/** Records of empty cells (`;;;`) the parser is allowed past before the rows wanted. */
const BLANK_MARGIN = 50;

export interface FileSample {
  /** With a header row, its cells as written (trimmed); without one, the positions `'1'`…`'N'` (N the widest row seen). */
  columns: string[];
  /** True when `columns` are the header's names, false when they are positions. */
  named: boolean;
  /** The first lines after decoding, as written (for showing). */
  firstLines: string[];
  /** The first data rows, below the header, split into cells. */
  firstRows: string[][];
}

export type SampleLayout = Pick<ImportProfile, 'encoding' | 'delimiter' | 'skipAbove' | 'header'>;
export type SampleProblem = { problem: 'file_encoding' | 'file_unreadable' | 'file_empty' };

/** The bytes cut at `max`, never inside a character of the encoding (a cut character would read as a wrong encoding). */
function startOf(bytes: Uint8Array, encoding: ImportProfile['encoding'], max: number): Uint8Array {
  if (bytes.byteLength <= max) return bytes;
  let end = max;
  if (encoding === 'utf-16') {
    end -= end % 2;
    // A high surrogate's pair may be the next unit: step back over it (either byte order).
    const unit = bytes[0] === 0xfe ? (bytes[end - 2]! << 8) | bytes[end - 1]! : (bytes[end - 1]! << 8) | bytes[end - 2]!;
    if (unit >= 0xd800 && unit <= 0xdbff) end -= 2;
  } else if (encoding === 'utf-8') {
    // The last character that starts before the cut: dropped when its bytes run past it.
    let start = end - 1;
    while (start > 0 && end - start < 4 && (bytes[start]! & 0xc0) === 0x80) start -= 1;
    const lead = bytes[start]!;
    const length = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
    if (start + length > end) end = start;
  }
  return bytes.subarray(0, end);
}

/** Records as `readWithProfile` counts them: rows of empty cells are not records. Those before a parse error are kept in `records`. */
function recordsOf(text: string, delimiter: ImportProfile['delimiter'], wanted: number): { records: string[][]; failed: boolean } {
  const records: string[][] = [];
  try {
    parse(text, {
      bom: true,
      delimiter,
      relax_column_count: true,
      relax_quotes: true,
      skip_empty_lines: true,
      to: wanted + BLANK_MARGIN,
      on_record: (record: string[]) => {
        if (records.length < wanted && record.some((cell) => cell.trim() !== '')) records.push(record);
        return record;
      },
    });
  } catch (error) {
    if (error instanceof CsvError) return { records, failed: true };
    throw error;
  }
  return { records, failed: false };
}

/** The start of `bytes` read with `layout`: the first lines, the columns, the first rows; or why it cannot be read. */
export function sampleOf(bytes: Uint8Array, layout: SampleLayout): FileSample | SampleProblem {
  const cut = bytes.byteLength > SAMPLE_BYTES;
  let text = decodeAs(startOf(bytes, layout.encoding, SAMPLE_BYTES), layout.encoding);
  if (text === undefined) return { problem: 'file_encoding' };
  // A cut leaves half a line: it is not shown, nor parsed.
  if (cut) text = text.slice(0, Math.max(0, text.search(/[^\r\n]*$/)));
  text = text.replace(/^\uFEFF/, '');
  if (/^\s*$/u.test(text)) return { problem: 'file_empty' };
  const headerLines = layout.header ? 1 : 0;
  const { records, failed } = recordsOf(text, layout.delimiter, layout.skipAbove + headerLines + FIRST_ROWS);
  // A quote still open where the sample was cut may close further on: only a whole file is called unreadable.
  if (failed && !cut) return { problem: 'file_unreadable' };
  const below = records.slice(layout.skipAbove);
  const header = layout.header ? below.shift() : undefined;
  const firstRows = below.slice(0, FIRST_ROWS);
  const width = Math.max(0, ...firstRows.map((row) => row.length));
  const lines = text.split(/\r\n|\n|\r/);
  const shown = Math.min(MAX_FIRST_LINES, Math.max(FIRST_LINES, layout.skipAbove + headerLines + 3));
  return {
    columns: header ? header.map((cell) => cell.trim()) : Array.from({ length: width }, (_, index) => String(index + 1)),
    named: header !== undefined,
    firstLines: lines.slice(0, shown),
    firstRows,
  };
}

export function isSample(read: FileSample | SampleProblem): read is FileSample {
  return !('problem' in read);
}

/**
 * The date formats that read every one of `values` (blank ones aside). A format is only ever
 * suggested when it is the one left: `03/04/2026` reads both as DD/MM/YYYY and MM/DD/YYYY.
 */
export function dateFormatsReading(values: readonly string[]): DateFormat[] {
  const written = values.map((value) => value.trim()).filter((value) => value !== '');
  if (written.length === 0) return [];
  return DATE_FORMATS.filter((format) => written.every((value) => readProfileDate(value, format, 'UTC', 'UTC') !== undefined));
}

/**
 * What every reader of a records file shares: the record the match takes, the limits a file is read
 * within, and the CSV text parsed in slices that yield to the event loop, so a 10 MiB file never
 * holds it. How a file's columns are read is its import profile's (`profile-reader.ts`).
 */
import { parse } from 'csv-parse';
import { SLICE_MS, type BackgroundTurns } from '../runtime/turns.js';

/** One line of the partner's records, as the fleet account sees it. */
export interface PartnerRecord {
  /** The row as a spreadsheet numbers it (the header is row 1). */
  row: number;
  /** Empty when the row gives none. */
  reference: string;
  /** The calendar day in LEDGER_TIMEZONE. */
  day: string;
  /** The instant, when the row gives a time; a day alone has none. */
  at: number | undefined;
  /** The date as written, for the exceptions file. */
  dateText: string;
  /** Signed, exact minor units: a credit to the fleet account is positive, a debit negative. */
  amountMinor: number;
  currency: string;
  note: string;
}

export interface RecordsLimits {
  maxBytes: number;
  maxRows: number;
  /** LEDGER_TIMEZONE: days and times without an offset are read there. */
  timeZone: string;
  /** Currencies the account knows; any other is refused. */
  currencies: ReadonlySet<string>;
}

const MIN_SLICE_CHARS = 1024;
const MAX_SLICE_CHARS = 64 * 1024;

/**
 * Parses the CSV text in slices, resolving with each non-blank record and the line it ends on; at
 * most `maxRows` plus one records are kept, with `tooMany` set beyond.
 */
export async function parseInSlices(
  text: string,
  maxRows: number,
  turns: BackgroundTurns,
  delimiter: ',' | ';' | '\t' = ',',
): Promise<{ records: Array<{ cells: string[]; line: number }>; tooMany: boolean }> {
  // A quote inside a field that does not start with one (`Fuel "A"`) is taken as written.
  const parser = parse({ bom: true, delimiter, relax_column_count: true, relax_quotes: true, skip_empty_lines: true, info: true });
  const records: Array<{ cells: string[]; line: number }> = [];
  let tooMany = false;
  let failure: Error | undefined;
  parser.on('readable', () => {
    let read: { record: string[]; info: { lines: number } } | null;
    while ((read = parser.read() as typeof read) !== null) {
      if (read.record.every((cell) => cell.trim() === '')) continue;
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
  return { records, tooMany };
}

/**
 * Reads the partner's records file (CSV with a header row in English or French) into records with
 * exact signed amounts and dates in LEDGER_TIMEZONE, or says what is wrong, naming the row and the
 * column. The text is parsed in slices that yield to the event loop, so a 10 MiB file never holds it.
 */
import { CsvError } from 'csv-parse';
import { parseInSlices } from '../core/table-file.js';
import { dayIn, isCalendarDay, zonedTime } from '../core/calendar.js';
import { EventLoopTurns, Slices, type BackgroundTurns } from '../runtime/turns.js';
import { readPlainAmount, type TooManyDecimals } from '../core/money.js';

/** The columns of a records file, by their English name. */
export const RECORDS_COLUMNS = ['reference', 'date', 'amount', 'currency', 'direction', 'note'] as const;
export type RecordsColumn = (typeof RECORDS_COLUMNS)[number];

/** Header names in either language, lower-cased, to the column they name. */
const HEADER_NAMES: ReadonlyMap<string, RecordsColumn> = new Map([
  ['reference', 'reference'],
  ['référence', 'reference'],
  ['date', 'date'],
  ['amount', 'amount'],
  ['montant', 'amount'],
  ['currency', 'currency'],
  ['devise', 'currency'],
  ['direction', 'direction'],
  ['sens', 'direction'],
  ['note', 'note'],
]);
const REQUIRED: readonly RecordsColumn[] = ['reference', 'date', 'amount', 'currency'];

const DIRECTIONS: ReadonlyMap<string, 'in' | 'out'> = new Map([
  ['in', 'in'],
  ['out', 'out'],
  ['entrée', 'in'],
  ['entree', 'in'],
  ['sortie', 'out'],
]);

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

/** Why a whole file is refused, or the first problems of its rows. */
export type RecordsFileProblem =
  | { code: 'file_empty' }
  | { code: 'file_too_large'; maxBytes: number }
  | { code: 'file_binary' }
  | { code: 'file_unreadable'; line: number }
  | { code: 'file_delimiter'; found: ';' | 'tab' }
  | { code: 'file_missing_columns'; columns: RecordsColumn[] }
  | { code: 'file_repeated_column'; column: string }
  | { code: 'file_no_rows' }
  | { code: 'file_too_many_rows'; max: number }
  | { code: 'rows'; problems: RowProblem[]; more: number };

export type RowProblemCode =
  'column_count' | 'date_invalid' | 'amount_invalid' | 'amount_decimals' | 'currency_unknown' | 'direction_invalid' | 'direction_sign';

/**
 * A problem in one cell: its row, its column as the header names it, and for an amount with
 * decimals beyond its currency's the refusal of the one rule. A reference may repeat (a transfer,
 * its fee and its VAT share one): the match takes such records together.
 */
export interface RowProblem {
  row: number;
  column: string;
  code: RowProblemCode;
  amount?: TooManyDecimals;
}

export type RecordsReading = { ok: true; records: PartnerRecord[] } | { ok: false; problem: RecordsFileProblem };

export interface RecordsLimits {
  maxBytes: number;
  maxRows: number;
  /** LEDGER_TIMEZONE: days and times without an offset are read there. */
  timeZone: string;
  /** Currencies the account knows; any other is refused. */
  currencies: ReadonlySet<string>;
}

/** Row problems shown at most; the count of the rest is given. */
const SHOWN_PROBLEMS = 10;

const fail = (problem: RecordsFileProblem): RecordsReading => ({ ok: false, problem });

function decode(bytes: Uint8Array): string | undefined {
  if (bytes.includes(0)) return undefined;
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    return undefined;
  }
}

/** Reads `content` into records, or the file's problem; nothing is kept either way. */
export async function readRecordsFile(
  content: Uint8Array | string,
  limits: RecordsLimits,
  turns: BackgroundTurns = new EventLoopTurns(),
): Promise<RecordsReading> {
  const size = typeof content === 'string' ? Buffer.byteLength(content) : content.byteLength;
  if (size > limits.maxBytes) return fail({ code: 'file_too_large', maxBytes: limits.maxBytes });
  const text = typeof content === 'string' ? content : decode(content);
  if (text === undefined) return fail({ code: 'file_binary' });
  // Stops at the first character that is not a mark or a space: a large file is not copied to find out.
  if (/^\uFEFF?\s*$/u.test(text)) return fail({ code: 'file_empty' });
  let parsed: Awaited<ReturnType<typeof parseInSlices>>;
  try {
    parsed = await parseInSlices(text, limits.maxRows, turns);
  } catch (error) {
    if (error instanceof CsvError) return fail({ code: 'file_unreadable', line: (error as CsvError & { lines?: number }).lines ?? 1 });
    throw error;
  }
  const [header, ...body] = parsed.records;
  if (!header) return fail({ code: 'file_empty' });
  const columns = readHeader(header.cells);
  if ('code' in columns) return fail(columns);
  if (body.length === 0) return fail({ code: 'file_no_rows' });
  if (parsed.tooMany || body.length > limits.maxRows) return fail({ code: 'file_too_many_rows', max: limits.maxRows });
  return readRows(body, header.cells, columns, limits, turns);
}

type ColumnIndexes = Partial<Record<RecordsColumn, number>>;

function readHeader(cells: string[]): ColumnIndexes | RecordsFileProblem {
  const names = cells.map((cell) => cell.trim().toLowerCase());
  if (names.length === 1) {
    if ((cells[0] ?? '').includes(';')) return { code: 'file_delimiter', found: ';' };
    if ((cells[0] ?? '').includes('\t')) return { code: 'file_delimiter', found: 'tab' };
  }
  const indexes: ColumnIndexes = {};
  for (const [index, name] of names.entries()) {
    // Other columns (a partner's own) are left alone.
    const column = HEADER_NAMES.get(name.normalize('NFC'));
    if (!column) continue;
    if (indexes[column] !== undefined) return { code: 'file_repeated_column', column: (cells[index] ?? '').trim().slice(0, 40) };
    indexes[column] = index;
  }
  const missing = REQUIRED.filter((column) => indexes[column] === undefined);
  if (missing.length > 0) return { code: 'file_missing_columns', columns: missing };
  return indexes;
}

async function readRows(
  body: Array<{ cells: string[]; line: number }>,
  header: string[],
  columns: ColumnIndexes,
  limits: RecordsLimits,
  turns: BackgroundTurns,
): Promise<RecordsReading> {
  const records: PartnerRecord[] = [];
  const problems: RowProblem[] = [];
  let problemCount = 0;
  const report = (problem: RowProblem) => {
    problemCount += 1;
    if (problems.length < SHOWN_PROBLEMS) problems.push(problem);
  };
  const headerName = (column: RecordsColumn) => (header[columns[column] ?? 0] ?? column).trim().slice(0, 40);
  const slices = new Slices(turns);
  for (const { cells, line } of body) {
    if (slices.due()) await slices.next();
    const row = line;
    if (cells.length !== header.length) {
      report({ row, column: '', code: 'column_count' });
      continue;
    }
    const cell = (column: RecordsColumn) => (columns[column] === undefined ? '' : (cells[columns[column]] ?? '').trim());
    const read = readRow(cell, limits);
    if ('problem' in read) {
      report({ row, column: headerName(read.column), code: read.problem, ...(read.amount === undefined ? {} : { amount: read.amount }) });
      continue;
    }
    records.push({ ...read, row });
  }
  if (problemCount > 0) return fail({ code: 'rows', problems, more: problemCount - problems.length });
  return { ok: true, records };
}

type RowReading = Omit<PartnerRecord, 'row'> | { problem: RowProblemCode; column: RecordsColumn; amount?: TooManyDecimals };

function readRow(cell: (column: RecordsColumn) => string, limits: RecordsLimits): RowReading {
  const date = readDate(cell('date'), limits.timeZone);
  if (!date) return { problem: 'date_invalid', column: 'date' };
  const currency = cell('currency').toUpperCase();
  if (!/^[A-Z]{3}$/.test(currency) || !limits.currencies.has(currency)) return { problem: 'currency_unknown', column: 'currency' };
  const amount = readPlainAmount(cell('amount'), currency);
  if (!amount.ok) {
    if (amount.code !== 'amount_too_many_decimals') return { problem: 'amount_invalid', column: 'amount' };
    const { ok: _ok, ...refusal } = amount;
    return { problem: 'amount_decimals', column: 'amount', amount: refusal };
  }
  const negative = amount.minor < 0;
  const magnitude = Math.abs(amount.minor);
  const written = cell('direction').toLowerCase().normalize('NFC');
  let amountMinor = amount.minor;
  if (written !== '') {
    const direction = DIRECTIONS.get(written);
    if (!direction) return { problem: 'direction_invalid', column: 'direction' };
    // As the export writes it (`out`, `-12.50`), or unsigned with its direction; a sign against it is a mistake.
    if (negative && direction === 'in') return { problem: 'direction_sign', column: 'direction' };
    amountMinor = direction === 'out' ? -magnitude : magnitude;
  }
  return { reference: cell('reference'), ...date, amountMinor, currency, note: cell('note') };
}

const DATE_TIME = /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3})\d*)?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

/** A day, or a day and a time read in `timeZone` (or at the offset written, as the export's UTC dates). */
function readDate(text: string, timeZone: string): { day: string; at: number | undefined; dateText: string } | undefined {
  const match = DATE_TIME.exec(text);
  if (!match || !isCalendarDay(match[1] ?? '')) return undefined;
  const day = match[1]!;
  if (match[2] === undefined) return { day, at: undefined, dateText: text };
  const [hour, minute, second] = [Number(match[2]), Number(match[3]), Number(match[4] ?? 0)];
  if (hour > 23 || minute > 59 || second > 59) return undefined;
  const millis = Number((match[5] ?? '0').padEnd(3, '0'));
  const offset = match[6];
  let at: number;
  if (offset !== undefined) {
    at = Date.parse(
      `${day}T${match[2]}:${match[3]}:${String(second).padStart(2, '0')}.${String(millis).padStart(3, '0')}${offset === 'Z' ? 'Z' : offset.replace(/^([+-]\d{2}):?(\d{2})$/, '$1:$2')}`,
    );
    if (Number.isNaN(at)) return undefined;
  } else {
    at = zonedTime(day, { hour, minute }, timeZone).getTime() + second * 1000 + millis;
  }
  // A time at an offset (the export's UTC dates) falls on the day it shows in LEDGER_TIMEZONE.
  return { day: offset === undefined ? day : dayIn(at, timeZone), at, dateText: text };
}

/**
 * Reads a records file as an import profile describes it: its encoding, delimiter, lines to skip,
 * header or positions, and each column's role. The result is the records the match accepts, every
 * problem of every row (the first `SHOWN_PROBLEMS`, with a count of the rest), and the rows left out
 * by their status. Rows sharing a reference are all kept. Amounts through `money.ts`'s one rule.
 */
import { CsvError } from 'csv-parse';
import { readLaidOutAmount, type NumberLayout, type TooManyDecimals } from '../core/money.js';
import { EventLoopTurns, Slices, type BackgroundTurns } from '../runtime/turns.js';
import { parseInSlices, type PartnerRecord, type RecordsLimits } from './file.js';
import { readProfileDate } from './profile-dates.js';
import type { ColumnRef, ImportProfile } from './profile.js';

/** A record read through a profile: the match's record, with the description the file gives. */
export interface ProfileRecord extends PartnerRecord {
  description: string;
}

export type ProfileRowProblemCode =
  | 'column_missing'
  | 'date_invalid'
  | 'amount_invalid'
  | 'amount_decimals'
  | 'amount_missing'
  | 'amount_both'
  | 'amount_sign'
  | 'flag_invalid'
  | 'currency_unknown';

/** One problem in one cell: the row as a spreadsheet numbers it, the column by its header (or position), what was found. */
export interface ProfileRowProblem {
  row: number;
  /** The header as written, or empty without a header row. */
  column: string;
  /** 1-based. */
  position: number;
  code: ProfileRowProblemCode;
  /** The cell as written, at most 40 characters. */
  found: string;
  amount?: TooManyDecimals;
}

export type ProfileFileProblem =
  | { code: 'file_empty' }
  | { code: 'file_too_large'; maxBytes: number }
  | { code: 'file_encoding'; encoding: ImportProfile['encoding'] }
  | { code: 'file_unreadable'; line: number }
  | { code: 'file_missing_columns'; columns: string[] }
  | { code: 'file_repeated_column'; column: string }
  | { code: 'file_no_rows' }
  | { code: 'file_too_many_rows'; max: number };

export type ProfileReading =
  | {
      ok: true;
      records: ProfileRecord[];
      /** Rows whose status is not one the profile counts: not records, not problems. */
      leftOut: Array<{ row: number; status: string }>;
      problems: ProfileRowProblem[];
      /** Problems beyond those listed. */
      moreProblems: number;
    }
  | { ok: false; problem: ProfileFileProblem };

/** Row problems listed at most; the count of the rest is given. */
export const SHOWN_PROBLEMS = 200;

const fail = (problem: ProfileFileProblem): ProfileReading => ({ ok: false, problem });
const words = (text: string) => text.trim().toLowerCase().normalize('NFC');

/** Windows-1252's characters for the bytes 0x80 to 0x9F (the five it leaves undefined kept as the byte). */
const WINDOWS_1252_HIGH = [
  0x20ac, 0x81, 0x201a, 0x192, 0x201e, 0x2026, 0x2020, 0x2021, 0x2c6, 0x2030, 0x160, 0x2039, 0x152, 0x8d, 0x17d, 0x8f, 0x90, 0x2018, 0x2019, 0x201c, 0x201d,
  0x2022, 0x2013, 0x2014, 0x2dc, 0x2122, 0x161, 0x203a, 0x153, 0x9d, 0x17e, 0x178,
].map((code) => String.fromCharCode(code));

/** The file's text in the profile's encoding, or undefined when its bytes are not that encoding. */
export function decodeAs(bytes: Uint8Array, encoding: ImportProfile['encoding']): string | undefined {
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

type Roles = 'reference' | 'date' | 'amount' | 'debit' | 'credit' | 'flag' | 'currency' | 'status' | 'description' | 'note';

/** Each role's 0-based column (undefined for an optional one the header lacks); `optional`: roles whose cell may be absent from a short row (read as empty). */
type ResolvedColumns = Map<Roles, number | undefined> & { optional: Set<Roles> };

function resolveColumns(profile: ImportProfile, header: string[] | undefined): ResolvedColumns | ProfileFileProblem {
  const { amount } = profile;
  const wanted: Array<[Roles, ColumnRef | undefined, boolean]> = [
    ['reference', profile.reference, true],
    ['date', profile.date.column, true],
    ['amount', amount.layout === 'debit_credit' ? undefined : amount.amount, true],
    ['debit', amount.layout === 'debit_credit' ? amount.debit : undefined, true],
    ['credit', amount.layout === 'debit_credit' ? amount.credit : undefined, true],
    ['flag', amount.layout === 'flagged' ? amount.flag : undefined, amount.layout === 'flagged' && amount.flagRequired],
    ['currency', 'column' in profile.currency ? profile.currency.column : undefined, true],
    ['status', profile.status?.column, true],
    ['description', profile.description, false],
    ['note', profile.note, false],
  ];
  const names = header?.map(words);
  const columns: ResolvedColumns = Object.assign(new Map<Roles, number | undefined>(), { optional: new Set<Roles>() });
  const missing: string[] = [];
  for (const [role, ref, required] of wanted) {
    if (ref === undefined) continue;
    if (typeof ref === 'number') {
      columns.set(role, ref - 1);
      if (!required) columns.optional.add(role);
      continue;
    }
    const candidates = (Array.isArray(ref) ? ref : [ref]).map(words);
    const found = candidates.map((name) => names?.indexOf(name) ?? -1).find((index) => index !== -1);
    if (found !== undefined && names?.indexOf(names[found]!, found + 1) !== -1)
      return { code: 'file_repeated_column', column: (header?.[found] ?? '').trim().slice(0, 40) };
    if (found === undefined && required) missing.push(Array.isArray(ref) ? (ref[0] ?? role) : ref);
    columns.set(role, found);
    if (!required) columns.optional.add(role);
  }
  if (missing.length > 0) return { code: 'file_missing_columns', columns: missing };
  return columns;
}

/** Reads `content` (bytes in the profile's encoding, or text already decoded) into records, problems and rows left out. */
export async function readWithProfile(
  content: Uint8Array | string,
  profile: ImportProfile,
  limits: RecordsLimits,
  turns: BackgroundTurns = new EventLoopTurns(),
): Promise<ProfileReading> {
  const size = typeof content === 'string' ? Buffer.byteLength(content) : content.byteLength;
  if (size > limits.maxBytes) return fail({ code: 'file_too_large', maxBytes: limits.maxBytes });
  const text = typeof content === 'string' ? content : decodeAs(content, profile.encoding);
  if (text === undefined) return fail({ code: 'file_encoding', encoding: profile.encoding });
  if (/^\uFEFF?\s*$/u.test(text)) return fail({ code: 'file_empty' });
  const headerLines = profile.header ? 1 : 0;
  let parsed: Awaited<ReturnType<typeof parseInSlices>>;
  try {
    parsed = await parseInSlices(text, limits.maxRows + profile.skipAbove + headerLines + profile.skipBelow, turns, profile.delimiter);
  } catch (error) {
    if (error instanceof CsvError) return fail({ code: 'file_unreadable', line: (error as CsvError & { lines?: number }).lines ?? 1 });
    throw error;
  }
  if (parsed.tooMany) return fail({ code: 'file_too_many_rows', max: limits.maxRows });
  const lines = parsed.records.slice(profile.skipAbove);
  const header = profile.header ? lines.shift() : undefined;
  if (profile.header && header === undefined) return fail({ code: 'file_empty' });
  const body = lines.slice(0, Math.max(0, lines.length - profile.skipBelow));
  const columns = resolveColumns(profile, header?.cells);
  if (!(columns instanceof Map)) return fail(columns);
  if (body.length === 0) return fail({ code: 'file_no_rows' });
  if (body.length > limits.maxRows) return fail({ code: 'file_too_many_rows', max: limits.maxRows });

  const records: ProfileRecord[] = [];
  const leftOut: Array<{ row: number; status: string }> = [];
  const problems: ProfileRowProblem[] = [];
  let problemCount = 0;
  const counted = new Set(profile.status?.counted.map(words));
  const slices = new Slices(turns);
  for (const { cells, line: row } of body) {
    if (slices.due()) await slices.next();
    const rowProblems: ProfileRowProblem[] = [];
    const cell = (role: Roles): string | undefined => {
      const index = columns.get(role);
      if (index === undefined) return columns.has(role) ? '' : undefined;
      const value = cells[index];
      // A row may end before its last, empty cells; only a cell that must say something is then missing.
      if (value === undefined && columns.optional.has(role)) return '';
      if (value === undefined) {
        rowProblems.push({ row, column: (header?.cells[index] ?? '').trim().slice(0, 40), position: index + 1, code: 'column_missing', found: '' });
        return undefined;
      }
      return value.trim();
    };
    const report = (role: Roles, code: ProfileRowProblemCode, found: string, amount?: TooManyDecimals) => {
      // A fixed currency has no column: position 0.
      const index = columns.get(role);
      const column = index === undefined ? '' : (header?.cells[index] ?? '').trim().slice(0, 40);
      rowProblems.push({ row, column, position: index === undefined ? 0 : index + 1, code, found: found.slice(0, 40), ...(amount ? { amount } : {}) });
    };
    if (profile.status) {
      const status = cell('status') ?? '';
      if (!counted.has(words(status))) {
        leftOut.push({ row, status: status.slice(0, 40) });
        continue;
      }
    }
    const reference = cell('reference') ?? '';
    const dateText = cell('date');
    const date = dateText === undefined ? undefined : readProfileDate(dateText, profile.date.format, profile.timeZone, limits.timeZone);
    if (dateText !== undefined && !date) report('date', 'date_invalid', dateText);
    const currencyText = 'fixed' in profile.currency ? profile.currency.fixed : cell('currency');
    let currency = (currencyText ?? '').toUpperCase();
    if (!limits.currencies.has(currency)) {
      if (currencyText !== undefined) report('currency', 'currency_unknown', currencyText);
      currency = '';
    }
    const amountMinor = readAmount(profile, currency, cell, report);
    const description = cell('description') ?? '';
    const note = cell('note') ?? '';
    if (rowProblems.length > 0 || !date || amountMinor === undefined || currency === '') {
      problemCount += rowProblems.length;
      rowProblems.sort((a, b) => a.position - b.position);
      problems.push(...rowProblems.slice(0, Math.max(0, SHOWN_PROBLEMS - problems.length)));
      continue;
    }
    records.push({ row, reference, ...date, amountMinor, currency, note, description });
  }
  return { ok: true, records, leftOut, problems, moreProblems: problemCount - problems.length };
}

type Report = (role: Roles, code: ProfileRowProblemCode, found: string, amount?: TooManyDecimals) => void;

/** The row's signed amount in minor units by the profile's layout, or undefined with its problems reported. */
function readAmount(profile: ImportProfile, currency: string, cell: (role: Roles) => string | undefined, report: Report): number | undefined {
  const numbers: NumberLayout = profile.numbers;
  // With the currency unknown, the amount's form is still checked (its decimals cannot be).
  const parse = (role: Roles, text: string): number | undefined => {
    const read = readLaidOutAmount(text, currency === '' ? 'XXX' : currency, numbers);
    if (read.ok) return read.minor;
    if (read.code === 'amount_too_many_decimals') {
      if (currency === '') return undefined;
      const { ok: _ok, ...refusal } = read;
      report(role, 'amount_decimals', text, refusal);
    } else report(role, 'amount_invalid', text);
    return undefined;
  };
  const { amount } = profile;
  if (amount.layout === 'signed') {
    const text = cell('amount');
    return text === undefined ? undefined : parse('amount', text);
  }
  if (amount.layout === 'debit_credit') {
    const [debitText, creditText] = [cell('debit'), cell('credit')];
    if (debitText === undefined || creditText === undefined) return undefined;
    // Banks write the other column empty, or as a zero.
    const debit = debitText === '' ? 0 : parse('debit', debitText);
    const credit = creditText === '' ? 0 : parse('credit', creditText);
    if (debit === undefined || credit === undefined) return undefined;
    if (debitText === '' && creditText === '') return (report('debit', 'amount_missing', ''), undefined);
    if (debit !== 0 && credit !== 0) return (report('credit', 'amount_both', creditText), undefined);
    if (credit < 0) return (report('credit', 'amount_sign', creditText), undefined);
    // A debit is money out, written with a minus or without.
    return debit !== 0 ? -Math.abs(debit) : credit;
  }
  const text = cell('amount');
  const flag = cell('flag');
  const minor = text === undefined ? undefined : parse('amount', text);
  const written = words(flag ?? '');
  const direction = amount.inWords.map(words).includes(written) ? 'in' : amount.outWords.map(words).includes(written) ? 'out' : undefined;
  if (written === '' && !amount.flagRequired) return minor;
  if (direction === undefined) {
    if (flag !== undefined) report('flag', 'flag_invalid', flag);
    return undefined;
  }
  if (minor === undefined) return undefined;
  // As the export writes it (`out`, `-12.50`), or unsigned with its flag; a minus against `in` is a mistake.
  if (direction === 'in' && minor < 0) return (report('flag', 'amount_sign', flag ?? ''), undefined);
  return direction === 'out' ? -Math.abs(minor) : minor;
}

/**
 * Reads a records file as an import profile describes it: its encoding, delimiter, lines to skip,
 * header or positions, and each column's role. The result is the records the match accepts, every
 * problem of every row (the first `SHOWN_PROBLEMS`, with a count of the rest), and the rows left out
 * by their status. Rows sharing a reference are all kept. Amounts through `money.ts`'s one rule.
 */
import { readLaidOutAmount, type NumberLayout, type TooManyDecimals } from '../core/money.js';
import { readTableFile, type CellProblem, type TableFileProblem } from '../core/table-file.js';
import { EventLoopTurns, Slices, type BackgroundTurns } from '../runtime/turns.js';
import type { PartnerRecord, RecordsLimits } from './file.js';
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
  | 'currency_unknown'
  /** A workbook's cell that gives no text (a formula without its result, an error, a number Excel cannot hold exactly): `cell` says which. */
  | 'cell_unreadable';

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
  cell?: CellProblem;
}

/** The file-level problems every table has (`core/table-file.ts`), and those of a profile's columns. */
export type ProfileFileProblem =
  TableFileProblem | { code: 'file_missing_columns'; columns: string[] } | { code: 'file_repeated_column'; column: string } | { code: 'file_no_rows' };

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

/** The file's text in the profile's encoding (kept here for the readers that import it from records). */
export { decodeAs } from '../core/table-file.js';

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
  const table = await readTableFile(content, profile, limits, turns);
  if (!table.ok) return fail(table.problem);
  const { header, rows: body } = table;
  const columns = resolveColumns(profile, header?.cells);
  if (!(columns instanceof Map)) return fail(columns);
  if (body.length === 0) return fail({ code: 'file_no_rows' });

  const records: ProfileRecord[] = [];
  const leftOut: Array<{ row: number; status: string }> = [];
  const problems: ProfileRowProblem[] = [];
  let problemCount = 0;
  const counted = new Set(profile.status?.counted.map(words));
  const slices = new Slices(turns);
  for (const { cells, line: row, typed } of body) {
    if (slices.due()) await slices.next();
    const rowProblems: ProfileRowProblem[] = [];
    const cell = (role: Roles): string | undefined => {
      const index = columns.get(role);
      if (index === undefined) return columns.has(role) ? '' : undefined;
      const given = typed?.[index];
      if (given?.kind === 'problem') {
        rowProblems.push({
          row,
          column: (header?.cells[index] ?? '').trim().slice(0, 40),
          position: index + 1,
          code: 'cell_unreadable',
          found: given.problem.found,
          cell: given.problem,
        });
        return undefined;
      }
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
    const dateIndex = columns.get('date');
    const typedDate = dateIndex === undefined ? undefined : typed?.[dateIndex];
    // A workbook's date cell is a date already (`2026-11-02`, or with its time on the file's clock): read as such, not through the profile's format.
    const format = typedDate?.kind === 'date' ? 'YYYY-MM-DD' : profile.date.format;
    const date = dateText === undefined ? undefined : readProfileDate(dateText, format, profile.timeZone, limits.timeZone);
    if (dateText !== undefined && !date) report('date', 'date_invalid', dateText);
    const currencyText = 'fixed' in profile.currency ? profile.currency.fixed : cell('currency');
    let currency = (currencyText ?? '').toUpperCase();
    if (!limits.currencies.has(currency)) {
      if (currencyText !== undefined) report('currency', 'currency_unknown', currencyText);
      currency = '';
    }
    // A workbook's number cell is a number already: its exact decimal (`1234.56`) read as such, whatever the profile's marks.
    const numberCell = (role: Roles) => {
      const index = columns.get(role);
      return index !== undefined && typed?.[index]?.kind === 'number';
    };
    const amountMinor = readAmount(profile, currency, cell, report, numberCell);
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

/** How a workbook's number cell is written once read: a dot before decimals, no grouping. */
const MACHINE_NUMBERS: NumberLayout = { decimalMark: '.', grouping: 'none' };

type Report = (role: Roles, code: ProfileRowProblemCode, found: string, amount?: TooManyDecimals) => void;

/** The row's signed amount in minor units by the profile's layout, or undefined with its problems reported. */
function readAmount(
  profile: ImportProfile,
  currency: string,
  cell: (role: Roles) => string | undefined,
  report: Report,
  numberCell: (role: Roles) => boolean,
): number | undefined {
  const numbers: NumberLayout = profile.numbers;
  // With the currency unknown, the amount's form is still checked (its decimals cannot be).
  const parse = (role: Roles, text: string): number | undefined => {
    const read = readLaidOutAmount(text, currency === '' ? 'XXX' : currency, numberCell(role) ? MACHINE_NUMBERS : numbers);
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

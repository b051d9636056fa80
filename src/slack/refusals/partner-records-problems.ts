/**
 * The problems of a records file read through an import profile, worded in the reader's language:
 * each row's problem names its row, its column, what was found and the fix (mrkdwn the app
 * composed; what the file holds is quoted as code, cut and escaped).
 */
import { textsFor, type Locale } from '../../i18n/index.js';
import type { ImportProfile, ProfileRowProblem, RecordsRefusal } from '../../partner-records/index.js';
import { codeSpan } from '../views/text.js';
import { describeTooManyDecimals } from './amount-problems.js';
import { describeCellProblem, describeTableFileProblem } from './table-file-problems.js';

/** What of the profile a problem's fix names: the date format, the number layout, the flag's words. */
export type ProfileHints = Pick<ImportProfile, 'date' | 'numbers' | 'amount'>;

const quoted = (text: string) => codeSpan(text, 40);
const wordList = (words: readonly string[]) => words.slice(0, 5).map(quoted).join(' / ');

/** `1250.50`, or `1.250,50` with a comma and dot grouping: how the profile wants an amount written. */
function exampleAmount(numbers: ImportProfile['numbers']): string {
  const grouping = numbers.grouping === 'none' ? '' : numbers.grouping;
  return `1${grouping}250${numbers.decimalMark}50`;
}

const DATE_EXAMPLES: Record<ImportProfile['date']['format'], string> = {
  'YYYY-MM-DD': '2026-11-02',
  'DD/MM/YYYY': '02/11/2026',
  'MM/DD/YYYY': '11/02/2026',
  'DD.MM.YYYY': '02.11.2026',
  'DD-MM-YYYY': '02-11-2026',
  'DD-MMM-YYYY': '02-Nov-2026',
};

/** One row's problem: where (row and column), what was found, then the fix. */
export function describeRowProblem(locale: Locale, problem: ProfileRowProblem, profile: ProfileHints): string {
  const t = textsFor(locale);
  const where =
    problem.column !== ''
      ? t('records.row.where', { row: problem.row, column: quoted(problem.column) })
      : problem.position > 0
        ? t('records.row.wherePosition', { row: problem.row, position: problem.position })
        : t('records.row.whereRow', { row: problem.row });
  const found = problem.found === '' ? t('records.row.foundEmpty') : t('records.row.found', { found: quoted(problem.found) });
  let fix: string;
  switch (problem.code) {
    case 'date_invalid':
      fix = t('records.row.date_invalid', { format: quoted(profile.date.format), example: quoted(DATE_EXAMPLES[profile.date.format]) });
      break;
    case 'amount_invalid':
      fix = t('records.row.amount_invalid', { mark: quoted(profile.numbers.decimalMark), example: quoted(exampleAmount(profile.numbers)) });
      break;
    case 'amount_decimals':
      fix = problem.amount ? describeTooManyDecimals(locale, problem.amount, quoted) : t('records.row.amount_invalid', { mark: '.', example: '`1250.50`' });
      break;
    case 'flag_invalid': {
      const { amount } = profile;
      fix =
        amount.layout === 'flagged'
          ? t('records.row.flag_invalid', { in: wordList(amount.inWords), out: wordList(amount.outWords) })
          : t('records.row.flag_invalid', { in: '`in`', out: '`out`' });
      break;
    }
    case 'cell_unreadable':
      fix = problem.cell ? describeCellProblem(locale, problem.cell, quoted) : t('records.row.amount_invalid', { mark: '.', example: '`1250.50`' });
      break;
    case 'amount_sign':
      fix = t(profile.amount.layout === 'debit_credit' ? 'records.row.amount_sign_credit' : 'records.row.amount_sign_flag');
      break;
    default:
      fix = t(`records.row.${problem.code}`);
  }
  return t('records.row.line', { where, found, fix });
}

/** Why a file was refused; for row problems, the first of them one per line (the preview lists them all). */
export function describeRecordsProblem(locale: Locale, problem: RecordsRefusal, profile: ProfileHints & { name: string }): string {
  const t = textsFor(locale);
  switch (problem.code) {
    case 'file_no_rows':
      return t('records.problem.file_no_rows');
    case 'file_empty':
    case 'file_too_large':
    case 'file_encoding':
    case 'file_unreadable':
    case 'file_too_many_rows':
    case 'xlsx_unreadable':
    case 'xlsx_too_large':
    case 'xlsx_too_many_entries':
    case 'xlsx_too_many_cells':
      return describeTableFileProblem(locale, problem, 'records');
    case 'file_missing_columns':
      return t('records.problem.file_missing_columns', { columns: problem.columns.map(quoted).join(', '), profile: quoted(profile.name) });
    case 'file_repeated_column':
      return t('records.problem.file_repeated_column', { column: quoted(problem.column) });
    case 'file_no_records':
      return t('records.problem.file_no_records', { count: problem.leftOut });
    case 'rows': {
      const count = problem.problems.length + problem.more;
      const shown = problem.problems.slice(0, 10);
      const lines = shown.map((row) => `• ${describeRowProblem(locale, row, profile)}`);
      if (count > shown.length) lines.push(t('records.problem.more', { count: count - shown.length }));
      return [t('records.problem.rows', { count }), ...lines].join('\n');
    }
  }
}

/** The problems of a records file and of its rows, worded in the reader's language (mrkdwn the app composed, names quoted as code). */
import { textsFor, type Locale } from '../../i18n/index.js';
import type { RecordsFileProblem, RowProblem } from '../../partner-records/index.js';
import { codeSpan } from '../views/text.js';
import { describeTooManyDecimals } from './amount-problems.js';

/** `10 MiB` for a limit in bytes, at least 1. */
export function mebibytes(bytes: number): number {
  return Math.max(1, Math.round(bytes / (1024 * 1024)));
}

/** One row's problem: where (row and column), then what. */
export function describeRowProblem(locale: Locale, problem: RowProblem): string {
  const t = textsFor(locale);
  const where =
    problem.column === ''
      ? t('records.row.whereRow', { row: problem.row })
      : t('records.row.where', { row: problem.row, column: codeSpan(problem.column, 40) });
  let what: string;
  switch (problem.code) {
    case 'amount_decimals':
      what = problem.amount ? describeTooManyDecimals(locale, problem.amount, (typed) => codeSpan(typed, 40)) : t('records.row.amount_invalid');
      break;
    default:
      what = t(`records.row.${problem.code}`);
  }
  return `${where}: ${what}`;
}

/** Why a file was refused; for row problems, the first of them one per line. */
export function describeRecordsProblem(locale: Locale, problem: RecordsFileProblem): string {
  const t = textsFor(locale);
  switch (problem.code) {
    case 'file_empty':
    case 'file_binary':
    case 'file_no_rows':
      return t(`records.problem.${problem.code}`);
    case 'file_too_large':
      return t('records.problem.file_too_large', { size: mebibytes(problem.maxBytes) });
    case 'file_unreadable':
      return t('records.problem.file_unreadable', { line: problem.line });
    case 'file_delimiter':
      return t('records.problem.file_delimiter', { found: t(problem.found === ';' ? 'records.problem.semicolon' : 'records.problem.tab') });
    case 'file_missing_columns':
      return t('records.problem.file_missing_columns', { columns: problem.columns.map((column) => `\`${column}\``).join(', ') });
    case 'file_repeated_column':
      return t('records.problem.file_repeated_column', { column: codeSpan(problem.column, 40) });
    case 'file_too_many_rows':
      return t('records.problem.file_too_many_rows', { max: problem.max });
    case 'rows': {
      const count = problem.problems.length + problem.more;
      const lines = problem.problems.map((row) => `• ${describeRowProblem(locale, row)}`);
      if (problem.more > 0) lines.push(t('records.problem.more', { count: problem.more }));
      return [t('records.problem.rows', { count }), ...lines].join('\n');
    }
  }
}

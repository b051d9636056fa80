/** The problems of a bulk payout file and of its rows, worded in the reader's language (plain text). */
import { textsFor, type Locale } from '../../i18n/index.js';
import type { BatchFileProblem, BatchRefusal, BatchRowProblem, PayoutFieldName } from '../../payouts/index.js';
import { formatMinor } from '../../core/money.js';
import { describeFieldProblem } from './payout-field-problems.js';
import { refusalText } from './payout-refusals.js';
import { describeCellProblem, describeTableFileProblem } from './table-file-problems.js';

// The file's columns name the form's fields well enough for the form's wording of a problem.
const COLUMN_FIELD: Record<string, PayoutFieldName> = {
  number: 'phone',
  provider: 'operator',
  name: 'name',
  country: 'countryCode',
  amount: 'amount',
  currency: 'currency',
  reference: 'reference',
  note: 'note',
};

/** Why a whole file was refused, as mrkdwn the app composed (column names quoted as code). */
export function describeFileProblem(locale: Locale, problem: BatchFileProblem): string {
  const t = textsFor(locale);
  const columns = (names: readonly string[]) => names.map((name) => `\`${name.replace(/`/g, "'")}\``).join(', ');
  switch (problem.code) {
    case 'file_no_rows':
      return t('payoutBatch.file.file_no_rows');
    case 'file_missing_columns':
    case 'file_unknown_columns':
      return t(`payoutBatch.file.${problem.code}`, { columns: columns(problem.columns) });
    case 'file_repeated_column':
      return t('payoutBatch.file.file_repeated_column', { column: columns([problem.column]) });
    default:
      return describeTableFileProblem(locale, problem, 'bulk');
  }
}

/** One row's problem, plain text without its row number. */
export function describeRowProblem(locale: Locale, problem: BatchRowProblem['problem'], column: string | undefined): string {
  const t = textsFor(locale);
  switch (problem.code) {
    case 'kind_unknown':
    case 'amount_format':
      return t(`payoutBatch.problem.${problem.code}`);
    case 'reference_repeated':
      return t('payoutBatch.problem.reference_repeated', { first: problem.firstRow });
    case 'row_column_count':
      return t('payoutBatch.problem.row_column_count', { found: problem.found, expected: problem.expected });
    case 'number_scientific':
    case 'cell_number_exponent':
    case 'cell_number_precision':
    case 'cell_formula_uncached':
    case 'cell_error':
      return describeCellProblem(locale, problem, (found) => found);
    default:
      return describeFieldProblem(locale, COLUMN_FIELD[column ?? ''] ?? 'note', problem, (refusal) => refusalText(refusal, locale));
  }
}

/** `Row 4, amount: …` (or `Row 4: …` for the row as a whole). */
export function rowProblemLine(locale: Locale, entry: BatchRowProblem): string {
  const t = textsFor(locale);
  const problem = describeRowProblem(locale, entry.problem, entry.column);
  return entry.column === undefined
    ? t('payoutBatch.rowLine', { row: entry.rowNumber, problem })
    : t('payoutBatch.problemLine', { row: entry.rowNumber, column: entry.column, problem });
}

/** A refused action on a batch, plain words with facts (ids, amounts in the reader's format). */
export function batchRefusalText(locale: Locale, refusal: BatchRefusal): string {
  const t = textsFor(locale);
  const { details = {} } = refusal;
  const currency = details.currency ?? '';
  const amount = (minor: number | undefined) => formatMinor(minor ?? 0, currency, { locale }).trim();
  switch (refusal.code) {
    case 'duplicate_unconfirmed':
      return t('payoutBatch.refused.duplicate_unconfirmed', { count: details.duplicateRows ?? 1 });
    case 'over_daily_limit':
      return t('payoutBatch.refused.over_daily_limit', { currency, left: amount(details.leftMinor), limit: amount(details.limitMinor) });
    default:
      return t(`payoutBatch.refused.${refusal.code}`);
  }
}

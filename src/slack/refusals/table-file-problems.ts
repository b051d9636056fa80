/**
 * The problems every uploaded table can have (`core/table-file.ts`), worded once for both forms that
 * read one: bulk payouts and the partner's records. Each says what was found, where, and the fix.
 */
import { textsFor, type Locale } from '../../i18n/index.js';
import type { CellProblem, TableFileProblem } from '../../core/table-file.js';

/** Which form read the file: the fix for a wrong encoding differs (a choice in the form, or the import profile). */
export type TableFileSurface = 'bulk' | 'records';

/** `10 MiB` for a limit in bytes, at least 1. */
export const mebibytes = (bytes: number) => Math.max(1, Math.round(bytes / (1024 * 1024)));

/** The setting that sets a limit, where one does (a bulk file's size is fixed). */
const SETTINGS: Record<TableFileSurface, { bytes?: string; rows: string }> = {
  bulk: { rows: 'PAYOUT_BATCH_MAX_ROWS' },
  records: { bytes: 'RECORDS_MAX_BYTES', rows: 'RECORDS_MAX_ROWS' },
};

/** Why a whole file was refused, as mrkdwn the app composed. */
export function describeTableFileProblem(locale: Locale, problem: TableFileProblem, surface: TableFileSurface): string {
  const t = textsFor(locale);
  switch (problem.code) {
    case 'file_empty':
    case 'xlsx_unreadable':
      return t(`tableFile.${problem.code}`);
    case 'file_too_large': {
      const name = SETTINGS[surface].bytes;
      return t('tableFile.file_too_large', { size: mebibytes(problem.maxBytes), setting: name ? t('tableFile.setting', { name }) : '' });
    }
    case 'xlsx_too_large':
      return t('tableFile.xlsx_too_large', { size: mebibytes(problem.maxBytes) });
    case 'file_encoding':
      return t(`tableFile.file_encoding.${surface}`, { encoding: t(`tableFile.encoding.${problem.encoding}`) });
    case 'file_unreadable':
      return t('tableFile.file_unreadable', { line: problem.line });
    case 'file_too_many_rows':
      return t('tableFile.file_too_many_rows', { rows: problem.rows, max: problem.max, setting: t('tableFile.setting', { name: SETTINGS[surface].rows }) });
    case 'xlsx_too_many_entries':
    case 'xlsx_too_many_cells':
      return t(`tableFile.${problem.code}`, { max: problem.max });
  }
}

/** A cell that could not be read, without its row (the caller's line names it); `quote` marks what the file holds. */
export function describeCellProblem(
  locale: Locale,
  problem: CellProblem | { code: 'number_scientific'; found: string; cell?: string },
  quote: (found: string) => string,
): string {
  const t = textsFor(locale);
  const found = quote(problem.found);
  if (problem.code === 'number_scientific')
    return problem.cell === undefined
      ? t('tableFile.cell.number_scientific', { found })
      : t('tableFile.cell.number_scientific_at', { found, cell: problem.cell });
  return t(`tableFile.cell.${problem.code}`, { cell: problem.cell, found });
}

/** `/fleet export` replies: refusals, progress, the file sent, and the comment that goes with the file. */
import { textsFor, type Texts } from '../../i18n/index.js';
import type { TransactionSearch } from '../../ledger/query-text.js';
import type { LedgerStatus } from '../../ledger/types.js';
import { notice, type Reply } from './notice.js';
import { codeSpan, type Surface } from './text.js';
import { describeSearch } from './transactions.js';

export interface ExportDescription {
  search: TransactionSearch;
  /** LEDGER_TIMEZONE, in which the search's days were read. */
  timeZone: string;
  status: LedgerStatus;
}

/** Said whenever the ledger does not hold the whole history yet, so a short file is not taken as complete. */
export function historyNote(t: Texts, status: LedgerStatus): string | undefined {
  if (status.historyComplete) return undefined;
  return status.estimatedTotal !== undefined
    ? t('transactions.historyLoading', { count: status.loaded, total: status.estimatedTotal })
    : t('transactions.historyLoadingUnknown', { count: status.loaded });
}

function withSearch(surface: Surface, headline: string, about: ExportDescription): Reply {
  const t = textsFor(surface.locale);
  const lines = [
    headline,
    t('export.search', { filter: describeSearch(surface.locale, about.search) }),
    t('export.daysIn', { zone: about.timeZone }),
    historyNote(t, about.status),
  ];
  return notice(surface, lines.filter((line): line is string => line !== undefined).join('\n'));
}

export function buildExportTooManyMessage(surface: Surface, about: ExportDescription & { count: number; maxRows: number }): Reply {
  return withSearch(surface, textsFor(surface.locale)('export.tooMany', { count: about.count, max: about.maxRows }), about);
}

export function buildExportEmptyMessage(surface: Surface, about: ExportDescription): Reply {
  return withSearch(surface, textsFor(surface.locale)('export.empty'), about);
}

export function buildExportStartedMessage(surface: Surface, about: ExportDescription & { count: number }): Reply {
  return withSearch(surface, textsFor(surface.locale)('export.started', { count: about.count }), about);
}

export function buildExportProgressMessage(surface: Surface, about: ExportDescription & { count: number; rows: number }): Reply {
  return withSearch(surface, textsFor(surface.locale)('export.progress', { count: about.count, rows: about.rows }), about);
}

export function buildExportSentMessage(surface: Surface, about: ExportDescription & { count: number; fileName: string }): Reply {
  return withSearch(surface, textsFor(surface.locale)('export.sent', { count: about.count, file: codeSpan(about.fileName, 100) }), about);
}

/** The message text shown with the file in the DM. */
export function exportFileComment(surface: Surface, about: { count: number; search: TransactionSearch; status: LedgerStatus }): string {
  const t = textsFor(surface.locale);
  const note = historyNote(t, about.status);
  const comment = t('export.fileComment', { count: about.count, filter: describeSearch(surface.locale, about.search) });
  return note ? `${comment}\n${note}` : comment;
}

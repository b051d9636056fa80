/** The partner's records checked against the ledger: the front door the wiring and the Slack layer use. */
export { RecordsService, RUN_ID_PATTERN, type RecordsOutcome, type RecordsRun, type RecordsServiceOptions, type RecordsSubmission } from './service.js';
export { DEFAULT_RECORDS_SETTINGS, type RecordsSettings } from './settings.js';
export type { RecordsFileProblem, RowProblem, RowProblemCode } from './file.js';
export { EXCEPTION_AMOUNT_COLUMNS, EXCEPTION_COLUMNS, exceptionCells, type ExceptionRow } from './exceptions.js';
export type { RunSummary, CurrencyTotal, SumGroup, SumGroups } from './store.js';
export type { LedgerGap } from './ledger-side.js';

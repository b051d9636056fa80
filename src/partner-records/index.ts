/** The partner's records checked against the ledger: the front door the wiring and the Slack layer use. */
export {
  PREVIEW_RECORDS,
  RecordsService,
  RUN_ID_PATTERN,
  type PreviewRecord,
  type RecordsOutcome,
  type RecordsPreview,
  type RecordsRefusal,
  type RecordsRun,
  type RecordsServiceOptions,
  type RecordsSubmission,
} from './service.js';
export { DEFAULT_RECORDS_SETTINGS, type RecordsSettings } from './settings.js';
export { SHOWN_PROBLEMS, type ProfileFileProblem, type ProfileRowProblem, type ProfileRowProblemCode } from './profile-reader.js';
export { defaultProfile, DATE_FORMATS, IMPORT_PROFILE, type ImportProfile } from './profile.js';
export type { ProfilePick } from './profile-pick.js';
export { LISTED_PROFILES, type ProfileSaving, type SavedProfile } from './profiles-store.js';
export { EXCEPTION_AMOUNT_COLUMNS, EXCEPTION_COLUMNS, exceptionCells, type ExceptionRow } from './exceptions.js';
export type { RunSummary, CurrencyTotal, SumGroup, SumGroups } from './store.js';
export type { LedgerGap } from './ledger-side.js';

/** The ledger's front door: its shapes, the stored reader, and (sync.ts) the sync that fills it. */
export type { Direction, LedgerEntry, LedgerFilter, LedgerPage, LedgerReader, LedgerStatus } from './types.js';
export { StoredLedgerReader } from './reader.js';
export { baseIdentity, identifyPage, searchWords } from './identity.js';
export { DEFAULT_LEDGER_SETTINGS, type LedgerSettings } from './settings.js';
export { LedgerSync, LEDGER_LEASE, type LedgerSyncOptions, type SyncReport, type SyncSource } from './sync.js';
export type { InsertedEntry } from './store.js';
export { LedgerListing, LedgerNotReadyError } from './ledger-listing.js';

/** The ledger's front door: its shapes, the stored reader, and (sync.ts) the sync that fills it. */
export type { Direction, LedgerEntry, LedgerFilter, LedgerPage, LedgerReader, LedgerStatus } from './types.js';
export { StoredLedgerReader } from './reader.js';
export { identifyPage, searchWords } from './identity.js';
export { DEFAULT_LEDGER_SETTINGS, type LedgerSettings } from './settings.js';
export { LedgerSync, type LedgerSyncOptions } from './sync.js';
export type { InsertedEntry } from './store.js';
export { LedgerListing } from './ledger-listing.js';

/** The ledger's front door: its shapes, the stored reader, and (sync.ts) the sync that fills it. */
export type { Direction, LedgerEntry, LedgerFilter, LedgerPage, LedgerReader, LedgerStatus } from './types.js';
export { StoredLedgerReader } from './reader.js';
export { baseIdentity, identifyPage, searchWords } from './identity.js';

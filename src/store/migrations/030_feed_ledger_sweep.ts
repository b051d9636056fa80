/** The feed's late sweep over the ledger: how far it compared, and how many gaps it closed. */
import type { Migration } from './migration.js';

export const feedLedgerSweep: Migration = {
  id: 30,
  name: 'feed_ledger_sweep',
  sql: `
    -- The ledger's seq up to which every stored entry was found posted, out of the sweep's reach, or posted late by it.
    ALTER TABLE feed_state ADD COLUMN swept_position bigint;
    -- Entries the sweep found missing from the channel (the ledger held them, no poll posted them) and posted late.
    ALTER TABLE feed_state ADD COLUMN gap_entries integer NOT NULL DEFAULT 0;
  `,
};

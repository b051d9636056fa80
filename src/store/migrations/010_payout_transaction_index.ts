/** Payouts found by the Fleet transaction they became: the export joins every ledger row on it. */
import type { Migration } from './migration.js';

export const payoutTransactionIndex: Migration = {
  id: 10,
  name: 'payout_transaction_index',
  sql: `
    -- Only completed payouts have a transaction id; the rest stay out of the index.
    CREATE INDEX payout_requests_transaction ON payout_requests (transaction_id) WHERE transaction_id IS NOT NULL;
  `,
};

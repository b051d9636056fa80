/** A bulk file's content hash decides nothing: the column and its index go. */
import type { Migration } from './migration.js';

export const dropContentHash: Migration = {
  id: 32,
  name: 'drop_content_hash',
  sql: `
    DROP INDEX payout_batches_by_content;
    ALTER TABLE payout_batches DROP COLUMN content_hash;
  `,
};

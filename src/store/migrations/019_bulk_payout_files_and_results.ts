/** Bulk payouts: the name of the file each came from (found by `/fleet payouts <words>`), and the results file's delivery, retried until Slack took it. */
import type { Migration } from './migration.js';

export const bulkPayoutFilesAndResults: Migration = {
  id: 19,
  name: 'bulk_payout_files_and_results',
  sql: `
    -- The name of the file chosen in Slack; NULL for rows pasted into the form.
    ALTER TABLE payout_batches ADD COLUMN file_name text;
    -- results_sent_at (013) marks the end decided once; these say whether the results reached the
    -- requester: delivered once Slack took the file; attempted when a process last began to send it
    -- (database time) and how many times, so that one process at a time tries and a failed try is
    -- retried later, each time after a longer wait.
    ALTER TABLE payout_batches ADD COLUMN results_delivered_at timestamptz;
    ALTER TABLE payout_batches ADD COLUMN results_attempted_at timestamptz;
    ALTER TABLE payout_batches ADD COLUMN results_attempts integer NOT NULL DEFAULT 0;
    -- Batches finished before this migration had their results sent (or lost) already.
    UPDATE payout_batches SET results_delivered_at = results_sent_at WHERE results_sent_at IS NOT NULL;
  `,
};

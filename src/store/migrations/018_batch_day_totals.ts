/**
 * Bulk payouts under the day totals' rule: why a batch needs more than one approver (as a single
 * request keeps it, raised at approval or release and never lowered), and an index for the
 * recipients' day totals over the rows still waiting to be sent.
 */
import type { Migration } from './migration.js';

export const batchDayTotals: Migration = {
  id: 18,
  name: 'batch_day_totals',
  sql: `
    ALTER TABLE payout_batches ADD COLUMN dual_approval_rule text
      CHECK (dual_approval_rule IN ('amount', 'requester_total', 'recipient_total', 'new_recipient'));
    ALTER TABLE payout_batches ADD COLUMN dual_approval_total_minor bigint;
    ALTER TABLE payout_batches ADD COLUMN dual_approval_threshold_minor bigint;
    -- A batch may hold several currencies: the one the reason's amounts are in.
    ALTER TABLE payout_batches ADD COLUMN dual_approval_currency text;
    CREATE INDEX payout_batch_rows_waiting_by_recipient ON payout_batch_rows (recipient_key, currency)
      WHERE request_id IS NULL AND skipped IS NULL;
  `,
};

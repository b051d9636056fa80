/** Changed details: a saved recipient picked in the payout form and then edited, as decided when it was requested. */
import type { Migration } from './migration.js';

export const changedRecipientDetails: Migration = {
  id: 28,
  name: 'changed_recipient_details',
  sql: `
    -- { saved: { identity, name }, changes: [{ field, from, to }], matches?: { name, lastPayoutId } }; NULL when not filled from a saved recipient, or not edited.
    ALTER TABLE payout_requests ADD COLUMN changed_details jsonb;
  `,
};

/** Approval tiers: whether each approval was given by a senior approver (PAYOUT_SENIOR_APPROVERS), as looked up when given. */
import type { Migration } from './migration.js';

export const seniorApprovals: Migration = {
  id: 24,
  name: 'senior_approvals',
  sql: `
    -- Checked again, fresh, at release: a senior approval whose giver is no longer a senior approver is revoked.
    ALTER TABLE payout_approvals ADD COLUMN senior boolean NOT NULL DEFAULT false;
    ALTER TABLE payout_batch_approvals ADD COLUMN senior boolean NOT NULL DEFAULT false;
  `,
};

/** The gate before sending (`payouts/gate.ts`) holds a request for any control that no longer passes, not only for roles. */
import type { Migration } from './migration.js';

export const gateHolds: Migration = {
  id: 31,
  name: 'gate_holds',
  sql: `
    ALTER TABLE payout_requests DROP CONSTRAINT payout_requests_hold_reason_check;
    ALTER TABLE payout_requests ADD CONSTRAINT payout_requests_hold_reason_check CHECK (hold_reason IN (
      'requester_not_allowed', 'roles_unavailable', 'needs_approvers', 'needs_senior', 'over_daily_limit', 'over_max_amount', 'not_offered',
      'duplicate_unchecked', 'missed'
    ));
  `,
};

/**
 * What the approval rules need on a stored request: who the recipient is (for their day total),
 * why two approvers are needed, why a fully approved request was not sent, and approvals that no
 * longer count because their giver is no longer an approver.
 */
import type { Migration } from './migration.js';

export const approvalRules: Migration = {
  id: 6,
  name: 'approval_rules',
  sql: `
    -- One key per recipient, so that splitting a payout across requests or requesters adds up:
    -- a mobile wallet by its phone number, a bank account by bank (the BIC's first 8 characters)
    -- and account number without leading zeros. src/payouts/policy.ts (recipientKey) makes the same key.
    ALTER TABLE payout_requests ADD COLUMN recipient_key text;
    UPDATE payout_requests SET recipient_key = CASE
      WHEN kind = 'mobile_money' THEN 'mobile:' || phone
      ELSE 'bank:' || left(bank_code, 8) || ':' || ltrim(account_number, '0')
    END;
    ALTER TABLE payout_requests ALTER COLUMN recipient_key SET NOT NULL;
    CREATE INDEX payout_requests_recipient_total ON payout_requests (recipient_key, currency, requested_at);

    -- Why two approvers are needed: the rule that applied, the amount or day total it measured and
    -- the threshold that total was above. Null when one approver is enough (or for older rows).
    ALTER TABLE payout_requests ADD COLUMN dual_approval_rule text
      CHECK (dual_approval_rule IN ('amount', 'requester_total', 'recipient_total'));
    ALTER TABLE payout_requests ADD COLUMN dual_approval_total_minor bigint;
    ALTER TABLE payout_requests ADD COLUMN dual_approval_threshold_minor bigint;

    -- Set while a request has its approvals but was not sent: the requester may no longer request
    -- payouts, or the roles could not be checked with Slack. Cleared when it is sent.
    ALTER TABLE payout_requests ADD COLUMN hold_reason text
      CHECK (hold_reason IN ('requester_not_allowed', 'roles_unavailable'));

    -- An approval whose giver was no longer an approver when the payout was about to be sent.
    -- Kept as evidence; it counts again only if that person approves again.
    ALTER TABLE payout_approvals ADD COLUMN revoked_at timestamptz;
  `,
};

/**
 * Saved recipients and the new-recipient rule: every recipient of a completed payout, the audit of
 * their removal from the list, and on each request whether its recipient had never been paid
 * (which may take more than two approvers) or was last paid under another name.
 */
import type { Migration } from './migration.js';

export const savedRecipients: Migration = {
  id: 12,
  name: 'saved_recipients',
  sql: `
    -- The new-recipient rule may ask for up to 5 approvers (PAYOUT_NEW_RECIPIENT_APPROVALS).
    ALTER TABLE payout_requests DROP CONSTRAINT IF EXISTS payout_requests_required_approvals_check;
    ALTER TABLE payout_requests ADD CONSTRAINT payout_requests_required_approvals_check
      CHECK (required_approvals BETWEEN 1 AND 5);
    ALTER TABLE payout_requests DROP CONSTRAINT IF EXISTS payout_requests_dual_approval_rule_check;
    ALTER TABLE payout_requests ADD CONSTRAINT payout_requests_dual_approval_rule_check
      CHECK (dual_approval_rule IN ('amount', 'requester_total', 'recipient_total', 'new_recipient'));
    -- As decided when the request was made: no completed payout had gone to this recipient.
    ALTER TABLE payout_requests ADD COLUMN new_recipient boolean NOT NULL DEFAULT false;
    -- The name of the recipient's last completed payout, when it differs from this request's.
    ALTER TABLE payout_requests ADD COLUMN previous_recipient_name text;

    -- One row per recipient ever paid, keyed as src/payouts/recipients.ts (recipientIdentity) keys
    -- them: a wallet by phone number and operator, a bank account by the BIC's first 8 characters
    -- and the account number without leading zeros. Written with each completed payout, in its
    -- transaction. A removed recipient leaves the list (removed_at) but stays known: it was paid.
    CREATE TABLE saved_recipients (
      identity text PRIMARY KEY,
      kind text NOT NULL CHECK (kind IN ('mobile_money', 'bank_account')),
      recipient_name text NOT NULL,
      country_code text NOT NULL,
      phone text,
      operator text,
      account_number text,
      bank_code text,
      last_payout_id text NOT NULL,
      last_paid_at timestamptz NOT NULL,
      removed_at timestamptz,
      removed_by text
    );
    CREATE INDEX saved_recipients_listed ON saved_recipients (last_paid_at DESC) WHERE removed_at IS NULL;

    -- Who removed which recipient from the list, when, and what it held then.
    CREATE TABLE saved_recipient_events (
      id bigserial PRIMARY KEY,
      identity text NOT NULL,
      event text NOT NULL CHECK (event IN ('removed')),
      user_id text NOT NULL,
      at timestamptz NOT NULL,
      details jsonb NOT NULL
    );
    CREATE INDEX saved_recipient_events_identity ON saved_recipient_events (identity, id);

    -- Payouts completed before this migration: the latest per recipient.
    INSERT INTO saved_recipients (
      identity, kind, recipient_name, country_code, phone, operator, account_number, bank_code, last_payout_id, last_paid_at
    )
    SELECT DISTINCT ON (identity) identity, kind, recipient_name, country_code, phone, operator, account_number, bank_code, id, updated_at
    FROM (
      SELECT *, CASE
        WHEN kind = 'mobile_money' THEN 'mobile:' || phone || ':' || operator
        ELSE 'bank:' || left(bank_code, 8) || ':' || ltrim(account_number, '0')
      END AS identity
      FROM payout_requests WHERE state = 'completed'
    ) AS completed
    ORDER BY identity, updated_at DESC, id DESC;
  `,
};

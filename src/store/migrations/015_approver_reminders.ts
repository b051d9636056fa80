/**
 * Telling approvers and correcting a rejected request: one claim per reminder (so that a reminder
 * goes once across replicas and restarts), and the link from a resubmitted request to the rejected
 * request it corrects.
 */
import type { Migration } from './migration.js';

export const approverReminders: Migration = {
  id: 15,
  name: 'approver_reminders',
  sql: `
    -- One row per (request or batch, approver), inserted with ON CONFLICT DO NOTHING before the
    -- reminder is sent: the replica whose insert wins sends it. sent_at stays NULL when Slack
    -- failed after the claim; the reminder is then not sent again (see docs/payouts.md).
    CREATE TABLE payout_approval_reminders (
      subject_id text NOT NULL,
      subject_kind text NOT NULL CHECK (subject_kind IN ('payout', 'batch')),
      approver_id text NOT NULL,
      claimed_at timestamptz NOT NULL,
      sent_at timestamptz,
      PRIMARY KEY (subject_id, approver_id)
    );

    -- The rejected request this one corrects ("Edit and resubmit"); the old one stays rejected.
    ALTER TABLE payout_requests ADD COLUMN resubmit_of text REFERENCES payout_requests (id);
  `,
};

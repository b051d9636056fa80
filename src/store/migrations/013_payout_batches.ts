/**
 * Bulk payouts: a batch read from a file, its rows, its approvals, and the link from each payout
 * request made for a row back to its batch. Ids need not be contiguous: migrate.ts only sorts them.
 */
import type { Migration } from './migration.js';

export const payoutBatches: Migration = {
  id: 13,
  name: 'payout_batches',
  sql: `
    -- One row per checked file. 'draft': checked without a problem, not yet submitted (its rows count
    -- towards nothing). Every change is a conditional UPDATE on (id, state), as for single requests.
    CREATE TABLE payout_batches (
      id text PRIMARY KEY,
      requested_by text NOT NULL,
      created_at timestamptz NOT NULL,
      requested_at timestamptz,
      expires_at timestamptz NOT NULL,
      state text NOT NULL CHECK (state IN ('draft', 'pending', 'sending', 'done', 'stopped', 'rejected', 'expired', 'cancelled')),
      -- sha256 of the file's normalised content: the same rows submitted again are said before approval.
      content_hash text NOT NULL,
      row_count integer NOT NULL CHECK (row_count > 0),
      -- { "USD": 15050, ... } in minor units, over every row.
      totals jsonb NOT NULL,
      new_recipients integer NOT NULL DEFAULT 0,
      required_approvals smallint NOT NULL DEFAULT 1 CHECK (required_approvals BETWEEN 1 AND 5),
      rejected_by text,
      reject_reason text,
      stopped_by text,
      approval_channel text,
      approval_ts text,
      -- The one progress message, edited as rows are sent.
      progress_channel text,
      progress_ts text,
      finished_at timestamptz,
      -- Set once the results file went to the requester, so that it goes once.
      results_sent_at timestamptz,
      updated_at timestamptz NOT NULL,
      version integer NOT NULL DEFAULT 1
    );
    CREATE INDEX payout_batches_by_content ON payout_batches (content_hash) WHERE state <> 'draft';
    CREATE INDEX payout_batches_by_state ON payout_batches (state, expires_at);

    -- One row per line of the file. request_id is set, in the transaction that creates the payout
    -- request, when the row is taken to be sent: a row with one is never taken again.
    CREATE TABLE payout_batch_rows (
      batch_id text NOT NULL REFERENCES payout_batches (id),
      row_number integer NOT NULL,
      draft jsonb NOT NULL,
      reference text NOT NULL,
      amount_minor bigint NOT NULL CHECK (amount_minor > 0),
      currency text NOT NULL,
      recipient_key text NOT NULL,
      new_recipient boolean NOT NULL DEFAULT false,
      request_id text REFERENCES payout_requests (id),
      -- Why a row was never sent: 'stopped', or 'reference_used' (a single payout took its reference first).
      skipped text CHECK (skipped IN ('stopped', 'reference_used')),
      PRIMARY KEY (batch_id, row_number)
    );
    CREATE INDEX payout_batch_rows_waiting ON payout_batch_rows (batch_id, row_number) WHERE request_id IS NULL AND skipped IS NULL;

    -- The primary key makes a second approval by the same person impossible.
    CREATE TABLE payout_batch_approvals (
      batch_id text NOT NULL REFERENCES payout_batches (id),
      user_id text NOT NULL,
      approved_at timestamptz NOT NULL,
      PRIMARY KEY (batch_id, user_id)
    );

    CREATE TABLE payout_batch_events (
      id bigserial PRIMARY KEY,
      batch_id text NOT NULL REFERENCES payout_batches (id),
      event text NOT NULL,
      user_id text,
      at timestamptz NOT NULL,
      details jsonb NOT NULL DEFAULT '{}'::jsonb
    );

    -- The pace of sending, shared by every replica: one row, the earliest moment the next row may go.
    CREATE TABLE payout_batch_pace (
      name text PRIMARY KEY,
      next_at timestamptz NOT NULL
    );

    ALTER TABLE payout_requests ADD COLUMN batch_id text REFERENCES payout_batches (id);
    ALTER TABLE payout_requests ADD COLUMN batch_row integer;
    CREATE INDEX payout_requests_by_batch ON payout_requests (batch_id, batch_row) WHERE batch_id IS NOT NULL;
  `,
};

/** Payout requests, their approvals, and the append-only audit log of everything that happened to them. */
import type { Migration } from './migration.js';

export const payouts: Migration = {
  id: 2,
  name: 'payouts',
  sql: `
    -- One row per request. Every state change is a conditional UPDATE on (id, state), so that two
    -- clicks, a redelivered request or two replicas can never move a request twice.
    CREATE TABLE payout_requests (
      id text PRIMARY KEY,
      kind text NOT NULL CHECK (kind IN ('mobile_money', 'bank_account')),
      recipient_name text NOT NULL,
      country_code text NOT NULL,
      phone text,
      operator text,
      account_number text,
      bank_code text,
      amount_minor bigint NOT NULL CHECK (amount_minor > 0),
      currency text NOT NULL,
      -- The partner reference sent to the Fleet API: unique, because reconciliation looks payouts up by it.
      reference text NOT NULL UNIQUE,
      note text NOT NULL DEFAULT '',
      requested_by text NOT NULL,
      requested_at timestamptz NOT NULL,
      expires_at timestamptz NOT NULL,
      state text NOT NULL CHECK (state IN (
        'pending', 'approved', 'executing', 'completed', 'failed', 'unknown', 'rejected', 'expired', 'cancelled'
      )),
      required_approvals smallint NOT NULL CHECK (required_approvals IN (1, 2)),
      transaction_id text,
      failure_reason text,
      rejected_by text,
      reject_reason text,
      approval_channel text,
      approval_ts text,
      -- Unknown and not found within the reconcile window: an approver must look before any retry.
      needs_review boolean NOT NULL DEFAULT false,
      attempts integer NOT NULL DEFAULT 0,
      last_sent_at timestamptz,
      unknown_since timestamptz,
      next_check_at timestamptz,
      updated_at timestamptz NOT NULL,
      version integer NOT NULL DEFAULT 1,
      CHECK (
        (kind = 'mobile_money' AND phone IS NOT NULL AND operator IS NOT NULL)
        OR (kind = 'bank_account' AND account_number IS NOT NULL AND bank_code IS NOT NULL)
      )
    );
    CREATE INDEX payout_requests_daily_total ON payout_requests (requested_by, currency, requested_at);
    CREATE INDEX payout_requests_by_state ON payout_requests (state, expires_at);
    CREATE INDEX payout_requests_recent ON payout_requests (requested_at DESC);

    -- The primary key makes a second approval by the same person impossible, whatever the app does.
    CREATE TABLE payout_approvals (
      request_id text NOT NULL REFERENCES payout_requests (id),
      user_id text NOT NULL,
      approved_at timestamptz NOT NULL,
      PRIMARY KEY (request_id, user_id)
    );

    CREATE TABLE payout_events (
      id bigserial PRIMARY KEY,
      request_id text NOT NULL REFERENCES payout_requests (id),
      event text NOT NULL,
      user_id text,
      at timestamptz NOT NULL,
      details jsonb NOT NULL DEFAULT '{}'::jsonb
    );
    CREATE INDEX payout_events_by_request ON payout_events (request_id, id);

    -- The audit log is evidence: rows are added, never changed or removed.
    CREATE FUNCTION payout_events_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      RAISE EXCEPTION 'payout_events is append-only';
    END;
    $$;
    CREATE TRIGGER payout_events_append_only
      BEFORE UPDATE OR DELETE ON payout_events
      FOR EACH ROW EXECUTE FUNCTION payout_events_append_only();
  `,
};

/**
 * Scheduled and recurring payouts: a request approved ahead (`payout_schedules`, one row per
 * scheduled request) and its occurrences (`payout_occurrences`, at most 52), each released once as a
 * payout request of its own (`payout_id`). An occurrence waiting to be released counts towards the
 * day totals of its own day; the scheduled request itself never does.
 */
import type { Migration } from './migration.js';

export const payoutSchedules: Migration = {
  id: 20,
  name: 'payout_schedules',
  sql: `
    CREATE TABLE payout_schedules (
      request_id text PRIMARY KEY REFERENCES payout_requests (id),
      time_zone text NOT NULL,
      first_day text NOT NULL,
      time_of_day text NOT NULL,
      repeat text NOT NULL CHECK (repeat IN ('once', 'weekly', 'biweekly', 'monthly')),
      ends_on text,
      -- The saved recipient as the approvers saw it (name and operator), or null when it was not saved.
      saved_recipient jsonb,
      cancelled_by text,
      cancelled_at timestamptz
    );
    CREATE TABLE payout_occurrences (
      request_id text NOT NULL REFERENCES payout_requests (id),
      number integer NOT NULL CHECK (number BETWEEN 1 AND 52),
      due_at timestamptz NOT NULL,
      state text NOT NULL DEFAULT 'scheduled'
        CHECK (state IN ('scheduled', 'released', 'held', 'missed', 'skipped', 'cancelled')),
      hold_reason text,
      payout_id text REFERENCES payout_requests (id),
      noticed_at timestamptz,
      updated_at timestamptz NOT NULL,
      version integer NOT NULL DEFAULT 1,
      PRIMARY KEY (request_id, number)
    );
    CREATE INDEX payout_occurrences_waiting ON payout_occurrences (due_at) WHERE state IN ('scheduled', 'held');
    CREATE TABLE payout_schedule_events (
      id bigserial PRIMARY KEY,
      request_id text NOT NULL REFERENCES payout_requests (id),
      number integer,
      event text NOT NULL,
      user_id text,
      at timestamptz NOT NULL,
      details jsonb NOT NULL DEFAULT '{}'
    );
    CREATE INDEX payout_schedule_events_by_request ON payout_schedule_events (request_id, id);
  `,
};

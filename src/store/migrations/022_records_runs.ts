/** The partner's records checked against the ledger: each run kept with its exceptions, and the ledger found by reference. */
import type { Migration } from './migration.js';

export const recordsRuns: Migration = {
  id: 22,
  name: 'records_runs',
  sql: `
    -- A record names a transaction by its reference: found through this index, not by reading the ledger.
    CREATE INDEX ledger_entries_by_reference ON ledger_entries (reference);

    -- One row per records file checked. source_key names the submission (modal and file), so that
    -- a submission delivered twice is kept once.
    CREATE TABLE records_runs (
      id text PRIMARY KEY,
      source_key text NOT NULL UNIQUE,
      user_id text NOT NULL,
      created_at timestamptz NOT NULL,
      file_name text NOT NULL,
      -- The records' first and last calendar day (YYYY-MM-DD) in LEDGER_TIMEZONE.
      period_start text NOT NULL,
      period_end text NOT NULL,
      -- False: the ledger could not vouch for the period, and nothing was called missing from the records.
      ledger_complete boolean NOT NULL,
      record_count integer NOT NULL,
      matched integer NOT NULL,
      differences integer NOT NULL,
      not_in_ledger integer NOT NULL,
      not_in_records integer NOT NULL,
      -- { "USD": { "count": 3, "minor": -15050 }, ... }: the matched records per currency.
      totals jsonb NOT NULL
    );
    CREATE INDEX records_runs_recent ON records_runs (created_at DESC);

    -- The rows of a run's exceptions file, in its order, from which the file is written again.
    CREATE TABLE records_run_exceptions (
      run_id text NOT NULL REFERENCES records_runs (id) ON DELETE CASCADE,
      ord integer NOT NULL,
      kind text NOT NULL,
      reference text NOT NULL,
      date text NOT NULL,
      records_amount text NOT NULL,
      ledger_amount text NOT NULL,
      currency text NOT NULL,
      note text NOT NULL,
      records_row integer,
      PRIMARY KEY (run_id, ord)
    );
  `,
};

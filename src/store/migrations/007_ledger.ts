/** The ledger: a local copy of every fleet account transaction, and how far its sync has come. */
import type { Migration } from './migration.js';

export const ledger: Migration = {
  id: 7,
  name: 'ledger',
  sql: `
    -- One row per transaction of the fleet account, stored once (entry_key, see src/ledger/identity.ts).
    -- seq grows with every insertion: the order in which the app learnt of the entries.
    CREATE TABLE ledger_entries (
      seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      entry_key text NOT NULL UNIQUE,
      reference text NOT NULL,
      occurrence integer NOT NULL,
      -- type and status as the API sent them, whatever the value.
      type text NOT NULL,
      status text NOT NULL,
      -- The exact decimal the API sent, and the same in the currency's minor units.
      amount numeric NOT NULL,
      amount_minor bigint NOT NULL,
      currency text NOT NULL,
      description text NOT NULL,
      -- date as the API sent it, and as an instant for ordering and filters.
      date_text text NOT NULL,
      entry_at timestamptz NOT NULL,
      first_seen_at timestamptz NOT NULL,
      -- Found after entries with a later date were already stored.
      late boolean NOT NULL DEFAULT false,
      -- Lower-case words of reference and description (identity.ts searchWords), for word search
      -- through a GIN index: core Postgres, so it works on PGlite too (pg_trgm is not there by default).
      words text[] NOT NULL
    );
    -- Newest-first pages and oldest-first keyset streaming, with or without a date range.
    CREATE INDEX ledger_entries_by_date ON ledger_entries (entry_at DESC, entry_key DESC);
    -- Filtered pages and their counts: currency, then type, then date.
    CREATE INDEX ledger_entries_by_currency_type ON ledger_entries (currency, upper(type), entry_at DESC);
    CREATE INDEX ledger_entries_by_type ON ledger_entries (upper(type), entry_at DESC);
    CREATE INDEX ledger_entries_words ON ledger_entries USING gin (words);

    -- The sync's progress (one row): the history walk and the periodic re-walk resume at walk_offset.
    CREATE TABLE ledger_sync_state (
      id smallint PRIMARY KEY DEFAULT 1 CHECK (id = 1),
      history_complete boolean NOT NULL DEFAULT false,
      history_completed_at timestamptz,
      -- 'history' while the first walk runs, 'rewalk' during a periodic re-walk, null between walks.
      walk_kind text,
      walk_offset integer NOT NULL DEFAULT 0,
      walk_started_at timestamptz,
      walk_pages integer NOT NULL DEFAULT 0,
      last_walk_completed_at timestamptz,
      estimated_total integer,
      last_poll_at timestamptz,
      up_to_date_since timestamptz,
      last_sweep_at timestamptz,
      last_error text,
      last_error_at timestamptz
    );
    INSERT INTO ledger_sync_state (id) VALUES (1);
  `,
};

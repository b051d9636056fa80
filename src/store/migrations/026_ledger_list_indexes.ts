/**
 * Indexes that let every filter of the transaction list read its page in list order (newest first,
 * then seq) and stop after a page, and count its matches no further than 10,001 (src/ledger/reader.ts);
 * and the number of entries stored, kept by triggers, so that the list's status line (and
 * `/fleet ledger`) need not count a million rows.
 */
import type { Migration } from './migration.js';

export const ledgerListIndexes: Migration = {
  id: 26,
  name: 'ledger_list_indexes',
  sql: `
    -- The whole list, a date range, and keyset pages: (entry_at, seq) is the list's order. Each list
    -- index carries the other filters' columns (INCLUDE), so that a count checks them in the index
    -- alone (an index-only scan: no table read per entry, which on PGlite is what costs).
    CREATE INDEX ledger_entries_list ON ledger_entries (entry_at DESC, seq DESC) INCLUDE (currency, type, status, amount_minor, amount);
    -- One per equality filter, each followed by the list's order.
    CREATE INDEX ledger_entries_list_currency ON ledger_entries (currency, entry_at DESC, seq DESC) INCLUDE (type, status, amount_minor, amount);
    CREATE INDEX ledger_entries_list_type ON ledger_entries (upper(type), entry_at DESC, seq DESC) INCLUDE (currency, type, status, amount_minor, amount);
    CREATE INDEX ledger_entries_list_status ON ledger_entries (upper(status), entry_at DESC, seq DESC) INCLUDE (currency, type, status, amount_minor, amount);
    CREATE INDEX ledger_entries_list_currency_type ON ledger_entries (currency, upper(type), entry_at DESC, seq DESC) INCLUDE (type, status, amount_minor, amount);
    -- Money in and money out, whichever of the two is rare in an account.
    CREATE INDEX ledger_entries_list_in ON ledger_entries (entry_at DESC, seq DESC) INCLUDE (currency, type, status, amount_minor, amount) WHERE amount_minor > 0;
    CREATE INDEX ledger_entries_list_out ON ledger_entries (entry_at DESC, seq DESC) INCLUDE (currency, type, status, amount_minor, amount) WHERE amount_minor < 0;
    -- Amount ranges that match few entries (min:/max:).
    CREATE INDEX ledger_entries_abs_amount ON ledger_entries (abs(amount)) INCLUDE (amount, seq);
    -- Replaced by the ones above (they end in entry_at alone, so ties and keyset pages could not use them).
    DROP INDEX IF EXISTS ledger_entries_by_currency_type;
    DROP INDEX IF EXISTS ledger_entries_by_type;

    -- How many entries are stored, kept exact by one update per inserting or deleting statement.
    ALTER TABLE ledger_sync_state ADD COLUMN entries_stored bigint NOT NULL DEFAULT 0;
    UPDATE ledger_sync_state SET entries_stored = (SELECT count(*) FROM ledger_entries) WHERE id = 1;
    CREATE FUNCTION ledger_entries_count_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      UPDATE ledger_sync_state SET entries_stored = entries_stored + (SELECT count(*) FROM inserted) WHERE id = 1;
      RETURN NULL;
    END;
    $$;
    CREATE FUNCTION ledger_entries_count_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      UPDATE ledger_sync_state SET entries_stored = entries_stored - (SELECT count(*) FROM deleted) WHERE id = 1;
      RETURN NULL;
    END;
    $$;
    CREATE FUNCTION ledger_entries_count_truncated() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      UPDATE ledger_sync_state SET entries_stored = 0 WHERE id = 1;
      RETURN NULL;
    END;
    $$;
    CREATE TRIGGER ledger_entries_count_inserted AFTER INSERT ON ledger_entries
      REFERENCING NEW TABLE AS inserted FOR EACH STATEMENT EXECUTE FUNCTION ledger_entries_count_inserted();
    CREATE TRIGGER ledger_entries_count_deleted AFTER DELETE ON ledger_entries
      REFERENCING OLD TABLE AS deleted FOR EACH STATEMENT EXECUTE FUNCTION ledger_entries_count_deleted();
    CREATE TRIGGER ledger_entries_count_truncated AFTER TRUNCATE ON ledger_entries
      FOR EACH STATEMENT EXECUTE FUNCTION ledger_entries_count_truncated();
  `,
};

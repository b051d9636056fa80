/**
 * The ledger's word table: one row per (word, entry) and per (pair of chunks, entry), ordered as the
 * transaction list is, so that a word's matches are counted (up to 10,001) and paged by keyset through
 * one btree, index-only, on PGlite and on a Postgres server without extensions (src/ledger/word-search.ts).
 * Kept by triggers in the statement that writes the entries, so the sync's slices and any other insert
 * fill it alike.
 * Also: partial indexes for a direction with currency and type, whose combinations can match nothing
 * while each part matches much (EUR payments going out).
 */
import type { Migration } from './migration.js';

export const ledgerWords: Migration = {
  id: 27,
  name: 'ledger_words',
  sql: `
    -- The backfill of a large ledger takes longer than the pool's 30 s guard on one statement
    -- (docs/performance.md: 1.5 to 2.5 minutes for 1,000,000 entries on a busy machine); the guard
    -- comes back at commit.
    SET LOCAL statement_timeout = 0;
    -- No entry is written while the table is backfilled (another replica's sync waits for the commit).
    LOCK TABLE ledger_entries IN SHARE MODE;
    CREATE TABLE ledger_words (
      -- One of the entry's words (ledger_entries.words, src/ledger/identity.ts searchWords), or two
      -- chunks of its text that follow each other with one space between, as a phrase is typed.
      word text NOT NULL,
      entry_at timestamptz NOT NULL,
      seq bigint NOT NULL
    );
    -- The tokens of one entry: its words, then each pair of chunks of its text (lower case) that
    -- follow each other with one space between, once. A pair is a lower bound for its phrase: an entry
    -- holding it contains the phrase and each of its words; an entry may contain the phrase inside
    -- longer chunks without the pair, which is why a phrase's matches are still checked against the
    -- text (word-search.ts). PL/pgSQL: four times faster than the same in SQL for the backfill.
    CREATE FUNCTION ledger_search_tokens(words text[], reference text, description text) RETURNS text[]
      LANGUAGE plpgsql STABLE AS $$
    DECLARE
      chunks text[] := string_to_array(lower(reference || ' ' || description), ' ');
      tokens text[] := words;
      pair text;
    BEGIN
      FOR i IN 1 .. coalesce(cardinality(chunks), 0) - 1 LOOP
        IF chunks[i] <> '' AND chunks[i + 1] <> '' THEN
          pair := chunks[i] || ' ' || chunks[i + 1];
          IF NOT pair = ANY (tokens) THEN tokens := tokens || pair; END IF;
        END IF;
      END LOOP;
      RETURN tokens;
    END;
    $$;
    -- Tokens longer than a btree takes comfortably are left out: the GIN index finds such words.
    INSERT INTO ledger_words (word, entry_at, seq)
      SELECT t.token, e.entry_at, e.seq FROM ledger_entries e, unnest(ledger_search_tokens(e.words, e.reference, e.description)) AS t(token)
       WHERE octet_length(t.token) <= 200;
    -- Built after the backfill: one sort instead of a million index insertions.
    CREATE INDEX ledger_words_list ON ledger_words (word, entry_at DESC, seq DESC);
    -- Statistics now, so the first searches are planned on the index (PGlite has no autovacuum; the
    -- sync vacuums the table when it first stores, src/ledger/sync.ts).
    ANALYZE ledger_words;

    CREATE FUNCTION ledger_words_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO ledger_words (word, entry_at, seq)
        SELECT t.token, i.entry_at, i.seq FROM inserted i, unnest(ledger_search_tokens(i.words, i.reference, i.description)) AS t(token)
         WHERE octet_length(t.token) <= 200;
      RETURN NULL;
    END;
    $$;
    CREATE FUNCTION ledger_words_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      DELETE FROM ledger_words l
        USING (SELECT t.token AS word, d.entry_at, d.seq FROM deleted d, unnest(ledger_search_tokens(d.words, d.reference, d.description)) AS t(token)) AS gone
       WHERE l.word = gone.word AND l.entry_at = gone.entry_at AND l.seq = gone.seq;
      RETURN NULL;
    END;
    $$;
    CREATE FUNCTION ledger_words_truncated() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      TRUNCATE ledger_words;
      RETURN NULL;
    END;
    $$;
    -- Entries are written once and never updated (src/ledger/store.ts), so insert and delete suffice.
    CREATE TRIGGER ledger_words_inserted AFTER INSERT ON ledger_entries
      REFERENCING NEW TABLE AS inserted FOR EACH STATEMENT EXECUTE FUNCTION ledger_words_inserted();
    CREATE TRIGGER ledger_words_deleted AFTER DELETE ON ledger_entries
      REFERENCING OLD TABLE AS deleted FOR EACH STATEMENT EXECUTE FUNCTION ledger_words_deleted();
    CREATE TRIGGER ledger_words_truncated AFTER TRUNCATE ON ledger_entries
      FOR EACH STATEMENT EXECUTE FUNCTION ledger_words_truncated();

    -- A direction with a currency, a type or both: the range holds exactly the matches, so a count
    -- that finds none stops at once instead of checking every entry of the currency and type.
    CREATE INDEX ledger_entries_list_in_currency_type ON ledger_entries (currency, upper(type), entry_at DESC, seq DESC) INCLUDE (type, status, amount_minor, amount) WHERE amount_minor > 0;
    CREATE INDEX ledger_entries_list_out_currency_type ON ledger_entries (currency, upper(type), entry_at DESC, seq DESC) INCLUDE (type, status, amount_minor, amount) WHERE amount_minor < 0;
    CREATE INDEX ledger_entries_list_in_type ON ledger_entries (upper(type), entry_at DESC, seq DESC) INCLUDE (currency, type, status, amount_minor, amount) WHERE amount_minor > 0;
    CREATE INDEX ledger_entries_list_out_type ON ledger_entries (upper(type), entry_at DESC, seq DESC) INCLUDE (currency, type, status, amount_minor, amount) WHERE amount_minor < 0;
  `,
};

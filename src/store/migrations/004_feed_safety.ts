/** The feed's longer memory: which entries it posted, for a few days, and counts of odd entries. */
import type { Migration } from './migration.js';

export const feedSafety: Migration = {
  id: 4,
  name: 'feed_safety',
  sql: `
    -- Keys of the entries the feed posted, kept until a few days past the later of the entry's date
    -- and its posting (keep_until), so that an entry that shows up late, long after the cursor
    -- forgot its neighbours, is told apart from one posted long ago. Rows past keep_until are pruned.
    CREATE TABLE feed_posted_entries (
      channel_id text NOT NULL,
      entry_key text NOT NULL,
      entry_at timestamptz NOT NULL,
      posted_at timestamptz NOT NULL,
      keep_until timestamptz NOT NULL,
      PRIMARY KEY (channel_id, entry_key)
    );
    CREATE INDEX feed_posted_entries_expiry ON feed_posted_entries (keep_until);

    -- Entries posted late (dated before entries already posted) and entries dated in the future,
    -- counted for /fleet feed.
    ALTER TABLE feed_state ADD COLUMN late_entries integer NOT NULL DEFAULT 0;
    ALTER TABLE feed_state ADD COLUMN future_dated_entries integer NOT NULL DEFAULT 0;
    -- Entries of the Fleet API's list that could not be read (malformed) in the last complete poll.
    ALTER TABLE feed_state ADD COLUMN unreadable_entries integer NOT NULL DEFAULT 0;
  `,
};

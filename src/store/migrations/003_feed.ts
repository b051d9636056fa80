/** The live feed's durable state: its cursor and health per channel, and low-balance alert states. */
import type { Migration } from './migration.js';

export const feed: Migration = {
  id: 3,
  name: 'feed',
  sql: `
    -- One row per feed channel. The cursor (JSON: newestMs, floorMs, keys) says which entries were
    -- posted (null until the first start succeeded); it moves after each message Slack accepted. version grows with every move, so that a
    -- replica that lost the lease cannot write an older cursor over a newer one.
    CREATE TABLE feed_state (
      channel_id text PRIMARY KEY,
      version bigint NOT NULL DEFAULT 0,
      cursor jsonb,
      newest_reference text,
      newest_entry_at timestamptz,
      newest_posted_at timestamptz,
      pending_entries integer NOT NULL DEFAULT 0,
      last_poll_at timestamptz,
      -- The end of the last poll that left nothing unposted: how far behind the channel is.
      caught_up_at timestamptz,
      last_error text,
      last_error_at timestamptz,
      created_at timestamptz NOT NULL
    );

    -- Whether each currency was last seen below its alert threshold, so that an alert is posted
    -- once on the way down and once on recovery, not at every check.
    CREATE TABLE feed_balance_alerts (
      currency text PRIMARY KEY,
      below boolean NOT NULL,
      balance_minor bigint NOT NULL,
      threshold_minor bigint NOT NULL,
      changed_at timestamptz NOT NULL
    );
  `,
};

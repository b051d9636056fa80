/** The App Home tab: per person, the hash of the home Slack shows, so that no replica replaces it with an older one. */
import type { Migration } from './migration.js';

export const homeViews: Migration = {
  id: 11,
  name: 'home_views',
  sql: `
    -- hash: what views.publish answered for the last home published, passed back on the next publish
    -- so that Slack refuses (hash_conflict) a home rendered before another process published a newer one.
    -- NULL while a first publish is under way (claimed_at, database time): others wait for it.
    CREATE TABLE home_views (
      user_id text PRIMARY KEY,
      hash text,
      claimed_at timestamptz NOT NULL DEFAULT now(),
      published_at timestamptz
    );
  `,
};

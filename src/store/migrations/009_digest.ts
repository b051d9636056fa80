/** The daily digest: one row per day posted (or being posted), so that each day goes out once. */
import type { Migration } from './migration.js';

export const digest: Migration = {
  id: 9,
  name: 'digest',
  sql: `
    -- The primary key is the claim: whoever inserts (or takes over an expired claim on) a day posts it.
    -- A claim whose holder died before posting expires at claim_expires_at (database time) and is
    -- taken again; posted_at set means done, and nobody takes the day again.
    CREATE TABLE digest_posts (
      day text PRIMARY KEY,
      channel_id text NOT NULL,
      claimed_by text NOT NULL,
      claim_expires_at timestamptz NOT NULL,
      attempts integer NOT NULL DEFAULT 1,
      posted_at timestamptz,
      message_ts text,
      late boolean NOT NULL DEFAULT false
    );

    -- The first day whose digest falls due after the first run: days before it are never caught up,
    -- so that a new install does not post a digest for every day before it existed.
    CREATE TABLE digest_state (
      id smallint PRIMARY KEY DEFAULT 1 CHECK (id = 1),
      first_day text NOT NULL
    );
  `,
};

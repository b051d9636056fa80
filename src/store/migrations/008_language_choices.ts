/** Each person's chosen language (`/fleet language`), kept across restarts and shared by replicas. */
import type { Migration } from './migration.js';

export const languageChoices: Migration = {
  id: 8,
  name: 'language_choices',
  sql: `
    -- One row per person who chose a language; no row: their Slack language, else DEFAULT_LOCALE.
    CREATE TABLE language_choices (
      user_id text PRIMARY KEY,
      locale text NOT NULL CHECK (locale IN ('en', 'fr')),
      updated_at timestamptz NOT NULL
    );
  `,
};

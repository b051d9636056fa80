/** The team's saved import profiles for `/fleet reconcile`: one row per name, the profile as JSON. */
import type { Migration } from './migration.js';

export const importProfiles: Migration = {
  id: 33,
  name: 'import_profiles',
  sql: `
    -- name_key is the name lower-cased: one profile per name, whatever its case. The JSON is checked
    -- by the app's schema on every write and read, not here.
    CREATE TABLE records_import_profiles (
      name_key text PRIMARY KEY CHECK (name_key = lower(name)),
      name text NOT NULL,
      profile jsonb NOT NULL,
      created_by text NOT NULL,
      updated_by text NOT NULL,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL
    );
    CREATE INDEX records_import_profiles_recent ON records_import_profiles (updated_at DESC);
  `,
};

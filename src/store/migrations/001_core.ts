/** The tables every feature shares: leases for leader election between replicas. */
import type { Migration } from './migration.js';

// `schema_migrations` itself is created by the migration runner (src/store/migrate.ts), which
// needs it before it can record this migration.
export const core: Migration = {
  id: 1,
  name: 'core',
  sql: `
    -- One row per job that only one replica may run at a time (the live feed poller, for one).
    -- A holder keeps the lease by renewing it before expires_at; after that anyone may take it.
    CREATE TABLE app_leases (
      name text PRIMARY KEY,
      holder text NOT NULL,
      expires_at timestamptz NOT NULL
    );
  `,
};

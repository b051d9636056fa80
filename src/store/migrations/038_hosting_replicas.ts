/** Hosted mode: the replicas alive now, from which each works out which workspaces' periodic work it runs. */
import type { Migration } from './migration.js';

export const hostingReplicas: Migration = {
  id: 38,
  name: 'hosting_replicas',
  sql: `
    -- One row per replica, renewed every few seconds; a replica not seen for a while is gone. The rows
    -- belong to the tenant 'hosting-replicas', never to a workspace, under the same isolation as the rest.
    CREATE TABLE hosting_replicas (
      replica_id text NOT NULL,
      tenant_id text NOT NULL DEFAULT current_setting('app.tenant'),
      started_at timestamptz NOT NULL DEFAULT clock_timestamp(),
      seen_at timestamptz NOT NULL,
      PRIMARY KEY (replica_id, tenant_id)
    );
    ALTER TABLE hosting_replicas ENABLE ROW LEVEL SECURITY;
    ALTER TABLE hosting_replicas FORCE ROW LEVEL SECURITY;
    CREATE POLICY tenant_isolation ON hosting_replicas
      USING (tenant_id = current_setting('app.tenant', true))
      WITH CHECK (tenant_id = current_setting('app.tenant', true));
  `,
};

/** Hosted mode: each workspace's own settings (`/fleet settings`), and a version replicas watch to apply a change without a restart. */
import type { Migration } from './migration.js';

export const workspaceSettings: Migration = {
  id: 37,
  name: 'workspace_settings',
  sql: `
    -- The variables of docs/configuration.md a workspace sets for itself, as text by name; validated by
    -- the configuration's schema before they are stored. No row: every setting at its default.
    CREATE TABLE workspace_settings (
      tenant_id text PRIMARY KEY DEFAULT current_setting('app.tenant'),
      settings jsonb NOT NULL,
      updated_by text NOT NULL,
      updated_at timestamptz NOT NULL
    );
    ALTER TABLE workspace_settings ENABLE ROW LEVEL SECURITY;
    ALTER TABLE workspace_settings FORCE ROW LEVEL SECURITY;
    CREATE POLICY tenant_isolation ON workspace_settings
      USING (tenant_id = current_setting('app.tenant', true))
      WITH CHECK (tenant_id = current_setting('app.tenant', true));

    -- Raised by every change that needs the workspace's bot built again (a Fleet key connected or
    -- replaced, settings saved); each replica compares it with the one its bot was built from.
    ALTER TABLE workspaces ADD COLUMN bot_version bigint NOT NULL DEFAULT 0;
  `,
};

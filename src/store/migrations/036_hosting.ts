/**
 * Hosted mode's registry and secrets: the workspaces served, each one's data key (wrapped), its Slack
 * installation and its Fleet API key (both sealed with that data key; see src/hosting/key-vault.ts).
 */
import type { Migration } from './migration.js';

/** The row-level security every tenant table has: a connection sees and writes the rows of its `app.tenant` alone. */
const isolated = (table: string) => `
    ALTER TABLE ${table} ENABLE ROW LEVEL SECURITY;
    ALTER TABLE ${table} FORCE ROW LEVEL SECURITY;
    CREATE POLICY tenant_isolation ON ${table}
      USING (tenant_id = current_setting('app.tenant', true)) WITH CHECK (tenant_id = current_setting('app.tenant', true));`;

export const hosting: Migration = {
  id: 36,
  name: 'hosting',
  sql: `
    -- One row per Slack workspace (tenant_id is its team id, T...). An uninstalled one keeps its history
    -- until purge_after, when every row of the tenant is deleted.
    CREATE TABLE workspaces (
      tenant_id text PRIMARY KEY DEFAULT current_setting('app.tenant'),
      team_name text NOT NULL DEFAULT '',
      enterprise_id text,
      installed_by text NOT NULL DEFAULT '',
      installed_at timestamptz NOT NULL,
      state text NOT NULL CHECK (state IN ('active', 'uninstalled')),
      uninstalled_at timestamptz,
      purge_after timestamptz,
      CHECK ((state = 'active') = (purge_after IS NULL))
    );
    CREATE INDEX workspaces_purge ON workspaces (purge_after) WHERE state = 'uninstalled';
    ${isolated('workspaces')}
    -- The one exception to strict isolation: any connection may read the registry, so that a replica can
    -- list the tenants it serves. It holds no money, people or secrets; writes stay the tenant's own.
    CREATE POLICY registry_readable ON workspaces FOR SELECT USING (true);

    -- Each tenant's data key, AES-256-GCM wrapped by the key-encryption key named kek_id.
    CREATE TABLE tenant_data_keys (
      tenant_id text PRIMARY KEY DEFAULT current_setting('app.tenant'),
      kek_id text NOT NULL,
      wrapped_key bytea NOT NULL,
      created_at timestamptz NOT NULL,
      rewrapped_at timestamptz
    );
    CREATE INDEX tenant_data_keys_kek ON tenant_data_keys (kek_id);
    ${isolated('tenant_data_keys')}

    -- The @slack/oauth Installation, tokens included, sealed whole; the other columns are plain for operators.
    CREATE TABLE slack_installations (
      tenant_id text PRIMARY KEY DEFAULT current_setting('app.tenant'),
      bot_user_id text NOT NULL DEFAULT '',
      bot_id text NOT NULL DEFAULT '',
      app_id text NOT NULL DEFAULT '',
      scopes text NOT NULL DEFAULT '',
      sealed bytea NOT NULL,
      token_expires_at timestamptz,
      installed_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL
    );
    ${isolated('slack_installations')}

    -- The Fleet API key bound with /fleet connect, sealed.
    CREATE TABLE fleet_connections (
      tenant_id text PRIMARY KEY DEFAULT current_setting('app.tenant'),
      sealed_key bytea NOT NULL,
      connected_by text NOT NULL,
      connected_at timestamptz NOT NULL
    );
    ${isolated('fleet_connections')}
  `,
};

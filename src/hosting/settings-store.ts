/**
 * A workspace's own settings in the database, stored only once the configuration's schema accepted
 * them (`tenant-config.ts`); saving raises the workspace's bot version, so every replica builds it again.
 */
import type { Db } from '../store/index.js';
import { cleanSettings, type WorkspaceSettings } from './tenant-config.js';
import { inTenant } from './tenant-scope.js';

export class WorkspaceSettingsStore {
  constructor(private readonly db: Db) {}

  async read(tenant: string): Promise<WorkspaceSettings> {
    const rows = await inTenant(this.db, tenant, async (tx) => {
      const result = await tx.query<{ settings: Record<string, unknown> }>('SELECT settings FROM workspace_settings WHERE tenant_id = $1', [tenant]);
      return result.rows;
    });
    return cleanSettings(rows[0]?.settings ?? {});
  }

  /** Replaces the workspace's settings (already validated) and raises its bot version, in one transaction. */
  async save(tenant: string, settings: WorkspaceSettings, userId: string): Promise<void> {
    await inTenant(this.db, tenant, async (tx) => {
      await tx.query(
        `INSERT INTO workspace_settings (tenant_id, settings, updated_by, updated_at) VALUES ($1, $2::jsonb, $3, now())
         ON CONFLICT (tenant_id) DO UPDATE SET settings = excluded.settings, updated_by = excluded.updated_by, updated_at = excluded.updated_at`,
        [tenant, JSON.stringify(cleanSettings(settings)), userId],
      );
      await tx.query('UPDATE workspaces SET bot_version = bot_version + 1 WHERE tenant_id = $1', [tenant]);
    });
  }
}

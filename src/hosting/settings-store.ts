/**
 * A workspace's own settings in the database, stored only once the configuration's schema accepted
 * them (`tenant-config.ts`), and the version of its bot that every replica compares with its own.
 */
import type { Queryable } from '../store/index.js';
import { cleanSettings, type WorkspaceSettings } from './tenant-config.js';

export class WorkspaceSettingsStore {
  constructor(private readonly db: Queryable) {}

  async read(tenant: string): Promise<WorkspaceSettings> {
    const { rows } = await this.db.query<{ settings: Record<string, unknown> }>('SELECT settings FROM workspace_settings WHERE tenant_id = $1', [tenant]);
    return cleanSettings(rows[0]?.settings ?? {});
  }

  /** Replaces the workspace's settings (already validated) and asks every replica to build its bot again. */
  async save(tenant: string, settings: WorkspaceSettings, userId: string, db: Queryable = this.db): Promise<void> {
    await db.query(
      `INSERT INTO workspace_settings (tenant_id, settings, updated_by, updated_at) VALUES ($1, $2::jsonb, $3, now())
       ON CONFLICT (tenant_id) DO UPDATE SET settings = excluded.settings, updated_by = excluded.updated_by, updated_at = excluded.updated_at`,
      [tenant, JSON.stringify(cleanSettings(settings)), userId],
    );
    await bumpBotVersion(db, tenant);
  }
}

/** Every replica builds the workspace's bot again at its next look (`TenantBots.reconcile`). */
export async function bumpBotVersion(db: Queryable, tenant: string): Promise<void> {
  await db.query('UPDATE workspaces SET bot_version = bot_version + 1 WHERE tenant_id = $1', [tenant]);
}

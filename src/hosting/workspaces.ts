/**
 * The registry of the Slack workspaces hosted mode serves. Uninstalling shreds a workspace's secrets
 * at once and keeps its history for a retention period; purging then deletes every row it has.
 */
import { systemClock, type Clock } from '../core/clock.js';
import type { Logger } from '../core/logger.js';
import type { Db, Queryable } from '../store/db.js';
import type { KeyVault } from './key-vault.js';
import { checkTenantId, inTenant } from './tenant-scope.js';

export interface WorkspaceInstall {
  tenant: string;
  teamName: string;
  /** The Slack user who installed the app. */
  installedBy: string;
  /** The Enterprise Grid org the workspace belongs to, if any. */
  enterpriseId?: string | undefined;
}

export interface WorkspaceRegistryOptions {
  db: Db;
  vault: KeyVault;
  clock?: Clock;
  logger?: Logger;
}

const DAY_MS = 24 * 60 * 60 * 1000;

export class WorkspaceRegistry {
  private readonly db: Db;
  private readonly vault: KeyVault;
  private readonly clock: Clock;
  private readonly logger: Logger | undefined;

  constructor(options: WorkspaceRegistryOptions) {
    this.db = options.db;
    this.vault = options.vault;
    this.clock = options.clock ?? systemClock;
    this.logger = options.logger;
  }

  /**
   * Records an install or a reinstall: the workspace is active, and a pending purge is called off.
   * Call it before the installation is stored (InstallProvider's `afterInstallation`): it waits for a
   * purge of the same workspace under way, which would otherwise delete the new installation.
   */
  async installed(install: WorkspaceInstall): Promise<void> {
    await inTenant(this.db, install.tenant, (tx) =>
      tx.query(
        `INSERT INTO workspaces (tenant_id, team_name, enterprise_id, installed_by, installed_at, state) VALUES ($1, $2, $3, $4, $5, 'active')
         ON CONFLICT (tenant_id) DO UPDATE SET team_name = excluded.team_name, enterprise_id = excluded.enterprise_id, installed_by = excluded.installed_by,
           installed_at = excluded.installed_at, state = 'active', uninstalled_at = NULL, purge_after = NULL`,
        [install.tenant, install.teamName, install.enterpriseId ?? null, install.installedBy, this.clock.now()],
      ),
    );
    this.logger?.info({ tenant: install.tenant }, 'workspace installed');
  }

  /**
   * Records an uninstall: the Slack installation, the Fleet connection and the data key are deleted at
   * once (whatever else was sealed can no longer be opened), and the rest is purged after `retentionDays`.
   */
  async uninstalled(tenant: string, retentionDays: number): Promise<{ purgeAfter: Date }> {
    if (!Number.isInteger(retentionDays) || retentionDays < 0) throw new RangeError('retentionDays must be a whole number of days, 0 or more');
    const now = this.clock.now();
    const purgeAfter = new Date(now.getTime() + retentionDays * DAY_MS);
    await inTenant(this.db, tenant, async (tx) => {
      for (const table of ['slack_installations', 'fleet_connections', 'tenant_data_keys'])
        await tx.query(`DELETE FROM ${table} WHERE tenant_id = $1`, [tenant]);
      // A workspace never registered (installed before the registry) still gets a row, so that its history is purged too.
      await tx.query(
        `INSERT INTO workspaces (tenant_id, installed_at, state, uninstalled_at, purge_after) VALUES ($1, $2, 'uninstalled', $2, $3)
         ON CONFLICT (tenant_id) DO UPDATE SET state = 'uninstalled', uninstalled_at = excluded.uninstalled_at, purge_after = excluded.purge_after
           WHERE workspaces.state = 'active'`,
        [tenant, now, purgeAfter],
      );
    });
    await this.vault.forget(tenant);
    this.logger?.info({ tenant, purgeAfter }, 'workspace uninstalled: its tokens and keys are deleted, its history kept until the purge');
    return { purgeAfter };
  }

  /**
   * The workspaces served now (or only `tenant`), each with its bot's version: what every replica's
   * bots are kept in line with.
   */
  async servable(tenant?: string): Promise<Map<string, number>> {
    const { rows } = await this.db.query<{ tenant_id: string; bot_version: number | bigint }>(
      `SELECT tenant_id, bot_version FROM workspaces WHERE state = 'active'${tenant === undefined ? '' : ' AND tenant_id = $1'}`,
      tenant === undefined ? [] : [tenant],
    );
    return new Map(rows.map((row) => [row.tenant_id, Number(row.bot_version)]));
  }

  /** Asks every replica to build the workspace's bot again (its Fleet key or settings changed). */
  async bumpBotVersion(tenant: string): Promise<void> {
    await inTenant(this.db, tenant, (tx) => tx.query('UPDATE workspaces SET bot_version = bot_version + 1 WHERE tenant_id = $1', [tenant]));
  }

  /** Who installed the app in the workspace: they may connect it and change its settings, as its admins may. */
  async installerOf(tenant: string): Promise<string | undefined> {
    const { rows } = await this.db.query<{ installed_by: string }>(`SELECT installed_by FROM workspaces WHERE tenant_id = $1 AND state = 'active'`, [tenant]);
    return rows[0]?.installed_by || undefined;
  }

  /** The workspaces served now. */
  async active(): Promise<string[]> {
    const { rows } = await this.db.query<{ tenant_id: string }>(`SELECT tenant_id FROM workspaces WHERE state = 'active' ORDER BY tenant_id`);
    return rows.map((row) => row.tenant_id);
  }

  /**
   * Deletes every row of each uninstalled workspace whose retention ended by `now`, in every table with a
   * tenant_id column, one transaction per workspace; returns the workspaces purged. Safe to run twice
   * and on several replicas at once: the registry row is taken first, and a reinstall in between wins.
   */
  async purgeExpired(now: Date = this.clock.now()): Promise<string[]> {
    const { rows } = await this.db.query<{ tenant_id: string }>(
      `SELECT tenant_id FROM workspaces WHERE state = 'uninstalled' AND purge_after <= $1 ORDER BY tenant_id`,
      [now],
    );
    if (rows.length === 0) return [];
    const tables = await tenantTablesInDeleteOrder(this.db);
    const purged: string[] = [];
    for (const { tenant_id: tenant } of rows) {
      const done = await inTenant(this.db, checkTenantId(tenant), async (tx) => {
        const taken = await tx.query(`DELETE FROM workspaces WHERE tenant_id = $1 AND state = 'uninstalled' AND purge_after <= $2 RETURNING tenant_id`, [
          tenant,
          now,
        ]);
        if (taken.rowCount === 0) return false;
        for (const table of tables) await tx.query(`DELETE FROM ${quoteIdent(table)} WHERE tenant_id = $1`, [tenant]);
        return true;
      });
      if (!done) continue;
      await this.vault.forget(tenant);
      purged.push(tenant);
      this.logger?.info({ tenant, tables: tables.length }, 'workspace purged: every row it had is deleted');
    }
    return purged;
  }
}

/**
 * The tables of the current schema with a tenant_id column, read from the catalog so that tables added
 * later are purged too, ordered so that a table referencing another by foreign key comes first.
 */
export async function tenantTablesInDeleteOrder(db: Queryable): Promise<string[]> {
  const { rows: tables } = await db.query<{ table_name: string }>(
    `SELECT c.table_name FROM information_schema.columns c
       JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name
      WHERE c.column_name = 'tenant_id' AND c.table_schema = current_schema() AND t.table_type = 'BASE TABLE'
      ORDER BY c.table_name`,
  );
  const { rows: references } = await db.query<{ child: string; parent: string }>(
    `SELECT child.relname AS child, parent.relname AS parent FROM pg_constraint k
       JOIN pg_class child ON child.oid = k.conrelid JOIN pg_class parent ON parent.oid = k.confrelid
       JOIN pg_namespace n ON n.oid = child.relnamespace
      WHERE k.contype = 'f' AND n.nspname = current_schema() AND k.conrelid <> k.confrelid`,
  );
  return deleteOrder(
    tables.map((row) => row.table_name),
    references,
  );
}

/** Children before their parents (a table deleted from before any it references); throws on a circle. */
export function deleteOrder(tables: string[], references: Array<{ child: string; parent: string }>): string[] {
  const names = new Set(tables);
  const order: string[] = [];
  const remaining = new Set(tables);
  while (remaining.size > 0) {
    // A table is ready when no remaining table other than itself references it.
    const ready = [...remaining].filter((table) => !references.some((ref) => ref.parent === table && ref.child !== table && remaining.has(ref.child)));
    if (ready.length === 0) throw new Error(`the tenant tables reference each other in a circle: ${[...remaining].sort().join(', ')}`);
    for (const table of ready.sort()) {
      order.push(table);
      remaining.delete(table);
    }
  }
  return order.filter((table) => names.has(table));
}

function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

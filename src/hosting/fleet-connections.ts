/** Each workspace's Fleet API key, bound with `/fleet connect`, stored sealed; never logged. */
import { systemClock, type Clock } from '../core/clock.js';
import type { Db } from '../store/db.js';
import type { KeyVault } from './key-vault.js';
import { inTenant } from './tenant-scope.js';

const PURPOSE = 'fleet-api-key';

export interface FleetConnectionsOptions {
  db: Db;
  vault: KeyVault;
  clock?: Clock;
}

export class FleetConnections {
  private readonly db: Db;
  private readonly vault: KeyVault;
  private readonly clock: Clock;

  constructor(options: FleetConnectionsOptions) {
    this.db = options.db;
    this.vault = options.vault;
    this.clock = options.clock ?? systemClock;
  }

  /** Binds `apiKey` to the workspace, replacing the key it had. */
  async connect(tenant: string, apiKey: string, userId: string): Promise<void> {
    if (!apiKey.trim()) throw new Error('the Fleet API key is empty');
    const sealed = await this.vault.seal(tenant, PURPOSE, apiKey);
    await inTenant(this.db, tenant, (tx) =>
      tx.query(
        `INSERT INTO fleet_connections (tenant_id, sealed_key, connected_by, connected_at) VALUES ($1, $2, $3, $4)
         ON CONFLICT (tenant_id) DO UPDATE SET sealed_key = excluded.sealed_key, connected_by = excluded.connected_by, connected_at = excluded.connected_at`,
        [tenant, sealed, userId, this.clock.now()],
      ),
    );
  }

  /** The workspace's Fleet API key, or undefined when it has not connected one. */
  async apiKeyFor(tenant: string): Promise<string | undefined> {
    const row = await inTenant(this.db, tenant, async (tx) => {
      const { rows } = await tx.query<{ sealed_key: Buffer | Uint8Array }>('SELECT sealed_key FROM fleet_connections WHERE tenant_id = $1', [tenant]);
      return rows[0];
    });
    if (!row) return undefined;
    return (await this.vault.open(tenant, PURPOSE, row.sealed_key)).toString('utf8');
  }

  async isConnected(tenant: string): Promise<boolean> {
    return inTenant(this.db, tenant, async (tx) => {
      const { rows } = await tx.query('SELECT 1 FROM fleet_connections WHERE tenant_id = $1', [tenant]);
      return rows.length === 1;
    });
  }

  /** Forgets the workspace's key; true when it had one. */
  async disconnect(tenant: string): Promise<boolean> {
    return inTenant(this.db, tenant, async (tx) => {
      const result = await tx.query('DELETE FROM fleet_connections WHERE tenant_id = $1', [tenant]);
      return result.rowCount === 1;
    });
  }
}

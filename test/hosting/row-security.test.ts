/**
 * The hosting tables under row-level security, as the app's own role sees them (not a superuser, not
 * the owner): each store still works, and a workspace sees none of another's secrets.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FleetConnections } from '../../src/hosting/fleet-connections.js';
import { SlackInstallationStore } from '../../src/hosting/installation-store.js';
import { KeyVault } from '../../src/hosting/key-vault.js';
import { inTenant } from '../../src/hosting/tenant-scope.js';
import { WorkspaceRegistry } from '../../src/hosting/workspaces.js';
import type { Db, Queryable } from '../../src/store/index.js';
import { testDatabases } from '../support/databases.js';
import { kekEntry, newTeamId, ringOf } from './vault-fixtures.js';

/** `db` with every statement run as `role`, for which row-level security applies. */
function asRole(db: Db, role: string): Db {
  const transaction = <T>(work: (tx: Queryable) => Promise<T>) =>
    db.transaction(async (tx) => {
      await tx.query(`SET LOCAL ROLE ${role}`);
      return work(tx);
    });
  const roleDb: Db = {
    kind: db.kind,
    tenant: db.tenant,
    forTenant: (tenant) => asRole(db.forTenant(tenant), role),
    query: (sql, params) => transaction((tx) => tx.query(sql, params)),
    transaction,
    listen: (channel, handlers) => db.listen(channel, handlers),
    forHeavyWork: () => roleDb,
    close: () => Promise.resolve(),
  };
  return roleDb;
}

describe.each(testDatabases())('the hosting tables under row-level security on $name', ({ open }) => {
  let owner: Db;
  let app: Db;
  const role = `app_${randomBytes(5).toString('hex')}`;
  const k1 = kekEntry('k1');
  const [a, b] = [newTeamId(), newTeamId()];

  beforeAll(async () => {
    owner = await open();
    await owner.query(`CREATE ROLE ${role} NOLOGIN NOSUPERUSER NOBYPASSRLS`);
    const { rows } = await owner.query<{ schema: string }>('SELECT current_schema() AS schema');
    await owner.query(`GRANT USAGE ON SCHEMA ${rows[0]!.schema} TO ${role}`);
    await owner.query(`GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA ${rows[0]!.schema} TO ${role}`);
    app = asRole(owner, role);
    const vault = new KeyVault({ db: app, keyRing: ringOf(k1) });
    const registry = new WorkspaceRegistry({ db: app, vault });
    const fleet = new FleetConnections({ db: app, vault });
    for (const tenant of [a, b]) {
      await registry.installed({ tenant, teamName: `Team ${tenant}`, installedBy: 'U0INSTALLER' });
      await fleet.connect(tenant, `fk_live_of_${tenant}`, 'U0INSTALLER');
    }
  });
  afterAll(async () => {
    await owner?.query(`DROP OWNED BY ${role}`).catch(() => undefined);
    await owner?.query(`DROP ROLE IF EXISTS ${role}`).catch(() => undefined);
    await owner?.close();
  });

  it('lets the stores work as the app role, each workspace reading its own key', async () => {
    const fleet = new FleetConnections({ db: app, vault: new KeyVault({ db: app, keyRing: ringOf(k1) }) });
    expect(await fleet.apiKeyFor(a)).toBe(`fk_live_of_${a}`);
    expect(await fleet.apiKeyFor(b)).toBe(`fk_live_of_${b}`);
    const installations = new SlackInstallationStore({ db: app, vault: new KeyVault({ db: app, keyRing: ringOf(k1) }) });
    await expect(installations.fetchInstallation({ teamId: a, enterpriseId: undefined, isEnterpriseInstall: false })).rejects.toThrow('no Slack installation');
  });

  it('shows a connection with no workspace set none of the secrets, but the whole registry', async () => {
    for (const table of ['fleet_connections', 'tenant_data_keys']) {
      expect((await app.query(`SELECT tenant_id FROM ${table}`)).rows, table).toEqual([]);
      expect((await owner.query(`SELECT tenant_id FROM ${table} WHERE tenant_id IN ($1, $2)`, [a, b])).rows, table).toHaveLength(2);
    }
    expect(await new WorkspaceRegistry({ db: app, vault: new KeyVault({ db: app, keyRing: ringOf(k1) }) }).active()).toEqual([a, b].sort());
  });

  it("shows a workspace its own rows alone, and refuses its writes to another's", async () => {
    const seen = await inTenant(app, a, async (tx) => (await tx.query<{ tenant_id: string }>('SELECT tenant_id FROM fleet_connections')).rows);
    expect(seen.map((row) => row.tenant_id)).toEqual([a]);
    await expect(
      inTenant(app, a, (tx) =>
        tx.query(`INSERT INTO fleet_connections (tenant_id, sealed_key, connected_by, connected_at) VALUES ($1, '\\x01', 'U0X', now())`, [newTeamId()]),
      ),
    ).rejects.toThrow(/row-level security/);
    const renamed = await inTenant(app, a, (tx) => tx.query(`UPDATE workspaces SET team_name = 'taken over' WHERE tenant_id = $1`, [b]));
    expect(renamed.rowCount).toBe(0);
  });

  it('re-wraps every data key and purges a workspace as the app role', async () => {
    const rotated = new KeyVault({ db: app, keyRing: ringOf(kekEntry('k2'), k1) });
    expect(await rotated.rewrapAll()).toEqual({ rewrapped: 2, alreadyCurrent: 0 });
    const now = new Date();
    const registry = new WorkspaceRegistry({ db: app, vault: rotated, clock: { now: () => now, sleep: () => Promise.resolve() } });
    await registry.uninstalled(b, 0);
    expect(await registry.purgeExpired(now)).toEqual([b]);
    expect((await owner.query('SELECT tenant_id FROM workspaces WHERE tenant_id IN ($1, $2)', [a, b])).rows).toEqual([{ tenant_id: a }]);
    expect(await new FleetConnections({ db: app, vault: rotated }).apiKeyFor(a)).toBe(`fk_live_of_${a}`);
  });
});

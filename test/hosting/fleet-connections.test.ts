import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FleetConnections } from '../../src/hosting/fleet-connections.js';
import { KeyVault } from '../../src/hosting/key-vault.js';
import type { Db } from '../../src/store/index.js';
import { testDatabases } from '../support/databases.js';
import { kekEntry, newTeamId, ringOf } from './vault-fixtures.js';

describe.each(testDatabases())('the Fleet connections on $name', ({ open }) => {
  let db: Db;
  let vault: KeyVault;
  let fleet: FleetConnections;
  beforeAll(async () => {
    db = await open();
    vault = new KeyVault({ db, keyRing: ringOf(kekEntry('k1')) });
    fleet = new FleetConnections({ db, vault });
  });
  afterAll(async () => {
    await db?.close();
  });

  it('connects a workspace, replaces its key, and disconnects it', async () => {
    const tenant = newTeamId();
    expect(await fleet.isConnected(tenant)).toBe(false);
    expect(await fleet.apiKeyFor(tenant)).toBeUndefined();
    await fleet.connect(tenant, 'fk_live_first_0123456789', 'U0ADMIN');
    expect(await fleet.isConnected(tenant)).toBe(true);
    expect(await fleet.apiKeyFor(tenant)).toBe('fk_live_first_0123456789');
    await fleet.connect(tenant, 'fk_live_second_9876543210', 'U0OTHER');
    expect(await fleet.apiKeyFor(tenant)).toBe('fk_live_second_9876543210');
    const { rows } = await db.query<{ connected_by: string; sealed_key: Uint8Array }>(
      'SELECT connected_by, sealed_key FROM fleet_connections WHERE tenant_id = $1',
      [tenant],
    );
    expect(rows.map((row) => row.connected_by)).toEqual(['U0OTHER']);
    expect(Buffer.from(rows[0]!.sealed_key).toString('latin1')).not.toContain('fk_live');
    expect(await fleet.disconnect(tenant)).toBe(true);
    expect(await fleet.isConnected(tenant)).toBe(false);
    expect(await fleet.apiKeyFor(tenant)).toBeUndefined();
    expect(await fleet.disconnect(tenant)).toBe(false);
  });

  it("gives each workspace its own key, and a key copied into another workspace's row does not open", async () => {
    const [a, b] = [newTeamId(), newTeamId()];
    await fleet.connect(a, 'fk_live_key_of_a_000000', 'U0A');
    await fleet.connect(b, 'fk_live_key_of_b_000000', 'U0B');
    expect(await fleet.apiKeyFor(a)).toBe('fk_live_key_of_a_000000');
    expect(await fleet.apiKeyFor(b)).toBe('fk_live_key_of_b_000000');
    await db.query('UPDATE fleet_connections SET sealed_key = (SELECT sealed_key FROM fleet_connections WHERE tenant_id = $1) WHERE tenant_id = $2', [a, b]);
    const error = await fleet.apiKeyFor(b).then(
      () => undefined,
      (thrown: Error) => thrown,
    );
    expect(error?.message).toContain('cannot open the sealed value');
    expect(error?.message).not.toContain('fk_live');
  });

  it('refuses an empty key', async () => {
    await expect(fleet.connect(newTeamId(), '  ', 'U0ADMIN')).rejects.toThrow('the Fleet API key is empty');
  });
});

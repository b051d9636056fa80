import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KeyVault, SealedValueError, UnknownKeyEncryptionKeyError } from '../../src/hosting/key-vault.js';
import type { Db } from '../../src/store/index.js';
import { testDatabases } from '../support/databases.js';
import { capturingLogger, kekEntry, newTeamId, ringOf } from './vault-fixtures.js';

const FLEET_KEY = 'fk_live_9a8b7c6d5e4f3a2b1c0d';

describe.each(testDatabases())('the key vault on $name', ({ open }) => {
  let db: Db;
  const k1 = kekEntry('k1');
  beforeAll(async () => {
    db = await open();
  });
  afterAll(async () => {
    await db?.close();
  });

  const vaultWith = (...entries: string[]) => new KeyVault({ db, keyRing: ringOf(...entries) });

  async function storedRow(tenant: string) {
    const { rows } = await db.query<{ kek_id: string; wrapped_key: Uint8Array; rewrapped_at: Date | null }>(
      'SELECT kek_id, wrapped_key, rewrapped_at FROM tenant_data_keys WHERE tenant_id = $1',
      [tenant],
    );
    return rows;
  }

  it('opens what it sealed, and a fresh vault on the same keys does too', async () => {
    const tenant = newTeamId();
    const sealed = await vaultWith(k1).seal(tenant, 'fleet-api-key', FLEET_KEY);
    expect((await vaultWith(k1).open(tenant, 'fleet-api-key', sealed)).toString()).toBe(FLEET_KEY);
    expect((await storedRow(tenant)).map((row) => row.kek_id)).toEqual(['k1']);
  });

  it('keeps the plaintext out of the sealed value and the data key out of the stored row', async () => {
    const tenant = newTeamId();
    const sealed = await vaultWith(k1).seal(tenant, 'fleet-api-key', FLEET_KEY);
    expect(sealed.includes(Buffer.from(FLEET_KEY))).toBe(false);
    expect(sealed.toString('latin1')).not.toContain('fk_live');
    const [row] = await storedRow(tenant);
    expect(Buffer.from(row!.wrapped_key).length).toBe(1 + 12 + 16 + 32);
  });

  it("refuses to open a workspace's value as another workspace's, or as another purpose", async () => {
    const [a, b] = [newTeamId(), newTeamId()];
    const vault = vaultWith(k1);
    const sealed = await vault.seal(a, 'fleet-api-key', FLEET_KEY);
    await vault.seal(b, 'fleet-api-key', 'something of b');
    await expect(vault.open(b, 'fleet-api-key', sealed)).rejects.toThrow(SealedValueError);
    await expect(vault.open(a, 'slack-installation', sealed)).rejects.toThrow('altered, or sealed for another workspace or purpose');
  });

  it('refuses a sealed value with any byte altered', async () => {
    const tenant = newTeamId();
    const vault = vaultWith(k1);
    const sealed = await vault.seal(tenant, 'fleet-api-key', FLEET_KEY);
    for (const index of [0, 3, 12, 25, sealed.length - 1]) {
      const altered = Buffer.from(sealed);
      altered[index] = altered[index]! ^ 0x01;
      await expect(vault.open(tenant, 'fleet-api-key', altered)).rejects.toThrow(SealedValueError);
    }
  });

  it('re-wraps data keys with a new current key, after which the old key is no longer needed', async () => {
    const tenant = newTeamId();
    const k2 = kekEntry('k2');
    const sealed = await vaultWith(k1).seal(tenant, 'slack-installation', '{"bot":{"token":"xoxb-1"}}');
    const { logger, lines } = capturingLogger();
    const rotating = new KeyVault({ db, keyRing: ringOf(k2, k1), logger });
    const counts = await rotating.rewrapAll();
    expect(counts.rewrapped).toBeGreaterThanOrEqual(1);
    expect((await storedRow(tenant)).map((row) => row.kek_id)).toEqual(['k2']);
    expect((await storedRow(tenant))[0]!.rewrapped_at).not.toBeNull();
    expect((await vaultWith(k2).open(tenant, 'slack-installation', sealed)).toString()).toBe('{"bot":{"token":"xoxb-1"}}');
    // Run again (as at the next start, or on a second replica): nothing left to do.
    expect(await rotating.rewrapAll()).toMatchObject({ rewrapped: 0 });
    const keyMaterial = [k1, k2].map((entry) => entry.slice(3));
    for (const secret of keyMaterial) expect(lines.join('\n')).not.toContain(secret);
    expect(lines.join('\n')).toContain('re-wrapped');
  });

  it('names the missing key id, and never key material, when a data key was wrapped by a key the ring lacks', async () => {
    const tenant = newTeamId();
    const old = kekEntry('old-2025');
    const sealed = await vaultWith(old).seal(tenant, 'fleet-api-key', FLEET_KEY);
    const k3 = kekEntry('k3');
    const error = await vaultWith(k3)
      .open(tenant, 'fleet-api-key', sealed)
      .then(
        () => undefined,
        (thrown: Error) => thrown,
      );
    expect(error).toBeInstanceOf(UnknownKeyEncryptionKeyError);
    expect(error?.message).toContain('"old-2025"');
    for (const secret of [old, k3].map((entry) => entry.split(':')[1]!)) expect(error?.message).not.toContain(secret);
    expect(error?.message).not.toContain(FLEET_KEY);
    await expect(vaultWith(k3).rewrapAll()).rejects.toThrow('"old-2025"');
    // The data key is still there, wrapped as it was, for when the old key is put back.
    expect((await vaultWith(kekEntry('k4'), old).open(tenant, 'fleet-api-key', sealed)).toString()).toBe(FLEET_KEY);
  });

  it('ends with one data key when two replicas seal a first secret for a workspace at once', async () => {
    const tenant = newTeamId();
    const [one, two] = [vaultWith(k1), vaultWith(k1)];
    const sealed = await Promise.all([
      one.seal(tenant, 'fleet-api-key', 'first'),
      two.seal(tenant, 'fleet-api-key', 'second'),
      one.seal(tenant, 'fleet-api-key', 'third'),
    ]);
    expect(await storedRow(tenant)).toHaveLength(1);
    const reader = vaultWith(k1);
    expect(await Promise.all(sealed.map(async (value) => (await reader.open(tenant, 'fleet-api-key', value)).toString()))).toEqual([
      'first',
      'second',
      'third',
    ]);
  });

  it('can never open what was sealed before its data key was forgotten, and a replica holding the old key moves to the new one', async () => {
    const tenant = newTeamId();
    const vault = vaultWith(k1);
    const other = vaultWith(k1);
    const sealed = await vault.seal(tenant, 'fleet-api-key', FLEET_KEY);
    await other.open(tenant, 'fleet-api-key', sealed);
    await vault.forget(tenant);
    expect(await storedRow(tenant)).toEqual([]);
    await expect(vault.open(tenant, 'fleet-api-key', sealed)).rejects.toThrow('no data key');
    // A reinstall makes a new data key: the replica still holding the old one in memory seals and opens with the new one.
    const resealed = await vault.seal(tenant, 'fleet-api-key', 'new key');
    expect((await other.open(tenant, 'fleet-api-key', resealed)).toString()).toBe('new key');
    expect((await other.seal(tenant, 'fleet-api-key', 'x')).subarray(1, 9).equals(resealed.subarray(1, 9))).toBe(true);
    await expect(other.open(tenant, 'fleet-api-key', sealed)).rejects.toThrow('no longer has');
  });
});

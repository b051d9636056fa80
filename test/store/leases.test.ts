import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { releaseLease, tryAcquireLease, type Db } from '../../src/store/index.js';
import { testDatabases } from '../support/databases.js';

const TTL_MS = 30_000;

describe.each(testDatabases())('leases on $name', ({ open }) => {
  let db: Db;
  beforeAll(async () => {
    db = await open();
  });
  afterAll(async () => {
    await db?.close(); // db is unset when open() failed; let that failure be the one reported
  });

  /** Moves a lease's expiry to `seconds` from now by the database clock, as time passing would. */
  const expireIn = (name: string, seconds: number) =>
    db.query("UPDATE app_leases SET expires_at = clock_timestamp() + $2 * interval '1 second' WHERE name = $1", [name, seconds]);
  /** Seconds from now (database clock) until the lease expires. */
  const secondsLeft = async (name: string) => {
    const { rows } = await db.query<{ left: number | string }>(
      'SELECT extract(epoch FROM expires_at - clock_timestamp()) AS left FROM app_leases WHERE name = $1',
      [name],
    );
    return Number(rows[0]?.left);
  };

  it('gives a free lease to the first holder and refuses a second while it lives', async () => {
    expect(await tryAcquireLease(db, 'feed-live', 'replica-a', TTL_MS)).toBe(true);
    expect(await tryAcquireLease(db, 'feed-live', 'replica-b', TTL_MS)).toBe(false);
    expect((await db.query('SELECT holder FROM app_leases WHERE name = $1', ['feed-live'])).rows).toEqual([{ holder: 'replica-a' }]);
  });

  it('sets the expiry by the database clock: the lease lives for its TTL from now', async () => {
    expect(await tryAcquireLease(db, 'feed-db-clock', 'replica-a', TTL_MS)).toBe(true);
    const left = await secondsLeft('feed-db-clock');
    expect(left).toBeGreaterThan(0);
    expect(left).toBeLessThanOrEqual(TTL_MS / 1000);
  });

  it('lets a second holder take a lease once it has expired by the database clock', async () => {
    expect(await tryAcquireLease(db, 'feed-expired', 'replica-a', TTL_MS)).toBe(true);
    await expireIn('feed-expired', -1);
    expect(await tryAcquireLease(db, 'feed-expired', 'replica-b', TTL_MS)).toBe(true);
    expect(await tryAcquireLease(db, 'feed-expired', 'replica-a', TTL_MS)).toBe(false);
  });

  it('lets the holder renew, which pushes the expiry out', async () => {
    expect(await tryAcquireLease(db, 'feed-renew', 'replica-a', TTL_MS)).toBe(true);
    await expireIn('feed-renew', 1);
    expect(await tryAcquireLease(db, 'feed-renew', 'replica-a', TTL_MS)).toBe(true);
    expect(await secondsLeft('feed-renew')).toBeGreaterThan(1);
    expect(await tryAcquireLease(db, 'feed-renew', 'replica-b', TTL_MS)).toBe(false);
  });

  it('frees a released lease for others at once, and ignores a release by someone else', async () => {
    expect(await tryAcquireLease(db, 'feed-release', 'replica-a', TTL_MS)).toBe(true);
    expect(await releaseLease(db, 'feed-release', 'replica-b')).toBe(false);
    expect(await tryAcquireLease(db, 'feed-release', 'replica-b', TTL_MS)).toBe(false);
    expect(await releaseLease(db, 'feed-release', 'replica-a')).toBe(true);
    expect(await tryAcquireLease(db, 'feed-release', 'replica-b', TTL_MS)).toBe(true);
  });

  it('gives a contested free lease to exactly one of many replicas', async () => {
    const outcomes = await Promise.all(['a', 'b', 'c', 'd', 'e'].map((replica) => tryAcquireLease(db, 'feed-contested', `replica-${replica}`, TTL_MS)));
    expect(outcomes.filter(Boolean)).toHaveLength(1);
  });

  it('keeps leases of different names apart', async () => {
    expect(await tryAcquireLease(db, 'job-one', 'replica-a', TTL_MS)).toBe(true);
    expect(await tryAcquireLease(db, 'job-two', 'replica-b', TTL_MS)).toBe(true);
  });

  it('rejects a lease length that is not positive', async () => {
    await expect(tryAcquireLease(db, 'feed-bad', 'replica-a', 0)).rejects.toThrow(RangeError);
  });
});

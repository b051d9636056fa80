import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { releaseLease, tryAcquireLease, type Db } from '../../src/store/index.js';
import { testDatabases } from '../support/databases.js';

const start = new Date('2025-06-01T12:00:00Z');
const later = (ms: number) => new Date(start.getTime() + ms);
const TTL_MS = 30_000;

describe.each(testDatabases())('leases on $name', ({ open }) => {
  let db: Db;
  beforeAll(async () => {
    db = await open();
  });
  afterAll(async () => {
    await db?.close(); // db is unset when open() failed; let that failure be the one reported
  });

  it('gives a free lease to the first holder and refuses a second while it lives', async () => {
    expect(await tryAcquireLease(db, 'feed-live', 'replica-a', start, TTL_MS)).toBe(true);
    expect(await tryAcquireLease(db, 'feed-live', 'replica-b', later(TTL_MS - 1), TTL_MS)).toBe(false);
    expect((await db.query('SELECT holder FROM app_leases WHERE name = $1', ['feed-live'])).rows).toEqual([{ holder: 'replica-a' }]);
  });

  it('lets a second holder take a lease once it has expired', async () => {
    expect(await tryAcquireLease(db, 'feed-expired', 'replica-a', start, TTL_MS)).toBe(true);
    expect(await tryAcquireLease(db, 'feed-expired', 'replica-b', later(TTL_MS), TTL_MS)).toBe(true);
    expect(await tryAcquireLease(db, 'feed-expired', 'replica-a', later(TTL_MS + 1), TTL_MS)).toBe(false);
  });

  it('lets the holder renew, which pushes the expiry out', async () => {
    expect(await tryAcquireLease(db, 'feed-renew', 'replica-a', start, TTL_MS)).toBe(true);
    expect(await tryAcquireLease(db, 'feed-renew', 'replica-a', later(TTL_MS - 1_000), TTL_MS)).toBe(true);
    // Past the first expiry, but inside the renewed one.
    expect(await tryAcquireLease(db, 'feed-renew', 'replica-b', later(TTL_MS + 1_000), TTL_MS)).toBe(false);
  });

  it('frees a released lease for others at once, and ignores a release by someone else', async () => {
    expect(await tryAcquireLease(db, 'feed-release', 'replica-a', start, TTL_MS)).toBe(true);
    expect(await releaseLease(db, 'feed-release', 'replica-b')).toBe(false);
    expect(await tryAcquireLease(db, 'feed-release', 'replica-b', later(1), TTL_MS)).toBe(false);
    expect(await releaseLease(db, 'feed-release', 'replica-a')).toBe(true);
    expect(await tryAcquireLease(db, 'feed-release', 'replica-b', later(2), TTL_MS)).toBe(true);
  });

  it('gives a contested free lease to exactly one of many replicas', async () => {
    const outcomes = await Promise.all(
      ['a', 'b', 'c', 'd', 'e'].map((replica) => tryAcquireLease(db, 'feed-contested', `replica-${replica}`, start, TTL_MS)),
    );
    expect(outcomes.filter(Boolean)).toHaveLength(1);
  });

  it('keeps leases of different names apart', async () => {
    expect(await tryAcquireLease(db, 'job-one', 'replica-a', start, TTL_MS)).toBe(true);
    expect(await tryAcquireLease(db, 'job-two', 'replica-b', start, TTL_MS)).toBe(true);
  });

  it('rejects a lease length that is not positive', async () => {
    await expect(tryAcquireLease(db, 'feed-bad', 'replica-a', start, 0)).rejects.toThrow(RangeError);
  });
});

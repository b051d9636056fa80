import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rendezvousOwner, WorkPlacement } from '../../src/hosting/placement.js';
import type { Db } from '../../src/store/index.js';
import { testDatabases } from '../support/databases.js';

const TENANTS = Array.from({ length: 300 }, (_, i) => `T${String(i).padStart(6, '0')}`);

describe('rendezvous placement', () => {
  it('gives each workspace one owner, spread across the replicas, and moves only the newcomer’s share when one joins', () => {
    const two = ['replica-a', 'replica-b'];
    const three = [...two, 'replica-c'];
    const before = new Map(TENANTS.map((tenant) => [tenant, rendezvousOwner(tenant, two)]));
    const after = new Map(TENANTS.map((tenant) => [tenant, rendezvousOwner(tenant, three)]));
    const share = (owners: Map<string, string>, replica: string) => [...owners.values()].filter((owner) => owner === replica).length;
    for (const replica of three) expect(share(after, replica)).toBeGreaterThan(60);
    for (const tenant of TENANTS) {
      // A workspace either stays where it was or goes to the newcomer, never from one old replica to the other.
      if (after.get(tenant) !== before.get(tenant)) expect(after.get(tenant)).toBe('replica-c');
    }
    // The order the list is read in does not matter.
    expect(TENANTS.map((tenant) => rendezvousOwner(tenant, [...three].reverse()))).toEqual(TENANTS.map((tenant) => after.get(tenant)));
  });
});

// Hosted mode runs on Postgres only (a PGlite database holds one tenant).
describe.each(testDatabases().filter((database) => database.name === 'postgres'))('replicas alive on $name', ({ open }) => {
  let db: Db;
  beforeAll(async () => {
    db = await open();
  });
  afterAll(async () => {
    await db?.close();
  });

  it('agree on one owner per workspace while alive, and the others take a leaver’s workspaces at their next beat', async () => {
    const a = new WorkPlacement({ db, replicaId: 'replica-a' });
    const b = new WorkPlacement({ db, replicaId: 'replica-b' });
    // Before any beat a replica knows of no other, so it runs everything.
    expect(TENANTS.every((tenant) => a.owns(tenant))).toBe(true);
    expect(await a.beat()).toBe(true);
    expect(await b.beat()).toBe(true);
    expect(await a.beat()).toBe(true);
    expect(a.replicas).toEqual(['replica-a', 'replica-b']);
    expect(await a.beat()).toBe(false);
    for (const tenant of TENANTS) expect([a.owns(tenant), b.owns(tenant)].filter(Boolean)).toHaveLength(1);
    const ofA = TENANTS.filter((tenant) => a.owns(tenant)).length;
    expect(ofA).toBeGreaterThan(100);
    expect(ofA).toBeLessThan(200);

    await b.leave();
    expect(await a.beat()).toBe(true);
    expect(a.replicas).toEqual(['replica-a']);
    expect(TENANTS.every((tenant) => a.owns(tenant))).toBe(true);
    await a.leave();
  });

  it('counts a replica silent past the limit as gone, and back when it speaks again', async () => {
    const a = new WorkPlacement({ db, replicaId: 'replica-c', goneAfterMs: 400 });
    const b = new WorkPlacement({ db, replicaId: 'replica-d', goneAfterMs: 400 });
    await b.beat();
    await a.beat();
    expect(a.replicas).toEqual(['replica-c', 'replica-d']);
    // replica-d stops beating (a process killed): its row stays, but it is old.
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(await a.beat()).toBe(true);
    expect(a.replicas).toEqual(['replica-c']);
    await b.beat();
    expect(await a.beat()).toBe(true);
    expect(a.replicas).toEqual(['replica-c', 'replica-d']);
    await Promise.all([a.leave(), b.leave()]);
  });
});

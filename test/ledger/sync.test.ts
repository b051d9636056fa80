import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/store/db.js';
import { ScriptedFleet } from '../support/feed-doubles.js';
import { testDatabases } from '../support/databases.js';
import { compareWithList, ledgerRig, walkToTheEnd, type LedgerRig } from '../support/ledger-doubles.js';

describe.each(testDatabases())('ledger sync on $name', ({ open }) => {
  let db: Db;
  let rig: LedgerRig | undefined;
  beforeAll(async () => {
    db = await open();
  });
  afterAll(async () => {
    await db?.close();
  });
  afterEach(async () => {
    await rig?.close();
    rig = undefined;
  });

  it('loads the whole history page by page, paced, and says how far it is while it loads', async () => {
    rig = await ledgerRig(db, { transactionCount: 450 });
    const sync = rig.newSync();
    await sync.pollOnce();
    expect(await sync.reader.status()).toMatchObject({ loaded: 100, historyComplete: false, upToDateSince: undefined });

    await sync.walkPage();
    const loading = await sync.reader.status();
    expect(loading.historyComplete).toBe(false);
    expect(loading.estimatedTotal).toBeGreaterThanOrEqual(350);
    expect(loading.estimatedTotal).toBeLessThanOrEqual(450);
    expect(rig.clock.sleeps.every((ms) => ms === rig!.settings.historyPageDelayMs)).toBe(true);

    await walkToTheEnd(sync);
    await sync.pollOnce();
    expect(await compareWithList(db, rig.sandbox.transactions())).toEqual({ missed: 0, extra: 0, stored: 450, expected: 450 });
    const status = await sync.reader.status();
    expect(status).toMatchObject({ loaded: 450, historyComplete: true, estimatedTotal: undefined });
    expect(status.upToDateSince).toBeInstanceOf(Date);
  });

  it('misses nothing and stores nothing twice when entries arrive between every page of the walk', async () => {
    rig = await ledgerRig(db, { transactionCount: 430 });
    const sync = rig.newSync();
    await sync.pollOnce();
    await walkToTheEnd(sync, () => {
      rig!.arrive(37);
    });
    await sync.pollOnce();
    const list = rig.sandbox.transactions();
    expect(list.length).toBeGreaterThan(430 + 37 * 4);
    expect(await compareWithList(db, list)).toEqual({ missed: 0, extra: 0, stored: list.length, expected: list.length });
  });

  it('resumes the walk where it stopped after a restart at every page, with entries arriving meanwhile', async () => {
    rig = await ledgerRig(db, { transactionCount: 520 });
    await rig.newSync().pollOnce();
    let pages = 0;
    for (;;) {
      // A new process each time: all it knows is in the database.
      const report = await rig.newSync().walkPage();
      pages += 1;
      rig.arrive(5);
      await rig.newSync().pollOnce();
      if (!report || report.walkComplete) break;
    }
    const list = rig.sandbox.transactions();
    expect(pages).toBeLessThanOrEqual(8);
    expect(await compareWithList(db, list)).toEqual({ missed: 0, extra: 0, stored: list.length, expected: list.length });
  });

  it('costs one request per idle poll, and reads on in pages of 100 while a page ends with a new entry', async () => {
    rig = await ledgerRig(db, { transactionCount: 120 });
    const sync = rig.newSync();
    await sync.pollOnce();
    await walkToTheEnd(sync);

    const before = rig.listRequests();
    const idle = await sync.pollOnce();
    expect(idle).toMatchObject({ stored: [], fleetRequests: 1 });
    expect(rig.sandbox.requests.at(-1)?.query).toEqual({ limit: '100', offset: '0' });
    expect(rig.listRequests() - before).toBe(1);

    const burst = rig.arrive(250);
    const busy = await sync.pollOnce();
    expect(busy.stored).toHaveLength(250);
    // Stored in slices of 100, none of them judged late against the slices stored before it.
    expect(busy.stored.filter((entry) => entry.late)).toEqual([]);
    expect(busy.fleetRequests).toBe(3);
    const { entries } = await sync.reader.find({}, { offset: 0, limit: 1 });
    expect(entries[0]?.reference).toBe(burst.at(-1)?.reference);
    // Stored oldest first: the insertion sequence follows the list.
    const { rows } = await db.query<{ reference: string }>('SELECT reference FROM ledger_entries ORDER BY seq DESC LIMIT 250');
    expect(rows.map((row) => row.reference).reverse()).toEqual(burst.map((tx) => tx.reference));
  });

  it('finds a late entry among the recent pages with the sweep, and stores it once, marked late', async () => {
    rig = await ledgerRig(db, { transactionCount: 200 });
    const sync = rig.newSync();
    await sync.pollOnce();
    await walkToTheEnd(sync);
    const recent = rig.arrive(150);
    await sync.pollOnce();

    // Listed below the first page a poll reads (120 deep), among the three pages the sweep reads.
    const late = rig.sandbox.addTransaction({ date: new Date(Date.parse(recent[30]!.date)).toISOString() });
    expect((await sync.pollOnce()).stored).toEqual([]);
    const swept = await sync.sweepOnce();
    expect(swept.stored).toHaveLength(1);
    expect((await sync.sweepOnce()).stored).toEqual([]);
    const found = await sync.reader.find({ words: [late.reference] }, { offset: 0, limit: 5 });
    expect(found.entries).toHaveLength(1);
    expect(found.entries[0]?.late).toBe(true);
    expect(await sync.reader.count({})).toBe(351);
  });

  it('stores at its next poll an entry the API listed 40 entries deep, below entries already stored, while few new ones arrived', async () => {
    rig = await ledgerRig(db, { transactionCount: 120 });
    const sync = rig.newSync();
    await sync.pollOnce();
    await walkToTheEnd(sync);
    const earlier = rig.arrive(60);
    await sync.pollOnce();
    // Dated among entries already stored, listed only now (say, once it completed), with 5 new ones above.
    const late = rig.sandbox.addTransaction({ date: new Date(Date.parse(earlier[20]!.date) + 0.5).toISOString() });
    const fresh = rig.arrive(5);
    const polled = await sync.pollOnce();
    expect(polled.fleetRequests).toBe(1);
    expect(polled.stored.map((entry) => entry.late)).toEqual([true, false, false, false, false, false]);
    expect(await compareWithList(db, rig.sandbox.transactions())).toMatchObject({ missed: 0, extra: 0 });
    expect((await sync.reader.find({ words: [late.reference] }, { offset: 0, limit: 1 })).entries).toHaveLength(1);
    expect(fresh).toHaveLength(5);
  });

  it('finds with the sweep an entry listed late further down than three pages, when it is dated within the last minutes', async () => {
    rig = await ledgerRig(db, { transactionCount: 120 });
    const sync = rig.newSync();
    await sync.pollOnce();
    await walkToTheEnd(sync);
    const startMs = rig.clock.now().getTime();
    const busy = rig.arrive(500);
    await sync.pollOnce();
    // 400 entries deep, dated a second into the busy stretch: beyond what a poll reads.
    const late = rig.sandbox.addTransaction({ date: new Date(Date.parse(busy[99]!.date) + 0.5).toISOString() });
    expect((await sync.pollOnce()).stored).toEqual([]);
    expect(rig.clock.now().getTime() - startMs).toBeLessThan(60_000);
    const swept = await sync.sweepOnce();
    expect(swept.stored).toHaveLength(1);
    expect((await sync.reader.find({ words: [late.reference] }, { offset: 0, limit: 1 })).entries[0]?.late).toBe(true);
    expect(await compareWithList(db, rig.sandbox.transactions())).toMatchObject({ missed: 0, extra: 0 });
  });

  it('finds a late entry deep in the list with the re-walk when it is due, and none before', async () => {
    rig = await ledgerRig(db, { transactionCount: 600, settings: { rewalkHours: 24 } });
    const sync = rig.newSync();
    await sync.pollOnce();
    await walkToTheEnd(sync);
    const list = rig.sandbox.transactions();
    const deepDate = new Date(Date.parse(list[450]!.date) - 1).toISOString();
    const late = rig.sandbox.addTransaction({ date: deepDate });

    expect(await sync.walkPage()).toBeUndefined();
    rig.clock.advance(24 * 3_600_000);
    const pages = await walkToTheEnd(sync);
    expect(pages).toBe(7);
    const found = await sync.reader.find({ words: [late.reference] }, { offset: 0, limit: 5 });
    expect(found.entries.map((entry) => entry.late)).toEqual([true]);
    expect(await compareWithList(db, rig.sandbox.transactions())).toMatchObject({ missed: 0, extra: 0 });
    expect(await sync.walkPage()).toBeUndefined();
  });

  it('syncs on one replica at a time: the other reads and makes no request', async () => {
    rig = await ledgerRig(db, { transactionCount: 50 });
    const first = rig.newSync();
    const second = rig.newSync();
    await first.tick();
    const requests = rig.listRequests();
    expect(requests).toBeGreaterThan(0);
    await second.tick();
    expect(rig.listRequests()).toBe(requests);
    expect((await second.reader.status()).loaded).toBe(50);

    await first.stop();
    await second.tick();
    expect(rig.listRequests()).toBeGreaterThan(requests);
    await second.stop();
  });

  it('runs in the background until stopped: history, then polls', async () => {
    rig = await ledgerRig(db, { transactionCount: 300 });
    const sync = rig.newSync();
    sync.start();
    for (let wait = 0; wait < 200 && !(await sync.reader.status()).historyComplete; wait += 1) await new Promise((resolve) => setTimeout(resolve, 20));
    await sync.stop();
    expect(await compareWithList(db, rig.sandbox.transactions())).toEqual({ missed: 0, extra: 0, stored: 300, expected: 300 });
  });

  it('keeps identical entries that straddle a page boundary of the walk, as many as the list holds', async () => {
    const clockFleet = await ledgerRig(db, { transactionCount: 1 });
    rig = clockFleet;
    const fleet = new ScriptedFleet(rig.clock);
    fleet.arrive(150);
    // Three identical entries around offset 100: the walk's second page starts again at the first of them.
    const twin = fleet.entries[98]!;
    fleet.entries.splice(99, 0, { ...twin }, { ...twin });
    const sync = rig.newSync({ fleet });
    await sync.pollOnce();
    await walkToTheEnd(sync);
    expect(await sync.reader.count({ words: [twin.reference] })).toBe(3);
    expect(await sync.reader.count({})).toBe(152);
  });
});

describe('ledger sync on the embedded store', () => {
  it('leaves the ledger vacuumed once the walk completes, so that the list counts from its indexes alone', async () => {
    // Postgres's autovacuum does this on its own time; PGlite has none, so the sync vacuums.
    const db = await testDatabases()[0]!.open();
    const rig = await ledgerRig(db, { transactionCount: 300 });
    try {
      const sync = rig.newSync();
      await sync.pollOnce();
      await walkToTheEnd(sync);
      const { rows } = await db.query<Record<string, string>>(
        `EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) SELECT count(*) FROM ledger_entries WHERE entry_at > '2000-01-01' AND amount_minor <> 0`,
      );
      const plan = rows.map((row) => Object.values(row).join('')).join('\n');
      expect(plan, plan).toMatch(/Index Only Scan/);
      expect(plan, plan).toMatch(/Heap Fetches: 0/);
    } finally {
      await rig.close();
      await db.close();
    }
  });
});

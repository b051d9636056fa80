import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { LATE_SWEEP_EVERY_POLLS } from '../../src/feed/late-sweep.js';
import { TransactionFeed } from '../../src/feed/transaction-feed.js';
import { LedgerListing } from '../../src/ledger/ledger-listing.js';
import { createLogger } from '../../src/logger.js';
import type { Db } from '../../src/store/db.js';
import { testDatabases } from '../support/databases.js';
import { feedSettings, RecordingPublisher, silentLogger } from '../support/feed-doubles.js';
import { ledgerRig, type LedgerRig } from '../support/ledger-doubles.js';

// The live feed reading the ledger's copy of the list while the ledger sync alone reads the API.
describe.each(testDatabases())('the live feed over the ledger on $name', ({ open }) => {
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

  async function setUp(backfill = 0, logger = silentLogger) {
    rig = await ledgerRig(db, { transactionCount: 60, startAt: new Date(Date.now() - 60_000) });
    const sync = rig.newSync();
    const publisher = new RecordingPublisher(rig.clock);
    const feed = new TransactionFeed({
      fleet: new LedgerListing(db, rig.fleet), db, clock: rig.clock, publisher, settings: feedSettings({ backfill }), logger,
      random: () => 1, instanceId: 'feed-replica',
    });
    return { rig, sync, publisher, feed };
  }

  it('posts nothing before the ledger has read the API, then only what arrives, once, oldest first', async () => {
    const lines: Array<{ level: number; msg: string; err?: unknown }> = [];
    const logger = createLogger({ level: 'info', destination: { write: (line: string) => void lines.push(JSON.parse(line) as { level: number; msg: string; err?: unknown }) } });
    const { rig, sync, publisher, feed } = await setUp(0, logger);
    expect((await feed.pollOnce()).error).toBeDefined();
    // Waiting for the ledger's first read is expected at every start: said at info, with no stack.
    expect(lines.map(({ level, msg, err }) => ({ level, msg, err }))).toEqual([{ level: 30, msg: 'feed waits for its source; it polls again', err: undefined }]);
    await sync.pollOnce();
    await feed.pollOnce();
    expect(publisher.posts).toEqual([]);

    const arrived = rig.arrive(3);
    await sync.pollOnce();
    await feed.pollOnce();
    await feed.pollOnce();
    expect(publisher.postedReferences()).toEqual(arrived.map((tx) => tx.reference));
  });

  it('waits for the history to load as far as FEED_BACKFILL reaches, then posts exactly those entries', async () => {
    const { rig, sync, publisher, feed } = await setUp(30);
    await sync.pollOnce();
    expect((await feed.pollOnce()).error).toBeDefined();
    expect(publisher.posts).toEqual([]);
    while (!(await sync.walkPage())?.walkComplete);
    await feed.pollOnce();
    expect(publisher.postedReferences()).toEqual(rig.sandbox.transactions().slice(0, 30).reverse().map((tx) => tx.reference));
  });

  it('costs one small request to the API in all for an idle poll of both', async () => {
    const { rig, sync, feed } = await setUp();
    await sync.pollOnce();
    await feed.pollOnce();
    const before = rig.listRequests();
    await sync.pollOnce();
    await feed.pollOnce();
    expect(rig.listRequests() - before).toBe(1);
    expect(rig.sandbox.requests.at(-1)?.query).toEqual({ limit: '10', offset: '0' });
  });

  it('posts a late entry found by the ledger once, marked late', async () => {
    const { rig, sync, publisher, feed } = await setUp();
    await sync.pollOnce();
    while (!(await sync.walkPage())?.walkComplete);
    await feed.pollOnce();
    rig.arrive(2);
    await sync.pollOnce();
    await feed.pollOnce();
    const late = rig.sandbox.addTransaction({ date: new Date(rig.clock.now().getTime() - 30 * 60_000).toISOString() });
    await sync.sweepOnce();
    expect((await sync.reader.find({ words: [late.reference] }, { offset: 0, limit: 1 })).entries[0]?.late).toBe(true);

    for (let poll = 0; poll < 2 * LATE_SWEEP_EVERY_POLLS; poll += 1) await feed.pollOnce();
    const latePosts = publisher.posts.filter(({ post }) => post.kind === 'transactions' && post.entries.some((tx) => tx.reference === late.reference));
    expect(latePosts).toHaveLength(1);
    expect(latePosts[0]?.post.kind === 'transactions' && latePosts[0].post.notes.some((note) => note.kind === 'late')).toBe(true);
    expect(publisher.postedReferences().filter((reference) => reference === late.reference)).toHaveLength(1);
  });
});

import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { LATE_SWEEP_EVERY_POLLS } from '../../src/feed/late-sweep.js';
import { TransactionFeed } from '../../src/feed/transaction-feed.js';
import { FleetClient } from '../../src/fleet/client.js';
import { identifyPage } from '../../src/ledger/identity.js';
import { LedgerListing } from '../../src/ledger/ledger-listing.js';
import { insertEntries } from '../../src/ledger/store.js';
import { LedgerSync } from '../../src/ledger/sync.js';
import { createLogger } from '../../src/core/logger.js';
import { startSandbox } from '../../src/sandbox/server.js';
import type { Db } from '../../src/store/db.js';
import { testDatabases } from '../support/databases.js';
import { feedSettings, RecordingPublisher, silentLogger, VirtualClock } from '../support/feed-doubles.js';
import { ledgerRig, ledgerSettings, resetLedger, type LedgerRig } from '../support/ledger-doubles.js';

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
      fleet: new LedgerListing(db, rig.fleet),
      db,
      clock: rig.clock,
      publisher,
      settings: feedSettings({ backfill }),
      logger,
      random: () => 1,
      instanceId: 'feed-replica',
    });
    return { rig, sync, publisher, feed };
  }

  it('posts nothing before the ledger has read the API, then only what arrives, once, oldest first', async () => {
    const lines: Array<{ level: number; msg: string; err?: unknown }> = [];
    const logger = createLogger({
      level: 'info',
      destination: { write: (line: string) => void lines.push(JSON.parse(line) as { level: number; msg: string; err?: unknown }) },
    });
    const { rig, sync, publisher, feed } = await setUp(0, logger);
    expect((await feed.pollOnce()).error).toBeDefined();
    // Waiting for the ledger's first read is expected at every start: said at info, with no stack.
    expect(lines.map(({ level, msg, err }) => ({ level, msg, err }))).toEqual([
      { level: 30, msg: 'feed waits for its source; it polls again', err: undefined },
    ]);
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
    expect(publisher.postedReferences()).toEqual(
      rig.sandbox
        .transactions()
        .slice(0, 30)
        .reverse()
        .map((tx) => tx.reference),
    );
  });

  it('costs one request to the API in all for an idle poll of both', async () => {
    const { rig, sync, feed } = await setUp();
    await sync.pollOnce();
    await feed.pollOnce();
    const before = rig.listRequests();
    await sync.pollOnce();
    await feed.pollOnce();
    expect(rig.listRequests() - before).toBe(1);
    expect(rig.sandbox.requests.at(-1)?.query).toEqual({ limit: '100', offset: '0' });
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

  it('closes a gap the polls left: an entry the ledger holds behind 600 newer ones is posted once, marked late, and counted', async () => {
    rig = await ledgerRig(db, { transactionCount: 60, startAt: new Date(Date.now() - 60_000) });
    const sync = rig.newSync();
    const publisher = new RecordingPublisher(rig.clock);
    const feed = new TransactionFeed({
      fleet: new LedgerListing(db, rig.fleet),
      source: sync,
      db,
      clock: rig.clock,
      publisher,
      settings: feedSettings(),
      logger: silentLogger,
      random: () => 1,
      instanceId: 'feed-replica',
    });
    await sync.tick();
    while (!(await sync.walkPage())?.walkComplete);
    await feed.pollOnce();
    const startedAt = rig.clock.now().getTime();
    rig.clock.advance(1_000);
    const onTime: string[] = [];
    for (let round = 0; round < 6; round += 1) {
      onTime.push(...rig.arrive(100).map((tx) => tx.reference));
      await sync.pollOnce();
      await feed.pollOnce();
    }
    expect(publisher.postedReferences()).toEqual(onTime);

    // An entry dated between the feed's start and the 600, that the ledger stored only now (as a re-walk
    // would): every poll takes it for posted, and it is deeper in the list than any page a poll reads.
    const missed = rig.sandbox.addTransaction({ date: new Date(startedAt + 500).toISOString() });
    await insertEntries(db, identifyPage([missed]), { firstSeenAt: rig.clock.now(), markLate: true });
    for (let poll = 0; poll < 2 * LATE_SWEEP_EVERY_POLLS; poll += 1) await feed.pollOnce();

    const withMissed = publisher.posts.filter(({ post }) => post.kind === 'transactions' && post.entries.some((tx) => tx.reference === missed.reference));
    expect(withMissed).toHaveLength(1);
    expect(withMissed[0]?.post).toEqual({
      kind: 'transactions',
      entries: [expect.objectContaining({ reference: missed.reference })],
      notes: [{ kind: 'late', count: 1 }],
    });
    expect(publisher.postedReferences()).toEqual([...onTime, missed.reference]);
    const status = await feed.status();
    expect({ late: status.lateEntries, gaps: status.gapEntries }).toEqual({ late: 1, gaps: 1 });
  });

  it('posts at its next poll an entry the ledger stored late below entries already posted, not at the sweep', async () => {
    rig = await ledgerRig(db, { transactionCount: 60, startAt: new Date(Date.now() - 60_000) });
    const sync = rig.newSync();
    const publisher = new RecordingPublisher(rig.clock);
    const feed = new TransactionFeed({
      fleet: new LedgerListing(db, rig.fleet),
      source: sync,
      db,
      clock: rig.clock,
      publisher,
      settings: feedSettings(),
      logger: silentLogger,
      random: () => 1,
      instanceId: 'feed-replica',
    });
    await sync.tick();
    while (!(await sync.walkPage())?.walkComplete);
    await feed.pollOnce();
    rig.clock.advance(1_000);
    const onTime = rig.arrive(30);
    await sync.pollOnce();
    await feed.pollOnce();
    expect(publisher.postedReferences()).toEqual(onTime.map((tx) => tx.reference));

    // Dated between the 13th and 14th newest posted entries: the ledger's sweep found it in the list's
    // third page and stored it now. A poll that stops at the first page holding a posted entry misses it.
    const between = (Date.parse(onTime[16]!.date) + Date.parse(onTime[17]!.date)) / 2;
    const late = rig.sandbox.addTransaction({ date: new Date(Math.floor(between)).toISOString() });
    await insertEntries(db, identifyPage([late]), { firstSeenAt: rig.clock.now(), markLate: true });
    const more = rig.arrive(3);
    await sync.pollOnce();
    const report = await feed.pollOnce();

    expect(report.lateEntries).toBe(0);
    expect(publisher.postedReferences()).toEqual([...onTime, late, ...more].map((tx) => tx.reference));
    for (let poll = 0; poll < LATE_SWEEP_EVERY_POLLS; poll += 1) await feed.pollOnce();
    expect(publisher.postedReferences().filter((reference) => reference === late.reference)).toHaveLength(1);
    expect((await feed.status()).gapEntries).toBe(0);
  });

  it('compares each stored entry once: a sweep with nothing new stored reads nothing it read before', async () => {
    rig = await ledgerRig(db, { transactionCount: 60, startAt: new Date(Date.now() - 60_000) });
    const sync = rig.newSync();
    const publisher = new RecordingPublisher(rig.clock);
    const settings = feedSettings();
    const feed = new TransactionFeed({
      fleet: new LedgerListing(db, rig.fleet),
      source: sync,
      db,
      clock: rig.clock,
      publisher,
      settings,
      logger: silentLogger,
      random: () => 1,
      instanceId: 'feed-replica',
    });
    await sync.tick();
    while (!(await sync.walkPage())?.walkComplete);
    await feed.pollOnce();
    rig.clock.advance(1_000);
    const arrived = rig.arrive(30);
    await sync.pollOnce();
    for (let poll = 0; poll < LATE_SWEEP_EVERY_POLLS; poll += 1) await feed.pollOnce();
    const newestSeq = Number((await db.query<{ seq: string }>('SELECT max(seq) AS seq FROM ledger_entries')).rows[0]?.seq);
    const { rows } = await db.query<{ swept_position: string | null }>('SELECT swept_position FROM feed_state WHERE channel_id = $1', [settings.channelId]);
    expect(Number(rows[0]?.swept_position)).toBe(newestSeq);
    expect(await sync.storedSince(newestSeq, 0, 100)).toEqual([]);
    expect(publisher.postedReferences()).toEqual(arrived.map((tx) => tx.reference));
    expect((await feed.status()).gapEntries).toBe(0);
  });
});

// Both loops running as the bot runs them, on a virtual clock: how long an entry takes to reach the channel.
describe.each(testDatabases())('the live feed and the ledger sync running together on $name', ({ open }) => {
  const FEED_SECONDS = 5;
  const LEDGER_SECONDS = 60;
  let db: Db;
  let stopAll: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    db = await open();
  });
  afterAll(async () => {
    await db?.close();
  });
  afterEach(async () => {
    await stopAll?.();
    stopAll = undefined;
  });

  /** `replicas` processes, each with its ledger sync and its feed wired as bot.ts wires them. */
  async function startReplicas(replicas: number) {
    await resetLedger(db);
    const clock = new VirtualClock(new Date(Date.now() - 60_000).toISOString());
    const sandbox = await startSandbox({ clock, transactionCount: 60 });
    const fleet = new FleetClient({ baseUrl: sandbox.url, apiKey: sandbox.apiKey, timeouts: { headersMs: 2000, bodyMs: 2000 } });
    const publisher = new RecordingPublisher(clock);
    const settings = feedSettings({ pollIntervalSeconds: FEED_SECONDS });
    const running: Array<{ sync: LedgerSync; feed: TransactionFeed }> = [];
    for (let replica = 1; replica <= replicas; replica += 1) {
      const sync = new LedgerSync({
        fleet,
        db,
        clock,
        settings: ledgerSettings({ pollIntervalSeconds: LEDGER_SECONDS }),
        logger: silentLogger,
        instanceId: `replica-${replica}`,
      });
      const feed = new TransactionFeed({
        fleet: new LedgerListing(db, fleet),
        source: sync,
        db,
        clock,
        publisher,
        settings,
        logger: silentLogger,
        random: () => 1,
        instanceId: `replica-${replica}`,
      });
      running.push({ sync, feed });
    }
    // Syncs first to last, feeds last to first: left to themselves, the ledger's lease and the feed's would go to different replicas.
    for (const { sync } of running) sync.start();
    for (const { feed } of [...running].reverse()) feed.start();
    stopAll = async () => {
      await Promise.all(running.map(({ sync, feed }) => Promise.all([feed.stop(), sync.stop()])));
      await fleet.close();
      await sandbox.close();
    };
    const loops = 2 * replicas;
    const newestPageReads = () => sandbox.requests.filter((request) => request.path.endsWith('/account/transactions') && request.query?.offset === '0').length;
    /** Runs the clock until the API's newest page was read once more, then one millisecond further. */
    const justAfterARead = async () => {
      const before = newestPageReads();
      while (newestPageReads() === before) await clock.run(250, loops);
      await clock.run(1, loops);
    };
    return { clock, sandbox, publisher, running, loops, justAfterARead, run: (ms: number) => clock.run(ms, loops) };
  }

  it('posts an entry created just after a read of the API within one feed interval, alone in one compact message, though LEDGER_POLL_SECONDS is longer', async () => {
    const { clock, sandbox, publisher, justAfterARead, run } = await startReplicas(1);
    await run(30_000);
    await justAfterARead();

    const entry = sandbox.addTransaction();
    const createdAt = clock.now().getTime();
    await run(FEED_SECONDS * 1000);

    const post = publisher.posts.find(({ post }) => post.kind === 'transactions' && post.entries.some((tx) => tx.reference === entry.reference));
    expect(post, `not posted within ${FEED_SECONDS} s of its creation`).toBeDefined();
    expect(post!.at.getTime() - createdAt).toBeLessThanOrEqual(FEED_SECONDS * 1000);
    expect(post!.post).toEqual({ kind: 'transactions', entries: [expect.objectContaining({ reference: entry.reference })], notes: [] });
  });

  it('posts each entry once, within one feed interval, with two replicas running both', async () => {
    const { clock, sandbox, publisher, justAfterARead, run } = await startReplicas(2);
    await run(30_000);
    const created: Array<{ reference: string; at: number }> = [];
    for (let round = 0; round < 4; round += 1) {
      await justAfterARead();
      created.push({ reference: sandbox.addTransaction().reference, at: clock.now().getTime() });
      await run(1_700);
      created.push({ reference: sandbox.addTransaction().reference, at: clock.now().getTime() });
    }
    await run(FEED_SECONDS * 1000);

    const postedAt = new Map<string, number[]>();
    for (const { post, at } of publisher.posts) {
      if (post.kind === 'transactions') for (const tx of post.entries) postedAt.set(tx.reference, [...(postedAt.get(tx.reference) ?? []), at.getTime()]);
    }
    for (const { reference, at } of created) {
      expect(postedAt.get(reference), reference).toHaveLength(1);
      expect(postedAt.get(reference)![0]! - at, reference).toBeLessThanOrEqual(FEED_SECONDS * 1000);
    }
  });

  it('follows the ledger to the other replica when the one reading the list stops, and posts each entry once', async () => {
    const { clock, sandbox, publisher, running } = await startReplicas(2);
    await clock.run(30_000, 4);
    const before = sandbox.addTransaction();
    await clock.run(FEED_SECONDS * 1000, 4);

    // The replica that reads the list stops its ledger sync (its lease is given up); its feed keeps running.
    const reader = running.find(({ sync }) => sync.readsHere())!;
    await reader.sync.stop();
    const after = [sandbox.addTransaction()];
    await clock.run(2_000, 3);
    after.push(sandbox.addTransaction());
    await clock.run(3 * FEED_SECONDS * 1000, 3);

    expect(running.find(({ sync }) => sync.readsHere())).not.toBe(reader);
    for (const tx of [before, ...after])
      expect(
        publisher.postedReferences().filter((reference) => reference === tx.reference),
        tx.reference,
      ).toHaveLength(1);
    const postedAt = (reference: string) =>
      publisher.posts.find(({ post }) => post.kind === 'transactions' && post.entries.some((tx) => tx.reference === reference))!.at.getTime();
    // The handover costs at most one interval more, once.
    for (const tx of after) expect(postedAt(tx.reference) - Date.parse(tx.date)).toBeLessThanOrEqual(2 * FEED_SECONDS * 1000);
  });
});

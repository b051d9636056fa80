import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FeedPublishError, type FeedPublisher } from '../../src/feed/types.js';
import { FleetUnavailableError } from '../../src/fleet/errors.js';
import type { Db } from '../../src/store/db.js';
import { testDatabases } from '../support/databases.js';
import { expireFeedLease, feedRig, RecordingPublisher } from '../support/feed-doubles.js';

const INTERVAL_MS = 15_000;

/** Lets the background loop run until `done()` holds (the stepping clock makes its waits instant). */
async function until(done: () => boolean): Promise<void> {
  for (let i = 0; i < 2000 && !done(); i += 1) await new Promise((resolve) => setTimeout(resolve, 2));
  expect(done()).toBe(true);
}

describe.each(testDatabases())('transaction feed resilience on $name', ({ open }) => {
  let db: Db;
  beforeAll(async () => {
    db = await open();
  });
  afterAll(async () => {
    await db.close();
  });

  it('keeps its cursor through a Fleet API outage, then catches up and says how long it was behind', async () => {
    const { fleet, clock, publisher, newFeed } = feedRig(db);
    const feed = newFeed();
    await feed.pollOnce();
    fleet.outage = new FleetUnavailableError(503, false);
    const missed = fleet.arrive(30);
    for (let i = 0; i < 8; i += 1) {
      const report = await feed.pollOnce();
      expect(report.error).toBe('fleet:unavailable');
      clock.advance(INTERVAL_MS);
    }
    const during = await feed.status();
    expect(during.behindMs).toBeGreaterThanOrEqual(8 * INTERVAL_MS);
    expect(during.lastError?.code).toBe('fleet:unavailable');

    fleet.outage = undefined;
    await feed.pollOnce();

    expect(publisher.postedReferences()).toEqual(missed.map((tx) => tx.reference));
    const first = publisher.posts[0]!.post;
    expect(first.kind === 'transactions' && first.notes[0]).toMatchObject({ kind: 'caught_up' });
    expect(first.kind === 'transactions' && first.notes[0]?.kind === 'caught_up' && first.notes[0].behindMs).toBeGreaterThanOrEqual(8 * INTERVAL_MS);
    expect((await feed.status()).behindMs).toBe(0);
  });

  it('shows in its status how many entries wait while Slack refuses every message, and why', async () => {
    const { fleet, clock, publisher, newFeed } = feedRig(db);
    const feed = newFeed();
    await feed.pollOnce();
    fleet.arrive(30);
    publisher.acceptOnly = 0;
    for (let i = 0; i < 4; i += 1) {
      await feed.pollOnce();
      clock.advance(INTERVAL_MS);
    }

    const status = await feed.status();
    expect(status.pendingEntries).toBe(30);
    expect(status.behindMs).toBeGreaterThan(0);
    // Not a Slack API error the publisher recognised: the log has its words, the status says unexpected.
    expect(status.lastError?.code).toBe('unexpected');
  });

  it("keeps why Slack refused a post as Slack's own code, for /fleet feed to put in words", async () => {
    const { fleet, publisher, newFeed } = feedRig(db);
    const feed = newFeed();
    await feed.pollOnce();
    fleet.arrive(3);
    publisher.failures = [new FeedPublishError('Slack refused the feed message: not_in_channel', { code: 'not_in_channel' })];
    const report = await feed.pollOnce();
    expect(report.error).toBe('slack:not_in_channel');
    expect((await feed.status()).lastError?.code).toBe('slack:not_in_channel');
  });

  it('backs off between failed polls up to five minutes, and returns to its interval after recovery', async () => {
    const { fleet, clock, newFeed } = feedRig(db);
    const unavailable = new FleetUnavailableError(503, false);
    // The first seven polls fail, the ones after succeed.
    fleet.beforeList = (call) => {
      fleet.outage = call < 7 ? unavailable : undefined;
    };
    const feed = newFeed();
    feed.start();
    await until(() => clock.sleeps.length >= 9);
    await feed.stop();

    expect(clock.sleeps.slice(0, 9)).toEqual([30_000, 60_000, 120_000, 240_000, 300_000, 300_000, 300_000, INTERVAL_MS, INTERVAL_MS]);
  });

  it('waits out a Slack 429 for as long as Retry-After says, then posts the same message once', async () => {
    const { fleet, clock, publisher, newFeed } = feedRig(db);
    const feed = newFeed();
    await feed.pollOnce();
    const arrived = fleet.arrive(3);
    publisher.failures = [new FeedPublishError('Slack is rate limiting the feed', { retryAfterMs: 7_000 })];
    const sleepsBefore = clock.sleeps.length;

    const report = await feed.pollOnce();

    expect(report.error).toBeUndefined();
    expect(clock.sleeps.slice(sleepsBefore)).toContain(7_000);
    expect(publisher.postedReferences()).toEqual(arrived.map((tx) => tx.reference));
    expect(publisher.posts).toHaveLength(1);
  });

  it('after a restart in the middle of a batch posts the rest, repeating only the message in flight', async () => {
    const { fleet, clock, settings, publisher, newFeed } = feedRig(db);
    const crashing = newFeed();
    await crashing.pollOnce();
    const burst = fleet.arrive(100);
    // Slack accepts the third message, then the process dies before it hears so.
    publisher.loseAnswerAfter = 2;
    const crashed = await crashing.pollOnce();
    expect(crashed.error).toBeDefined();

    // The crashed process never released its lease: it runs out (by the database clock) before the restart polls.
    await expireFeedLease(db, settings);
    const afterRestart = new RecordingPublisher(clock);
    await newFeed({ publisher: afterRestart }).pollOnce();

    const all = [...publisher.postedReferences(), ...afterRestart.postedReferences()];
    expect(new Set(all)).toEqual(new Set(burst.map((tx) => tx.reference)));
    const inFlight = publisher.posts[2]!.post;
    const repeated = all.length - burst.length;
    expect(repeated).toBe(inFlight.kind === 'transactions' ? inFlight.entries.length : -1);
    expect(afterRestart.postedReferences()).toEqual(burst.slice(40).map((tx) => tx.reference));
  });

  it('posts each entry once with two pollers on one database, and the survivor takes over when one dies', async () => {
    const { fleet, clock, publisher, settings, newFeed } = feedRig(db);
    const replicas = [newFeed(), newFeed()];
    const arrived = [];
    let holder = -1;
    await Promise.all(replicas.map((replica) => replica.pollOnce()));
    for (let round = 0; round < 5; round += 1) {
      arrived.push(...fleet.arrive(30));
      const reports = await Promise.all(replicas.map((replica) => replica.pollOnce()));
      expect(reports.filter((report) => report.polled)).toHaveLength(1);
      holder = reports.findIndex((report) => report.polled);
      clock.advance(INTERVAL_MS);
    }
    // The lease outlives one interval by half of one, by the database clock.
    const { rows } = await db.query<{ left: number | string }>(
      'SELECT extract(epoch FROM expires_at - clock_timestamp()) * 1000 AS left FROM app_leases WHERE name = $1',
      [`feed:${settings.channelId}`],
    );
    expect(Number(rows[0]?.left)).toBeGreaterThan(INTERVAL_MS);
    expect(Number(rows[0]?.left)).toBeLessThanOrEqual(1.5 * INTERVAL_MS);

    // The poller dies without letting go of its lease: the other may not poll until it runs out.
    const survivor = replicas[1 - holder]!;
    arrived.push(...fleet.arrive(30));
    expect((await survivor.pollOnce()).polled).toBe(false);
    await expireFeedLease(db, settings);
    expect((await survivor.pollOnce()).polled).toBe(true);

    expect(publisher.postedReferences()).toEqual(arrived.map((tx) => tx.reference));
  });

  it('lets a replica that lost its lease during a long Retry-After post nothing more, and the new holder posts the rest once', async () => {
    const { fleet, publisher, settings, newFeed } = feedRig(db);
    const taker = newFeed();
    let attempts = 0;
    let takerReport: Awaited<ReturnType<typeof taker.pollOnce>> | undefined;
    // The first poller's second message is rate limited for longer than its lease lives; while it
    // waits, its lease runs out and the other replica's poll takes the feed over.
    const slowed: FeedPublisher = {
      async publish(channelId, post) {
        attempts += 1;
        if (attempts === 2) {
          await expireFeedLease(db, settings);
          takerReport = await taker.pollOnce();
          throw new FeedPublishError('Slack is rate limiting the feed', { retryAfterMs: 1_000 });
        }
        await publisher.publish(channelId, post);
      },
    };
    const loser = newFeed({ publisher: slowed });
    await loser.pollOnce();
    const burst = fleet.arrive(100);

    const lost = await loser.pollOnce();

    expect(takerReport?.polled).toBe(true);
    expect(lost.error).toBe('lease_lost');
    expect(attempts).toBe(2);
    expect(publisher.postedReferences()).toEqual(burst.map((tx) => tx.reference));
    expect((await loser.pollOnce()).polled).toBe(false);
  });

  it('stops promptly and lets another replica poll at once', async () => {
    const { fleet, publisher, newFeed } = feedRig(db);
    const stopping = newFeed();
    stopping.start();
    await until(() => fleet.listCalls.length > 0);
    await stopping.stop();

    const next = newFeed();
    const arrived = fleet.arrive(2);
    expect((await next.pollOnce()).polled).toBe(true);
    expect(publisher.postedReferences()).toEqual(arrived.map((tx) => tx.reference));
  });

  it('records a message Slack accepted even when the database fails for a moment right after, and never posts it again', async () => {
    const { fleet, publisher, newFeed } = feedRig(db);
    let refusals = 0;
    // The first transaction after the post (the cursor's save) fails as a pool timeout under load does.
    const flaky: Db = {
      ...db,
      transaction: async (work) => {
        if (publisher.posts.length > 0 && refusals === 0) {
          refusals += 1;
          throw new Error('timeout exceeded when trying to connect');
        }
        return db.transaction(work);
      },
    };
    const feed = newFeed({ db: flaky });
    await feed.pollOnce();
    const arrived = fleet.arrive(3);
    const report = await feed.pollOnce();
    expect(refusals).toBe(1);
    expect(report.error).toBeUndefined();
    fleet.arrive(0);
    await feed.pollOnce();
    await feed.pollOnce();
    expect(publisher.postedReferences()).toEqual(arrived.map((tx) => tx.reference));
  });
});

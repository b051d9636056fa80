import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/store/db.js';
import { testDatabases } from '../support/databases.js';
import { feedRig } from '../support/feed-doubles.js';

describe.each(testDatabases())('transaction feed on $name', ({ open }) => {
  let db: Db;
  beforeAll(async () => {
    db = await open();
  });
  afterAll(async () => {
    await db.close();
  });

  it('starts at the newest entry by default and posts only what arrives afterwards', async () => {
    const { fleet, publisher, newFeed } = feedRig(db);
    fleet.arrive(30);
    const feed = newFeed();

    const first = await feed.pollOnce();
    expect(first.messages).toBe(0);
    expect(publisher.posts).toEqual([]);

    const arrived = fleet.arrive(3);
    await feed.pollOnce();
    expect(publisher.postedReferences()).toEqual(arrived.map((tx) => tx.reference));
  });

  it('posts the last FEED_BACKFILL entries first, oldest first, when asked', async () => {
    const { fleet, publisher, newFeed } = feedRig(db, { backfill: 5 });
    const history = fleet.arrive(30);
    await newFeed().pollOnce();
    expect(publisher.postedReferences()).toEqual(history.slice(-5).map((tx) => tx.reference));
  });

  it('still posts all FEED_BACKFILL entries when the first poll failed after choosing where to start', async () => {
    const { fleet, publisher, newFeed } = feedRig(db, { backfill: 30, maxBacklog: 10 });
    const history = fleet.arrive(50);
    const firstCall = fleet.listCalls.length;
    // The start point is read, then the Fleet API fails before the entries are.
    fleet.beforeList = (call) => {
      fleet.outage = call === firstCall + 1 ? new Error('socket hang up') : undefined;
    };
    const feed = newFeed();
    expect((await feed.pollOnce()).error).toBeDefined();
    await feed.pollOnce();

    expect(publisher.postedReferences()).toEqual(history.slice(-30).map((tx) => tx.reference));
  });

  it('posts 250 entries that arrived between two polls, oldest first, at most 20 per message', async () => {
    const { fleet, publisher, settings, newFeed } = feedRig(db);
    fleet.arrive(10);
    const feed = newFeed();
    await feed.pollOnce();
    const burst = fleet.arrive(250);

    const report = await feed.pollOnce();

    expect(publisher.postedReferences()).toEqual(burst.map((tx) => tx.reference));
    expect(report.messages).toBe(13);
    for (const { post, channelId } of publisher.posts) {
      expect(channelId).toBe(settings.channelId);
      expect(post.kind === 'transactions' && post.entries.length).toBeLessThanOrEqual(20);
    }
  });

  it('reads a single small page when nothing is new', async () => {
    const { fleet, newFeed } = feedRig(db);
    fleet.arrive(40);
    const feed = newFeed();
    await feed.pollOnce();
    const before = fleet.listCalls.length;

    const report = await feed.pollOnce();

    expect(report.fleetRequests).toBe(1);
    expect(fleet.listCalls.slice(before)).toEqual([{ limit: 10, offset: 0 }]);
  });

  it('posts no more than one message per second to the channel', async () => {
    const { fleet, publisher, newFeed } = feedRig(db);
    const feed = newFeed();
    await feed.pollOnce();
    fleet.arrive(100);
    await feed.pollOnce();
    const times = publisher.posts.map(({ at }) => at.getTime());
    expect(times.length).toBe(5);
    for (let i = 1; i < times.length; i += 1) expect(times[i]! - times[i - 1]!).toBeGreaterThanOrEqual(1000);
  });

  it('posts each entry once when more arrive while it is reading later pages', async () => {
    const { fleet, publisher, newFeed } = feedRig(db);
    fleet.arrive(5);
    const feed = newFeed();
    await feed.pollOnce();
    const burst = fleet.arrive(150);
    const firstCall = fleet.listCalls.length;
    let lateArrivals: string[] = [];
    // New entries land between the first and second page: the list shifts down under the reader.
    fleet.beforeList = (call) => {
      if (call === firstCall + 1) lateArrivals = fleet.arrive(7).map((tx) => tx.reference);
    };

    await feed.pollOnce();
    fleet.beforeList = undefined;
    await feed.pollOnce();

    expect(publisher.postedReferences()).toEqual([...burst.map((tx) => tx.reference), ...lateArrivals]);
  });

  it('posts every entry of a shared millisecond, including one listed after its siblings were posted', async () => {
    const { fleet, publisher, clock, newFeed } = feedRig(db);
    fleet.arrive(2);
    const feed = newFeed();
    await feed.pollOnce();
    clock.advance(1);
    const sameMoment = fleet.arrive(25, { sameMillisecond: true });
    await feed.pollOnce();
    // Listed late, but created in the same millisecond as the 25 already posted.
    const straggler = fleet.arrive(1, { sameMillisecond: true, overrides: { date: sameMoment[0]!.date } });
    await feed.pollOnce();

    expect(new Set(sameMoment.map((tx) => tx.date)).size).toBe(1);
    expect(straggler[0]!.date).toBe(sameMoment[0]!.date);
    expect(publisher.postedReferences()).toEqual([...sameMoment, ...straggler].map((tx) => tx.reference));
  });

  it('posts the newest entries and one line about the rest when more than FEED_MAX_BACKLOG arrive', async () => {
    const { fleet, publisher, newFeed } = feedRig(db, { maxBacklog: 50 });
    fleet.arrive(3);
    const feed = newFeed();
    await feed.pollOnce();
    const flood = fleet.arrive(130);

    const report = await feed.pollOnce();
    await feed.pollOnce();

    expect(publisher.postedReferences()).toEqual(flood.slice(-50).map((tx) => tx.reference));
    expect(report.skippedEntries).toBe(80);
    const first = publisher.posts[0]!.post;
    expect(first.kind === 'transactions' && first.notes).toEqual([{ kind: 'overflow', count: 80, atLeast: false }]);
  });

  it('says "at least" when too many entries arrived to count them all, and never posts the left-out ones later', async () => {
    const { fleet, publisher, newFeed } = feedRig(db, { maxBacklog: 10 });
    fleet.arrive(3);
    const feed = newFeed();
    await feed.pollOnce();
    const flood = fleet.arrive(2_500);

    const report = await feed.pollOnce();
    await feed.pollOnce();

    expect(publisher.postedReferences()).toEqual(flood.slice(-10).map((tx) => tx.reference));
    expect(report.skippedEntries).toBeLessThan(2_490);
    const first = publisher.posts[0]!.post;
    expect(first.kind === 'transactions' && first.notes).toEqual([{ kind: 'overflow', count: report.skippedEntries, atLeast: true }]);
  });

  it('reports in its status the newest entry posted and when it last checked', async () => {
    const { fleet, clock, settings, newFeed } = feedRig(db);
    const feed = newFeed();
    const before = await feed.status();
    expect(before).toMatchObject({ channelId: settings.channelId, started: false, newestPosted: undefined });

    await feed.pollOnce();
    const [newest] = fleet.arrive(4).slice(-1);
    await feed.pollOnce();
    const status = await feed.status();

    expect(status.started).toBe(true);
    expect(status.newestPosted?.reference).toBe(newest!.reference);
    expect(status.newestPosted?.date.toISOString()).toBe(newest!.date);
    expect(status.lastSuccessfulPollAt?.getTime()).toBe(clock.now().getTime());
    expect(status.behindMs).toBe(0);
    expect(status.lastError).toBeUndefined();
  });
});

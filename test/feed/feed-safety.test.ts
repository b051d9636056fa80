import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Transaction } from '../../src/fleet/schemas.js';
import type { Db } from '../../src/store/db.js';
import { testDatabases } from '../support/databases.js';
import { databaseTime, feedRig, openReplicaDatabases, RecordingPublisher, SteppingClock } from '../support/feed-doubles.js';

const INTERVAL_MS = 15_000;
const HOUR_MS = 60 * 60_000;

/** The message that carried `entry`, so that a test can read the notes posted with it. */
function messageWith(publisher: RecordingPublisher, entry: Transaction) {
  return publisher.posts.find(({ post }) => post.kind === 'transactions' && post.entries.some((tx) => tx.reference === entry.reference))?.post;
}

function noteKinds(post: ReturnType<typeof messageWith>): string[] {
  return post && (post.kind === 'transactions' || post.kind === 'notice') ? post.notes.map((note) => note.kind) : [];
}

describe.each(testDatabases())('transaction feed against odd dates on $name', (database) => {
  let db: Db;
  beforeAll(async () => {
    db = await database.open();
  });
  afterAll(async () => {
    await db?.close();
  });

  it('posts an entry dated two hours ahead once, marked, and still posts every real entry after it', async () => {
    const now = await databaseTime(db);
    const { fleet, clock, publisher, newFeed } = feedRig(db, {}, { startAt: new Date(now.getTime() - 10 * 60_000) });
    fleet.arrive(5);
    const feed = newFeed();
    await feed.pollOnce();

    const ahead = fleet.appearDated(new Date(now.getTime() + 2 * HOUR_MS));
    const real = fleet.arrive(2);
    await feed.pollOnce();
    for (let round = 0; round < 5; round += 1) {
      clock.advance(INTERVAL_MS);
      real.push(...fleet.arrive(3));
      await feed.pollOnce();
    }

    const posted = publisher.postedReferences();
    expect([...posted].sort()).toEqual([ahead, ...real].map((tx) => tx.reference).sort());
    expect(noteKinds(messageWith(publisher, ahead))).toContain('future_dated');
    expect(noteKinds(messageWith(publisher, real[0]!))).not.toContain('future_dated');
  });

  it('posts an entry that shows up an hour late once, marked late, and counts it in its status', async () => {
    const now = await databaseTime(db);
    const { fleet, clock, publisher, newFeed } = feedRig(db, {}, { startAt: new Date(now.getTime() - 3 * HOUR_MS) });
    fleet.arrive(20);
    const feed = newFeed();
    await feed.pollOnce();
    const onTime: Transaction[] = [];
    for (let round = 0; round < 12; round += 1) {
      clock.advance(10 * 60_000);
      onTime.push(...fleet.arrive(5));
      await feed.pollOnce();
    }

    const newestPosted = Date.parse(onTime.at(-1)!.date);
    const late = fleet.appearDated(new Date(newestPosted - HOUR_MS));
    // Ten minutes of quiet polls: the late entry is deep in the list, behind an hour of newer ones.
    for (let poll = 0; poll < 80; poll += 1) {
      clock.advance(INTERVAL_MS);
      await feed.pollOnce();
    }

    const posted = publisher.postedReferences();
    expect(posted.filter((reference) => reference === late.reference)).toHaveLength(1);
    // Nothing from before the feed started is taken for late.
    expect([...posted].sort()).toEqual([...onTime, late].map((tx) => tx.reference).sort());
    expect(noteKinds(messageWith(publisher, late))).toContain('late');
    expect((await feed.status()).lateEntries).toBe(1);
  });

  it('forgets posted entries after their retention, and the sweep never posts entries older than it looks back', async () => {
    const now = await databaseTime(db);
    const { fleet, clock, publisher, settings, newFeed } = feedRig(db, {}, { startAt: new Date(now.getTime() - 26 * HOUR_MS) });
    fleet.arrive(3);
    const feed = newFeed();
    await feed.pollOnce();
    const old = fleet.arrive(5);
    await feed.pollOnce();
    // Newer entries push the old ones out of the cursor's short memory.
    clock.advance(11 * 60_000);
    const newer = fleet.arrive(1);
    await feed.pollOnce();
    await db.query("UPDATE feed_posted_entries SET keep_until = clock_timestamp() - interval '1 second' WHERE channel_id = $1", [settings.channelId]);

    for (let poll = 0; poll < 40; poll += 1) {
      clock.advance(INTERVAL_MS);
      await feed.pollOnce();
    }

    expect(publisher.postedReferences()).toEqual([...old, ...newer].map((tx) => tx.reference));
    const { rows } = await db.query('SELECT entry_key FROM feed_posted_entries WHERE channel_id = $1', [settings.channelId]);
    expect(rows).toEqual([]);
  });
});

describe.each(testDatabases())('feed replicas with skewed clocks on $name', (database) => {
  let replicaDbs: Awaited<ReturnType<typeof openReplicaDatabases>>;
  beforeAll(async () => {
    replicaDbs = await openReplicaDatabases(database);
  });
  afterAll(async () => {
    await replicaDbs?.close();
  });

  it('does not let a replica whose clock runs an hour ahead take the lease or post the same batch', async () => {
    const { fleet, clock, publisher, newFeed } = feedRig(replicaDbs.first);
    const aheadClock = new SteppingClock(new Date(clock.now().getTime() + HOUR_MS).toISOString());
    const aheadPublisher = new RecordingPublisher(aheadClock);
    const ahead = newFeed({ db: replicaDbs.second, clock: aheadClock, publisher: aheadPublisher });
    let aheadReport: Awaited<ReturnType<typeof ahead.pollOnce>> | undefined;
    let messages = 0;
    // The replica ahead polls while the holder is in the middle of a batch.
    const holder = newFeed({
      publisher: {
        async publish(channelId, post) {
          messages += 1;
          if (messages === 2) aheadReport = await ahead.pollOnce();
          await publisher.publish(channelId, post);
        },
      },
    });
    await holder.pollOnce();
    const burst = fleet.arrive(100);

    const report = await holder.pollOnce();

    expect(report.error).toBeUndefined();
    expect(aheadReport?.polled).toBe(false);
    expect((await ahead.pollOnce()).polled).toBe(false);
    const all = [...publisher.postedReferences(), ...aheadPublisher.postedReferences()];
    expect(all).toEqual(burst.map((tx) => tx.reference));
  });
});

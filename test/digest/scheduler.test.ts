import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DigestBuilder, DigestScheduler, type DailyDigest, type DigestDelivery, type DigestPublisher } from '../../src/digest/index.js';
import { claimDay } from '../../src/digest/store.js';
import { systemClock } from '../../src/core/clock.js';
import { StoredLedgerReader } from '../../src/ledger/reader.js';
import type { Db } from '../../src/store/db.js';
import { testDatabases } from '../support/databases.js';
import { resetDigestWorld } from '../support/digest-doubles.js';
import { silentLogger, SteppingClock } from '../support/feed-doubles.js';

const CHANNEL = 'C0DIGEST';

/** Records every digest Slack would have shown; can be told to fail once. */
class RecordingPublisher implements DigestPublisher {
  readonly posts: { day: string; late: boolean }[] = [];
  failNext = false;

  post(_channelId: string, digest: DailyDigest, delivery: DigestDelivery) {
    if (this.failNext) {
      this.failNext = false;
      return Promise.reject(new Error('slack_down'));
    }
    this.posts.push({ day: digest.day, late: delivery.late });
    return Promise.resolve({ ts: `${this.posts.length}.000` });
  }
}

describe.each(testDatabases())('daily digest schedule on $name', ({ open }) => {
  let db: Db;
  beforeAll(async () => {
    db = await open();
  });
  afterAll(async () => {
    await db?.close();
  });
  beforeEach(async () => {
    await resetDigestWorld(db);
  });

  /** The app first ran before `day`'s digest fell due. */
  const installedBefore = (day: string) => db.query('INSERT INTO digest_state (id, first_day) VALUES (1, $1)', [day]);

  const replica = (clock: SteppingClock, publisher: DigestPublisher, options: { holder?: string; catchUpDays?: number; claimTtlMs?: number } = {}) =>
    new DigestScheduler({
      builder: new DigestBuilder({
        ledger: new StoredLedgerReader(db),
        db,
        clock,
        timeZone: 'Africa/Kinshasa',
        requestTtlHours: 24,
        ledgerWaitMs: 0,
        logger: silentLogger,
        balance: () => Promise.resolve({}),
      }),
      db,
      clock,
      publisher,
      logger: silentLogger,
      settings: { channelId: CHANNEL, time: { hour: 8, minute: 0 }, timeZone: 'Africa/Kinshasa', catchUpDays: options.catchUpDays ?? 3 },
      ...(options.holder ? { holder: options.holder } : {}),
      ...(options.claimTtlMs ? { claimTtlMs: options.claimTtlMs } : {}),
    });

  it("posts yesterday's digest at 08:00 Kinshasa time, on time, and not before", async () => {
    const clock = new SteppingClock('2026-11-21T06:59:00.000Z');
    const publisher = new RecordingPublisher();
    const scheduler = replica(clock, publisher);
    await scheduler.runOnce();
    expect(publisher.posts).toEqual([]);
    clock.advance(60_000);
    await scheduler.runOnce();
    await scheduler.runOnce();
    expect(publisher.posts).toEqual([{ day: '2026-11-20', late: false }]);
  });

  it('starts a new install at the next DIGEST_TIME, with no late digest of the days before it', async () => {
    const clock = new SteppingClock('2026-11-21T10:00:00.000Z');
    const publisher = new RecordingPublisher();
    await replica(clock, publisher).runOnce();
    expect(publisher.posts).toEqual([]);
    clock.advance(21 * 3_600_000);
    await replica(clock, publisher).runOnce();
    expect(publisher.posts).toEqual([{ day: '2026-11-21', late: false }]);
  });

  it('posts each day once when two replicas run at the same moment', async () => {
    await installedBefore('2026-11-20');
    const clock = new SteppingClock('2026-11-21T07:00:10.000Z');
    const publisher = new RecordingPublisher();
    const first = replica(clock, publisher, { holder: 'replica-a' });
    const second = replica(clock, publisher, { holder: 'replica-b' });
    await Promise.all([first.runOnce(), second.runOnce(), first.runOnce(), second.runOnce()]);
    expect(publisher.posts).toEqual([{ day: '2026-11-20', late: false }]);
  });

  it('does not post again after a restart once the day is posted', async () => {
    await installedBefore('2026-11-20');
    const clock = new SteppingClock('2026-11-21T07:00:10.000Z');
    const publisher = new RecordingPublisher();
    await replica(clock, publisher, { holder: 'before-restart' }).runOnce();
    clock.advance(3_600_000);
    await replica(clock, publisher, { holder: 'after-restart' }).runOnce();
    expect(publisher.posts.map((post) => post.day)).toEqual(['2026-11-20']);
  });

  it('starts again after a stop (a hosted replica that gets a workspace’s work back) and posts the day due', async () => {
    await installedBefore('2026-11-20');
    const clock = new SteppingClock('2026-11-21T06:00:00.000Z');
    const publisher = new RecordingPublisher();
    const scheduler = replica(clock, publisher);
    scheduler.start();
    await scheduler.stop();
    clock.advance(3_600_000 + 10_000);
    // Its first run at start: the day fell due (08:00 Kinshasa) while it was stopped.
    scheduler.start();
    for (let tries = 0; tries < 200 && publisher.posts.length === 0; tries += 1) await new Promise((resolve) => setTimeout(resolve, 10));
    await scheduler.stop();
    expect(publisher.posts).toEqual([{ day: '2026-11-20', late: false }]);
  });

  it('posts a day whose claimer died before posting, once its claim has expired', async () => {
    const clock = new SteppingClock('2026-11-21T07:00:10.000Z');
    const publisher = new RecordingPublisher();
    // The first process claims the day, then dies before posting.
    await installedBefore('2026-11-20');
    expect(await claimDay(db, '2026-11-20', CHANNEL, 'dead', 300)).toBe(1);
    const restarted = replica(clock, publisher, { holder: 'restarted' });
    await restarted.runOnce();
    expect(publisher.posts).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, 400));
    await restarted.runOnce();
    await restarted.runOnce();
    expect(publisher.posts).toEqual([{ day: '2026-11-20', late: false }]);
  });

  it('stops at once while waiting for the ledger, and leaves the day for the next start', async () => {
    await installedBefore('2026-11-20');
    await db.query('UPDATE ledger_sync_state SET history_complete = true WHERE id = 1');
    const publisher = new RecordingPublisher();
    const clock = new SteppingClock('2026-11-21T07:00:10.000Z');
    // A real clock's sleep: the ledger never polls, so the build would wait its full minute.
    const waiting = { now: () => clock.now(), sleep: (ms: number, signal?: AbortSignal) => systemClock.sleep(ms, signal) };
    const scheduler = new DigestScheduler({
      builder: new DigestBuilder({
        ledger: new StoredLedgerReader(db),
        db,
        clock: waiting,
        timeZone: 'UTC',
        requestTtlHours: 24,
        ledgerWaitMs: 60_000,
        logger: silentLogger,
        balance: () => Promise.resolve({ USD: 1 }),
      }),
      db,
      clock: waiting,
      publisher,
      logger: silentLogger,
      claimTtlMs: 200,
      settings: { channelId: CHANNEL, time: { hour: 7, minute: 0 }, timeZone: 'UTC', catchUpDays: 0 },
    });
    scheduler.start();
    await new Promise((resolve) => setTimeout(resolve, 300));
    const started = Date.now();
    await scheduler.stop();
    expect(Date.now() - started).toBeLessThan(2000);
    expect(publisher.posts).toEqual([]);
    await replica(clock, publisher).runOnce();
    expect(publisher.posts).toEqual([{ day: '2026-11-20', late: false }]);
  });

  /** A replica whose build takes 900 ms, against a claim of 200 ms (database time). */
  const slowReplica = (clock: SteppingClock, publisher: DigestPublisher) => {
    class SlowBuilder extends DigestBuilder {
      override async build(day: string, options: { signal?: AbortSignal } = {}): Promise<DailyDigest> {
        await new Promise((resolve) => setTimeout(resolve, 900));
        return super.build(day, options);
      }
    }
    return new DigestScheduler({
      builder: new SlowBuilder({
        ledger: new StoredLedgerReader(db),
        db,
        clock,
        timeZone: 'Africa/Kinshasa',
        requestTtlHours: 24,
        ledgerWaitMs: 0,
        logger: silentLogger,
        balance: () => Promise.resolve({}),
      }),
      db,
      clock,
      publisher,
      logger: silentLogger,
      holder: 'slow-replica',
      claimTtlMs: 200,
      settings: { channelId: CHANNEL, time: { hour: 8, minute: 0 }, timeZone: 'Africa/Kinshasa', catchUpDays: 3 },
    });
  };

  it('posts a day once when its build outlasts the claim and a second replica checks meanwhile', async () => {
    await installedBefore('2026-11-20');
    const clock = new SteppingClock('2026-11-21T07:00:10.000Z');
    const publisher = new RecordingPublisher();
    const building = slowReplica(clock, publisher).runOnce();
    await new Promise((resolve) => setTimeout(resolve, 500));
    const other = replica(clock, publisher, { holder: 'other-replica', claimTtlMs: 200 });
    await other.runOnce();
    await building;
    await other.runOnce();
    expect(publisher.posts).toEqual([{ day: '2026-11-20', late: false }]);
  });

  it('does not post a day whose claim another replica took while it was building', async () => {
    await installedBefore('2026-11-20');
    const clock = new SteppingClock('2026-11-21T07:00:10.000Z');
    const publisher = new RecordingPublisher();
    const building = slowReplica(clock, publisher).runOnce();
    await new Promise((resolve) => setTimeout(resolve, 300));
    // As if the claim had lapsed (the database out of reach) and another replica had taken the day.
    await db.query("UPDATE digest_posts SET claimed_by = 'other-replica' WHERE day = '2026-11-20'");
    expect((await building).posted).toEqual([]);
    expect(publisher.posts).toEqual([]);
  });

  it('tries again at the next run when Slack refused the post', async () => {
    await installedBefore('2026-11-20');
    const clock = new SteppingClock('2026-11-21T07:00:10.000Z');
    const publisher = new RecordingPublisher();
    const scheduler = replica(clock, publisher);
    publisher.failNext = true;
    await scheduler.runOnce();
    expect(publisher.posts).toEqual([]);
    await scheduler.runOnce();
    expect(publisher.posts).toEqual([{ day: '2026-11-20', late: false }]);
  });

  it('posts the missed days once each, oldest first and marked late, up to DIGEST_CATCH_UP_DAYS before the latest', async () => {
    await installedBefore('2026-11-09');
    const clock = new SteppingClock('2026-11-10T07:00:10.000Z');
    const publisher = new RecordingPublisher();
    await replica(clock, publisher).runOnce();
    // Down from the 10th at 08:00 until the 20th at noon, Kinshasa time.
    clock.advance(10 * 86_400_000 + 4 * 3_600_000);
    const back = replica(clock, publisher, { catchUpDays: 2 });
    await back.runOnce();
    await back.runOnce();
    expect(publisher.posts).toEqual([
      { day: '2026-11-09', late: false },
      { day: '2026-11-17', late: true },
      { day: '2026-11-18', late: true },
      { day: '2026-11-19', late: true },
    ]);
  });

  it('posts the digest late, once, when the app was down at DIGEST_TIME', async () => {
    await installedBefore('2026-11-19');
    const clock = new SteppingClock('2026-11-20T07:00:10.000Z');
    const publisher = new RecordingPublisher();
    await replica(clock, publisher).runOnce();
    clock.advance(86_400_000 + 2 * 3_600_000);
    const back = replica(clock, publisher);
    await Promise.all([back.runOnce(), replica(clock, publisher).runOnce()]);
    expect(publisher.posts).toEqual([
      { day: '2026-11-19', late: false },
      { day: '2026-11-20', late: true },
    ]);
  });

  it("sends a follow-up into the posted digest's thread, retrying it when it fails, and never posts the digest again", async () => {
    const clock = new SteppingClock('2026-11-21T07:00:10.000Z');
    await installedBefore('2026-11-20');
    const publisher = new RecordingPublisher();
    const threads: string[] = [];
    let failures = 2;
    const scheduler = new DigestScheduler({
      builder: new DigestBuilder({
        ledger: new StoredLedgerReader(db),
        db,
        clock,
        timeZone: 'Africa/Kinshasa',
        requestTtlHours: 24,
        ledgerWaitMs: 0,
        logger: silentLogger,
        balance: () => Promise.resolve({}),
      }),
      db,
      clock,
      publisher,
      logger: silentLogger,
      followUpRetryMs: [5_000, 30_000, 120_000],
      settings: { channelId: CHANNEL, time: { hour: 8, minute: 0 }, timeZone: 'Africa/Kinshasa', catchUpDays: 3 },
      followUps: [
        {
          name: 'chart',
          afterPosted: async ({ channelId, ts }) => {
            if (failures-- > 0) throw new Error('upload failed');
            threads.push(`${channelId}/${ts}`);
          },
        },
      ],
    });
    await scheduler.runOnce();
    await scheduler.followUpsDone();
    expect(publisher.posts).toEqual([{ day: '2026-11-20', late: false }]);
    expect(threads).toEqual([`${CHANNEL}/1.000`]);
    expect(clock.sleeps).toEqual(expect.arrayContaining([5_000, 30_000]));
    await scheduler.runOnce();
    expect(publisher.posts).toHaveLength(1);
  });
});

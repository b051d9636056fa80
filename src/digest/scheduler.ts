/**
 * Posts the daily digest to its channel once per day, across restarts and replicas: at DIGEST_TIME
 * about the previous day, late when the app was down at that time, and each day missed entirely
 * (up to DIGEST_CATCH_UP_DAYS before the latest). Every replica ticks; the day's row decides which
 * one posts (see `store.ts` and "Exactly once" under "Daily digest" in docs/using.md).
 */
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Clock } from '../core/clock.js';
import type { Logger } from '../core/logger.js';
import { every, type PeriodicJob } from '../runtime/every.js';
import type { Queryable } from '../store/db.js';
import type { DigestBuilder } from './build.js';
import { dayIn, nextDay, previousDay, zonedTime, type WallTime } from '../core/calendar.js';
import type { DigestSettings } from './settings.js';
import { claimDay, firstDigestDay, markPosted, postedDays, releaseDay, renewClaim } from './store.js';
import type { DailyDigest, DigestFollowUp, DigestPublisher } from './types.js';

/**
 * How long a claim lasts unless renewed. The holder renews it every third of this while it builds and
 * posts the day, however long that takes; it lapses only when the holder died or lost its database.
 */
const DEFAULT_CLAIM_TTL_MS = 5 * 60_000;
const DEFAULT_TICK_MS = 30_000;
/** Posted more than this after its time, a digest says it is late. */
const DEFAULT_LATE_AFTER_MS = 5 * 60_000;
const DEFAULT_FOLLOW_UP_RETRY_MS = [5_000, 30_000, 120_000];

export interface DigestSchedulerOptions {
  builder: DigestBuilder;
  db: Queryable;
  clock: Clock;
  settings: DigestSettings & { channelId: string };
  publisher: DigestPublisher;
  logger: Logger;
  /** Sent into each digest's thread once it is posted (the runway chart). */
  followUps?: DigestFollowUp[];
  /** The waits before each retry of a failed follow-up; default 5 s, 30 s, 2 min. */
  followUpRetryMs?: number[];
  /** Tests only: who this replica is, and how long a claim lasts. */
  holder?: string;
  claimTtlMs?: number;
  tickMs?: number;
  lateAfterMs?: number;
}

export interface DigestRunReport {
  /** Days posted by this run, oldest first. */
  posted: { day: string; late: boolean }[];
}

export class DigestScheduler {
  private readonly holder: string;
  private job: PeriodicJob | undefined;
  private followingUp: Promise<unknown> = Promise.resolve();
  private stopping = new AbortController();

  constructor(private readonly options: DigestSchedulerOptions) {
    this.holder = options.holder ?? `${hostname()}-${process.pid}-${randomBytes(4).toString('hex')}`;
  }

  /** Checks at once (so that a digest missed while the app was down goes out now), then every tick; again after a stop. */
  start(): void {
    if (this.job) return;
    if (this.stopping.signal.aborted) this.stopping = new AbortController();
    this.job = every('digest', this.options.tickMs ?? DEFAULT_TICK_MS, () => this.runOnce(), {
      logger: this.options.logger,
      runAtStart: true,
      failure: 'digest run failed',
    });
  }

  /** Stops the timer and any wait for the ledger; a day being built is left for the next start or another replica. */
  async stop(): Promise<void> {
    this.stopping.abort(new Error('the digest is stopping'));
    await this.job?.stop();
    this.job = undefined;
    await this.followingUp;
  }

  /** Resolves once every follow-up under way (and its retries) has finished. */
  async followUpsDone(): Promise<void> {
    await this.followingUp;
  }

  /**
   * Runs each follow-up of a posted digest in the background, retrying a failed one after each wait
   * of `followUpRetryMs`. The digest itself is never posted again: it is marked posted already.
   */
  private followUp(channelId: string, day: string, ts: string, digest: DailyDigest): void {
    const { clock, logger } = this.options;
    const waits = this.options.followUpRetryMs ?? DEFAULT_FOLLOW_UP_RETRY_MS;
    for (const followUp of this.options.followUps ?? []) {
      const run = async () => {
        for (let attempt = 0; ; attempt += 1) {
          try {
            await followUp.afterPosted({ channelId, day, ts, digest });
            return;
          } catch (error) {
            const wait = waits[attempt];
            if (wait === undefined || this.stopping.signal.aborted) {
              logger.error({ err: error, day, followUp: followUp.name, attempts: attempt + 1 }, 'digest: a follow-up in the thread failed; giving up');
              return;
            }
            logger.warn({ err: error, day, followUp: followUp.name, attempt: attempt + 1 }, 'digest: a follow-up in the thread failed; will try again');
            await clock.sleep(wait, this.stopping.signal).catch(() => undefined);
          }
        }
      };
      this.followingUp = Promise.all([this.followingUp, run()]);
    }
  }

  /**
   * Renews the claim on `day` every third of its life while it is built and posted, so that a build
   * slower than the claim is never taken over. The signal aborts when the app stops or when a renewal
   * finds the claim taken (it lapsed, e.g. while the database was out of reach). Renewals run one at a
   * time; `stop` waits for the one under way, so that none lands after the claim is given up.
   */
  private keepClaim(day: string, ttlMs: number): { signal: AbortSignal; lost: boolean; renew(): Promise<boolean>; stop(): Promise<void> } {
    const { db, logger } = this.options;
    const lost = new AbortController();
    let stopped = false;
    let underWay: Promise<boolean> = Promise.resolve(true);
    const renewOnce = async (): Promise<boolean> => {
      if (stopped) return !lost.signal.aborted;
      if (lost.signal.aborted) return false;
      try {
        if (await renewClaim(db, day, this.holder, ttlMs)) return true;
      } catch (error) {
        // The claim may well still hold: the next renewal (or the check before posting) decides.
        logger.warn({ err: error, day }, 'digest: the claim could not be renewed this time');
        return true;
      }
      lost.abort(new Error('the claim on the day was taken by another replica'));
      return false;
    };
    const renew = (): Promise<boolean> => (underWay = underWay.then(renewOnce, renewOnce));
    const timer = setInterval(() => void renew(), Math.max(1, Math.floor(ttlMs / 3)));
    timer.unref();
    return {
      signal: AbortSignal.any([this.stopping.signal, lost.signal]),
      get lost() {
        return lost.signal.aborted;
      },
      renew,
      stop: async () => {
        clearInterval(timer);
        stopped = true;
        await underWay;
      },
    };
  }

  /**
   * The days now due, oldest first: the latest, and up to DIGEST_CATCH_UP_DAYS before it. On the
   * first run ever, the first day is the one whose digest falls due next, so that a new install
   * starts at the next DIGEST_TIME rather than with late digests of days before it existed.
   */
  async dueDays(): Promise<string[]> {
    const { settings, clock, db } = this.options;
    const latest = latestDueDay(clock.now(), settings.time, settings.timeZone);
    const first = await firstDigestDay(db, nextDay(latest));
    const days: string[] = [];
    for (let day = latest, n = 0; n <= settings.catchUpDays && day >= first; n += 1, day = previousDay(day)) days.unshift(day);
    return days;
  }

  /** Posts every due day not posted yet; stops at the first failure and leaves the rest for the next tick. */
  async runOnce(): Promise<DigestRunReport> {
    const { settings, db, clock, logger } = this.options;
    const report: DigestRunReport = { posted: [] };
    const days = await this.dueDays();
    const posted = await postedDays(db, days);
    for (const day of days.filter((candidate) => !posted.has(candidate))) {
      if (this.stopping.signal.aborted) break;
      const ttlMs = this.options.claimTtlMs ?? DEFAULT_CLAIM_TTL_MS;
      const attempt = await claimDay(db, day, settings.channelId, this.holder, ttlMs);
      if (attempt === undefined) continue;
      if (attempt > 1) logger.warn({ day, attempt }, 'digest: taking over a claim that was never marked posted');
      const claim = this.keepClaim(day, ttlMs);
      try {
        const digest = await this.options.builder.build(day, { signal: claim.signal });
        // Checked again right before the post: a claim lost meanwhile means another replica posts the day.
        if (!(await claim.renew())) throw claim.signal.reason as Error;
        const dueAt = digestDueAt(day, settings.time, settings.timeZone);
        const late = clock.now().getTime() - dueAt.getTime() > (this.options.lateAfterMs ?? DEFAULT_LATE_AFTER_MS);
        const { ts } = await this.options.publisher.post(settings.channelId, digest, { late, dueAt });
        if (!(await markPosted(db, day, this.holder, { ts, late }))) {
          logger.warn({ day }, "digest: posted after this replica's claim expired; another replica may post the day too");
        }
        logger.info({ day, late, channel: settings.channelId }, 'daily digest posted');
        report.posted.push({ day, late });
        if (ts) this.followUp(settings.channelId, day, ts, digest);
      } catch (error) {
        await claim.stop();
        await releaseDay(db, day, this.holder).catch(() => undefined);
        if (this.stopping.signal.aborted) logger.info({ day }, 'digest: stopped before posting; the day is left for the next start or another replica');
        else if (claim.lost) logger.warn({ day }, 'digest: the claim on the day lapsed while it was built and another replica took it; not posted here');
        else logger.error({ err: error, day }, 'digest: posting failed; will try again');
        break;
      } finally {
        await claim.stop();
      }
    }
    return report;
  }
}

/** When the digest about `day` falls due: `time` on the next calendar day. */
export function digestDueAt(day: string, time: WallTime, timeZone: string): Date {
  return zonedTime(nextDay(day), time, timeZone);
}

/** The newest day whose digest is due at `now`: yesterday once today's `time` has passed, else the day before. */
export function latestDueDay(now: Date, time: WallTime, timeZone: string): string {
  const today = dayIn(now, timeZone);
  const yesterday = previousDay(today);
  return now.getTime() >= digestDueAt(yesterday, time, timeZone).getTime() ? yesterday : previousDay(yesterday);
}

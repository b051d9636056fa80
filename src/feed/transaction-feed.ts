/**
 * The live transaction feed: polls the Fleet API's newest-first list and posts every new entry to
 * one channel exactly once, oldest first, in batches. One replica polls at a time (a lease judged by
 * the database's clock); the cursor lives in the store and moves only after Slack accepted the
 * message that carries an entry. Future-dated entries are posted at once, marked; entries that show
 * up late are found by an occasional sweep and posted, marked. With a source (the ledger's sync, the
 * one reader of the API's list), the feed polls where the source reads, and as soon as it stored new entries.
 */
import { randomUUID } from 'node:crypto';
import type { Clock } from '../core/clock.js';
import { FleetError, SourceNotReadyError } from '../fleet/errors.js';
import type { FleetApi, Transaction } from '../fleet/schemas.js';
import type { Logger } from '../core/logger.js';
import type { Db } from '../store/db.js';
import { databaseNow, releaseLease, tryAcquireLease } from '../store/leases.js';
import { checkBalanceAlerts } from './balance-alerts.js';
import { ChannelPoster, LostFeedLeaseError } from './channel-poster.js';
import { collectNewEntries, FIRST_PAGE_SIZE, type CollectedEntries } from './collect.js';
import { advanceCursor, cursorAtNewest, cursorForBackfill, entryKey, entryMs, isFutureDated, type FeedCursor } from './cursor.js';
import {
  createFeedCursor,
  loadFeedState,
  postedKeysAmong,
  prunePostedEntries,
  reclaimFeedStateSpace,
  recordPollFailure,
  recordPollSuccess,
  saveCursor,
  saveLatePosted,
  saveSweptPosition,
  type FeedState,
} from './feed-store.js';
import { findLateEntries, findUnpostedStoredEntries, LATE_SWEEP_EVERY_POLLS } from './late-sweep.js';
import type { FeedSettings } from './settings.js';
import { FeedPublishError, type FeedErrorCode, type FeedNote, type FeedPublisher, type FeedSource, type FeedStatus, type PollReport } from './types.js';

type StartedFeed = FeedState & { cursor: FeedCursor };

export const MAX_ENTRIES_PER_MESSAGE = 20;
/** The balance is read on one poll in this many. */
export const BALANCE_CHECK_EVERY_POLLS = 4;
/** Longest wait between polls while the Fleet API or Slack keeps failing. */
const MAX_BACKOFF_MS = 5 * 60_000;
/** A catch-up note is added when the channel was behind for more than this many intervals. */
const CATCH_UP_NOTE_AFTER_INTERVALS = 3;
/** `/fleet feed` reports the feed as behind past this many intervals without a complete poll. */
const BEHIND_AFTER_INTERVALS = 2;
/** Waits between tries to record a message Slack accepted, within a third of the lease from the first. */
const RECORD_RETRY_WAITS_MS = [250, 500, 1_000, 2_000];
/** The lease outlives one interval by half of one, so a dead poller is replaced about one interval later. */
const LEASE_TTL_INTERVALS = 1.5;
/** Dead row versions left by cursor moves are reclaimed after this many moves (PGlite only). */
const CURSOR_MOVES_PER_VACUUM = 200;

export interface TransactionFeedOptions {
  fleet: FleetApi;
  db: Db;
  clock: Clock;
  publisher: FeedPublisher;
  settings: FeedSettings;
  logger: Logger;
  /**
   * The one reader of the API's list, when `fleet` is its stored copy (the ledger): it reads at least
   * every feed interval and wakes the feed when it stored new entries.
   */
  source?: FeedSource;
  /** For jitter; defaults to Math.random. */
  random?: () => number;
  /** Names this replica in the lease; defaults to a random id. */
  instanceId?: string;
}

export class TransactionFeed {
  private readonly channelId: string;
  private readonly alertChannelId: string;
  private readonly intervalMs: number;
  private readonly leaseName: string;
  private readonly instanceId: string;
  private readonly random: () => number;
  private readonly poster: ChannelPoster;
  private abort = new AbortController();
  private loop: Promise<void> | undefined;
  private polls = 0;
  private failuresInARow = 0;
  private cursorMovesSinceVacuum = 0;
  /** Set by `wake()`: the source stored new entries, so the loop polls again without waiting. */
  private woken = false;
  private nap: AbortController | undefined;
  /** After a failed poll, other than one waiting for its source's first read: a wake does not cut the wait short. */
  private backingOff = false;
  /** Whether this replica's last try for the feed's lease took it. */
  private leaseHeld = false;

  constructor(private readonly options: TransactionFeedOptions) {
    const { settings } = options;
    if (!settings.channelId) throw new Error('The transaction feed needs FEED_CHANNEL_ID');
    this.channelId = settings.channelId;
    this.alertChannelId = settings.alertChannelId ?? settings.channelId;
    this.intervalMs = settings.pollIntervalSeconds * 1000;
    this.leaseName = `feed:${settings.channelId}`;
    this.instanceId = options.instanceId ?? `feed-${randomUUID()}`;
    this.random = options.random ?? Math.random;
    this.poster = new ChannelPoster({
      publisher: options.publisher,
      clock: options.clock,
      logger: options.logger,
      stillInCharge: () => this.holdLease(),
    });
    options.source?.follow({ everyMs: this.intervalMs, onNewEntries: () => this.wake() });
  }

  /**
   * Polls now rather than at the end of the wait (the source stored new entries): at once when the
   * loop waits, right after the poll under way otherwise. A backoff after a failure is not cut short.
   */
  wake(): void {
    if (this.backingOff) return;
    this.woken = true;
    this.nap?.abort(new Error('woken'));
  }

  /** Starts polling in the background until `stop()`. Calling it twice does nothing more. */
  start(): void {
    if (this.loop) return;
    this.abort = new AbortController();
    this.loop = this.run(this.abort.signal);
  }

  /** Stops promptly (waits end at once; a message already sent is finished) and frees the lease. */
  async stop(): Promise<void> {
    this.abort.abort(new Error('the feed is stopping'));
    await this.loop;
    this.loop = undefined;
    await releaseLease(this.options.db, this.leaseName, this.instanceId).catch((error: unknown) => {
      this.options.logger.warn({ err: error }, 'could not release the feed lease; another replica takes over when it expires');
    });
  }

  /** One full cycle: take or renew the lease, post what is new, check balances when due. */
  async pollOnce(): Promise<PollReport> {
    const report: PollReport = {
      polled: false,
      fleetRequests: 0,
      newEntries: 0,
      postedEntries: 0,
      messages: 0,
      skippedEntries: 0,
      futureDatedEntries: 0,
      lateEntries: 0,
      gapEntries: 0,
      unreadableEntries: 0,
      alertsPosted: 0,
    };
    const signal = this.abort.signal;
    try {
      if (signal.aborted) return report;
      // With a source, only the replica that reads the list polls: it is the one woken when entries arrive.
      if (this.options.source && !this.options.source.readsHere()) {
        await this.handOver();
        return report;
      }
      if (!(await this.holdLease())) return report;
      report.polled = true;
      await this.postNewEntries(report, signal);
      this.polls += 1;
      if (this.polls % LATE_SWEEP_EVERY_POLLS === 0) await this.sweepLateEntries(report, signal);
      if ((this.polls - 1) % BALANCE_CHECK_EVERY_POLLS === 0) await this.checkBalances(report, signal);
    } catch (error) {
      report.error = feedErrorCode(error);
      if (!signal.aborted && !(error instanceof LostFeedLeaseError)) {
        if (error instanceof SourceNotReadyError) {
          // The ledger's first read is on its way: expected at start, so no warning and no stack.
          this.options.logger.info({ channelId: this.channelId, reason: error.message }, 'feed waits for its source; it polls again');
        } else {
          this.options.logger.warn({ err: error, channelId: this.channelId }, 'feed poll failed; the cursor keeps every entry not yet posted');
        }
        // Entries found but not posted (Slack refusing, say) are what `/fleet feed` shows as waiting.
        const pending = report.newEntries > 0 ? report.newEntries - report.skippedEntries - (report.postedEntries - report.lateEntries) : undefined;
        await recordPollFailure(this.options.db, this.channelId, this.options.clock.now(), report.error, pending).catch(() => undefined);
      }
    }
    return report;
  }

  /** The feed's health as stored, so that any replica can answer `/fleet feed`. */
  async status(): Promise<FeedStatus> {
    const state = await loadFeedState(this.options.db, this.channelId);
    const now = this.options.clock.now().getTime();
    const sinceCaughtUp = state?.caughtUpAt ? now - state.caughtUpAt.getTime() : 0;
    return {
      channelId: this.channelId,
      pollIntervalSeconds: this.options.settings.pollIntervalSeconds,
      started: state?.lastPollAt !== undefined,
      lastSuccessfulPollAt: state?.lastPollAt,
      newestPosted: state?.newestPosted,
      behindMs: sinceCaughtUp > BEHIND_AFTER_INTERVALS * this.intervalMs ? sinceCaughtUp : 0,
      pendingEntries: state?.pendingEntries ?? 0,
      lateEntries: state?.lateEntries ?? 0,
      gapEntries: state?.gapEntries ?? 0,
      futureDatedEntries: state?.futureDatedEntries ?? 0,
      unreadableEntries: state?.unreadableEntries ?? 0,
      lastError: state?.lastError,
    };
  }

  private async run(signal: AbortSignal): Promise<void> {
    while (!signal.aborted) {
      this.woken = false;
      const report = await this.pollOnce();
      const delayMs = this.delayAfter(report);
      if (this.woken && !this.backingOff) continue;
      this.nap = new AbortController();
      try {
        await this.options.clock.sleep(delayMs, AbortSignal.any([signal, this.nap.signal]));
      } catch {
        if (signal.aborted) return;
      } finally {
        this.nap = undefined;
      }
    }
  }

  /**
   * Jitter only shortens the wait, so a new entry is never posted later than one interval (plus the
   * work). Another replica holding the lease is asked again a quarter interval later: when it died,
   * its feed resumes here soon after the lease expires (one and a half intervals after its last poll).
   */
  private delayAfter(report: PollReport): number {
    const jitter = 0.9 + 0.1 * this.random();
    this.backingOff = report.error !== undefined && report.error !== 'source_not_ready';
    if (!report.polled && !report.error) return (this.intervalMs / 4) * jitter;
    if (!report.error) {
      this.failuresInARow = 0;
      return this.intervalMs * jitter;
    }
    this.failuresInARow += 1;
    return Math.min(this.intervalMs * 2 ** this.failuresInARow, Math.max(MAX_BACKOFF_MS, this.intervalMs)) * jitter;
  }

  private async holdLease(): Promise<boolean> {
    const ttlMs = this.intervalMs * LEASE_TTL_INTERVALS;
    this.leaseHeld = await tryAcquireLease(this.options.db, this.leaseName, this.instanceId, ttlMs);
    return this.leaseHeld;
  }

  /** The source reads on another replica now: free the feed's lease so that the feed follows it there at once. */
  private async handOver(): Promise<void> {
    if (!this.leaseHeld) return;
    this.leaseHeld = false;
    await releaseLease(this.options.db, this.leaseName, this.instanceId);
  }

  private async postNewEntries(report: PollReport, signal: AbortSignal): Promise<void> {
    const { db, fleet, clock, settings } = this.options;
    const existing = await loadFeedState(db, this.channelId);
    const started = existing?.cursor ? { ...existing, cursor: existing.cursor } : undefined;
    const state = started ?? (await this.firstStart(report, signal));
    // Until its first message went out (version 0), even after a failed first poll, the feed is still
    // posting its backfill, which may be longer than the usual backlog.
    const maxBacklog = state.version === 0 ? Math.max(settings.maxBacklog, settings.backfill) : settings.maxBacklog;
    const found = await collectNewEntries(fleet, state.cursor, { maxBacklog, signal, toFloor: this.options.source !== undefined });
    report.fleetRequests += found.fleetRequests;
    report.unreadableEntries = found.unreadable;
    // A future-dated entry already posted is above the cursor's newest date; the store knows it.
    const posted = await postedKeysAmong(db, this.channelId, found.entries.map(entryKey));
    const collected = { ...found, entries: found.entries.filter((tx) => !posted.has(entryKey(tx))) };
    report.newEntries = collected.entries.length + collected.skipped;
    report.skippedEntries = collected.skipped;

    const notes: FeedNote[] = [];
    const behindMs = state.caughtUpAt ? clock.now().getTime() - state.caughtUpAt.getTime() : 0;
    if (behindMs > CATCH_UP_NOTE_AFTER_INTERVALS * this.intervalMs) notes.push({ kind: 'caught_up', behindMs });
    if (collected.skipped > 0) notes.push({ kind: 'overflow', count: collected.skipped, atLeast: collected.skippedAtLeast });

    if (collected.entries.length === 0 && notes.length > 0) {
      await this.poster.post(this.channelId, { kind: 'notice', notes }, signal);
      report.messages += 1;
    }
    await this.postInBatches(state, collected, notes, report, signal);
    await recordPollSuccess(db, this.channelId, clock.now(), report.unreadableEntries);
    this.cursorMovesSinceVacuum += report.messages;
    if (this.cursorMovesSinceVacuum >= CURSOR_MOVES_PER_VACUUM) {
      this.cursorMovesSinceVacuum = 0;
      await reclaimFeedStateSpace(db);
    }
  }

  /** Future-dated entries go last, in messages of their own that say so. */
  private async postInBatches(state: StartedFeed, collected: CollectedEntries, notes: FeedNote[], report: PollReport, signal: AbortSignal): Promise<void> {
    if (collected.entries.length === 0) return;
    let { cursor, version } = state;
    const nowMs = (await databaseNow(this.options.db)).getTime();
    const future = collected.entries.filter((tx) => isFutureDated(tx, nowMs));
    const current = collected.entries.filter((tx) => !isFutureDated(tx, nowMs));
    const batches = [
      ...chunk(current, MAX_ENTRIES_PER_MESSAGE).map((entries) => ({ entries, futureDated: false })),
      ...chunk(future, MAX_ENTRIES_PER_MESSAGE).map((entries) => ({ entries, futureDated: true })),
    ];
    let pending = collected.entries.length;
    for (const [index, { entries: batch, futureDated }] of batches.entries()) {
      const batchNotes: FeedNote[] = index === 0 ? [...notes] : [];
      if (futureDated) batchNotes.push({ kind: 'future_dated', count: batch.length });
      await this.poster.post(this.channelId, { kind: 'transactions', entries: batch, notes: batchNotes }, signal);
      const first = index === 0 && collected.skipped > 0 && batch[0];
      cursor = advanceCursor(cursor, batch, nowMs, first ? { raiseFloorTo: entryMs(first), skippedKeys: collected.skippedKeysAtBoundary } : {});
      pending -= batch.length;
      const newest = newestOf(batch);
      const moved = await this.recordPosted(() =>
        saveCursor(this.options.db, this.channelId, version, {
          cursor,
          posted: batch,
          futureDated: futureDated ? batch.length : 0,
          newest: { reference: newest.reference, date: new Date(entryMs(newest)) },
          postedAt: this.options.clock.now(),
          pendingEntries: pending,
        }),
      );
      if (!moved) throw new LostFeedLeaseError();
      version += 1;
      report.messages += 1;
      report.postedEntries += batch.length;
      if (futureDated) report.futureDatedEntries += batch.length;
    }
  }

  /**
   * Posts entries that were never posted although newer ones were, in messages that say they are
   * late: with a source (the ledger), every entry it stored is compared with what was posted, and
   * what was missing is counted as a gap; without one, the API's newest pages are read again.
   */
  private async sweepLateEntries(report: PollReport, signal: AbortSignal): Promise<void> {
    const { db, fleet, source, logger } = this.options;
    await prunePostedEntries(db);
    const state = await loadFeedState(db, this.channelId);
    if (!state?.cursor) return;
    const nowMs = (await databaseNow(db)).getTime();
    const base = { db, channelId: this.channelId, cursor: state.cursor, nowMs };
    let swept: { entries: Transaction[]; settledPosition: number | undefined };
    if (source) swept = await findUnpostedStoredEntries({ ...base, source, afterPosition: state.sweptPosition });
    else {
      const read = await findLateEntries({ ...base, fleet, signal });
      report.fleetRequests += read.fleetRequests;
      swept = { entries: read.entries, settledPosition: undefined };
    }
    if (source && swept.entries.length > 0) {
      logger.warn(
        { channelId: this.channelId, entries: swept.entries.length, references: swept.entries.slice(0, 20).map((tx) => tx.reference) },
        'the ledger holds entries the feed never posted; posting them, marked late',
      );
    }
    let { version } = state;
    for (const batch of chunk(swept.entries, MAX_ENTRIES_PER_MESSAGE)) {
      await this.poster.post(this.channelId, { kind: 'transactions', entries: batch, notes: [{ kind: 'late', count: batch.length }] }, signal);
      if (!(await this.recordPosted(() => saveLatePosted(db, this.channelId, version, batch, { gap: source !== undefined })))) throw new LostFeedLeaseError();
      version += 1;
      report.messages += 1;
      report.postedEntries += batch.length;
      report.lateEntries += batch.length;
      if (source) report.gapEntries += batch.length;
    }
    if (swept.settledPosition !== undefined && swept.settledPosition !== state.sweptPosition) {
      if (!(await saveSweptPosition(db, this.channelId, version, swept.settledPosition))) throw new LostFeedLeaseError();
    }
  }

  /**
   * Records a message Slack accepted. A database that fails for a moment (a pool timeout under load)
   * is tried again for up to a third of the lease, so that the lease is still ours: a record lost
   * there would post the same entries again at the next poll. Not cut short by a stop, for the same reason.
   */
  private async recordPosted(save: () => Promise<boolean>): Promise<boolean> {
    const { clock } = this.options;
    const until = clock.now().getTime() + (this.intervalMs * LEASE_TTL_INTERVALS) / 3;
    for (let attempt = 0; ; attempt += 1) {
      try {
        return await save();
      } catch (error) {
        const waitMs = RECORD_RETRY_WAITS_MS[attempt];
        if (waitMs === undefined || clock.now().getTime() + waitMs >= until) throw error;
        this.options.logger.warn({ err: error, channelId: this.channelId, retryInMs: waitMs }, 'could not record a posted feed message; trying again');
        await clock.sleep(waitMs);
      }
    }
  }

  /** No state for this channel yet: start at the newest entry, or FEED_BACKFILL entries before it. */
  private async firstStart(report: PollReport, signal: AbortSignal): Promise<StartedFeed> {
    const { fleet, db, clock, settings, logger } = this.options;
    let cursor;
    if (settings.backfill > 0) {
      const [nth] = (await fleet.listTransactions({ limit: 1, offset: settings.backfill - 1 }, { signal })).transactions;
      cursor = cursorForBackfill(nth, (await databaseNow(db)).getTime());
    } else {
      const page = await fleet.listTransactions({ limit: FIRST_PAGE_SIZE, offset: 0 }, { signal });
      cursor = cursorAtNewest(page.transactions, page.received === FIRST_PAGE_SIZE, (await databaseNow(db)).getTime());
    }
    report.fleetRequests += 1;
    logger.info({ channelId: this.channelId, backfill: settings.backfill }, 'transaction feed starting on this channel');
    return createFeedCursor(db, this.channelId, cursor, clock.now());
  }

  private async checkBalances(report: PollReport, signal: AbortSignal): Promise<void> {
    const thresholds = this.options.settings.balanceAlertBelow;
    if (thresholds.size === 0) return;
    report.fleetRequests += 1;
    report.alertsPosted += await checkBalanceAlerts({
      fleet: this.options.fleet,
      db: this.options.db,
      clock: this.options.clock,
      thresholds,
      post: (alert) => this.poster.post(this.alertChannelId, alert, signal),
      signal,
    });
  }
}

function chunk<T>(items: T[], size: number): T[][] {
  const chunks: T[][] = [];
  for (let i = 0; i < items.length; i += size) chunks.push(items.slice(i, i + size));
  return chunks;
}

function newestOf(batch: Transaction[]): Transaction {
  return batch.reduce((newest, tx) => (entryMs(tx) >= entryMs(newest) ? tx : newest));
}

function feedErrorCode(error: unknown): FeedErrorCode {
  if (error instanceof FleetError) return `fleet:${error.code}`;
  if (error instanceof FeedPublishError) return `slack:${error.details.code ?? 'unknown_error'}`;
  if (error instanceof LostFeedLeaseError) return 'lease_lost';
  if (error instanceof SourceNotReadyError) return 'source_not_ready';
  return 'unexpected';
}

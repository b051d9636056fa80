/**
 * The front door of bulk payouts for the Slack layer: checking a file (stored as a draft only when
 * every row passes), submitting it for one approval, rejecting and stopping it; approving is
 * `approvals.ts`. Every rule is checked against the stored batch; nothing the client sends decides who
 * may act or how much.
 */
import type { Clock } from '../../core/clock.js';
import type { Logger } from '../../core/logger.js';
import type { BackgroundTurns } from '../../runtime/turns.js';
import type { Db, Queryable } from '../../store/db.js';
import { BatchApprovals, batchMovedOn, waitingPayouts } from './approvals.js';
import { checkBatchFile, findBatchDuplicates, type BatchFileCheck } from './check.js';
import type { BatchFileEncoding } from './file.js';
import {
  batchApprovalRefusal,
  batchRefusal,
  batchRejectionRefusal,
  type BatchProgress,
  type BatchResult,
  type BatchRowResult,
  type PayoutBatch,
  type StoredBatchRow,
} from './model.js';
import type { PayoutBatchSettings } from './settings.js';
import {
  appendBatchEvent,
  batchProgress,
  batchResults,
  findBatch,
  insertDraftBatch,
  largestBatchRows,
  listBatchRows,
  listPendingBatches,
  listRecentBatches,
  listResultsDue,
  lockBatchPace,
  claimResultsDelivery,
  markResultsDelivered,
  searchBatches,
  setBatchMessage,
  updateBatch,
  type BatchChanges,
} from './store.js';
import { dailyLimitDecision, lockPayoutDays, measureDayApprovals } from '../day-totals.js';
import { randomReadableCode } from '../identifiers.js';
import { checkRejectReason } from '../policy.js';
import { dualApprovalChanges } from '../rows.js';
import type { PayoutRoles } from '../roles.js';
import type { PayoutSettings } from '../settings.js';

/** Told about every committed change of a batch (the Slack layer updates its messages). */
export interface BatchNotifier {
  changed(batch: PayoutBatch, event: BatchEvent, actor?: string): Promise<void>;
}

export type BatchEvent = 'requested' | 'approved' | 'released' | 'rejected' | 'expired' | 'stopped' | 'progress' | 'finished';

export interface PayoutBatchServiceOptions {
  db: Db;
  clock: Clock;
  settings: PayoutSettings;
  batchSettings: PayoutBatchSettings;
  roles: PayoutRoles;
  logger: Logger;
  /** Told of every committed change, in list order, each after the one before; the list is read at each change. */
  notifiers?: readonly BatchNotifier[];
  /** The bot's turns of the event loop, so that this background work lets Slack's waiting requests go first; turns of its own by default (tests). */
  turns?: BackgroundTurns;
  /** Batch ids; defaults to `PB-XXXXXX`. */
  newBatchId?: () => string;
  /** The wait before the results file is sent again after a failed attempt, times the attempts so far (default 30 s). */
  resultsRetrySeconds?: number;
}

/** `PB-7K3F9Q`: a batch's rows without a reference get `PB-7K3F9Q-<row>`. */
function newBatchId(): string {
  return `PB-${randomReadableCode(6)}`;
}

/** The first wait before a failed results file is sent again; each later attempt waits once more as long. */
const RESULTS_RETRY_SECONDS = 30;

export const BATCH_ID_PATTERN = /^PB-[23456789ABCDEFGHJKMNPQRSTUVWXYZ]{6}$/;

/** A checked file: its problems, or the draft stored for it (its rows say which may repeat a payout). */
export type BatchCheckResult = BatchFileCheck & { batchId: string };

class Refused extends Error {
  constructor(readonly result: BatchResult) {
    super('refused');
  }
}

export class PayoutBatchService {
  private readonly approvals: BatchApprovals;

  constructor(private readonly options: PayoutBatchServiceOptions) {
    const { db, clock, settings, roles, logger } = options;
    this.approvals = new BatchApprovals({ db, clock, settings, roles, logger, announce: (batch, event, actor) => this.announce(batch, event, actor) });
  }

  get maxRows(): number {
    return this.options.batchSettings.maxRows;
  }

  private now(): Date {
    return this.options.clock.now();
  }

  /** Reads and checks `content`; stores it as a draft of `userId`'s only when no row has a problem. */
  async check(userId: string, content: Uint8Array | string, options: { fileName?: string; encoding?: BatchFileEncoding } = {}): Promise<BatchCheckResult> {
    const batchId = (this.options.newBatchId ?? newBatchId)();
    const { settings, batchSettings } = this.options;
    // Reading the file and checking every row is a heavy job: on its own connections (store/db.ts).
    const db = this.options.db.forHeavyWork();
    const now = this.now();
    const result = await checkBatchFile(db, content, {
      settings,
      maxRows: batchSettings.maxRows,
      now,
      batchId,
      duplicateWindowHours: settings.duplicateWindowHours,
      ...(options.encoding ? { encoding: options.encoding } : {}),
      ...(this.options.turns ? { turns: this.options.turns } : {}),
    });
    if (!result.ok || result.check.problems.length > 0) return { ...result, batchId };
    const { check } = result;
    await db.transaction((tx) =>
      insertDraftBatch(tx, {
        id: batchId,
        requestedBy: userId,
        createdAt: now,
        expiresAt: new Date(now.getTime() + settings.requestTtlHours * 3_600_000),
        totals: check.totals,
        rows: check.rows,
        fileName: options.fileName?.slice(0, 200),
      }),
    );
    return { ...result, batchId };
  }

  async get(id: string): Promise<PayoutBatch | undefined> {
    return findBatch(this.options.db, id.trim().toUpperCase());
  }

  /**
   * Submits a draft for approval: the requester's role, rows that may repeat an earlier payout or
   * another row (duplicates.ts, measured again now: only with `confirmedDuplicate`), each currency's
   * total within the daily limit together with the requester's other requests that day, and the
   * approvers needed from the day's totals of every row, under the same locks as single requests.
   */
  async submit(userId: string, batchId: string, options: { confirmedDuplicate: boolean }): Promise<BatchResult> {
    const { db, roles, settings } = this.options;
    const batch = await this.get(batchId);
    if (!batch) return batchRefusal('not_found');
    if (batch.requestedBy !== userId) return batchRefusal('not_requester', { batch });
    if (!(await roles.canRequest(userId))) return batchRefusal('not_allowed', { batch });
    if (batch.state !== 'draft') return batch.state === 'pending' ? { ok: true, batch } : batchRefusal('not_draft', { batch });
    const now = this.now();
    const duplicates = await findBatchDuplicates(db, batch.id, await listBatchRows(db, batch.id), { now, windowHours: settings.duplicateWindowHours });
    if (duplicates.length > 0 && !options.confirmedDuplicate)
      return batchRefusal('duplicate_unconfirmed', { batch, details: { duplicateRows: duplicates.length } });
    try {
      const submitted = await db.transaction(async (tx) => {
        const payouts = await waitingPayouts(tx, batch.id);
        await lockPayoutDays(tx, { requestedBy: batch.requestedBy, payouts });
        await this.checkDailyLimits(tx, batch, now);
        const { required, reason, currency } = await measureDayApprovals(
          tx,
          { requestedBy: batch.requestedBy, requestedAt: now, payouts, counted: false },
          settings,
        );
        const changes: BatchChanges = {
          state: 'pending',
          requestedAt: now,
          requiredApprovals: required,
          expiresAt: new Date(now.getTime() + settings.requestTtlHours * 3_600_000),
          ...(reason ? { ...dualApprovalChanges(reason), dualApprovalCurrency: currency ?? null } : {}),
        };
        const moved = await updateBatch(tx, batch.id, { states: ['draft'] }, changes, now);
        if (!moved) throw new Refused(batchRefusal('not_draft', { batch }));
        await appendBatchEvent(tx, {
          batchId: batch.id,
          event: 'requested',
          userId,
          at: now,
          details: {
            rows: batch.rowCount,
            requiredApprovals: required,
            ...(reason ? { dualApproval: reason, currency } : {}),
            possibleDuplicates: duplicates.slice(0, 50),
          },
        });
        return moved;
      });
      await this.announce(submitted, 'requested', userId);
      return { ok: true, batch: submitted };
    } catch (error) {
      if (error instanceof Refused) return error.result;
      throw error;
    }
  }

  /** Each currency's total together with the requester's other requests that day within the daily limit (the caller holds the day locks). */
  private async checkDailyLimits(tx: Queryable, batch: PayoutBatch, now: Date): Promise<void> {
    const { settings } = this.options;
    for (const currency of [...batch.totals.keys()].sort()) {
      const limit = await dailyLimitDecision(tx, { requestedBy: batch.requestedBy, currency, amountMinor: batch.totals.get(currency) ?? 0 }, now, settings);
      if (!limit.ok)
        throw new Refused(
          batchRefusal('over_daily_limit', { batch, details: { currency, limitMinor: limit.details.limitMinor, leftMinor: limit.details.leftMinor } }),
        );
    }
  }

  /** Records an approval of a pending batch, and releases it for sending when it completes the count (see BatchApprovals). */
  async approve(batchId: string, userId: string): Promise<BatchResult> {
    const batch = await this.get(batchId);
    if (!batch) return batchRefusal('not_found');
    return this.approvals.approve(batch, userId);
  }

  /**
   * The pending batches `userId` may approve now, by the rule of the approval message's button
   * (never their own, not one they approved), newest first: the first `limit`, and how many in all
   * (among the newest 200 pending).
   */
  async waitingFor(userId: string, options: { limit: number }): Promise<{ batches: PayoutBatch[]; total: number }> {
    if (!(await this.options.roles.canApprove(userId))) return { batches: [], total: 0 };
    const now = this.now();
    const pending = await listPendingBatches(this.options.db, userId, now, 200);
    const allowed = pending.filter((batch) => batchApprovalRefusal(batch, { userId, canApprove: true }, now) === undefined);
    return { batches: allowed.slice(0, options.limit), total: allowed.length };
  }

  /** A person's own submitted batches, newest first. */
  async requestedBy(userId: string, options: { limit: number }): Promise<PayoutBatch[]> {
    return listRecentBatches(this.options.db, { requestedBy: userId, limit: options.limit });
  }

  /** Submitted batches, newest first. */
  async listRecent(options: { limit: number }): Promise<PayoutBatch[]> {
    return listRecentBatches(this.options.db, { limit: Math.min(100, Math.max(1, Math.floor(options.limit))) });
  }

  /** Batches found by words in their id, file name, or a row's reference, recipient name, phone or account number; newest first. */
  async search(words: readonly string[], options: { limit: number }): Promise<{ batches: PayoutBatch[]; total: number }> {
    const limit = Math.min(100, Math.max(1, Math.floor(options.limit)));
    return searchBatches(
      this.options.db,
      words.slice(0, 10).map((word) => word.slice(0, 100)),
      limit,
    );
  }

  /** Whether `userId` may reject the batch now (before the reason is asked); the batch, or why not. */
  async mayReject(batchId: string, userId: string): Promise<BatchResult> {
    const batch = await this.get(batchId);
    if (!batch) return batchRefusal('not_found');
    return batchRejectionRefusal(batch, { userId, canApprove: await this.options.roles.canApprove(userId) }) ?? { ok: true, batch };
  }

  /**
   * An approver other than the requester turns the batch down with a reason the requester is told
   * (3 to 500 characters, as for a single payout); nothing is sent.
   */
  async reject(batchId: string, userId: string, reason: string): Promise<BatchResult> {
    const allowed = await this.mayReject(batchId, userId);
    if (!allowed.ok) return allowed;
    const { batch } = allowed;
    if (!checkRejectReason(reason).ok) return batchRefusal('reason_required', { batch });
    return this.move(batch, ['pending'], { state: 'rejected', rejectedBy: userId, rejectReason: reason.trim() }, 'rejected', userId);
  }

  /**
   * An approver stops a batch being sent: rows not yet taken are never sent; a row already taken
   * finishes as a single payout does.
   */
  async stop(batchId: string, userId: string): Promise<BatchResult> {
    const batch = await this.get(batchId);
    if (!batch) return batchRefusal('not_found');
    // Refused from the cached lists first: only an approver's click costs a fresh read of Slack (about 20 a minute).
    const { roles } = this.options;
    if (!(await roles.canApprove(userId)) || !(await roles.canApprove(userId, { fresh: true }).catch(() => false)))
      return batchRefusal('not_approver', { batch });
    if (batch.state !== 'sending') return batch.state === 'stopped' ? { ok: true, batch } : batchRefusal('not_sending', { batch });
    const now = this.now();
    const stopped = await this.options.db.transaction(async (tx) => {
      // The pace first, as a take does: a take in progress finishes (and sends its row) before the stop.
      await lockBatchPace(tx);
      const moved = await updateBatch(tx, batch.id, { states: ['sending'] }, { state: 'stopped', stoppedBy: userId, finishedAt: now }, now);
      if (!moved) return undefined;
      // Under the batch row's lock: a sender taking a row checks the state in the same lock.
      await tx.query("UPDATE payout_batch_rows SET skipped = 'stopped' WHERE batch_id = $1 AND request_id IS NULL AND skipped IS NULL", [batch.id]);
      await appendBatchEvent(tx, { batchId: batch.id, event: 'stopped', userId, at: now });
      return moved;
    });
    if (!stopped) return this.movedOn(batch.id);
    await this.announce(stopped, 'stopped', userId);
    return { ok: true, batch: stopped };
  }

  /** Pending batches past their expiry, and drafts never submitted, become expired. */
  async expireDue(): Promise<PayoutBatch[]> {
    const now = this.now();
    const { rows } = await this.options.db.query<{ id: string }>(
      "SELECT id FROM payout_batches WHERE state IN ('draft', 'pending') AND expires_at <= $1 ORDER BY expires_at LIMIT 100",
      [now],
    );
    const expired: PayoutBatch[] = [];
    for (const { id } of rows) {
      const batch = await this.get(id);
      if (!batch) continue;
      const result = await this.move(batch, ['draft', 'pending'], { state: 'expired' }, 'expired', undefined);
      if (result.ok) expired.push(result.batch);
    }
    return expired;
  }

  /** What the Slack layer shows of a batch: its largest rows, all its rows, how far sending got. */
  async details(id: string): Promise<{ largest: StoredBatchRow[]; progress: BatchProgress }> {
    const { db } = this.options;
    return { largest: await largestBatchRows(db, id), progress: await batchProgress(db, id) };
  }

  async rows(id: string): Promise<StoredBatchRow[]> {
    return listBatchRows(this.options.db, id);
  }

  /** Each row with its payout request's outcome, for the results file. */
  async results(id: string): Promise<BatchRowResult[]> {
    return batchResults(this.options.db, id);
  }

  /**
   * Claims one attempt at sending a finished batch's results to its requester: false when they were
   * delivered, or another attempt is under way or failed too recently. Call `resultsDelivered` once
   * Slack took them; a failed attempt is retried by `redeliverResults`.
   */
  async claimResults(id: string): Promise<boolean> {
    return claimResultsDelivery(this.options.db, id, this.options.resultsRetrySeconds ?? RESULTS_RETRY_SECONDS);
  }

  async resultsDelivered(id: string): Promise<void> {
    await markResultsDelivered(this.options.db, id);
  }

  /** Finished batches whose results never reached the requester (Slack failed): announced as finished again, to send them. */
  async redeliverResults(): Promise<void> {
    for (const id of await listResultsDue(this.options.db, this.options.resultsRetrySeconds ?? RESULTS_RETRY_SECONDS, 20)) {
      const batch = await this.get(id);
      if (batch) await this.announce(batch, 'finished');
    }
  }

  async setMessage(id: string, which: 'approval' | 'progress', channel: string, ts: string): Promise<boolean> {
    return setBatchMessage(this.options.db, id, which, channel, ts);
  }

  private async move(
    batch: PayoutBatch,
    from: PayoutBatch['state'][],
    changes: BatchChanges,
    event: 'rejected' | 'expired',
    actor: string | undefined,
  ): Promise<BatchResult> {
    const now = this.now();
    const moved = await this.options.db.transaction(async (tx) => {
      const updated = await updateBatch(tx, batch.id, { states: from }, changes, now);
      if (updated)
        await appendBatchEvent(tx, { batchId: batch.id, event, userId: actor, at: now, details: changes.rejectReason ? { reason: changes.rejectReason } : {} });
      return updated;
    });
    if (!moved) return this.movedOn(batch.id);
    if (batch.state !== 'draft') await this.announce(moved, event, actor);
    return { ok: true, batch: moved };
  }

  private async movedOn(id: string): Promise<BatchResult> {
    return batchMovedOn(this.options.db, id, this.now());
  }

  async announce(batch: PayoutBatch, event: BatchEvent, actor?: string): Promise<void> {
    try {
      for (const notifier of this.options.notifiers ?? []) await notifier.changed(batch, event, actor);
    } catch (error) {
      this.options.logger.error({ err: error, batchId: batch.id }, 'could not tell Slack about a bulk payout');
    }
  }
}

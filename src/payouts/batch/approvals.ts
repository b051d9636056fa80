/**
 * Approving a pending bulk payout: one approval per transaction under the day locks, the approvers
 * needed measured again from the day's totals and only ever raised, and the approval that completes
 * the count checked against fresh roles before the batch is released for sending.
 */
import type { Clock } from '../../core/clock.js';
import type { Logger } from '../../core/logger.js';
import type { Db, Queryable } from '../../store/db.js';
import { batchApprovalRefusal, batchRefusal, type BatchResult, type PayoutBatch } from './model.js';
import { appendBatchEvent, findBatch, insertBatchApproval, listBatchRows, updateBatch, type BatchChanges } from './store.js';
import { lockPayoutDays, measureDayApprovals, raisedRequirement, type DayPayout, type DayRequirement } from '../day-totals.js';
import { dualApprovalChanges } from '../rows.js';
import type { PayoutRoles } from '../roles.js';
import { isSeniorApprover, seniorsAmong, seniorTier, type SeniorTier } from '../tiers.js';
import type { PayoutSettings } from '../settings.js';

export interface BatchApprovalsOptions {
  db: Db;
  clock: Clock;
  settings: PayoutSettings;
  roles: PayoutRoles;
  logger: Logger;
  /** Tells the notifiers of a committed approval or release. */
  announce: (batch: PayoutBatch, event: 'approved' | 'released', actor: string) => Promise<void>;
}

/** The rows of a batch that count towards the day's totals: not yet sent as a payout of their own, not skipped. */
export async function waitingPayouts(q: Queryable, batchId: string): Promise<DayPayout[]> {
  const rows = await listBatchRows(q, batchId);
  return rows.filter((row) => row.requestId === undefined && row.skipped === undefined).map(({ draft, newRecipient }) => ({ draft, newRecipient }));
}

/** A batch that moved on before a change could land, told as what it is now. */
export async function batchMovedOn(q: Queryable, id: string, now: Date): Promise<BatchResult> {
  const current = await findBatch(q, id);
  if (!current) return batchRefusal('not_found');
  if (current.state === 'pending' && current.expiresAt.getTime() <= now.getTime()) return batchRefusal('expired', { batch: current });
  return batchRefusal('not_pending', { batch: current });
}

export class BatchApprovals {
  constructor(private readonly options: BatchApprovalsOptions) {}

  private now(): Date {
    return this.options.clock.now();
  }

  /**
   * Records an approval by an approver other than the requester, measuring the day's totals again
   * (the approvers needed may go up). The approval that completes the count first looks up, fresh,
   * the requester's and every counted approver's roles: then the totals are measured once more, and
   * the batch is released for sending (`sending`) if they still allow. An approver no longer one does not count.
   */
  async approve(batch: PayoutBatch, userId: string): Promise<BatchResult> {
    const { db, roles } = this.options;
    const refused = batchApprovalRefusal(batch, { userId, canApprove: await roles.canApprove(userId) }, this.now());
    if (refused) return refused;
    const tier = await this.seniorTierOf(batch);
    const actorSenior = tier ? await isSeniorApprover(roles, userId) : false;
    const others = batch.approvals.filter((approval) => approval.userId !== batch.requestedBy);
    if (tier && !actorSenior && others.length + 1 >= batch.requiredApprovals && !others.some((approval) => approval.senior === true)) {
      return batchRefusal('needs_senior', { batch });
    }
    const now = this.now();
    const recorded = await db.transaction(async (tx) => {
      const payouts = await waitingPayouts(tx, batch.id);
      // The day locks first, as submissions take them, then the batch's row.
      await lockPayoutDays(tx, { requestedBy: batch.requestedBy, payouts });
      const touched = await updateBatch(tx, batch.id, { states: ['pending'], unexpiredAt: now }, {}, now);
      if (!touched) return undefined;
      if (!(await insertBatchApproval(tx, batch.id, userId, now, actorSenior))) return 'already' as const;
      await appendBatchEvent(tx, { batchId: batch.id, event: 'approved', userId, at: now });
      await this.measureAgain(tx, touched, payouts, now);
      return findBatch(tx, batch.id);
    });
    if (recorded === 'already') return batchRefusal('already_approved', { batch });
    if (!recorded) return batchMovedOn(db, batch.id, this.now());
    const counting = recorded.approvals.map((approval) => approval.userId).filter((approver) => approver !== recorded.requestedBy);
    if (counting.length < recorded.requiredApprovals) {
      await this.options.announce(recorded, 'approved', userId);
      return { ok: true, batch: recorded };
    }
    return this.release(recorded, counting, userId);
  }

  /**
   * Measures a pending batch again from the day's totals (its rows are among them) and raises the
   * approvers it needs when they now call for more; never lowers them. The caller holds the day locks.
   */
  private async measureAgain(tx: Queryable, batch: PayoutBatch, payouts: readonly DayPayout[], now: Date): Promise<DayRequirement | undefined> {
    const measured = await measureDayApprovals(
      tx,
      {
        requestedBy: batch.requestedBy,
        requestedAt: batch.requestedAt ?? now,
        payouts,
        counted: true,
      },
      this.options.settings,
    );
    const raised = raisedRequirement(batch.requiredApprovals, measured);
    if (!raised) return undefined;
    const changes: BatchChanges = { requiredApprovals: raised.required, ...dualApprovalChanges(raised.reason), dualApprovalCurrency: raised.currency ?? null };
    if (!(await updateBatch(tx, batch.id, { states: ['pending'] }, changes, now))) return undefined;
    await appendBatchEvent(tx, {
      batchId: batch.id,
      event: 'approvals_raised',
      at: now,
      details: { required: raised.required, currency: raised.currency, ...raised.reason },
    });
    return raised;
  }

  /**
   * The senior tier, as its two-approver rule reads totals: on the batch's total in each currency and
   * on the requester's and each recipient's day totals, every waiting row among them (`day-totals.ts`).
   */
  private async seniorTierOf(batch: PayoutBatch): Promise<SeniorTier | undefined> {
    const { db, settings } = this.options;
    const measured = await measureDayApprovals(
      db,
      {
        requestedBy: batch.requestedBy,
        requestedAt: batch.requestedAt ?? this.now(),
        payouts: await waitingPayouts(db, batch.id),
        counted: true,
      },
      settings,
    );
    return seniorTier(batch.totals, settings.seniorApprovalAbove) ?? measured.senior;
  }

  /** Fresh roles, then pending → sending; the approvals stay recorded whatever the roles say. */
  private async release(batch: PayoutBatch, counting: string[], actor: string): Promise<BatchResult> {
    const { roles, logger } = this.options;
    let stillApprovers: string[];
    let seniorMissing = false;
    try {
      if (!(await roles.canRequest(batch.requestedBy, { fresh: true }))) return batchRefusal('not_allowed', { batch });
      const answers = await Promise.all(counting.map((approver) => roles.canApprove(approver, { fresh: true })));
      stillApprovers = counting.filter((_, index) => answers[index] === true);
      if (await this.seniorTierOf(batch)) {
        // Checked again at release: a senior approver no longer one leaves the batch waiting for another.
        const givers = batch.approvals
          .filter((approval) => approval.senior === true && stillApprovers.includes(approval.userId))
          .map((approval) => approval.userId);
        const seniors = await seniorsAmong(roles, givers, { fresh: true });
        if (![...seniors.values()].some(Boolean)) seniorMissing = true;
      }
    } catch (error) {
      logger.warn({ err: error, batchId: batch.id }, 'could not look up roles before releasing a bulk payout; it waits');
      return batchRefusal('roles_unavailable', { batch });
    }
    if (!stillApprovers.includes(actor)) return batchRefusal('not_approver', { batch });
    const now = this.now();
    // Measured again at release: a request to the same recipient may have landed since the approval.
    const released = await this.options.db.transaction(async (tx) => {
      const payouts = await waitingPayouts(tx, batch.id);
      await lockPayoutDays(tx, { requestedBy: batch.requestedBy, payouts });
      const before = await findBatch(tx, batch.id);
      if (before?.state !== 'pending') return undefined;
      const raised = await this.measureAgain(tx, before, payouts, now);
      const required = raised?.required ?? before.requiredApprovals;
      if (stillApprovers.length < required || seniorMissing) return { waiting: (await findBatch(tx, batch.id)) ?? before };
      const moved = await updateBatch(tx, batch.id, { states: ['pending'], unexpiredAt: now }, { state: 'sending' }, now);
      if (moved) await appendBatchEvent(tx, { batchId: batch.id, event: 'released', userId: actor, at: now, details: { approvers: stillApprovers } });
      return moved;
    });
    if (!released) return batchMovedOn(this.options.db, batch.id, this.now());
    if ('waiting' in released) {
      await this.options.announce(released.waiting, 'approved', actor);
      return { ok: true, batch: released.waiting };
    }
    await this.options.announce(released, 'released', actor);
    return { ok: true, batch: released };
  }
}

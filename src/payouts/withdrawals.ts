/**
 * A request turned down before it is sent: rejected by an approver other than the requester (with a
 * reason the requester reads), cancelled by its requester while nobody has approved it, or cancelled
 * with the series it was released from. Each move is guarded in the store, so a double click, a
 * redelivery or an approval committed meanwhile changes nothing twice.
 */
import type { Clock } from '../core/clock.js';
import type { Db } from '../store/db.js';
import type { PayoutActionResult, PayoutRefusal, PayoutRequest } from './model.js';
import { lostRace, refused } from './outcomes.js';
import { canCancel, canReject, checkRejectReason, type PayoutActor } from './policy.js';
import type { TransitionRecorder } from './transitions.js';

export interface PayoutWithdrawalsOptions {
  db: Db;
  clock: Clock;
  recorder: TransitionRecorder;
  /** The request as stored now, its schedule attached. */
  get(id: string): Promise<PayoutRequest | undefined>;
}

export class PayoutWithdrawals {
  constructor(private readonly options: PayoutWithdrawalsOptions) {}

  /** An approver other than the requester turns the request down; the reason goes to the requester. */
  async reject(request: PayoutRequest, actor: PayoutActor, reason: string): Promise<PayoutActionResult> {
    const { id } = request;
    const now = this.options.clock.now();
    const decision = canReject(request, actor, now);
    if (!decision.ok) return refused(decision, request);
    const because = checkRejectReason(reason);
    if (!because.ok) return refused(because, request);
    const text = reason.trim();
    const rejected = await this.options.recorder.move(
      id,
      { states: ['pending'], notRequestedBy: actor.userId, unexpiredAt: now },
      { state: 'rejected', rejectedBy: actor.userId, rejectReason: text },
      { event: 'rejected', userId: actor.userId, details: { reason: text } },
      now,
    );
    return rejected ? { ok: true, request: rejected } : this.lostRace(id);
  }

  /** The requester withdraws a pending request that nobody has approved yet. */
  async cancel(request: PayoutRequest, userId: string): Promise<PayoutActionResult> {
    const { id } = request;
    const decision = canCancel(request, { userId });
    if (!decision.ok) return refused(decision, request);
    // The version guard loses to an approval committed since we read the request.
    const cancelled = await this.options.recorder.move(
      id,
      { states: ['pending'], version: request.version },
      { state: 'cancelled' },
      { event: 'cancelled', userId },
      this.options.clock.now(),
    );
    if (cancelled) return { ok: true, request: cancelled };
    const current = await this.options.get(id);
    const again = current ? canCancel(current, { userId }) : undefined;
    return current && again && !again.ok ? refused(again, current) : this.lostRace(id);
  }

  /**
   * Cancel series, for a request released from the series and still waiting for approval: cancelled
   * with it, whoever cancels the series (its requester or an approver, as the schedule decided), so
   * that nobody approves it after. Undefined when it had moved on (approved, sent, decided).
   */
  async cancelWithSeries(requestId: string, userId: string, seriesId: string): Promise<PayoutRequest | undefined> {
    return this.options.recorder.move(
      requestId,
      { states: ['pending'] },
      { state: 'cancelled' },
      { event: 'cancelled', userId, details: { series: seriesId } },
      this.options.clock.now(),
    );
  }

  private lostRace(id: string): Promise<PayoutRefusal> {
    return lostRace(this.options.db, id, this.options.clock.now());
  }
}

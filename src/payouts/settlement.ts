/**
 * Everything after approval: sending the payout exactly once, recording its outcome, settling an
 * unknown outcome against the transaction list, and the periodic sweeps (expiry, recovery).
 */
import type { Clock } from '../clock.js';
import { asFleetError } from '../fleet/errors.js';
import type { FleetApi } from '../fleet/schemas.js';
import type { Logger } from '../logger.js';
import type { Db, Queryable } from '../store/db.js';
import { findPayoutTransaction, sendPayout, type FoundPayout } from './dispatch.js';
import { refusal, type PayoutActionResult, type PayoutRequest } from './model.js';
import { describeState } from './policy.js';
import { executionTimes, listDueForCheck, listStaleApproved, updateRequest, updateWhere } from './repository.js';
import type { TransitionRecorder } from './transitions.js';

export interface SettlementOptions {
  db: Db;
  fleet: FleetApi;
  clock: Clock;
  logger: Logger;
  recorder: TransitionRecorder;
  /** How long an unknown payout is looked for before an approver must review it. */
  reconcileWindowMs: number;
  /** Pause between two looks at the transaction list for the same unknown payout. */
  recheckEveryMs: number;
  /** A row `executing` or `approved` for longer than this belongs to a process that died. */
  staleAfterMs: number;
}

const BATCH = 100;
const INTERRUPTED_REASON = 'The app stopped while sending this payout, so its outcome is not known yet.';

export class PayoutSettlement {
  constructor(private readonly options: SettlementOptions) {}

  private now(): Date {
    return this.options.clock.now();
  }

  /** approved → executing (one winner), then the one POST. Losers get the request as it stands. */
  async execute(request: PayoutRequest, actor: string | undefined): Promise<PayoutActionResult> {
    const attempt = request.attempts + 1;
    const now = this.now();
    const executing = await this.options.recorder.move(
      request.id,
      { states: ['approved'], attempts: request.attempts },
      { state: 'executing', attempts: attempt, lastSentAt: now, failureReason: null },
      { event: 'executing', userId: actor, details: { attempt } },
      now,
    );
    if (!executing) return this.asItStands(request.id);
    return this.send(executing, actor);
  }

  /** unknown + needs review → executing, with the same reference, after one last look. */
  async retry(request: PayoutRequest, actor: string): Promise<PayoutActionResult> {
    const look = await this.reconcile(request.id);
    if (!look.ok) {
      return refusal('fleet_unavailable', `${look.message} Nothing was sent again; try again in a few minutes.`, { request });
    }
    if (look.request.state !== 'unknown') return look;
    const attempt = look.request.attempts + 1;
    const now = this.now();
    const executing = await this.options.recorder.move(
      request.id,
      { states: ['unknown'], needsReview: true, attempts: look.request.attempts, notRequestedBy: actor },
      { state: 'executing', needsReview: false, attempts: attempt, lastSentAt: now, failureReason: null, nextCheckAt: null },
      { event: 'retried', userId: actor, details: { attempt, reference: request.reference } },
      now,
    );
    if (!executing) {
      // Another click (perhaps this person's own, delivered twice) moved it first: say where it is now.
      const current = await this.options.recorder.current(request.id);
      return current ? refusal('not_retryable', describeState(current), { request: current }) : refusal('not_found', `There is no payout ${request.id}.`);
    }
    return this.send(executing, actor);
  }

  private async send(executing: PayoutRequest, actor: string | undefined): Promise<PayoutActionResult> {
    const sent = await sendPayout(this.options.fleet, executing);
    const now = this.now();
    const mine = { attempts: executing.attempts };
    const { recorder } = this.options;
    let settled: PayoutRequest | undefined;
    if (sent.outcome === 'completed') {
      // Also from unknown: another replica may have swept this row while our POST was in flight.
      settled = await recorder.move(
        executing.id,
        { states: ['executing', 'unknown'], ...mine },
        { state: 'completed', transactionId: sent.transactionId ?? null, failureReason: null, needsReview: false, nextCheckAt: null },
        { event: 'completed', userId: actor, details: { transactionId: sent.transactionId ?? null, message: sent.message ?? null } },
        now,
      );
    } else if (sent.outcome === 'failed') {
      settled = await recorder.move(
        executing.id,
        { states: ['executing'], ...mine },
        { state: 'failed', failureReason: sent.reason },
        { event: 'failed', userId: actor, details: { code: sent.code, reason: sent.reason } },
        now,
      );
    } else {
      settled = await recorder.move(
        executing.id,
        { states: ['executing'], ...mine },
        { state: 'unknown', failureReason: sent.reason, unknownSince: now, nextCheckAt: now },
        { event: 'unknown', userId: actor, details: { code: sent.code, reason: sent.reason } },
        now,
      );
      if (settled) return this.reconcile(executing.id);
    }
    if (!settled) {
      this.options.logger.error({ payoutId: executing.id, outcome: sent.outcome }, 'payout outcome could not be recorded: the row moved meanwhile');
    }
    return this.asItStands(executing.id);
  }

  /**
   * Looks for an unknown payout in the transaction list. Found: completed (`reconciled`). Not found
   * once the window has passed since it became unknown: needs review. Otherwise: looked at again later.
   */
  async reconcile(id: string): Promise<PayoutActionResult> {
    const { recorder, db } = this.options;
    const request = await recorder.current(id);
    if (!request) return refusal('not_found', `There is no payout ${id}.`);
    if (request.state !== 'unknown') return { ok: true, request };

    const times = await executionTimes(db, id);
    const sentAt = times.lastSentAt ?? request.requestedAt;
    // After a retry either attempt may be the one that shows up: look back to before the first,
    // which the last approval precedes.
    const firstSentAfter = request.approvals.at(-1)?.at ?? sentAt;
    let found: FoundPayout | undefined;
    try {
      found = await findPayoutTransaction(this.options.fleet, request, firstSentAfter);
    } catch (thrown) {
      const error = asFleetError(thrown);
      this.options.logger.warn({ payoutId: id, code: error.code }, 'could not list transactions to settle an unknown payout');
      await this.scheduleNextCheck(request);
      return refusal('fleet_unavailable', `Could not check the Fleet API's transactions: ${error.userMessage}`, { request });
    }

    const now = this.now();
    const still = { states: ['unknown'] as const, attempts: request.attempts };
    if (found) {
      const completed = await recorder.move(
        id,
        still,
        { state: 'completed', transactionId: found.transaction.reference, failureReason: null, needsReview: false, nextCheckAt: null },
        {
          event: 'reconciled',
          details: {
            transactionId: found.transaction.reference, matchedBy: found.matchedBy, status: found.transaction.status,
            amount: found.transaction.amount, currency: found.transaction.currency,
          },
        },
        now,
      );
      return completed ? { ok: true, request: completed } : this.asItStands(id);
    }
    const unknownSince = times.unknownSince ?? sentAt;
    if (!request.needsReview && now.getTime() - unknownSince.getTime() >= this.options.reconcileWindowMs) {
      const review = await recorder.move(
        id,
        { ...still, needsReview: false },
        { needsReview: true, nextCheckAt: null },
        { event: 'needs_review', details: { windowMinutes: Math.round(this.options.reconcileWindowMs / 60_000) } },
        now,
      );
      return review ? { ok: true, request: review } : this.asItStands(id);
    }
    await this.scheduleNextCheck(request);
    return this.asItStands(id);
  }

  private async scheduleNextCheck(request: PayoutRequest): Promise<void> {
    if (request.needsReview) return;
    const now = this.now();
    await updateRequest(
      this.options.db,
      request.id,
      { states: ['unknown'], needsReview: false, attempts: request.attempts },
      { nextCheckAt: new Date(now.getTime() + this.options.recheckEveryMs) },
      now,
    );
  }

  /** pending past `expiresAt` → expired. */
  async expireDue(): Promise<PayoutRequest[]> {
    const now = this.now();
    return this.sweep('expired', (tx) => updateWhere(tx, { state: 'pending', column: 'expires_at', atOrBefore: now }, { state: 'expired' }, now, BATCH));
  }

  /**
   * Rows a dead process left behind: `executing` → unknown (then reconciled), and `approved`
   * that nobody started sending → sent now. Only rows idle for `staleAfterMs`, so that a replica
   * in the middle of a payout is not disturbed.
   */
  async recoverInterrupted(options: { staleAfterMs?: number } = {}): Promise<PayoutRequest[]> {
    const now = this.now();
    const before = new Date(now.getTime() - (options.staleAfterMs ?? this.options.staleAfterMs));
    const unknown = await this.sweep('unknown', (tx) => updateWhere(
      tx,
      { state: 'executing', column: 'last_sent_at', atOrBefore: before },
      { state: 'unknown', failureReason: INTERRUPTED_REASON, unknownSince: now, nextCheckAt: now },
      now,
      BATCH,
    ), { reason: 'interrupted' });
    const results: PayoutRequest[] = [];
    for (const request of unknown) results.push(await this.settleQuietly(() => this.reconcile(request.id), request));
    for (const id of await listStaleApproved(this.options.db, before, BATCH)) {
      const request = await this.options.recorder.current(id);
      if (request) results.push(await this.settleQuietly(() => this.execute(request, undefined), request));
    }
    return results;
  }

  /** Reconciles every unknown payout whose next check is due. */
  async reconcileDue(): Promise<PayoutRequest[]> {
    const results: PayoutRequest[] = [];
    for (const id of await listDueForCheck(this.options.db, this.now(), BATCH)) {
      const result = await this.reconcile(id);
      if (result.ok) results.push(result.request);
      else if (result.request) results.push(result.request);
    }
    return results;
  }

  private async sweep(
    event: 'expired' | 'unknown',
    update: (tx: Queryable) => Promise<PayoutRequest[]>,
    details: Record<string, unknown> = {},
  ): Promise<PayoutRequest[]> {
    const now = this.now();
    const { recorder } = this.options;
    const moved = await this.options.db.transaction(async (tx) => {
      const rows = await update(tx);
      for (const request of rows) await recorder.record(tx, request, { event, details }, now);
      return rows;
    });
    for (const request of moved) await recorder.announce(request, { event, details });
    return moved;
  }

  private async settleQuietly(work: () => Promise<PayoutActionResult>, fallback: PayoutRequest): Promise<PayoutRequest> {
    const result = await work();
    return result.ok ? result.request : result.request ?? fallback;
  }

  private async asItStands(id: string): Promise<PayoutActionResult> {
    const request = await this.options.recorder.current(id);
    return request ? { ok: true, request } : refusal('not_found', `There is no payout ${id}.`);
  }
}

/**
 * Everything after approval: sending the payout exactly once, recording its outcome, and the periodic
 * sweeps (expiry, recovery); an unknown outcome is settled against the transaction list by `unknown-outcomes.ts`.
 */
import type { FleetApi } from '../fleet/schemas.js';
import type { Queryable } from '../store/db.js';
import { searchTransactionList, sendPayout, type PayoutTransactionSearch, type SendOutcome } from './dispatch.js';
import { UnstoredOutcomes } from './unstored-outcomes.js';
import { INTERRUPTED_FAILURE } from './failure-reasons.js';
import { refusal, type PayoutActionResult, type PayoutRefusal, type PayoutRequest } from './model.js';
import { movedOn } from './policy.js';
import { findRequest, listStaleApproved, type PayoutChanges } from './repository.js';
import { changeRequest, changeRequestsWhere, lockRequest, type RecordedEvent } from './transitions.js';
import { revokeApprovals } from './approval-store.js';
import { raisedRequirement } from './day-totals.js';
import type { GateVerdict, PayoutGate, SendingPath } from './gate.js';
import { dualApprovalChanges } from './rows.js';
import { notFound, UnknownOutcomes, type Look, type UnknownOutcomeOptions } from './unknown-outcomes.js';

export interface SettlementOptions extends Omit<UnknownOutcomeOptions, 'search'> {
  fleet: FleetApi;
  /** A row `executing` or `approved` for longer than this belongs to a process that died. */
  staleAfterMs: number;
  /** Where an unknown payout is looked for; defaults to reading the Fleet API's whole list back to the request. */
  search?: PayoutTransactionSearch;
  /** The one gate every move to sending passes. */
  gate: PayoutGate;
  /** How long a request the gate held back to pending waits for its approvers (PAYOUT_REQUEST_TTL_HOURS). */
  requestTtlMs: number;
}

const BATCH = 100;

export class PayoutSettlement {
  private readonly search: PayoutTransactionSearch;
  private readonly unknown: UnknownOutcomes;
  private readonly unstored: UnstoredOutcomes;

  constructor(private readonly options: SettlementOptions) {
    this.search = options.search ?? searchTransactionList(options.fleet, options.clock);
    this.unknown = new UnknownOutcomes({ ...options, search: this.search });
    this.unstored = new UnstoredOutcomes({
      store: async (executing, sent, actor) => {
        const settled = await this.recordSent(executing, sent, actor);
        if (sent.outcome === 'unknown' && settled) await this.settle(executing.id);
      },
      clock: options.clock,
      logger: options.logger,
    });
  }

  private now(): Date {
    return this.options.clock.now();
  }

  /**
   * approved → executing (one winner) through the gate (`gate.ts`), then the one POST. A control that
   * no longer passes holds the request instead: back to pending, with the reason. Losers get the
   * request as it stands.
   */
  async execute(request: PayoutRequest, actor: string | undefined, via: SendingPath): Promise<PayoutActionResult> {
    const { gate, recorder } = this.options;
    const roles = await gate.lookUp(request, via);
    const attempt = request.attempts + 1;
    const now = this.now();
    const expected = { states: ['approved'] as const, attempts: request.attempts };
    const decided = await recorder.decide(async (tx) => {
      await gate.lockDay(tx, request);
      // Locks the row: a second click, replica or sweep waits here, then finds it moved.
      const current = await lockRequest(tx, request.id, expected, now);
      if (!current) return undefined;
      const verdict = await gate.check(tx, current, roles, now);
      if (!verdict.ok) return this.hold(tx, verdict, via, actor, now);
      const executing = await changeRequest(
        tx,
        request.id,
        expected,
        { state: 'executing', attempts: attempt, lastSentAt: now, failureReason: null, holdReason: null },
        now,
      );
      return executing && { request: executing, events: [{ event: 'executing' as const, userId: actor, details: { attempt, via } }] };
    }, now);
    if (!decided) return this.asItStands(request.id);
    if (decided.request.state !== 'executing') return { ok: true, request: decided.request };
    return this.send(decided.request, actor);
  }

  /**
   * unknown + needs review → executing, with the same reference, after one last complete look: only
   * "not found" after reading every entry back to the request lets it go out again, and only through
   * the gate, with the agreements to send it again as its approvals.
   */
  async retry(request: PayoutRequest, actor: string, approvers: string[]): Promise<PayoutActionResult> {
    const look = await this.unknown.look(request.id);
    if (!look.ok) return look;
    const seen = look.request;
    if (seen.state !== 'unknown') {
      // This look found the payout in the list: the retry's answer is that it went out after all.
      if (look.search?.outcome === 'found') return { ok: true, request: seen };
      // Another click (perhaps this person's own, delivered twice) moved it during the look.
      return refusal('not_retryable', { details: movedOn(seen), request: seen });
    }
    const refused = retryBlockedBy(look);
    if (refused) return refused;
    const { gate, recorder } = this.options;
    const roles = await gate.lookUp(seen, 'retry_unknown');
    const attempt = seen.attempts + 1;
    const now = this.now();
    const expected = { states: ['unknown'] as const, needsReview: true, attempts: seen.attempts, notRequestedBy: actor };
    const decided = await recorder.decide(async (tx) => {
      await gate.lockDay(tx, seen);
      const current = await lockRequest(tx, request.id, expected, now);
      if (!current) return undefined;
      const verdict = await gate.check(tx, current, roles, now);
      if (!verdict.ok) return this.hold(tx, verdict, 'retry_unknown', actor, now);
      const executing = await changeRequest(
        tx,
        request.id,
        expected,
        {
          state: 'executing',
          needsReview: false,
          attempts: attempt,
          lastSentAt: now,
          failureReason: null,
          nextCheckAt: null,
          lastSearch: null,
          holdReason: null,
        },
        now,
      );
      const details = { attempt, reference: request.reference, approvers, via: 'retry_unknown' };
      return executing && { request: executing, events: [{ event: 'retried' as const, userId: actor, details }] };
    }, now);
    if (!decided) {
      // Another click (perhaps this person's own, delivered twice) moved it first: say where it is now.
      const current = await this.options.recorder.current(request.id);
      return current ? refusal('not_retryable', { details: movedOn(current), request: current }) : notFound(request.id);
    }
    if (decided.request.state !== 'executing') return { ok: true, request: decided.request };
    return this.send(decided.request, actor);
  }

  /**
   * A control of the gate failed: nothing is sent, nothing is dropped. An approved request goes back
   * to pending for a full request TTL, its approvals from people no longer approvers revoked; an
   * unknown one stays unknown. Both keep the hold, which says what they wait for, and a day that now
   * needs more approvers raises their count (never lowered).
   */
  private async hold(
    tx: Queryable,
    verdict: GateVerdict & { ok: false },
    via: SendingPath,
    actor: string | undefined,
    now: Date,
  ): Promise<{ request: PayoutRequest; events: RecordedEvent[] } | undefined> {
    const { facts, hold } = verdict;
    const { request } = facts;
    const events: RecordedEvent[] = [];
    const changes: PayoutChanges = { holdReason: hold };
    const raised = raisedRequirement(request.requiredApprovals, facts.measured);
    if (raised) {
      Object.assign(changes, { requiredApprovals: raised.required, ...dualApprovalChanges(raised.reason) } satisfies PayoutChanges);
      events.push({ event: 'approvals_raised', details: { required: raised.required, currency: request.currency, ...raised.reason, via } });
    }
    if (request.state === 'approved') {
      // Nobody's approval is revoked on a failed read; an approval counts again once its giver approves again.
      const revoke = facts.roles.unreadable ? [] : facts.givers.filter((userId) => facts.roles.approvers.get(userId) !== true);
      await revokeApprovals(tx, request.id, revoke, now);
      for (const approver of revoke) events.push({ event: 'approval_revoked', userId: actor, details: { approver, reason: 'not_approver', via } });
      Object.assign(changes, { state: 'pending', expiresAt: new Date(now.getTime() + this.options.requestTtlMs) } satisfies PayoutChanges);
    }
    const held = await changeRequest(tx, request.id, { states: [request.state], attempts: request.attempts }, changes, now);
    if (!held) return undefined;
    events.push({ event: 'held', userId: actor, details: { reason: hold, control: verdict.control, via } });
    return { request: (await findRequest(tx, request.id)) ?? held, events };
  }

  private async send(executing: PayoutRequest, actor: string | undefined): Promise<PayoutActionResult> {
    const sent = await sendPayout(this.options.fleet, executing);
    let settled: PayoutRequest | undefined;
    try {
      settled = await this.recordSent(executing, sent, actor);
    } catch (error) {
      // The Fleet API answered but the database did not take the answer (an outage): this replica
      // keeps it and stores it once the database answers again, rather than leave the request
      // "sending" until the recovery sweep guesses.
      this.unstored.keep(executing, sent, actor, error);
      return { ok: true, request: executing };
    }
    if (sent.outcome === 'unknown' && settled) return this.settle(executing.id);
    if (!settled) {
      this.options.logger.error({ payoutId: executing.id, outcome: sent.outcome }, 'payout outcome could not be recorded: the row moved meanwhile');
    }
    return this.asItStands(executing.id);
  }

  /** The Fleet API's answer to a POST, stored: the request moved from `executing`, or undefined when it had moved already. */
  private async recordSent(executing: PayoutRequest, sent: SendOutcome, actor: string | undefined): Promise<PayoutRequest | undefined> {
    const now = this.now();
    const mine = { attempts: executing.attempts };
    const { recorder } = this.options;
    if (sent.outcome === 'completed') {
      // Also from unknown: another replica may have swept this row while our POST was in flight.
      return recorder.move(
        executing.id,
        { states: ['executing', 'unknown'], ...mine },
        { state: 'completed', transactionId: sent.transactionId ?? null, failureReason: null, needsReview: false, nextCheckAt: null },
        { event: 'completed', userId: actor, details: { transactionId: sent.transactionId ?? null, message: sent.message ?? null } },
        now,
      );
    }
    if (sent.outcome === 'failed') {
      return recorder.move(
        executing.id,
        { states: ['executing'], ...mine },
        { state: 'failed', failureReason: sent.reason },
        { event: 'failed', userId: actor, details: { code: sent.code, reason: sent.reason } },
        now,
      );
    }
    return recorder.move(
      executing.id,
      { states: ['executing'], ...mine },
      { state: 'unknown', failureReason: sent.reason, unknownSince: now, nextCheckAt: now },
      { event: 'unknown', userId: actor, details: { code: sent.code, reason: sent.reason } },
      now,
    );
  }

  /** Answers the Fleet API gave that the database has not taken yet (see UnstoredOutcomes). */
  pendingOutcomes(): number {
    return this.unstored.size;
  }

  /** Tries once more to store the answers still held, then stops trying; each one left is logged for an operator. */
  async stop(): Promise<void> {
    await this.unstored.stop();
  }

  /** Looks for an unknown payout in the transaction list and settles it when it can (see UnknownOutcomes). */
  async settle(id: string): Promise<PayoutActionResult> {
    return this.unknown.settle(id);
  }

  /** An approver's answer to a likely match (see UnknownOutcomes). */
  async decideMatch(request: PayoutRequest, actor: string, decision: 'confirmed' | 'rejected'): Promise<PayoutRequest | undefined> {
    return this.unknown.decideMatch(request, actor, decision);
  }

  /** pending past `expiresAt` → expired. */
  async expireDue(): Promise<PayoutRequest[]> {
    const now = this.now();
    return this.sweep('expired', (tx) =>
      changeRequestsWhere(tx, { state: 'pending', column: 'expires_at', atOrBefore: now }, { state: 'expired' }, now, BATCH),
    );
  }

  /**
   * Rows a dead process left behind: `executing` → unknown (then reconciled), and `approved`
   * that nobody started sending → sent now. Only rows idle for `staleAfterMs`, so that a replica
   * in the middle of a payout is not disturbed.
   */
  async recoverInterrupted(options: { staleAfterMs?: number } = {}): Promise<PayoutRequest[]> {
    const now = this.now();
    const before = new Date(now.getTime() - (options.staleAfterMs ?? this.options.staleAfterMs));
    const unknown = await this.sweep(
      'unknown',
      (tx) =>
        changeRequestsWhere(
          tx,
          { state: 'executing', column: 'last_sent_at', atOrBefore: before },
          { state: 'unknown', failureReason: INTERRUPTED_FAILURE, unknownSince: now, nextCheckAt: now },
          now,
          BATCH,
        ),
      { reason: 'interrupted' },
    );
    const results: PayoutRequest[] = [];
    for (const request of unknown) results.push(await this.settleQuietly(() => this.settle(request.id), request));
    for (const id of await listStaleApproved(this.options.db, before, BATCH)) {
      const request = await this.options.recorder.current(id);
      if (request) results.push(await this.settleQuietly(() => this.execute(request, undefined, 'recovery'), request));
    }
    return results;
  }

  /** Settles every unknown payout whose next check is due. */
  async settleDue(): Promise<PayoutRequest[]> {
    return this.unknown.settleDue();
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
    return result.ok ? result.request : (result.request ?? fallback);
  }

  private async asItStands(id: string): Promise<PayoutActionResult> {
    const request = await this.options.recorder.current(id);
    return request ? { ok: true, request } : notFound(id);
  }
}

/** Why a retry may not send now, after its last look; undefined when it may. */
function retryBlockedBy(look: Look): PayoutRefusal | undefined {
  const { request, search } = look;
  if (search?.outcome === 'could_not_check') {
    return refusal('could_not_check', { details: { action: 'retry', payoutId: request.id, searchProblem: search.reason }, request });
  }
  if (request.likelyMatch || search?.outcome === 'likely_match') {
    return refusal('likely_match', { details: { action: 'retry', payoutId: request.id }, request });
  }
  return undefined;
}

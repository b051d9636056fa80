/**
 * The payout domain's front door for the Slack layer: request (through the intake), approve,
 * reject, cancel, retry and read payouts. Every rule is checked against the stored record; expected
 * refusals come back as `{ ok: false, code, details }`, never as exceptions.
 */
import type { Clock } from '../clock.js';
import type { FleetApi } from '../fleet/schemas.js';
import type { Logger } from '../logger.js';
import type { Db, Queryable } from '../store/db.js';
import type { Locale } from '../i18n/locale.js';
import { isResubmittable, PayoutIntake, Refused, type PayoutRequirement } from './intake.js';
import { refusal, type PayoutActionResult, type PayoutDraft, type PayoutEvent, type PayoutKind, type PayoutRefusal, type PayoutRequest } from './model.js';
import { DEFAULT_SEARCH_LIMITS, searchTransactionList, type ListSearchLimits, type PayoutTransactionSearch } from './dispatch.js';
import {
  canApprove, canCancel, canDecideMatch, canReject, canRequest, canRetry, checkRejectReason, countingApprovers, countingRetryApprovers, decideRelease,
  alreadyAgreedToRetry, movedOn, type PayoutActor, type PolicyDecision, type ReleaseRoles,
} from './policy.js';
import {
  findRequest, findRequestByReference, insertApproval, insertRetryApproval, likelyMatchStatus, listEvents, listPendingRequests, listRecentRequests, listRequestsBy,
  revokeApprovals, searchRequests, setApprovalMessage, updateRequest, type PayoutChanges,
} from './repository.js';
import type { PayoutSettings } from './settings.js';
import { PayoutSettlement } from './settlement.js';
import { raisedRequirement } from './day-totals.js';
import { dualApprovalChanges } from './rows.js';
import { TransitionRecorder, type PayoutNotifier, type RecordedEvent } from './transitions.js';
import type { PayoutFormFields, PayoutValidation } from './validation.js';

/** Who may request and approve; the Slack layer answers from access lists and user groups. */
export interface PayoutRoles {
  canRequest(userId: string, lookup?: RoleLookup): Promise<boolean>;
  canApprove(userId: string, lookup?: RoleLookup): Promise<boolean>;
}

/**
 * `fresh`: answer from the source now, past any cache, for the approval that would release a
 * payout. A fresh lookup that cannot be answered rejects rather than guessing either way.
 */
export interface RoleLookup {
  fresh?: boolean;
}

export interface PayoutServiceOptions {
  db: Db;
  fleet: FleetApi;
  clock: Clock;
  roles: PayoutRoles;
  settings: PayoutSettings;
  logger: Logger;
  /** Request ids; defaults to `PR-XXXXXX`. */
  newId?: () => string;
  /** References for forms that left it empty; defaults to `PAY-YYYYMMDD-XXXXXX`. */
  newReference?: (now: Date) => string;
  notifier?: PayoutNotifier;
  /** Pause between two looks for the same unknown payout (default 30 s). */
  recheckEveryMs?: number;
  /** A row left `executing`/`approved` this long belongs to a dead process (default 5 min, above any HTTP timeout). */
  staleAfterMs?: number;
  /** Bounds of one search of the transaction list for an unknown payout (default: 2 minutes, 100 ms between pages). */
  searchLimits?: Partial<ListSearchLimits>;
  /** Where unknown payouts are looked for (default: the Fleet API's transaction list). */
  search?: PayoutTransactionSearch;
}

/** What "Edit and resubmit" may open: the request and the reference to offer, or why not. */
export type Resubmission =
  | { ok: true; request: PayoutRequest; reference: string }
  | { ok: false; code: 'not_found' | 'not_own' | 'not_rejected' | 'not_requester'; request?: PayoutRequest };

/** What one `runMaintenance()` did, for logs and tests. */
export interface MaintenanceReport {
  recovered: PayoutRequest[];
  expired: PayoutRequest[];
  reconciled: PayoutRequest[];
}

/** Raised inside a transaction whose conditional update found the request moved on. */
class LostRace extends Error {}

/** Raised inside an approval's transaction that would release the payout without fresh role lookups for every counted approver. */
class NeedsFreshRoles extends Error {}

// A round is lost only to another approval of the same request landing meanwhile; each one moves it on.
const MAX_APPROVAL_ROUNDS = 5;

/**
 * Wiring for the Slack layer: call `recoverInterrupted()` once at start, `runMaintenance()` on a
 * timer (every 30 s or so), and ack Slack before `approve`/`retryUnknown`, which wait for the Fleet
 * API. Every method re-reads the stored request, so stale buttons and private_metadata decide nothing.
 */
export class PayoutService {
  private readonly recorder: TransitionRecorder;
  private readonly settlement: PayoutSettlement;
  private readonly intake: PayoutIntake;

  constructor(private readonly options: PayoutServiceOptions) {
    this.recorder = new TransitionRecorder(options.db, options.logger, options.notifier);
    this.intake = new PayoutIntake({
      db: options.db, clock: options.clock, settings: options.settings, recorder: this.recorder, newId: options.newId, newReference: options.newReference,
    });
    this.settlement = new PayoutSettlement({
      db: options.db,
      fleet: options.fleet,
      clock: options.clock,
      logger: options.logger,
      recorder: this.recorder,
      reconcileWindowMs: options.settings.reconcileWindowMinutes * 60_000,
      recheckEveryMs: options.recheckEveryMs ?? 30_000,
      staleAfterMs: options.staleAfterMs ?? 5 * 60_000,
      search: options.search ?? searchTransactionList(options.fleet, options.clock, { ...DEFAULT_SEARCH_LIMITS, ...options.searchLimits }),
    });
  }

  private now(): Date {
    return this.options.clock.now();
  }

  /** The roles of a user as the policy sees them. */
  async actor(userId: string): Promise<PayoutActor> {
    const [requester, approver] = await Promise.all([this.options.roles.canRequest(userId), this.options.roles.canApprove(userId)]);
    return { userId, canRequest: requester, canApprove: approver };
  }

  /** `/fleet payouts` and a request's history are for requesters and approvers only. */
  async canView(userId: string): Promise<boolean> {
    const actor = await this.actor(userId);
    return actor.canRequest || actor.canApprove;
  }

  /** Whether a person may request payouts, asked before the form opens; `submit` checks again. */
  async mayRequest(userId: string): Promise<PolicyDecision> {
    return canRequest(await this.actor(userId));
  }

  /** Whether a person may approve this request now, asked before the approve modal opens; `approve` checks again. */
  async mayApprove(request: PayoutRequest, userId: string): Promise<PolicyDecision> {
    return canApprove(request, await this.actor(userId), this.now());
  }

  /** Whether a person may reject this request now, asked before the reject modal opens; `reject` checks again. */
  async mayReject(request: PayoutRequest, userId: string): Promise<PolicyDecision> {
    return canReject(request, await this.actor(userId), this.now());
  }

  /**
   * Checks a submitted form: field rules, a reference not used before, and (when `userId` is
   * given) the requester's daily limit, so the review screen is only shown for a request that can be stored.
   */
  async validate(kind: PayoutKind, fields: PayoutFormFields, userId?: string, locale?: Locale): Promise<PayoutValidation> {
    return this.intake.validate(kind, fields, userId, locale);
  }

  /**
   * Stores a pending request after checking the role, every field again, the reference and the daily
   * limit. `resubmitOf`: the rejected request it corrects, linked only when it is this person's own.
   */
  async submit(userId: string, draft: PayoutDraft, options: { resubmitOf?: string | undefined } = {}): Promise<PayoutActionResult> {
    return this.intake.submit(await this.actor(userId), draft, options);
  }

  /**
   * "Edit and resubmit" on a rejection: the rejected request to fill the form with, and the reference
   * to offer, when it is this person's own rejected request and they may still request payouts. The
   * request is read from the store; the button only names it.
   */
  async resubmission(requestId: string, userId: string): Promise<Resubmission> {
    const request = await this.get(requestId);
    if (!request) return { ok: false, code: 'not_found' };
    if (request.requestedBy !== userId) return { ok: false, code: 'not_own' };
    if (!isResubmittable(request, userId)) return { ok: false, code: 'not_rejected', request };
    const role = canRequest(await this.actor(userId));
    if (!role.ok) return { ok: false, code: 'not_requester', request };
    return { ok: true, request, reference: await this.intake.resubmitReference(request) };
  }

  /**
   * Records an approval. The approval that would release the payout first has the requester and
   * every counted approver looked up again with fresh roles: an approver who no longer is one stops
   * counting, a requester who may no longer request (or roles that cannot be read) hold the payout.
   * The number of approvers needed is measured again from the day's totals, under the same locks as
   * submissions, and never lowered. Released, the request becomes `approved` and is sent at once;
   * the result then holds the outcome (`completed`, `failed`, or `unknown` while it is looked for).
   */
  async approve(requestId: string, userId: string): Promise<PayoutActionResult> {
    const found = await this.get(requestId);
    if (!found) return notFound(requestId);
    const { id } = found;
    let request: PayoutRequest | undefined = found;
    for (let round = 0; round < MAX_APPROVAL_ROUNDS && request; round += 1) {
      const now = this.now();
      const decision = canApprove(request, await this.actor(userId), now);
      if (!decision.ok) return refused(decision, request);
      const releasing = new Set([...countingApprovers(request), userId]).size >= request.requiredApprovals;
      const roles = releasing ? await this.freshRoles(request, userId) : undefined;
      if (roles && !roles.unreadable && roles.approvers.get(userId) !== true) {
        // The cached role said yes; the fresh lookup says they are no longer an approver.
        const noLonger = canApprove(request, { userId, canRequest: false, canApprove: false }, now);
        if (!noLonger.ok) return refused(noLonger, request);
      }
      const pending: PayoutRequest = request;
      let outcome: { request: PayoutRequest; events: RecordedEvent[] };
      try {
        outcome = await this.options.db.transaction((tx) => this.recordApproval(tx, pending, userId, roles, now));
      } catch (error) {
        if (error instanceof Refused) return error.refusal;
        if (error instanceof LostRace) return this.lostRace(id);
        if (!(error instanceof NeedsFreshRoles)) throw error;
        request = await findRequest(this.options.db, id);
        continue;
      }
      for (const event of outcome.events) await this.recorder.announce(outcome.request, event);
      if (outcome.request.state !== 'approved') return { ok: true, request: outcome.request };
      return this.settlement.execute(outcome.request, userId);
    }
    return this.lostRace(id);
  }

  /** What the review screen tells the requester about approvers and the recipient, were the draft stored now. */
  async previewApprovals(userId: string, draft: PayoutDraft): Promise<PayoutRequirement> {
    return this.intake.previewRequirement(userId, draft);
  }

  /**
   * One approval in one transaction: the day locks (as submissions take them), then the row. Raises
   * the requirement when the day's totals now call for two approvers; with enough approvals, applies
   * the release check to the fresh `roles` (or asks for them with `NeedsFreshRoles`).
   */
  private async recordApproval(
    tx: Queryable,
    request: PayoutRequest,
    userId: string,
    roles: ReleaseRoles | undefined,
    now: Date,
  ): Promise<{ request: PayoutRequest; events: RecordedEvent[] }> {
    const { id } = request;
    await this.intake.lockDay(tx, request);
    // Locks the row: approvals of one request queue here, and a moved request stops them.
    const touched = await updateRequest(tx, id, { states: ['pending'], notRequestedBy: userId, unexpiredAt: now }, {}, now);
    if (!touched) throw new LostRace();
    const recorded = await insertApproval(tx, id, userId, now);
    if (!recorded && !canApprove(touched, { userId, canRequest: false, canApprove: true }, now).ok) {
      throw new Refused(refusal('already_approved', { details: { action: 'approve', payoutId: id }, request: touched }));
    }
    const current = (await findRequest(tx, id)) ?? touched;
    const events: RecordedEvent[] = [];
    const changes: PayoutChanges = {};
    const measured = await this.intake.measure(tx, current, true);
    const raised = raisedRequirement(current.requiredApprovals, measured);
    if (raised) {
      Object.assign(changes, { requiredApprovals: raised.required, ...dualApprovalChanges(raised.reason) } satisfies PayoutChanges);
      events.push({ event: 'approvals_raised', details: { required: raised.required, currency: current.currency, ...raised.reason } });
    }
    // Told again at each approval: the last completed payout to this recipient may bear another name by now.
    const previousName = measured.recipient.previousName;
    if (previousName !== undefined && previousName !== current.previousRecipientName) changes.previousRecipientName = previousName;
    const required = Math.max(current.requiredApprovals, measured.required);
    const counting = countingApprovers(current);
    if (counting.length >= required) {
      if (!roles || (!roles.unreadable && counting.some((approver) => !roles.approvers.has(approver)))) throw new NeedsFreshRoles();
      const release = decideRelease(current, roles, required);
      await revokeApprovals(tx, id, release.revoke, now);
      for (const approver of release.revoke) events.push({ event: 'approval_revoked', userId, details: { approver, reason: 'not_approver' } });
      changes.holdReason = release.hold ?? null;
      if (release.hold) events.push({ event: 'held', userId, details: { reason: release.hold } });
      if (release.release) changes.state = 'approved';
    }
    const updated = Object.keys(changes).length > 0 ? await updateRequest(tx, id, { states: ['pending'] }, changes, now) : undefined;
    const final = (await findRequest(tx, id)) ?? updated ?? current;
    if (recorded) events.unshift({ event: 'approved', userId, details: { approvals: countingApprovers(final).length, required: final.requiredApprovals } });
    for (const event of events) await this.recorder.record(tx, final, event, now);
    return { request: final, events };
  }

  /** The requester's and each approver's roles, looked up fresh; `unreadable` when any lookup failed. */
  private async freshRoles(request: PayoutRequest, actorId: string): Promise<ReleaseRoles> {
    const { roles, logger } = this.options;
    const approvers = [...new Set([...countingApprovers(request), actorId])];
    try {
      const [requesterMayRequest, ...answers] = await Promise.all([
        roles.canRequest(request.requestedBy, { fresh: true }),
        ...approvers.map((approver) => roles.canApprove(approver, { fresh: true })),
      ]);
      return { requesterMayRequest, approvers: new Map(approvers.map((approver, index) => [approver, answers[index] === true])), unreadable: false };
    } catch (error) {
      // Failing closed: nothing is sent, and nobody's approval is revoked on a failed read.
      logger.warn({ err: error, payoutId: request.id }, 'could not look up roles before sending a payout; it waits');
      return { requesterMayRequest: false, approvers: new Map(), unreadable: true };
    }
  }

  /** An approver other than the requester turns the request down; the reason goes to the requester. */
  async reject(requestId: string, userId: string, reason: string): Promise<PayoutActionResult> {
    const request = await this.get(requestId);
    if (!request) return notFound(requestId);
    const { id } = request;
    const now = this.now();
    const decision = canReject(request, await this.actor(userId), now);
    if (!decision.ok) return refused(decision, request);
    const because = checkRejectReason(reason);
    if (!because.ok) return refused(because, request);
    const text = reason.trim();
    const rejected = await this.recorder.move(
      id,
      { states: ['pending'], notRequestedBy: userId, unexpiredAt: now },
      { state: 'rejected', rejectedBy: userId, rejectReason: text },
      { event: 'rejected', userId, details: { reason: text } },
      now,
    );
    return rejected ? { ok: true, request: rejected } : this.lostRace(id);
  }

  /** The requester withdraws a pending request that nobody has approved yet. */
  async cancel(requestId: string, userId: string): Promise<PayoutActionResult> {
    const request = await this.get(requestId);
    if (!request) return notFound(requestId);
    const { id } = request;
    const decision = canCancel(request, { userId });
    if (!decision.ok) return refused(decision, request);
    const now = this.now();
    // The version guard loses to an approval committed since we read the request.
    const cancelled = await this.recorder.move(
      id,
      { states: ['pending'], version: request.version },
      { state: 'cancelled' },
      { event: 'cancelled', userId },
      now,
    );
    if (cancelled) return { ok: true, request: cancelled };
    const current = await this.get(id);
    const again = current ? canCancel(current, { userId }) : undefined;
    return current && again && !again.ok ? refused(again, current) : this.lostRace(id);
  }

  /**
   * An approver's agreement to send an unknown payout again, with the same reference. Only once it
   * needs review, and it takes as many approvers other than the requester as the payout needed:
   * agreements are stored per attempt, and the one that completes them sends, after one last
   * complete look at the transactions. The Slack layer warns first.
   */
  async retryUnknown(id: string, userId: string): Promise<PayoutActionResult> {
    const request = await this.get(id);
    if (!request) return notFound(id);
    const decision = canRetry(request, await this.actor(userId));
    if (!decision.ok) return refused(decision, request);
    const attempt = request.attempts + 1;
    const now = this.now();
    let agreed: { request: PayoutRequest; added: boolean };
    try {
      agreed = await this.options.db.transaction(async (tx) => {
        // Locks the row: agreements of one request queue here, and a request that moved stops them.
        const touched = await updateRequest(tx, request.id, { states: ['unknown'], needsReview: true, attempts: request.attempts, notRequestedBy: userId }, {}, now);
        if (!touched) throw new LostRace();
        const added = await insertRetryApproval(tx, request.id, attempt, userId, now);
        const withAgreement = (await findRequest(tx, request.id)) ?? touched;
        if (added) {
          const details = { attempt, approvals: countingRetryApprovers(withAgreement).length, required: withAgreement.requiredApprovals };
          await this.recorder.record(tx, withAgreement, { event: 'retry_approved', userId, details }, now);
        }
        return { request: withAgreement, added };
      });
    } catch (error) {
      if (!(error instanceof LostRace)) throw error;
      const current = await this.get(request.id);
      return current ? refusal('not_retryable', { details: movedOn(current), request: current }) : notFound(request.id);
    }
    if (agreed.added) await this.recorder.announce(agreed.request, { event: 'retry_approved', userId });
    const agreeing = countingRetryApprovers(agreed.request);
    if (agreeing.length < agreed.request.requiredApprovals) {
      if (agreed.added) return { ok: true, request: agreed.request };
      return refused(alreadyAgreedToRetry(agreed.request), agreed.request);
    }
    // Money may move now: roles are asked again past any cache, as for the approval that releases a
    // payout. Someone removed since agreeing no longer counts; a requester removed gets nothing sent.
    const fresh = await this.freshRetryRoles(agreed.request, agreeing);
    if (!fresh.ok) return refusal('not_retryable', { details: { payoutId: request.id, cause: fresh.cause }, request: agreed.request });
    const counted = fresh.counted;
    if (counted.length < agreed.request.requiredApprovals) {
      if (agreed.added) return { ok: true, request: agreed.request };
      return refused(alreadyAgreedToRetry(agreed.request), agreed.request);
    }
    return this.settlement.retry(agreed.request, userId, counted);
  }

  /** The agreeing approvers who still are approvers, looked up fresh; refused when the requester may no longer request or Slack cannot answer. */
  private async freshRetryRoles(request: PayoutRequest, agreeing: string[]): Promise<{ ok: true; counted: string[] } | { ok: false; cause: 'requester_not_allowed' | 'roles_unavailable' }> {
    const { roles, logger } = this.options;
    try {
      const [requesterMayRequest, ...answers] = await Promise.all([
        roles.canRequest(request.requestedBy, { fresh: true }),
        ...agreeing.map((approver) => roles.canApprove(approver, { fresh: true })),
      ]);
      if (!requesterMayRequest) return { ok: false, cause: 'requester_not_allowed' };
      return { ok: true, counted: agreeing.filter((_, index) => answers[index] === true) };
    } catch (error) {
      logger.warn({ err: error, payoutId: request.id }, 'could not look up roles before sending a payout again; nothing was sent');
      return { ok: false, cause: 'roles_unavailable' };
    }
  }

  /** An approver confirms that the proposed likely match is this payout: it is settled as sent. */
  async confirmLikelyMatch(id: string, userId: string, matchId: string): Promise<PayoutActionResult> {
    return this.decideLikelyMatch(id, userId, matchId, 'confirmed');
  }

  /** An approver says the proposed likely match is not this payout: it is never proposed again. */
  async rejectLikelyMatch(id: string, userId: string, matchId: string): Promise<PayoutActionResult> {
    return this.decideLikelyMatch(id, userId, matchId, 'rejected');
  }

  private async decideLikelyMatch(id: string, userId: string, matchId: string, decision: 'confirmed' | 'rejected'): Promise<PayoutActionResult> {
    const request = await this.get(id);
    if (!request) return notFound(id);
    const actor = await this.actor(userId);
    const allowed = canDecideMatch(request, actor, matchId);
    if (allowed.ok) {
      const moved = await this.settlement.decideMatch(request, userId, decision);
      if (moved) return { ok: true, request: moved };
    }
    // The same answer delivered twice (a double click, a redelivery) finds it already given.
    const current = (await this.get(id)) ?? request;
    if (actor.canApprove && (await likelyMatchStatus(this.options.db, current.id, matchId)) === decision) return { ok: true, request: current };
    const again = canDecideMatch(current, actor, matchId);
    return refused(again.ok ? { ok: false, code: 'no_such_match', details: movedOn(current) } : again, current);
  }

  /** Sends a request already approved (a bulk payout's row): approved → executing → its outcome, once. */
  async sendApproved(request: PayoutRequest): Promise<PayoutActionResult> {
    return this.settlement.execute(request, undefined);
  }

  /** Looks for an unknown payout in the transaction list now (also run by `runMaintenance`). */
  async reconcile(id: string): Promise<PayoutActionResult> {
    return this.settlement.reconcile(id);
  }

  async get(id: string): Promise<PayoutRequest | undefined> {
    return findRequest(this.options.db, id.trim().toUpperCase());
  }

  /** The request that holds a partner reference, if any. */
  async getByReference(reference: string): Promise<PayoutRequest | undefined> {
    return findRequestByReference(this.options.db, reference);
  }

  /** The audit log of one request, oldest first. */
  async history(id: string): Promise<PayoutEvent[]> {
    return listEvents(this.options.db, id.trim().toUpperCase());
  }

  /** Newest first; `limit` is clamped to 1–100. */
  async listRecent(options: { limit?: number } = {}): Promise<PayoutRequest[]> {
    const limit = Math.min(100, Math.max(1, Math.floor(options.limit ?? 20)));
    return listRecentRequests(this.options.db, limit);
  }

  /**
   * The pending requests `userId` may approve now, by the same rule as `mayApprove` (never their own),
   * newest first: the first `limit` of them, and how many in all (counted among the newest 500 pending).
   */
  async waitingFor(userId: string, options: { limit: number }): Promise<{ requests: PayoutRequest[]; total: number }> {
    const actor = await this.actor(userId);
    if (!actor.canApprove) return { requests: [], total: 0 };
    const now = this.now();
    const pending = await listPendingRequests(this.options.db, userId, now, 500);
    const allowed = pending.filter((request) => canApprove(request, actor, now).ok);
    return { requests: allowed.slice(0, options.limit), total: allowed.length };
  }

  /** A person's own requests, newest first. */
  async requestedBy(userId: string, options: { limit: number }): Promise<PayoutRequest[]> {
    return listRequestsBy(this.options.db, userId, options.limit);
  }

  /** Requests found by words in their id, reference, recipient name, phone or account number; newest first. */
  async search(words: readonly string[], options: { limit?: number } = {}): Promise<{ requests: PayoutRequest[]; total: number }> {
    const limit = Math.min(100, Math.max(1, Math.floor(options.limit ?? 20)));
    return searchRequests(this.options.db, words.slice(0, 10).map((word) => word.slice(0, 100)), limit);
  }

  /**
   * Remembers where the approval message was posted, so that later changes can update it. Only the
   * first one counts: undefined when the request already had a message.
   */
  async setApprovalMessage(id: string, channel: string, ts: string): Promise<PayoutRequest | undefined> {
    return setApprovalMessage(this.options.db, id, channel, ts, this.now());
  }

  /** pending past `expiresAt` → expired; returns the requests it expired. */
  async expireDue(): Promise<PayoutRequest[]> {
    return this.settlement.expireDue();
  }

  /**
   * At start (and in maintenance): rows a dead process left `executing` become unknown and are
   * reconciled; rows left `approved` are sent. `staleAfterMs: 0` takes every such row at once,
   * which is right only when no other replica can be mid-payout.
   */
  async recoverInterrupted(options: { staleAfterMs?: number } = {}): Promise<PayoutRequest[]> {
    return this.settlement.recoverInterrupted(options);
  }

  /** For a periodic timer: recovery, expiry, and reconciliation of unknown payouts that are due. */
  async runMaintenance(): Promise<MaintenanceReport> {
    const recovered = await this.settlement.recoverInterrupted();
    const expired = await this.settlement.expireDue();
    const reconciled = await this.settlement.reconcileDue();
    return { recovered, expired, reconciled };
  }

  /** Explains why a conditional update found the request no longer as expected. */
  private async lostRace(id: string): Promise<PayoutRefusal> {
    const current = await findRequest(this.options.db, id);
    if (!current) return notFound(id);
    if (current.state === 'pending' && current.expiresAt.getTime() <= this.now().getTime()) {
      return refusal('expired', { details: { payoutId: id }, request: current });
    }
    return refusal('not_pending', { details: movedOn(current), request: current });
  }
}

function notFound(id: string): PayoutRefusal {
  return refusal('not_found', { details: { payoutId: id } });
}

function refused(decision: Exclude<PolicyDecision, { ok: true }>, request: PayoutRequest): PayoutRefusal {
  return refusal(decision.code, { details: decision.details, request });
}

/**
 * The payout domain's front door for the Slack layer: request (through the intake), approve
 * (`approvals.ts`), reject and cancel (`withdrawals.ts`), retry (`retry.ts`) and read payouts. Every rule is checked against the stored record; expected
 * refusals come back as `{ ok: false, code, details }`, never as exceptions.
 */
import type { Clock } from '../core/clock.js';
import type { FleetApi } from '../fleet/schemas.js';
import type { Logger } from '../core/logger.js';
import type { Db } from '../store/db.js';
import type { Locale } from '../i18n/locale.js';
import { isResubmittable, PayoutIntake, type PayoutRequirement, type ReviewedDraft, type ScheduleRefusal, type SubmitOptions } from './intake.js';
import {
  requestMatchesDraft,
  type PayoutActionResult,
  type PayoutDraft,
  type PayoutEvent,
  type PayoutKind,
  type PayoutRefusal,
  type PayoutRequest,
} from './model.js';
import { DEFAULT_SEARCH_LIMITS, searchTransactionList, type ListSearchLimits, type PayoutTransactionSearch } from './dispatch.js';
import { PayoutApprovals, type ApprovalAnswers } from './approvals.js';
import { PayoutGate, type PayoutGateOptions, type SendingPath } from './gate.js';
import { readApprovalSignals, requestSignals, type ApprovalSignals } from './signals.js';
import type { RecipientIdentity } from './recipients.js';
import { lostRace, notFound, refused } from './outcomes.js';
import { canApprove, canDecideMatch, canReject, canRequest, movedOn, type PayoutActor, type PolicyDecision } from './policy.js';
import {
  findRequest,
  findRequestByReference,
  listEvents,
  listPendingRequests,
  listRecentRequests,
  listRequestsBy,
  searchRequests,
  setApprovalMessage,
} from './repository.js';
import { likelyMatchStatus } from './likely-match-store.js';
import { PayoutRetry } from './retry.js';
import { PayoutWithdrawals } from './withdrawals.js';
import { withSchedule, withSchedules } from './schedule/attach.js';
import { actorOf, type PayoutRoles } from './roles.js';
import type { PayoutSettings } from './settings.js';
import { PayoutSettlement } from './settlement.js';
import { TransitionRecorder, type PayoutNotifier } from './transitions.js';
import type { PayoutFormFields, PayoutValidation } from './validation.js';

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
  /** Told of every committed change, in list order; the list is read at each change (see `TransitionRecorder`). */
  notifiers?: readonly PayoutNotifier[];
  /** Pause between two looks for the same unknown payout (default 30 s). */
  recheckEveryMs?: number;
  /** A row left `executing`/`approved` this long belongs to a dead process (default 5 min, above any HTTP timeout). */
  staleAfterMs?: number;
  /** Bounds of one search of the transaction list for an unknown payout (default: 2 minutes, 100 ms between pages). */
  searchLimits?: Partial<ListSearchLimits>;
  /** Where unknown payouts are looked for (default: the Fleet API's transaction list). */
  search?: PayoutTransactionSearch;
  /** PAYOUT_SCHEDULE_CATCH_UP_MINUTES: a request approved longer ago than this waits to be approved again before it is sent (default 360). */
  catchUpMinutes?: number;
  /** Tests only: runs as a request reaches the gate before sending (`gate.ts`), to break a control just before it. */
  beforeGate?: PayoutGateOptions['beforeGate'];
}

/** What "Edit and resubmit" may open: the request and the reference to offer, or why not. */
export type Resubmission =
  | { ok: true; request: PayoutRequest; reference: string }
  | { ok: false; code: 'not_found' | 'not_own' | 'not_rejected' | 'not_requester'; request?: PayoutRequest };

/** What one `runMaintenance()` did, for logs and tests. */
export interface MaintenanceReport {
  recovered: PayoutRequest[];
  expired: PayoutRequest[];
  settled: PayoutRequest[];
}

/**
 * Wiring for the Slack layer: call `recoverInterrupted()` once at start, `runMaintenance()` on a
 * timer (every 30 s or so), and ack Slack before `approve`/`retryUnknown`, which wait for the Fleet
 * API. Every method re-reads the stored request, so stale buttons and private_metadata decide nothing.
 */
export class PayoutService {
  private readonly recorder: TransitionRecorder;
  private readonly settlement: PayoutSettlement;
  private readonly intake: PayoutIntake;
  private readonly approvals: PayoutApprovals;
  private readonly retries: PayoutRetry;
  private readonly withdrawals: PayoutWithdrawals;

  constructor(private readonly options: PayoutServiceOptions) {
    this.recorder = new TransitionRecorder(options.db, options.logger, options.notifiers ?? []);
    this.intake = new PayoutIntake({
      db: options.db,
      clock: options.clock,
      settings: options.settings,
      recorder: this.recorder,
      newId: options.newId,
      newReference: options.newReference,
    });
    this.settlement = new PayoutSettlement({
      db: options.db,
      fleet: options.fleet,
      clock: options.clock,
      logger: options.logger,
      recorder: this.recorder,
      settleWindowMs: options.settings.settleWindowMinutes * 60_000,
      recheckEveryMs: options.recheckEveryMs ?? 30_000,
      staleAfterMs: options.staleAfterMs ?? 5 * 60_000,
      search: options.search ?? searchTransactionList(options.fleet, options.clock, { ...DEFAULT_SEARCH_LIMITS, ...options.searchLimits }),
      gate: new PayoutGate({
        roles: options.roles,
        settings: options.settings,
        logger: options.logger,
        catchUpMinutes: options.catchUpMinutes,
        beforeGate: options.beforeGate,
      }),
      requestTtlMs: options.settings.requestTtlHours * 3_600_000,
    });
    const { db, clock, roles, logger } = options;
    this.approvals = new PayoutApprovals({
      db,
      clock,
      roles,
      logger,
      intake: this.intake,
      recorder: this.recorder,
      settlement: this.settlement,
      settings: options.settings,
    });
    this.retries = new PayoutRetry({ db, clock, roles, logger, recorder: this.recorder, settlement: this.settlement });
    this.withdrawals = new PayoutWithdrawals({ db, clock, recorder: this.recorder, get: (id) => this.get(id) });
  }

  private now(): Date {
    return this.options.clock.now();
  }

  /** The roles of a user as the policy sees them. */
  async actor(userId: string): Promise<PayoutActor> {
    return actorOf(this.options.roles, userId);
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
    const decision = canApprove(request, await this.actor(userId), this.now());
    return decision.ok ? (await this.approvals.seniorDecision(request, userId)).decision : decision;
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
   * `filledFrom`: the saved recipient the form was filled from, read again and compared with the draft.
   * `through`: the way in when the requester did not ask in the app (a workflow step they confirmed).
   */
  async submit(userId: string, draft: PayoutDraft, options: SubmitOptions = {}): Promise<PayoutActionResult> {
    return this.intake.submit(await this.actor(userId), draft, options);
  }

  /**
   * The review screen's submission: with a schedule, stored through the schedules (approved ahead,
   * released at its times); without, stored to wait for approval now. A review submitted twice (a
   * redelivered request, a double click) finds its own reference taken: when the request holding it
   * is this person's and asks exactly the same, the first submission stored it, and it is the answer.
   */
  async submitReview(userId: string, draft: PayoutDraft, reviewed: ReviewedDraft = {}): Promise<PayoutActionResult | ScheduleRefusal> {
    const { resubmitOf, filledFrom, schedule } = reviewed;
    const result = schedule
      ? await schedule.schedules.request(userId, draft, schedule.input, { filledFrom, resubmitOf })
      : await this.submit(userId, draft, { resubmitOf, filledFrom });
    if (result.ok || result.code !== 'duplicate_reference') return result;
    const stored = await this.getByReference(draft.reference);
    return stored && stored.requestedBy === userId && requestMatchesDraft(stored, draft) ? { ok: true, request: stored } : result;
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
  async approve(requestId: string, userId: string, answers: ApprovalAnswers = {}): Promise<PayoutActionResult> {
    const request = await this.get(requestId);
    if (!request) return notFound(requestId);
    const result = await this.approvals.approve(request, userId, answers);
    // A scheduled request (or one released from a schedule) is told as such: approved ahead, not being sent.
    if (!result.ok || (!request.schedule && !request.scheduledFrom)) return result;
    return { ...result, request: (await withSchedule(this.options.db, result.request)) ?? result.request };
  }

  /** What an approver should notice about a stored request (`signals.ts`), in one query. */
  async signals(request: PayoutRequest): Promise<ApprovalSignals> {
    return requestSignals(this.options.db, request, this.options.settings);
  }

  /** The same, for the requester's review screen, were the draft stored now. */
  async previewSignals(userId: string, draft: PayoutDraft): Promise<ApprovalSignals> {
    return readApprovalSignals(this.options.db, { draft, requestedBy: userId, requestedAt: this.now() }, this.options.settings);
  }

  /** What the review screen tells the requester about approvers and the recipient, were the draft stored now. */
  async previewApprovals(userId: string, draft: PayoutDraft, filledFrom?: RecipientIdentity): Promise<PayoutRequirement> {
    return this.intake.previewRequirement(userId, draft, filledFrom);
  }

  /** An approver other than the requester turns the request down; the reason goes to the requester (`withdrawals.ts`). */
  async reject(requestId: string, userId: string, reason: string): Promise<PayoutActionResult> {
    const request = await this.get(requestId);
    return request ? this.withdrawals.reject(request, await this.actor(userId), reason) : notFound(requestId);
  }

  /** The requester withdraws a pending request that nobody has approved yet. */
  async cancel(requestId: string, userId: string): Promise<PayoutActionResult> {
    const request = await this.get(requestId);
    return request ? this.withdrawals.cancel(request, userId) : notFound(requestId);
  }

  /** Cancel series, for a request released from the series and still waiting for approval (`withdrawals.ts`). */
  async cancelWithSeries(requestId: string, userId: string, seriesId: string): Promise<PayoutRequest | undefined> {
    return this.withdrawals.cancelWithSeries(requestId, userId, seriesId);
  }

  /**
   * An approver's agreement to send an unknown payout again, with the same reference. Only once it
   * needs review, and it takes as many approvers other than the requester as the payout needed:
   * agreements are stored per attempt, and the one that completes them sends, after one last
   * complete look at the transactions. The Slack layer warns first.
   */
  async retryUnknown(id: string, userId: string): Promise<PayoutActionResult> {
    const request = await this.get(id);
    return request ? this.retries.retryUnknown(request, userId) : notFound(id);
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

  /**
   * Sends a request already approved (a bulk payout's row, a scheduled occurrence), through the gate:
   * approved → executing → its outcome, once; or held, waiting, when a control no longer passes.
   */
  async sendApproved(request: PayoutRequest, via: SendingPath): Promise<PayoutActionResult> {
    return this.settlement.execute(request, undefined, via);
  }

  /**
   * Tells the notifiers of a change made by a release: a request made outside the intake (a scheduled
   * payout's occurrence waiting for another approval), or a one-off held to be approved again.
   */
  async announce(request: PayoutRequest, event: 'requested' | 'held'): Promise<void> {
    await this.recorder.announce(request, { event });
  }

  /** Looks for an unknown payout in the transaction list now (also run by `runMaintenance`). */
  async settle(id: string): Promise<PayoutActionResult> {
    return this.settlement.settle(id);
  }

  async get(id: string): Promise<PayoutRequest | undefined> {
    return withSchedule(this.options.db, await findRequest(this.options.db, id.trim().toUpperCase()));
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
    return withSchedules(this.options.db, await listRecentRequests(this.options.db, limit));
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
    return withSchedules(this.options.db, await listRequestsBy(this.options.db, userId, options.limit));
  }

  /** Requests found by words in their id, reference, recipient name, phone or account number; newest first. */
  async search(words: readonly string[], options: { limit?: number } = {}): Promise<{ requests: PayoutRequest[]; total: number }> {
    const limit = Math.min(100, Math.max(1, Math.floor(options.limit ?? 20)));
    const found = await searchRequests(
      this.options.db,
      words.slice(0, 10).map((word) => word.slice(0, 100)),
      limit,
    );
    return { ...found, requests: await withSchedules(this.options.db, found.requests) };
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

  /** Answers of the Fleet API this replica holds because the database did not take them yet. */
  pendingOutcomes(): number {
    return this.settlement.pendingOutcomes();
  }

  /** When stopping: one last try to store the answers held, each one left logged (see unstored-outcomes.ts). */
  async stop(): Promise<void> {
    await this.settlement.stop();
  }

  /** For a periodic timer: recovery, expiry, and settling unknown payouts that are due. */
  async runMaintenance(): Promise<MaintenanceReport> {
    const recovered = await this.settlement.recoverInterrupted();
    const expired = await this.settlement.expireDue();
    const settled = await this.settlement.settleDue();
    return { recovered, expired, settled };
  }

  /** Explains why a conditional update found the request no longer as expected. */
  private async lostRace(id: string): Promise<PayoutRefusal> {
    return lostRace(this.options.db, id, this.now());
  }
}

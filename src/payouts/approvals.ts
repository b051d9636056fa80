/**
 * Approving a pending request: one approval per transaction under the day locks, the requirement
 * measured again and only ever raised, and the approval that would release the payout checked
 * against fresh roles first. Released, the payout is sent through the settlement.
 */
import type { Clock } from '../core/clock.js';
import type { Logger } from '../core/logger.js';
import type { Db, Queryable } from '../store/db.js';
import { measureDayApprovals, raisedRequirement } from './day-totals.js';
import { Refused, type PayoutIntake } from './intake.js';
import { refusal, type PayoutActionResult, type PayoutRequest } from './model.js';
import { LostRace, lostRace, refused } from './outcomes.js';
import { canApprove, countingApprovers, decideRelease, seniorApprovers, type PolicyDecision, type ReleaseRoles } from './policy.js';
import { isSeniorApprover } from './tiers.js';
import { insertApproval, renewApproval, revokeApprovals } from './approval-store.js';
import { findRequest, type PayoutChanges } from './repository.js';
import { actorOf, freshReleaseRoles, type PayoutRoles } from './roles.js';
import { dualApprovalChanges } from './rows.js';
import type { PayoutSettings } from './settings.js';
import { findEarlierPayouts, newestRepeat } from './duplicates.js';
import { comparedAt, waitsForItsTime } from './schedule/store.js';
import type { PayoutSettlement } from './settlement.js';
import { changeRequest, lockRequest, type RecordedEvent, type TransitionRecorder } from './transitions.js';

export interface PayoutApprovalsOptions {
  db: Db;
  clock: Clock;
  roles: PayoutRoles;
  logger: Logger;
  intake: PayoutIntake;
  recorder: TransitionRecorder;
  settlement: PayoutSettlement;
  settings: PayoutSettings;
}

/** What the approver said in the approve window beside approving. */
export interface ApprovalAnswers {
  /** The tick "I checked this is not a duplicate"; required when the request may repeat an earlier payout. */
  duplicateChecked?: boolean;
}

/** Raised inside an approval's transaction that would release the payout without fresh role lookups for every counted approver. */
class NeedsFreshRoles extends Error {}

// A round is lost only to another approval of the same request landing meanwhile; each one moves it on.
const MAX_APPROVAL_ROUNDS = 5;

export class PayoutApprovals {
  constructor(private readonly options: PayoutApprovalsOptions) {}

  /**
   * Records an approval. The approval that would release the payout first has the requester and
   * every counted approver looked up again with fresh roles: an approver who no longer is one stops
   * counting, a requester who may no longer request (or roles that cannot be read) hold the payout.
   * The number of approvers needed is measured again from the day's totals, under the same locks as
   * submissions, and never lowered. Released, the request becomes `approved` and is sent at once;
   * the result then holds the outcome (`completed`, `failed`, or `unknown` while it is looked for).
   */
  async approve(found: PayoutRequest, userId: string, answers: ApprovalAnswers = {}): Promise<PayoutActionResult> {
    const { db, clock, roles, logger, recorder, settlement } = this.options;
    const { id } = found;
    let request: PayoutRequest | undefined = found;
    for (let round = 0; round < MAX_APPROVAL_ROUNDS && request; round += 1) {
      const now = clock.now();
      const decision = canApprove(request, await actorOf(roles, userId), now);
      if (!decision.ok) return refused(decision, request);
      const releasing = new Set([...countingApprovers(request), userId]).size >= request.requiredApprovals;
      const { seniority, decision: senior } = await this.seniorDecision(request, userId);
      if (!senior.ok) return refused(senior, request);
      const fresh = releasing ? await freshReleaseRoles(roles, logger, request, userId, seniority) : undefined;
      if (fresh && !fresh.unreadable && fresh.approvers.get(userId) !== true) {
        // The cached role said yes; the fresh lookup says they are no longer an approver.
        const noLonger = canApprove(request, { userId, canRequest: false, canApprove: false }, now);
        if (!noLonger.ok) return refused(noLonger, request);
      }
      const pending: PayoutRequest = request;
      let outcome: { request: PayoutRequest; events: RecordedEvent[] };
      try {
        outcome = await db.transaction((tx) => this.recordApproval(tx, pending, userId, fresh, now, { ...answers, ...seniority }));
      } catch (error) {
        if (error instanceof Refused) return error.refusal;
        if (error instanceof LostRace) return lostRace(db, id, clock.now());
        if (!(error instanceof NeedsFreshRoles)) throw error;
        request = await findRequest(db, id);
        continue;
      }
      for (const event of outcome.events) await recorder.announce(outcome.request, event);
      if (outcome.request.state !== 'approved') return { ok: true, request: outcome.request };
      // Approved ahead: its occurrences are released at their time (`schedule/release.ts`), never now;
      // a one-off released at its time and waiting for an approval again is sent now.
      if (await waitsForItsTime(db, id)) return { ok: true, request: outcome.request };
      return settlement.execute(outcome.request, userId, 'approval');
    }
    return lostRace(db, id, clock.now());
  }

  /**
   * The senior tier (`tiers.ts`), on the amount and the day's totals: above it, the approval that
   * would complete the count must bring a senior approval when none stands. Asked before the approve
   * window opens, and at approval; the gate before sending checks it again with fresh roles.
   */
  async seniorDecision(
    request: PayoutRequest,
    userId: string,
  ): Promise<{ seniority: { seniorNeeded: boolean; actorSenior: boolean }; decision: PolicyDecision }> {
    // On the amount and on the requester's and the recipient's day totals, as two approvers are (`day-totals.ts`).
    const { senior: tier } = await measureDayApprovals(
      this.options.db,
      {
        requestedBy: request.requestedBy,
        requestedAt: request.requestedAt,
        payouts: [{ draft: request, newRecipient: request.newRecipient }],
        counted: true,
      },
      this.options.settings,
    );
    const actorSenior = tier ? await isSeniorApprover(this.options.roles, userId) : false;
    const completes = new Set([...countingApprovers(request), userId]).size >= request.requiredApprovals;
    const decision: PolicyDecision =
      tier && completes && !actorSenior && seniorApprovers(request).length === 0
        ? { ok: false, code: 'needs_senior', details: { action: 'approve', payoutId: request.id } }
        : { ok: true };
    return { seniority: { seniorNeeded: tier !== undefined, actorSenior }, decision };
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
    answers: ApprovalAnswers & { seniorNeeded: boolean; actorSenior: boolean },
  ): Promise<{ request: PayoutRequest; events: RecordedEvent[] }> {
    const { intake, recorder } = this.options;
    const { id } = request;
    await intake.lockDay(tx, request);
    // Locks the row: approvals of one request queue here, and a moved request stops them.
    const touched = await lockRequest(tx, id, { states: ['pending'], notRequestedBy: userId, unexpiredAt: now }, now);
    if (!touched) throw new LostRace();
    // Read under the day locks, which every request to this recipient takes: none lands unseen. Held
    // by the gate for a payout that landed since its approval, that one is what the tick is about.
    const { duplicateWindowHours } = this.options.settings;
    const landedSince = touched.hold === 'duplicate_unchecked' ? await newestRepeat(tx, touched, { windowHours: duplicateWindowHours, upTo: now }) : undefined;
    const since = await comparedAt(tx, touched);
    const duplicateOf =
      landedSince?.payout ??
      (
        await findEarlierPayouts(tx, [touched], {
          now: since,
          windowHours: duplicateWindowHours,
          exceptBatchId: touched.batch?.id,
          stored: { requestId: id, requestedAt: since },
        })
      )
        .values()
        .next().value;
    if (duplicateOf && answers.duplicateChecked !== true) {
      throw new Refused(refusal('duplicate_unchecked', { details: { action: 'approve', payoutId: id }, request: touched }));
    }
    const recorded = await insertApproval(tx, id, userId, now, answers.actorSenior);
    if (!recorded && !canApprove(touched, { userId, canRequest: false, canApprove: true }, now).ok) {
      throw new Refused(refusal('already_approved', { details: { action: 'approve', payoutId: id }, request: touched }));
    }
    // Approve again on a held request: the approval is given anew, from now (the gate's catch-up window counts from it).
    const renewed = !recorded && (await renewApproval(tx, id, userId, now));
    const current = (await findRequest(tx, id)) ?? touched;
    const events: RecordedEvent[] = [];
    const changes: PayoutChanges = {};
    const measured = await intake.measure(tx, current, true);
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
      const unread = (approver: string) =>
        !roles?.approvers.has(approver) || (answers.seniorNeeded && seniorApprovers(current).includes(approver) && !roles.seniors?.has(approver));
      if (!roles || (!roles.unreadable && counting.some(unread))) throw new NeedsFreshRoles();
      const release = decideRelease(current, roles, required, answers.seniorNeeded);
      await revokeApprovals(tx, id, release.revoke, now);
      for (const approver of release.revoke) {
        const reason = roles.approvers.get(approver) === true ? 'not_senior' : 'not_approver';
        events.push({ event: 'approval_revoked', userId, details: { approver, reason } });
      }
      changes.holdReason = release.hold ?? null;
      if (release.hold) events.push({ event: 'held', userId, details: { reason: release.hold } });
      if (release.release) changes.state = 'approved';
    }
    const updated = Object.keys(changes).length > 0 ? await changeRequest(tx, id, { states: ['pending'] }, changes, now) : undefined;
    const final = (await findRequest(tx, id)) ?? updated ?? current;
    if (recorded || renewed) {
      // The tick is part of the approval's record: who checked, and against which earlier payout.
      const checked = {
        ...(duplicateOf ? { duplicateChecked: duplicateOf } : {}),
        ...(answers.actorSenior ? { senior: true } : {}),
        ...(renewed ? { again: true } : {}),
      };
      events.unshift({ event: 'approved', userId, details: { approvals: countingApprovers(final).length, required: final.requiredApprovals, ...checked } });
    }
    for (const event of events) await recorder.record(tx, final, event, now);
    return { request: final, events };
  }
}

/**
 * Sending an unknown payout again: approvers' agreements stored per attempt, as many as the payout
 * needed, each given once; the one that completes them has roles looked up fresh before the
 * settlement sends, with the same reference, after one last complete look at the transactions.
 */
import type { Clock } from '../core/clock.js';
import type { Logger } from '../core/logger.js';
import type { Db } from '../store/db.js';
import { refusal, type PayoutActionResult, type PayoutRequest } from './model.js';
import { LostRace, notFound, refused } from './outcomes.js';
import { alreadyAgreedToRetry, canRetry, countingRetryApprovers, movedOn } from './policy.js';
import { insertRetryApproval, renewRetryApproval } from './approval-store.js';
import { findRequest } from './repository.js';
import { actorOf, freshRetryRoles, type PayoutRoles } from './roles.js';
import type { PayoutSettlement } from './settlement.js';
import { lockRequest, type TransitionRecorder } from './transitions.js';

export interface PayoutRetryOptions {
  db: Db;
  clock: Clock;
  roles: PayoutRoles;
  logger: Logger;
  recorder: TransitionRecorder;
  settlement: PayoutSettlement;
}

export class PayoutRetry {
  constructor(private readonly options: PayoutRetryOptions) {}

  /**
   * An approver's agreement to send an unknown payout again, with the same reference. Only once it
   * needs review, and it takes as many approvers other than the requester as the payout needed:
   * agreements are stored per attempt, and the one that completes them sends, after one last
   * complete look at the transactions. The Slack layer warns first.
   */
  async retryUnknown(request: PayoutRequest, userId: string): Promise<PayoutActionResult> {
    const { db, clock, roles, logger, recorder, settlement } = this.options;
    const decision = canRetry(request, await actorOf(roles, userId));
    if (!decision.ok) return refused(decision, request);
    const attempt = request.attempts + 1;
    const now = clock.now();
    let agreed: { request: PayoutRequest; added: boolean };
    try {
      agreed = await db.transaction(async (tx) => {
        // Locks the row: agreements of one request queue here, and a request that moved stops them.
        const touched = await lockRequest(tx, request.id, { states: ['unknown'], needsReview: true, attempts: request.attempts, notRequestedBy: userId }, now);
        if (!touched) throw new LostRace();
        const added = await insertRetryApproval(tx, request.id, attempt, userId, now);
        // Agreeing again to a payout the gate held: the agreement is given anew, from now.
        if (!added && touched.hold) await renewRetryApproval(tx, request.id, attempt, userId, now);
        const withAgreement = (await findRequest(tx, request.id)) ?? touched;
        if (added) {
          const details = { attempt, approvals: countingRetryApprovers(withAgreement).length, required: withAgreement.requiredApprovals };
          await recorder.record(tx, withAgreement, { event: 'retry_approved', userId, details }, now);
        }
        return { request: withAgreement, added };
      });
    } catch (error) {
      if (!(error instanceof LostRace)) throw error;
      const current = await findRequest(db, request.id);
      return current ? refusal('not_retryable', { details: movedOn(current), request: current }) : notFound(request.id);
    }
    if (agreed.added) await recorder.announce(agreed.request, { event: 'retry_approved', userId });
    const agreeing = countingRetryApprovers(agreed.request);
    if (agreeing.length < agreed.request.requiredApprovals) {
      if (agreed.added) return { ok: true, request: agreed.request };
      return refused(alreadyAgreedToRetry(agreed.request), agreed.request);
    }
    // Money may move now: roles are asked again past any cache, as for the approval that releases a
    // payout. Someone removed since agreeing no longer counts; a requester removed gets nothing sent.
    const fresh = await freshRetryRoles(roles, logger, agreed.request, agreeing);
    if (!fresh.ok) return refusal('not_retryable', { details: { payoutId: request.id, cause: fresh.cause }, request: agreed.request });
    const counted = fresh.counted;
    if (counted.length < agreed.request.requiredApprovals) {
      if (agreed.added) return { ok: true, request: agreed.request };
      return refused(alreadyAgreedToRetry(agreed.request), agreed.request);
    }
    return settlement.retry(agreed.request, userId, counted);
  }
}

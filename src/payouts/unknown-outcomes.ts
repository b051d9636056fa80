/**
 * Settling a payout whose outcome is unknown against the transaction list: found (completed), only
 * quoted in a description (a likely match an approver decides), or not found within the window
 * (needs review). Nothing here sends anything: a retry goes through the settlement.
 */
import type { Clock } from '../core/clock.js';
import type { Logger } from '../core/logger.js';
import type { Db } from '../store/db.js';
import type { PayoutSearchResult, PayoutTransactionSearch } from './dispatch.js';
import { refusal, type PayoutActionResult, type PayoutRefusal, type PayoutRequest, type SearchOutcome } from './model.js';
import { decideLikelyMatch, listProposedMatchIds, proposeLikelyMatch } from './likely-match-store.js';
import { executionTimes, listDueForCheck } from './repository.js';
import { changeRequest, type TransitionRecorder } from './transitions.js';

export interface UnknownOutcomeOptions {
  db: Db;
  clock: Clock;
  logger: Logger;
  recorder: TransitionRecorder;
  /** How long an unknown payout is looked for before an approver must review it. */
  settleWindowMs: number;
  /** Pause between two looks at the transaction list for the same unknown payout. */
  recheckEveryMs: number;
  /** Where an unknown payout is looked for. */
  search: PayoutTransactionSearch;
}

/** One look for an unknown payout: the request as it stands afterwards, and what the search said. */
export interface Look {
  request: PayoutRequest;
  search: PayoutSearchResult | undefined;
}

const BATCH = 100;

export class UnknownOutcomes {
  constructor(private readonly options: UnknownOutcomeOptions) {}

  private now(): Date {
    return this.options.clock.now();
  }

  /**
   * Looks for an unknown payout in the transaction list. Found: completed (`reconciled`). Only quoted
   * in a description, for a typed reference: proposed as a likely match. Not settled once the window
   * has passed since it became unknown (not found, or the list could not be read): needs review.
   * Otherwise: looked at again later. A check that could not read everything is a refusal.
   */
  async settle(id: string): Promise<PayoutActionResult> {
    const look = await this.look(id);
    if (!look.ok) return look;
    const { search, request } = look;
    if (search?.outcome === 'could_not_check') {
      return refusal('could_not_check', { details: { payoutId: id, searchProblem: search.reason }, request });
    }
    return { ok: true, request };
  }

  /** Settles every unknown payout whose next check is due. */
  async settleDue(): Promise<PayoutRequest[]> {
    const results: PayoutRequest[] = [];
    for (const id of await listDueForCheck(this.options.db, this.now(), BATCH)) {
      const result = await this.settle(id);
      if (result.ok) results.push(result.request);
      else if (result.request) results.push(result.request);
    }
    return results;
  }

  /** One look for the payout when it is unknown (the request as it stands otherwise), with what it found recorded. */
  async look(id: string): Promise<(Look & { ok: true }) | PayoutRefusal> {
    const { recorder, db } = this.options;
    const request = await recorder.current(id);
    if (!request) return notFound(id);
    if (request.state !== 'unknown') return { ok: true, request, search: undefined };

    const times = await executionTimes(db, id);
    // After a retry either attempt may be the one that shows up: look back to the request itself.
    const search = await this.options.search(request, { since: request.requestedAt, proposed: await listProposedMatchIds(db, id) });
    if (search.outcome === 'could_not_check') {
      this.options.logger.warn({ payoutId: id, reason: search.reason }, 'could not read the whole transaction list to settle an unknown payout');
    }
    if (search.outcome === 'found') return { ok: true, request: await this.settleFound(request, search), search };

    let current = request;
    if (search.outcome === 'likely_match') current = (await this.propose(request, search)) ?? current;
    const outcome: SearchOutcome = search.outcome === 'not_found' || (search.outcome === 'likely_match' && search.complete) ? 'not_found' : 'could_not_check';
    const now = this.now();
    const unknownSince = times.unknownSince ?? times.lastSentAt ?? request.requestedAt;
    const still = { states: ['unknown'] as const, attempts: request.attempts };
    if (!current.needsReview && now.getTime() - unknownSince.getTime() >= this.options.settleWindowMs) {
      // Also when the list could not be read: an unknown payout must not wait unseen for ever.
      const review = await recorder.move(
        id,
        { ...still, needsReview: false },
        { needsReview: true, nextCheckAt: null, lastSearch: outcome, lastSearchAt: now },
        { event: 'needs_review', details: { windowMinutes: Math.round(this.options.settleWindowMs / 60_000), lastSearch: outcome } },
        now,
      );
      if (review) return { ok: true, request: review, search };
    } else {
      await changeRequest(
        db,
        id,
        still,
        {
          lastSearch: outcome,
          lastSearchAt: now,
          ...(current.needsReview ? {} : { nextCheckAt: new Date(now.getTime() + this.options.recheckEveryMs) }),
        },
        now,
      );
    }
    const stands = await recorder.current(id);
    return stands ? { ok: true, request: stands, search } : notFound(id);
  }

  private async settleFound(request: PayoutRequest, found: Extract<PayoutSearchResult, { outcome: 'found' }>): Promise<PayoutRequest> {
    const now = this.now();
    const completed = await this.options.recorder.move(
      request.id,
      { states: ['unknown'], attempts: request.attempts },
      {
        state: 'completed',
        transactionId: found.transaction.reference,
        failureReason: null,
        needsReview: false,
        nextCheckAt: null,
        lastSearch: null,
        holdReason: null,
      },
      {
        event: 'reconciled',
        details: {
          transactionId: found.transaction.reference,
          matchedBy: found.matchedBy,
          status: found.transaction.status,
          amount: found.transaction.amount,
          currency: found.transaction.currency,
        },
      },
      now,
    );
    return completed ?? (await this.options.recorder.current(request.id)) ?? request;
  }

  /** Shows approvers an entry that may be this payout; each entry is proposed once. */
  private async propose(request: PayoutRequest, likely: Extract<PayoutSearchResult, { outcome: 'likely_match' }>): Promise<PayoutRequest | undefined> {
    const now = this.now();
    const { transaction } = likely;
    const entry = {
      reference: transaction.reference,
      date: transaction.date,
      amount: transaction.amount,
      currency: transaction.currency,
      description: transaction.description,
    };
    const details = { transactionId: transaction.reference, amount: transaction.amount, currency: transaction.currency, date: transaction.date };
    const proposed = await this.options.db.transaction(async (tx) => {
      if (!(await proposeLikelyMatch(tx, request.id, likely.matchId, entry, now))) return undefined;
      // Bumps the version, so that the approval message is drawn again with the match.
      return changeRequest(tx, request.id, { states: ['unknown'], attempts: request.attempts }, {}, now, { event: 'likely_match', details });
    });
    if (proposed) await this.options.recorder.announce(proposed, { event: 'likely_match', details });
    return proposed;
  }

  /**
   * An approver's answer to a likely match: confirmed settles the payout with that entry; rejected
   * keeps looking (or leaves it for review) and never proposes that entry again.
   */
  async decideMatch(request: PayoutRequest, actor: string, decision: 'confirmed' | 'rejected'): Promise<PayoutRequest | undefined> {
    const match = request.likelyMatch;
    if (!match) return undefined;
    const now = this.now();
    const event = decision === 'confirmed' ? ('match_confirmed' as const) : ('match_rejected' as const);
    const details =
      decision === 'confirmed'
        ? { transactionId: match.reference, matchedBy: 'description', amount: match.amount, currency: match.currency, date: match.date }
        : { transactionId: match.reference };
    const changes =
      decision === 'confirmed'
        ? {
            state: 'completed' as const,
            transactionId: match.reference,
            failureReason: null,
            needsReview: false,
            nextCheckAt: null,
            lastSearch: null,
            holdReason: null,
          }
        : request.needsReview
          ? {}
          : { nextCheckAt: now };
    const moved = await this.options.db
      .transaction(async (tx) => {
        if (!(await decideLikelyMatch(tx, { requestId: request.id, matchId: match.id, status: decision, userId: actor, at: now }))) return undefined;
        const updated = await changeRequest(tx, request.id, { states: ['unknown'], attempts: request.attempts, notRequestedBy: actor }, changes, now, {
          event,
          userId: actor,
          details,
        });
        // Rolls the decision back too: the request moved (or the actor requested it) since it was read.
        if (!updated) throw new DecisionLost();
        return updated;
      })
      .catch((error: unknown) => {
        if (error instanceof DecisionLost) return undefined;
        throw error;
      });
    if (moved) await this.options.recorder.announce(moved, { event, userId: actor, details });
    return moved;
  }
}

/** Raised inside a decision's transaction to roll it back when the request moved meanwhile. */
class DecisionLost extends Error {}

export function notFound(id: string): PayoutRefusal {
  return refusal('not_found', { details: { payoutId: id } });
}

/**
 * How an action on a stored request that cannot go on is answered: not found, refused by the
 * policy, or lost to a change that landed first (told as what the request became).
 */
import type { Queryable } from '../store/db.js';
import { refusal, type PayoutRefusal, type PayoutRequest } from './model.js';
import { movedOn, type PolicyDecision } from './policy.js';
import { findRequest } from './repository.js';

/** Raised inside a transaction whose conditional update found the request moved on. */
export class LostRace extends Error {}

export function notFound(id: string): PayoutRefusal {
  return refusal('not_found', { details: { payoutId: id } });
}

export function refused(decision: Exclude<PolicyDecision, { ok: true }>, request: PayoutRequest): PayoutRefusal {
  return refusal(decision.code, { details: decision.details, request });
}

/** Explains why a conditional update found the request no longer as expected. */
export async function lostRace(q: Queryable, id: string, now: Date): Promise<PayoutRefusal> {
  const current = await findRequest(q, id);
  if (!current) return notFound(id);
  if (current.state === 'pending' && current.expiresAt.getTime() <= now.getTime()) {
    return refusal('expired', { details: { payoutId: id }, request: current });
  }
  return refusal('not_pending', { details: movedOn(current), request: current });
}

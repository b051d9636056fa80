/**
 * Who may request and approve, as the payout domain asks it: the port the Slack layer answers
 * (access lists and user groups), a person's roles as the policy sees them, and the fresh lookups
 * taken before money moves.
 */
import type { Logger } from '../core/logger.js';
import type { PayoutRequest } from './model.js';
import { countingApprovers, seniorApprovers, type PayoutActor, type ReleaseRoles } from './policy.js';
import { seniorsAmong } from './tiers.js';

/** Who may request and approve; the Slack layer answers from access lists and user groups. */
export interface PayoutRoles {
  canRequest(userId: string, lookup?: RoleLookup): Promise<boolean>;
  canApprove(userId: string, lookup?: RoleLookup): Promise<boolean>;
  /** In PAYOUT_SENIOR_APPROVERS (and an approver): may give the approval a payout above the senior tier needs. */
  isSenior?(userId: string, lookup?: RoleLookup): Promise<boolean>;
}

/**
 * `fresh`: answer from the source now, past any cache, for the approval that would release a
 * payout. A fresh lookup that cannot be answered rejects rather than guessing either way.
 */
export interface RoleLookup {
  fresh?: boolean;
}

/** The roles of a user as the policy sees them. */
export async function actorOf(roles: PayoutRoles, userId: string): Promise<PayoutActor> {
  const [requester, approver] = await Promise.all([roles.canRequest(userId), roles.canApprove(userId)]);
  return { userId, canRequest: requester, canApprove: approver };
}

/** The requester's and each approver's roles (those counted and `actorId`), looked up fresh; `unreadable` when any lookup failed. */
export async function freshReleaseRoles(
  roles: PayoutRoles,
  logger: Logger,
  request: PayoutRequest,
  actorId: string,
  options: { seniorNeeded?: boolean; actorSenior?: boolean } = {},
): Promise<ReleaseRoles> {
  const approvers = [...new Set([...countingApprovers(request), actorId])];
  // Above the senior tier, every senior approval (the actor's included) is looked up fresh too.
  const seniorGivers = options.seniorNeeded ? [...new Set([...seniorApprovers(request), ...(options.actorSenior ? [actorId] : [])])] : [];
  try {
    const [requesterMayRequest, seniors, ...answers] = await Promise.all([
      roles.canRequest(request.requestedBy, { fresh: true }),
      seniorsAmong(roles, seniorGivers, { fresh: true }),
      ...approvers.map((approver) => roles.canApprove(approver, { fresh: true })),
    ]);
    return {
      requesterMayRequest,
      approvers: new Map(approvers.map((approver, index) => [approver, answers[index] === true])),
      seniors,
      unreadable: false,
    };
  } catch (error) {
    // Failing closed: nothing is sent, and nobody's approval is revoked on a failed read.
    logger.warn({ err: error, payoutId: request.id }, 'could not look up roles before sending a payout; it waits');
    return { requesterMayRequest: false, approvers: new Map(), unreadable: true };
  }
}

/** The agreeing approvers who still are approvers, looked up fresh; refused when the requester may no longer request or Slack cannot answer. */
export async function freshRetryRoles(
  roles: PayoutRoles,
  logger: Logger,
  request: PayoutRequest,
  agreeing: string[],
): Promise<{ ok: true; counted: string[] } | { ok: false; cause: 'requester_not_allowed' | 'roles_unavailable' }> {
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

/**
 * The one gate before money leaves. Every move of a request to sending (the approval that releases
 * it, a bulk payout's row, a scheduled occurrence and its Retry, "Retry with the same reference",
 * the recovery sweep) passes here, in the transaction that moves it, and every control runs again
 * with fresh inputs: roles looked up now, the settings as configured now, the day's totals under the
 * day locks. A control that fails never sends and never drops the request: it waits, held, with the
 * reason that says what it needs (docs/payouts.md, "The gate before sending").
 */
import type { Logger } from '../core/logger.js';
import type { Queryable } from '../store/db.js';
import { dailyLimitDecision, lockPayoutDays, measureDayApprovals, type DayRequirement } from './day-totals.js';
import { newestRepeat, type Repeat } from './duplicates.js';
import type { PayoutHold, PayoutRequest } from './model.js';
import { railOf } from './rails/index.js';
import { checkMaxAmount, countingApprovers, countingRetryApprovers, type ReleaseRoles } from './policy.js';
import { lastApprovalEvents } from './repository.js';
import type { PayoutRoles } from './roles.js';
import type { PayoutSettings } from './settings.js';
import { occurrenceOf } from './schedule/store.js';
import { seniorsAmong } from './tiers.js';

/** Every way a request reaches sending; each names itself to the gate. */
export const SENDING_PATHS = ['approval', 'bulk', 'schedule', 'schedule_retry', 'retry_unknown', 'recovery'] as const;
export type SendingPath = (typeof SENDING_PATHS)[number];

/** What the gate knows when it decides: the request under its lock, fresh roles, the day measured now. */
export interface GateFacts {
  request: PayoutRequest;
  /** Whose approvals (or, for an unknown payout, agreements to send it again) the request counts. */
  givers: readonly string[];
  roles: ReleaseRoles;
  measured: DayRequirement;
  settings: PayoutSettings;
  /** The daily limit read now, this request among the day's totals. */
  withinDailyLimit: boolean;
  /** A possible duplicate (`duplicates.ts`) requested since the request was approved or last ticked as not one. */
  repeatSinceApproval: Repeat | undefined;
  /**
   * Since when the request may be sent: its occurrence's due time for a scheduled payout, else its
   * last approval (or move to approved, for a bulk row); an agreement to send it again, or an
   * approval given anew, counts from then.
   */
  sendableSince: Date | undefined;
  now: Date;
  /** PAYOUT_SCHEDULE_CATCH_UP_MINUTES: how long after that it may still be sent without being approved again. */
  catchUpMs: number;
}

/** One control: what it checks, and the hold it leaves when it fails. */
interface GateControl {
  name: string;
  failed(facts: GateFacts): PayoutHold | undefined;
}

/** The givers still approvers, by the fresh lookup. */
export function countedGivers(facts: Pick<GateFacts, 'givers' | 'roles'>): string[] {
  return facts.givers.filter((userId) => facts.roles.approvers.get(userId) === true);
}

/** How many approvers the request needs now: never fewer than it was stored with. */
export function requiredNow(facts: Pick<GateFacts, 'request' | 'measured'>): number {
  return Math.max(facts.request.requiredApprovals, facts.measured.required);
}

/**
 * The controls, in the order their holds are told: the first that fails is the reason the request
 * waits. Adding one here without its cases fails the matrix test (`test/payouts/gate-matrix.test.ts`).
 */
const CONTROLS = [
  { name: 'roles_readable', failed: ({ roles }) => (roles.unreadable ? 'roles_unavailable' : undefined) },
  { name: 'requester_role', failed: ({ roles }) => (roles.requesterMayRequest ? undefined : 'requester_not_allowed') },
  { name: 'currency_offered', failed: ({ request, settings }) => (settings.currencies.includes(request.currency) ? undefined : 'not_offered') },
  {
    name: 'operator_offered',
    failed: ({ request, settings }) => (railOf(request.kind).offered(request, settings) ? undefined : 'not_offered'),
  },
  {
    name: 'max_amount',
    failed: ({ request, settings }) => (checkMaxAmount(request.amountMinor, request.currency, settings.maxAmount).ok ? undefined : 'over_max_amount'),
  },
  { name: 'daily_limit', failed: ({ withinDailyLimit }) => (withinDailyLimit ? undefined : 'over_daily_limit') },
  {
    // Above the tier (by the amount, or the requester's or the recipient's day total), one counted
    // giver must be a senior approver now.
    name: 'senior_approver',
    failed: (facts) =>
      facts.measured.senior && !countedGivers(facts).some((userId) => facts.roles.seniors?.get(userId) === true) ? 'needs_senior' : undefined,
  },
  {
    // Each approval still valid: enough of the givers it was approved with are still approvers.
    name: 'approver_role',
    failed: (facts) => (countedGivers(facts).length < Math.min(facts.request.requiredApprovals, facts.givers.length) ? 'needs_approvers' : undefined),
  },
  {
    // A recipient never paid before needs PAYOUT_NEW_RECIPIENT_APPROVALS different approvers, as configured now.
    name: 'new_recipient',
    failed: (facts) =>
      facts.measured.reason?.rule === 'new_recipient' && countedGivers(facts).length < facts.measured.required ? 'needs_approvers' : undefined,
  },
  {
    // Two approvers above PAYOUT_DUAL_APPROVAL_ABOVE by the amount or the requester's or recipient's day total, as configured now.
    name: 'dual_approval',
    failed: (facts) => (countedGivers(facts).length < requiredNow(facts) ? 'needs_approvers' : undefined),
  },
  {
    // A payout to the same recipient, amount and currency within PAYOUT_DUPLICATE_WINDOW_HOURS that
    // landed after the approval: an approver ticks that it is not a duplicate.
    name: 'duplicates',
    failed: ({ repeatSinceApproval }) => (repeatSinceApproval ? 'duplicate_unchecked' : undefined),
  },
  {
    // Approved long ago (a sweep after an outage, a held occurrence retried weeks later): approved again first.
    name: 'catch_up',
    failed: ({ sendableSince, now, catchUpMs }) => (sendableSince && now.getTime() - sendableSince.getTime() > catchUpMs ? 'missed' : undefined),
  },
] as const satisfies readonly GateControl[];

/** The names of the gate's controls, for the matrix test. */
export const GATE_CONTROLS = CONTROLS.map((control) => control.name);
export type GateControlName = (typeof CONTROLS)[number]['name'];

/** The gate's answer: send, or the hold and the facts it was decided on (to revoke and raise with). */
export type GateVerdict = { ok: true; facts: GateFacts } | { ok: false; hold: PayoutHold; control: GateControlName; facts: GateFacts };

export interface PayoutGateOptions {
  roles: PayoutRoles;
  settings: PayoutSettings;
  logger: Logger;
  /** PAYOUT_SCHEDULE_CATCH_UP_MINUTES (default 360; the gate allows at least 15). */
  catchUpMinutes?: number | undefined;
  /** Tests only: runs as a path reaches the gate, before anything is looked up (to break a control just before sending). */
  beforeGate?: ((request: PayoutRequest, via: SendingPath) => Promise<void>) | undefined;
}

const DEFAULT_CATCH_UP_MINUTES = 360;
// A request on its way (an approval sending at once, a bulk payout's rows at their pace) is never
// "approved long ago", even with PAYOUT_SCHEDULE_CATCH_UP_MINUTES=0 (which only misses late occurrences).
const MIN_CATCH_UP_MINUTES = 15;

function latest(times: ReadonlyArray<Date | undefined>): Date | undefined {
  let found: Date | undefined;
  for (const time of times) if (time && (!found || time.getTime() > found.getTime())) found = time;
  return found;
}

/** Whose approvals count for sending a request: its approvals, or for an unknown payout the agreements to send it again. */
export function giversOf(request: PayoutRequest): string[] {
  return request.state === 'unknown' ? countingRetryApprovers(request) : countingApprovers(request);
}

export class PayoutGate {
  constructor(private readonly options: PayoutGateOptions) {}

  /**
   * The fresh lookups, taken before the transaction (Slack is not asked while rows are locked): the
   * requester, every giver, and whether each giver is a senior approver. A failed lookup reads as
   * `unreadable`: nothing is sent and nobody's approval is revoked.
   */
  async lookUp(request: PayoutRequest, via: SendingPath): Promise<ReleaseRoles> {
    await this.options.beforeGate?.(request, via);
    const { roles, logger } = this.options;
    const givers = giversOf(request);
    try {
      const [requesterMayRequest, seniors, ...answers] = await Promise.all([
        roles.canRequest(request.requestedBy, { fresh: true }),
        seniorsAmong(roles, givers, { fresh: true }),
        ...givers.map((userId) => roles.canApprove(userId, { fresh: true })),
      ]);
      return { requesterMayRequest, approvers: new Map(givers.map((userId, index) => [userId, answers[index] === true])), seniors, unreadable: false };
    } catch (error) {
      logger.warn({ err: error, payoutId: request.id, via }, 'could not look up roles before sending a payout; it waits');
      return { requesterMayRequest: false, approvers: new Map(), seniors: new Map(), unreadable: true };
    }
  }

  /**
   * Every control on `request` as it stands under its row lock, inside the transaction that moves it,
   * which took the day locks first (`lockDay`), as every decision on the day's totals does. A giver
   * `roles` did not look up (one who agreed meanwhile) does not count: the next click asks again.
   */
  async check(tx: Queryable, request: PayoutRequest, roles: ReleaseRoles, now: Date): Promise<GateVerdict> {
    const { settings } = this.options;
    const payout = { draft: request, newRecipient: request.newRecipient };
    // A scheduled occurrence may be sent from its due time (approved ahead); anything else from its last approval.
    const occurrence = await occurrenceOf(tx, request.id);
    // The day it counts in: its request's, or for a one-off sent as the scheduled request itself, its due day.
    const day = occurrence?.itself ? occurrence.dueAt : request.requestedAt;
    const measured = await measureDayApprovals(tx, { requestedBy: request.requestedBy, requestedAt: day, payouts: [payout], counted: true }, settings);
    const limit = await dailyLimitDecision(tx, request, day, settings, true);
    // The approvals copied onto a bulk row or a scheduled occurrence keep when they were given.
    const lastApproval = latest(
      request.approvals.filter((approval) => approval.revokedAt === undefined && approval.userId !== request.requestedBy).map((approval) => approval.at),
    );
    const lastAgreement = request.state === 'unknown' ? latest(request.retryApprovals.map((approval) => approval.at)) : undefined;
    const { approvedAt, tickedAt } = await lastApprovalEvents(tx, request.id);
    const checkedSince = latest([lastApproval, lastAgreement, tickedAt]);
    const repeat = await newestRepeat(tx, request, { windowHours: settings.duplicateWindowHours, upTo: now });
    const dueAt = occurrence?.dueAt;
    const facts: GateFacts = {
      request,
      givers: giversOf(request),
      roles,
      measured,
      settings,
      withinDailyLimit: limit.ok,
      now,
      repeatSinceApproval: repeat && (!checkedSince || repeat.at.getTime() > checkedSince.getTime()) ? repeat : undefined,
      sendableSince: dueAt ? latest([dueAt, lastApproval, lastAgreement]) : latest([lastApproval, lastAgreement, approvedAt]),
      catchUpMs: Math.max(this.options.catchUpMinutes ?? DEFAULT_CATCH_UP_MINUTES, MIN_CATCH_UP_MINUTES) * 60_000,
    };
    for (const control of CONTROLS) {
      const hold = control.failed(facts);
      if (hold) return { ok: false, hold, control: control.name, facts };
    }
    return { ok: true, facts };
  }

  /** The day locks of `request`, taken before its row lock, in the one order every caller uses. */
  async lockDay(tx: Queryable, request: PayoutRequest): Promise<void> {
    await lockPayoutDays(tx, { requestedBy: request.requestedBy, payouts: [{ draft: request, newRecipient: false }] });
  }
}

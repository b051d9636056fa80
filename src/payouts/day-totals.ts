/**
 * The one measure of a payout's day, for every way in (the form, each row of a bulk payout): the
 * requester's and the recipient's totals in its currency over its day, and the approvers they call
 * for. Taken at request, at each approval and at release, under the day locks, since another
 * request may land in between.
 */
import { dayBounds, dayIn } from '../core/calendar.js';
import type { Queryable } from '../store/db.js';
import { STATES_COUNTING_TOWARDS_LIMIT, type PayoutDraft } from './model.js';
import { approvalRequirement, checkDailyLimit, recipientKey, type ApprovalRequirement, type PolicyDecision } from './policy.js';
import { lockRecipientDay, lockRequesterDay, sumRequested, sumRequestedTo } from './day-totals-store.js';
import type { PayoutSettings } from './settings.js';
import { seniorTier, type SeniorTier } from './tiers.js';

/** Payouts count in the team's calendar days (TEAM_TIMEZONE); UTC when none is given. */
export const DEFAULT_PAYOUT_TIME_ZONE = 'UTC';

/**
 * The day a payout counts in: the calendar day of its request (of its release, for a scheduled
 * payout) in the team's zone, as [start, end). The only place that says which day a payout belongs
 * to (the daily limit and the dual-approval totals both use it).
 */
export function payoutDay(at: Date, timeZone: string = DEFAULT_PAYOUT_TIME_ZONE): { start: Date; end: Date } {
  return dayBounds(dayIn(at, timeZone), timeZone);
}

/** One payout of a request: a single payout's draft, or one row of a bulk payout. */
export interface DayPayout {
  draft: PayoutDraft;
  /** No completed payout had gone to its recipient (as decided at request; never unset later). */
  newRecipient: boolean;
}

/** A request as the day totals see it: one requester, one day, one or many payouts. */
export interface DayRequest {
  requestedBy: string;
  /** Its day is the day measured. */
  requestedAt: Date;
  payouts: readonly DayPayout[];
  /**
   * Already stored and counted among the day's totals (at approval and at release); otherwise its
   * payouts are added to them (at request).
   */
  counted: boolean;
}

/** The approvers a request needs, why, and in which currency the reason's amounts are. */
export interface DayRequirement extends ApprovalRequirement {
  /** The currency of the payout that gave the reason (a bulk payout may hold several). */
  currency: string | undefined;
  /**
   * The senior tier (`tiers.ts`) the request is above: by a payout's amount, or by the requester's or
   * its recipient's total for the day, as two approvers are; undefined below it (or with no tier set).
   */
  senior: SeniorTier | undefined;
}

/** The rules the measure applies (from `PayoutSettings`); no senior tier when `seniorApprovalAbove` is left out. */
export type DayRules = Pick<PayoutSettings, 'dualApprovalAbove' | 'newRecipientApprovals' | 'timeZone'> & Partial<Pick<PayoutSettings, 'seniorApprovalAbove'>>;

/**
 * Takes the day locks of every currency and recipient of `request`, in the one order every caller
 * uses: the requester's days by currency, then the recipients' days by key and currency. Two
 * transactions that both decide on a total wait for each other instead of each missing the other.
 */
export async function lockPayoutDays(tx: Queryable, request: Pick<DayRequest, 'requestedBy' | 'payouts'>): Promise<void> {
  const currencies = [...new Set(request.payouts.map(({ draft }) => draft.currency))].sort();
  for (const currency of currencies) await lockRequesterDay(tx, request.requestedBy, currency);
  const recipients = new Map(request.payouts.map(({ draft }) => [`${recipientKey(draft)}\u0000${draft.currency}`, draft]));
  for (const name of [...recipients.keys()].sort()) {
    const draft = recipients.get(name)!;
    await lockRecipientDay(tx, recipientKey(draft), draft.currency);
  }
}

/**
 * The approvers a request needs from its day's totals: for each payout, the requester's total and
 * its recipient's total (all requesters, bulk rows waiting for approval or being sent included) in
 * its currency, each with this request's own payouts (every row to that recipient, for a bulk
 * payout), then `approvalRequirement`. A request of many payouts needs the most any of them needs;
 * the reason is that of the first payout needing it. Callers that decide hold `lockPayoutDays`.
 */
export async function measureDayApprovals(q: Queryable, request: DayRequest, rules: DayRules): Promise<DayRequirement> {
  const day = payoutDay(request.requestedAt, rules.timeZone);
  const requesterTotals = new Map<string, number>();
  const recipientTotals = new Map<string, Map<string, number>>();
  for (const { draft } of request.payouts) {
    const own = request.counted ? 0 : draft.amountMinor;
    requesterTotals.set(draft.currency, (requesterTotals.get(draft.currency) ?? 0) + own);
    const toRecipients = recipientTotals.get(draft.currency) ?? new Map<string, number>();
    toRecipients.set(recipientKey(draft), (toRecipients.get(recipientKey(draft)) ?? 0) + own);
    recipientTotals.set(draft.currency, toRecipients);
  }
  for (const [currency, toRecipients] of recipientTotals) {
    const window = { currency, from: day.start, to: day.end, states: STATES_COUNTING_TOWARDS_LIMIT };
    requesterTotals.set(currency, (requesterTotals.get(currency) ?? 0) + (await sumRequested(q, { requestedBy: request.requestedBy, ...window })));
    const stored = await sumRequestedTo(q, { recipientKeys: [...toRecipients.keys()], ...window });
    for (const [key, own] of toRecipients) toRecipients.set(key, own + (stored.get(key) ?? 0));
  }
  let needed: DayRequirement = { required: 1, reason: undefined, currency: undefined, senior: undefined };
  for (const { draft, newRecipient } of request.payouts) {
    const measured = {
      amountMinor: draft.amountMinor,
      requesterTotalMinor: requesterTotals.get(draft.currency) ?? 0,
      recipientTotalMinor: recipientTotals.get(draft.currency)?.get(recipientKey(draft)) ?? 0,
      currency: draft.currency,
    };
    const requirement = approvalRequirement({ ...measured, newRecipient }, rules.dualApprovalAbove, rules.newRecipientApprovals);
    if (requirement.required > needed.required) needed = { ...requirement, currency: draft.currency, senior: needed.senior };
    // Splitting a payout, across requests or requesters, does not get under the tier either.
    const biggest = Math.max(measured.amountMinor, measured.requesterTotalMinor, measured.recipientTotalMinor);
    needed.senior ??= seniorTier([[draft.currency, biggest]], rules.seniorApprovalAbove ?? new Map());
  }
  return needed;
}

/**
 * The daily limit (`PAYOUT_DAILY_LIMIT`) of `payout`'s requester on the day of `at`: what they
 * requested that day in its currency, plus its amount unless `counted` (already among the totals).
 * The one reading of the limit for every way in and for the gate before sending; callers that
 * decide hold the day locks.
 */
export async function dailyLimitDecision(
  q: Queryable,
  payout: { requestedBy: string; currency: string; amountMinor: number },
  at: Date,
  rules: Pick<PayoutSettings, 'dailyLimit' | 'timeZone'>,
  counted = false,
): Promise<PolicyDecision> {
  const day = payoutDay(at, rules.timeZone);
  const total = await sumRequested(q, {
    requestedBy: payout.requestedBy,
    currency: payout.currency,
    from: day.start,
    to: day.end,
    states: STATES_COUNTING_TOWARDS_LIMIT,
  });
  const alreadyRequestedMinor = counted ? total - payout.amountMinor : total;
  return checkDailyLimit({ alreadyRequestedMinor, amountMinor: payout.amountMinor, currency: payout.currency }, rules.dailyLimit);
}

/**
 * What a measure taken after request changes: the raised requirement when it needs more approvers
 * than `current`, else nothing (the number of approvers needed never goes down).
 */
export function raisedRequirement<T extends ApprovalRequirement>(current: number, measured: T): (T & { reason: NonNullable<T['reason']> }) | undefined {
  return measured.required > current && measured.reason ? { ...measured, reason: measured.reason } : undefined;
}

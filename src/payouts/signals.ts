/**
 * What a careful approver would look up about one payout, read in one query for the approval
 * message, the approve window and the review screen: a possible duplicate (the app's one rule,
 * `duplicates.ts`), an amount far above what this recipient usually gets, and the requester's and
 * the recipient's totals for the payout's day (the same totals the policy counts, `day-totals.ts`).
 */
import type { Queryable } from '../store/db.js';
import { dayIn } from '../core/calendar.js';
import { DEFAULT_PAYOUT_TIME_ZONE, payoutDay } from './day-totals.js';
import { recipientTotalSql, requesterTotalSql, sumsOnDays } from './day-totals-store.js';
import { earlierPayoutOf, earlierPayoutsSql, statesThatMayBeRepeated, windowStart, type EarlierPayout, type EarlierRow } from './duplicates.js';
import { STATES_COUNTING_TOWARDS_LIMIT, type PayoutDraft, type PayoutRequest } from './model.js';
import { recipientKey } from './recipients.js';
import { comparedAt } from './schedule/store.js';

/** An amount at least this many times the recipient's usual one is unusual. */
export const UNUSUAL_AMOUNT_FACTOR = 3;
/** The usual amount is the median of the recipient's completed payouts requested in these last days… */
export const USUAL_AMOUNT_DAYS = 90;
/** …in the payout's currency, when there are at least this many of them. */
export const USUAL_AMOUNT_MIN_PAYOUTS = 3;

export interface UnusualAmount {
  /** The amount over the usual one, cut (never rounded up) to one decimal: 3.0 at the edge. */
  times: number;
  /** The median, in minor units (half a unit when the middle falls between two payouts). */
  usualMinor: number;
  /** How many completed payouts the median is of. */
  payouts: number;
}

export interface ApprovalSignals {
  /** The earlier payout this one may repeat (`duplicates.ts`); undefined when none. */
  duplicateOf: EarlierPayout | undefined;
  unusualAmount: UnusualAmount | undefined;
  /**
   * The payout's day totals in its currency, this payout included: of the team's day it was requested
   * on, or for a scheduled request of its busiest occurrence day (`day`, `YYYY-MM-DD` in the team's zone).
   */
  dayTotals: { currency: string; requesterMinor: number; recipientMinor: number; day?: string | undefined };
}

/** The payout the signals are about: a draft on the review screen, or a stored request. */
export interface SignalSubject {
  draft: PayoutDraft;
  requestedBy: string;
  /** Its day is the one totalled; now for a draft. */
  requestedAt: Date;
  /** Stored: itself and later payouts are not earlier ones, and its amount is among the totals already. */
  stored?: { requestId: string; batchId?: string | undefined; counted: boolean; upTo?: Date | undefined } | undefined;
}

/** The rules' settings the signals need (from `PayoutSettings`): the day totalled is the team's, as the policy's. */
export interface SignalRules {
  duplicateWindowHours: number;
  timeZone?: string | undefined;
}

/** The amount over the usual one, when it is unusual by the rule above. */
export function unusualAmount(amountMinor: number, usual: { payouts: number; medianMinor: number | undefined }): UnusualAmount | undefined {
  const median = usual.medianMinor;
  if (usual.payouts < USUAL_AMOUNT_MIN_PAYOUTS || median === undefined || median <= 0) return undefined;
  if (amountMinor < UNUSUAL_AMOUNT_FACTOR * median) return undefined;
  return { times: Math.floor((amountMinor / median) * 10) / 10, usualMinor: median, payouts: usual.payouts };
}

interface SignalRow extends Partial<EarlierRow> {
  payouts: number | string;
  median: number | string | null;
  requester_total: number | string;
  recipient_total: number | string;
}

/** Every signal of one payout, in one query. */
export async function readApprovalSignals(q: Queryable, subject: SignalSubject, rules: SignalRules): Promise<ApprovalSignals> {
  const { draft, stored } = subject;
  const day = payoutDay(subject.requestedAt, rules.timeZone);
  const dayParams = { currency: '$3', from: '$10', to: '$11', states: '$12' };
  const { rows } = await q.query<SignalRow>(
    `WITH wanted AS (SELECT $1::text AS recipient_key, $2::bigint AS amount_minor, $3::text AS currency),
     usual AS (
       SELECT count(*) AS payouts, percentile_cont(0.5) WITHIN GROUP (ORDER BY amount_minor) AS median FROM payout_requests
       WHERE recipient_key = $1 AND currency = $3 AND state = 'completed' AND requested_at >= $13 AND ($7::text IS NULL OR id <> $7)
     )
     SELECT u.payouts, u.median, ${requesterTotalSql('$9', dayParams)} AS requester_total, ${recipientTotalSql('$1', dayParams)} AS recipient_total,
       e.kind, e.request_id, e.reference, e.state, e.batch_id, e.row_number
     FROM usual u LEFT JOIN LATERAL (
       SELECT * FROM (${earlierPayoutsSql({ wanted: 'wanted', states: '$4', from: '$5', exceptBatchId: '$6', exceptRequestId: '$7', upTo: '$8' })}) earlier LIMIT 1
     ) e ON true`,
    [
      recipientKey(draft),
      draft.amountMinor,
      draft.currency,
      statesThatMayBeRepeated(),
      windowStart({ now: subject.requestedAt, windowHours: rules.duplicateWindowHours }),
      stored?.batchId ?? null,
      stored?.requestId ?? null,
      stored ? (stored.upTo ?? subject.requestedAt) : null,
      subject.requestedBy,
      day.start,
      day.end,
      [...STATES_COUNTING_TOWARDS_LIMIT],
      new Date(subject.requestedAt.getTime() - USUAL_AMOUNT_DAYS * 86_400_000),
    ],
  );
  const row = rows[0];
  const own = stored?.counted ? 0 : draft.amountMinor;
  const median = row?.median === null || row?.median === undefined ? undefined : Number(row.median);
  return {
    duplicateOf: row?.kind ? earlierPayoutOf(row as EarlierRow) : undefined,
    unusualAmount: unusualAmount(draft.amountMinor, { payouts: Number(row?.payouts ?? 0), medianMinor: median }),
    dayTotals: {
      currency: draft.currency,
      requesterMinor: Number(row?.requester_total ?? 0) + own,
      recipientMinor: Number(row?.recipient_total ?? 0) + own,
    },
  };
}

/**
 * The signals of a stored request: compared with what came before it, its own amount counted while
 * it counts. A scheduled request counts on its occurrences' days, never its own: its totals are
 * those of its busiest occurrence day.
 */
export async function requestSignals(q: Queryable, request: PayoutRequest, rules: SignalRules): Promise<ApprovalSignals> {
  const signals = await readApprovalSignals(
    q,
    {
      draft: request,
      requestedBy: request.requestedBy,
      requestedAt: await comparedAt(q, request),
      stored: {
        requestId: request.id,
        batchId: request.batch?.id,
        counted: STATES_COUNTING_TOWARDS_LIMIT.includes(request.state),
        // Held by the gate for a payout that landed after it: that one is shown, with the tick to approve.
        ...(request.hold === 'duplicate_unchecked' ? { upTo: request.updatedAt } : {}),
      },
    },
    rules,
  );
  const busiest = await busiestOccurrenceDay(q, request, rules);
  return busiest ? { ...signals, dayTotals: { ...signals.dayTotals, ...busiest } } : signals;
}

/**
 * The day totals of a scheduled request's busiest occurrence day (the highest of the requester's and
 * the recipient's totals); undefined for a request that is not scheduled. Each occurrence waiting
 * counts on its own day while its series counts, a released one as its own payout request
 * (`day-totals-store.ts`); otherwise its amount is added.
 */
async function busiestOccurrenceDay(q: Queryable, request: PayoutRequest, rules: SignalRules): Promise<ApprovalSignals['dayTotals'] | undefined> {
  const { rows } = await q.query<{ due_at: Date | string; state: string }>('SELECT due_at, state FROM payout_occurrences WHERE request_id = $1', [request.id]);
  if (rows.length === 0) return undefined;
  const timeZone = rules.timeZone ?? DEFAULT_PAYOUT_TIME_ZONE;
  const days = new Map<string, { from: Date; to: Date }>();
  for (const row of rows) {
    const day = dayIn(new Date(row.due_at), timeZone);
    if (!days.has(day)) {
      const bounds = payoutDay(new Date(row.due_at), timeZone);
      days.set(day, { from: bounds.start, to: bounds.end });
    }
  }
  const totals = await sumsOnDays(q, {
    requestedBy: request.requestedBy,
    recipientKey: recipientKey(request),
    currency: request.currency,
    states: STATES_COUNTING_TOWARDS_LIMIT,
    days: [...days.values()],
  });
  const seriesCounts = request.state === 'pending' || request.state === 'approved';
  let busiest: ApprovalSignals['dayTotals'] | undefined;
  for (const total of totals) {
    const onDay = rows.filter((row) => dayIn(new Date(row.due_at), timeZone) === dayIn(total.from, timeZone));
    // Among the totals already: an occurrence waiting while its series counts, or the payout request one became.
    const counted = onDay.some((row) => row.state === 'released' || (seriesCounts && (row.state === 'scheduled' || row.state === 'held')));
    const own = counted ? 0 : request.amountMinor;
    const candidate = {
      currency: request.currency,
      requesterMinor: total.requesterMinor + own,
      recipientMinor: total.recipientMinor + own,
      day: dayIn(total.from, timeZone),
    };
    if (!busiest || Math.max(candidate.requesterMinor, candidate.recipientMinor) > Math.max(busiest.requesterMinor, busiest.recipientMinor))
      busiest = candidate;
  }
  return busiest;
}

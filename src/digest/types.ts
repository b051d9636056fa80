/** The daily digest's vocabulary: what one day's digest holds, and the port that posts it. */
import type { Runway } from '../runway/index.js';

/** One movement of the fleet account, as the digest lists it among a currency's largest. */
export interface DigestMovement {
  reference: string;
  type: string;
  description: string;
  /** Signed, exact minor units: a credit to the fleet account is positive, a debit negative. */
  amountMinor: number;
  /** ISO 8601 UTC, as the API sent it. */
  date: string;
}

/**
 * Why a closing balance is left out: the ledger is off, its history is still loading, it is not up
 * to date with the balance read, the balance could not be read, entries kept landing at the instant
 * the balance was read (so which of them it held is unknown), the currency has no balance line, or
 * the day is not over.
 */
export type ClosingBalanceGap =
  'ledger_off' | 'history_incomplete' | 'ledger_behind' | 'balance_unavailable' | 'balance_moving' | 'currency_not_in_balance' | 'day_not_over';

/** A finished day's closing balance moved by late entries since it was first computed. */
export interface ClosingCorrection {
  /** The figure first computed for the day. */
  previousMinor: number;
  /** How many late entries (stored since, dated on or before the day) moved it. */
  lateEntries: number;
}

export type ClosingBalance = { known: true; minor: number; correction?: ClosingCorrection } | { known: false; reason: ClosingBalanceGap };

/** One currency's day on the fleet account, in exact minor units. */
export interface CurrencyDay {
  currency: string;
  /** Sum of the credits to the fleet account (≥ 0). */
  inMinor: number;
  /** Sum of the debits, as a positive number (≥ 0). */
  outMinor: number;
  /** `inMinor - outMinor`. */
  netMinor: number;
  /** How many entries of each type, sorted by type. */
  countsByType: { type: string; count: number }[];
  /** Entries with a status other than `Completed`: listed in the counts, left out of the sums. */
  notCompleted: number;
  /** The largest movements by absolute amount, largest first (at most `LARGEST_MOVEMENTS`). */
  largest: DigestMovement[];
  closing: ClosingBalance;
}

/** Payouts through this app whose outcome fell on the day, per outcome. */
export const PAYOUT_OUTCOMES = ['sent', 'failed', 'rejected', 'expired', 'unknown'] as const;
export type PayoutOutcome = (typeof PAYOUT_OUTCOMES)[number];

export interface PayoutOutcomeTotal {
  outcome: PayoutOutcome;
  count: number;
  /** Sum per currency, sorted by currency. */
  totals: { currency: string; minor: number }[];
}

export interface WaitingRequest {
  id: string;
  requestedBy: string;
  requestedAt: Date;
  amountMinor: number;
  currency: string;
}

export interface DailyDigest {
  /** The calendar day, `YYYY-MM-DD`, in `timeZone`. */
  day: string;
  timeZone: string;
  start: Date;
  end: Date;
  /** When the digest was computed. */
  computedAt: Date;
  /** False when the ledger is off: the account's movements are unknown, only payouts are shown. */
  ledgerAvailable: boolean;
  /** Every currency that moved that day or has a balance, sorted by code. */
  currencies: CurrencyDay[];
  /** Total entries of the day, every currency. */
  entryCount: number;
  payouts: PayoutOutcomeTotal[];
  /** Requests still pending after `waitingAfterHours` (PAYOUT_REQUEST_TTL_HOURS / 2), oldest first. */
  waiting: WaitingRequest[];
  /** How many requests wait in all (`waiting` holds the oldest few). */
  waitingTotal: number;
  waitingAfterHours: number;
  /** Scheduled payouts still to be sent on the day the digest is computed (its posting day), per currency. */
  scheduledToday?: { day: string; totals: { currency: string; totalMinor: number; count: number }[] } | undefined;
  /** Nothing moved and no payout ended: the digest says so briefly. */
  quiet: boolean;
  /** The runway when the digest was computed; only in the digest of the latest day (yesterday), and when it could be computed. */
  runway?: Runway;
}

/** How a digest reaches its channel; the day's post carries whether it comes after its time. */
export interface DigestDelivery {
  late: boolean;
  /** When it was due. */
  dueAt: Date;
}

/** Posts a digest; resolves once Slack accepted it. Implemented by the Slack adapter. */
export interface DigestPublisher {
  post(channelId: string, digest: DailyDigest, delivery: DigestDelivery): Promise<{ ts: string | undefined }>;
}

/**
 * Something sent into a posted digest's thread (the runway chart). Called after the digest is posted
 * and marked; a failure is retried a few times, and never posts the digest again.
 */
export interface DigestFollowUp {
  /** For the logs. */
  name: string;
  afterPosted(post: { channelId: string; day: string; ts: string; digest: DailyDigest }): Promise<void>;
}

/**
 * Computes one calendar day's digest from the ledger, the payout store and the day's closing
 * balances. Amounts are summed as exact integers in minor units. The closing balance is shown only
 * when the ledger can vouch for it, computed once per finished day and corrected only by late entries
 * (see `closing.ts`); otherwise it is left out with the reason.
 */
import type { Clock } from '../core/clock.js';
import type { Balances } from '../fleet/schemas.js';
import type { LedgerEntry, LedgerReader } from '../ledger/index.js';
import type { Logger } from '../core/logger.js';
import type { Queryable } from '../store/db.js';
import { dayBounds, dayIn, previousDay } from '../core/calendar.js';
import { scheduledOn } from './scheduled-day.js';
import type { Runway } from '../runway/index.js';
import { dayClosing, type DayClosing } from './closing.js';
import { payoutOutcomes, waitingRequests } from './payout-day.js';
import type { ClosingBalance, CurrencyDay, DailyDigest, DigestMovement } from './types.js';

export const LARGEST_MOVEMENTS = 5;
/** Waiting requests listed by name; the rest are counted. */
const WAITING_LISTED = 10;
const COMPLETED = 'COMPLETED';

export interface DigestBuilderOptions {
  /** Absent when the ledger is off: the digest then holds payouts only. */
  ledger: LedgerReader | undefined;
  db: Queryable;
  clock: Clock;
  /** The current balance per currency (the Fleet client's `getBalance`). */
  balance: () => Promise<Balances>;
  timeZone: string;
  /** PAYOUT_REQUEST_TTL_HOURS: requests waiting longer than half of it are listed. */
  requestTtlHours: number;
  /** How long to wait for the ledger's next two polls after a balance read; 0: do not wait. */
  ledgerWaitMs: number;
  logger: Logger;
  /** The runway now, shown in the digest of the latest day. */
  runway?: () => Promise<Runway>;
}

interface Tally {
  inMinor: number;
  outMinor: number;
  notCompleted: number;
  types: Map<string, number>;
  largest: DigestMovement[];
}

export class DigestBuilder {
  constructor(private readonly options: DigestBuilderOptions) {}

  get timeZone(): string {
    return this.options.timeZone;
  }

  /** `signal` stops a wait for the ledger (the app is stopping): the build then rejects. */
  async build(day: string, options: { signal?: AbortSignal } = {}): Promise<DailyDigest> {
    const { start, end } = dayBounds(day, this.options.timeZone);
    const now = this.options.clock.now();
    const waitingAfterHours = this.options.requestTtlHours / 2;
    const [tallies, payouts, waiting, closing, runway] = await Promise.all([
      this.tallyDay(start, end),
      payoutOutcomes(this.options.db, start, end),
      waitingRequests(this.options.db, new Date(now.getTime() - waitingAfterHours * 3_600_000), WAITING_LISTED),
      dayClosing(this.options, { day, timeZone: this.options.timeZone, end }, options.signal),
      this.runwayFor(day, now),
    ]);
    const codes = new Set([...(tallies?.keys() ?? []), ...(closing.kind === 'known' ? closing.balances.keys() : [])]);
    const currencies = [...codes].sort().map((currency): CurrencyDay => {
      const tally = tallies?.get(currency) ?? newTally();
      return {
        currency,
        inMinor: tally.inMinor,
        outMinor: tally.outMinor,
        netMinor: tally.inMinor - tally.outMinor,
        countsByType: [...tally.types].sort(([a], [b]) => a.localeCompare(b)).map(([type, count]) => ({ type, count })),
        notCompleted: tally.notCompleted,
        largest: tally.largest,
        closing: closingFor(closing, currency),
      };
    });
    const entryCount = currencies.reduce((sum, currency) => sum + currency.countsByType.reduce((n, type) => n + type.count, 0), 0);
    const today = dayIn(now, this.options.timeZone);
    const todayBounds = dayBounds(today, this.options.timeZone);
    const scheduled = await scheduledOn(this.options.db, todayBounds.start, todayBounds.end);
    return {
      day,
      timeZone: this.options.timeZone,
      start,
      end,
      computedAt: now,
      ...(scheduled.length > 0 ? { scheduledToday: { day: today, totals: scheduled } } : {}),
      ledgerAvailable: tallies !== undefined,
      currencies,
      entryCount,
      payouts,
      waiting: waiting.requests,
      waitingTotal: waiting.total,
      waitingAfterHours,
      quiet: entryCount === 0 && payouts.every((outcome) => outcome.count === 0),
      ...(runway ? { runway } : {}),
    };
  }

  /** The runway now, for the digest of yesterday only (an older day's digest is about then, not now); left out when it fails. */
  private async runwayFor(day: string, now: Date): Promise<Runway | undefined> {
    if (!this.options.runway || day !== previousDay(dayIn(now, this.options.timeZone))) return undefined;
    try {
      return await this.options.runway();
    } catch (error) {
      this.options.logger.warn({ err: error, day }, 'digest: could not compute the runway; leaving it out');
      return undefined;
    }
  }

  /** Every entry of the day, per currency; undefined without a ledger. */
  private async tallyDay(start: Date, end: Date): Promise<Map<string, Tally> | undefined> {
    if (!this.options.ledger) return undefined;
    const tallies = new Map<string, Tally>();
    for await (const entry of this.options.ledger.stream({ since: start, before: end }, { batchSize: 1000 })) {
      let tally = tallies.get(entry.currency);
      if (!tally) tallies.set(entry.currency, (tally = newTally()));
      tally.types.set(entry.type, (tally.types.get(entry.type) ?? 0) + 1);
      if (entry.status.toUpperCase() !== COMPLETED) {
        tally.notCompleted += 1;
        continue;
      }
      if (entry.amountMinor > 0) tally.inMinor += entry.amountMinor;
      else tally.outMinor -= entry.amountMinor;
      keepLargest(tally.largest, entry);
    }
    return tallies;
  }
}

function closingFor(closing: DayClosing, currency: string): ClosingBalance {
  if (closing.kind === 'unknown') return { known: false, reason: closing.reason };
  return closing.balances.get(currency) ?? { known: false, reason: 'currency_not_in_balance' };
}

function newTally(): Tally {
  return { inMinor: 0, outMinor: 0, notCompleted: 0, types: new Map(), largest: [] };
}

/** Keeps `largest` as the biggest movements by absolute amount, earliest first among equals. */
function keepLargest(largest: DigestMovement[], entry: LedgerEntry): void {
  const size = Math.abs(entry.amountMinor);
  if (largest.length === LARGEST_MOVEMENTS && size <= Math.abs(largest.at(-1)!.amountMinor)) return;
  const movement: DigestMovement = {
    reference: entry.reference,
    type: entry.type,
    description: entry.description,
    amountMinor: entry.amountMinor,
    date: entry.date,
  };
  const at = largest.findIndex((other) => Math.abs(other.amountMinor) < size);
  largest.splice(at === -1 ? largest.length : at, 0, movement);
  if (largest.length > LARGEST_MOVEMENTS) largest.pop();
}

/**
 * Computes one calendar day's digest from the ledger, the payout store and the current balance.
 * Amounts are summed as exact integers in minor units. The closing balance is derived (current
 * balance less every completed entry dated after the day's end) only when the ledger can vouch for
 * it: history complete, and two polls finished after the balance was read, so that no entry in the
 * balance is missing from the ledger; otherwise it is left out with the reason.
 */
import type { Clock } from '../clock.js';
import type { Balances } from '../fleet/schemas.js';
import type { LedgerEntry, LedgerReader } from '../ledger/index.js';
import type { Logger } from '../logger.js';
import { toMinor } from '../money.js';
import type { Queryable } from '../store/db.js';
import { dayBounds } from './calendar.js';
import { payoutOutcomes, waitingRequests } from './payout-day.js';
import type { ClosingBalance, ClosingBalanceGap, CurrencyDay, DailyDigest, DigestMovement } from './types.js';

export const LARGEST_MOVEMENTS = 5;
/** Waiting requests listed by name; the rest are counted. */
export const WAITING_LISTED = 10;
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
  /** How long to wait for the ledger's next two polls after reading the balance; 0: do not wait. */
  ledgerWaitMs: number;
  logger: Logger;
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
    const [tallies, payouts, waiting, closing] = await Promise.all([
      this.tallyDay(start, end),
      payoutOutcomes(this.options.db, start, end),
      waitingRequests(this.options.db, new Date(now.getTime() - waitingAfterHours * 3_600_000), WAITING_LISTED),
      this.closingBalances(end, options.signal),
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
    return {
      day, timeZone: this.options.timeZone, start, end, computedAt: now,
      ledgerAvailable: tallies !== undefined,
      currencies,
      entryCount,
      payouts,
      waiting: waiting.requests,
      waitingTotal: waiting.total,
      waitingAfterHours,
      quiet: entryCount === 0 && payouts.every((outcome) => outcome.count === 0),
    };
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

  /**
   * The balance at `end` per currency, or why it cannot be known exactly. The balance is read first;
   * then the ledger must finish two polls after that read (waiting up to `ledgerWaitMs`): the first
   * may have asked the API before the balance was read, the second began after the first ended, so
   * every entry already in the balance is in the ledger and in the subtraction.
   */
  private async closingBalances(end: Date, signal: AbortSignal | undefined): Promise<{ kind: 'known'; balances: Map<string, number> } | { kind: 'unknown'; reason: ClosingBalanceGap }> {
    const { ledger, clock } = this.options;
    if (!ledger) return { kind: 'unknown', reason: 'ledger_off' };
    if (!(await ledger.status()).historyComplete) return { kind: 'unknown', reason: 'history_incomplete' };
    let balances: Balances;
    const readAt = clock.now().getTime();
    try {
      balances = await this.options.balance();
    } catch (error) {
      this.options.logger.warn({ err: error }, 'digest: the balance could not be read; the closing balance is left out');
      return { kind: 'unknown', reason: 'balance_unavailable' };
    }
    const waitUntil = readAt + this.options.ledgerWaitMs;
    let firstPollAfter: number | undefined;
    for (;;) {
      const status = await ledger.status();
      if (!status.historyComplete) return { kind: 'unknown', reason: 'history_incomplete' };
      const polledAt = status.upToDateSince ? status.lastPollAt?.getTime() : undefined;
      if (polledAt !== undefined && polledAt >= readAt) {
        if (firstPollAfter === undefined) firstPollAfter = polledAt;
        else if (polledAt > firstPollAfter) break;
      }
      if (clock.now().getTime() >= waitUntil) return { kind: 'unknown', reason: 'ledger_behind' };
      await clock.sleep(Math.min(1000, Math.max(1, waitUntil - clock.now().getTime())), signal);
    }
    const after = new Map<string, number>();
    for await (const entry of ledger.stream({ since: end }, { batchSize: 2000 })) {
      if (entry.status.toUpperCase() !== COMPLETED) continue;
      after.set(entry.currency, (after.get(entry.currency) ?? 0) + entry.amountMinor);
    }
    const closing = new Map<string, number>();
    for (const [currency, amount] of Object.entries(balances)) closing.set(currency, toMinor(amount, currency) - (after.get(currency) ?? 0));
    // A currency that moved after the day but has no balance line: its closing balance is not known.
    return { kind: 'known', balances: closing };
  }
}

function closingFor(closing: { kind: 'known'; balances: Map<string, number> } | { kind: 'unknown'; reason: ClosingBalanceGap }, currency: string): ClosingBalance {
  if (closing.kind === 'unknown') return { known: false, reason: closing.reason };
  const minor = closing.balances.get(currency);
  return minor === undefined ? { known: false, reason: 'currency_not_in_balance' } : { known: true, minor };
}

function newTally(): Tally {
  return { inMinor: 0, outMinor: 0, notCompleted: 0, types: new Map(), largest: [] };
}

/** Keeps `largest` as the biggest movements by absolute amount, earliest first among equals. */
function keepLargest(largest: DigestMovement[], entry: LedgerEntry): void {
  const size = Math.abs(entry.amountMinor);
  if (largest.length === LARGEST_MOVEMENTS && size <= Math.abs(largest.at(-1)!.amountMinor)) return;
  const movement: DigestMovement = { reference: entry.reference, type: entry.type, description: entry.description, amountMinor: entry.amountMinor, date: entry.date };
  const at = largest.findIndex((other) => Math.abs(other.amountMinor) < size);
  largest.splice(at === -1 ? largest.length : at, 0, movement);
  if (largest.length > LARGEST_MOVEMENTS) largest.pop();
}

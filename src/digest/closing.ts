/**
 * A finished day's closing balance per currency: computed once from a consistent anchor, stored, and
 * afterwards moved only by late entries, never by a fresh balance.
 *
 * The anchor is a balance read paired with the ledger having finished two polls after the read's
 * answer (the first may have asked the API before it; the second began after the first ended), so
 * that every entry dated before the read is stored. The day's close is then that balance less the
 * Completed entries dated from the day's end up to the read, among those stored. Entries dated at the
 * very instant of the read (give or take `CLOCK_MARGIN_MS`) may or may not be in it: the read is taken
 * again then, up to `ANCHOR_ATTEMPTS` times. Later reads add the Completed entries the ledger stored
 * after the anchor and dated before the day's end (late entries, which the balance read could not
 * hold) and say the figure was corrected.
 */
import type { Clock } from '../core/clock.js';
import type { Balances } from '../fleet/schemas.js';
import type { LedgerReader } from '../ledger/index.js';
import type { Logger } from '../core/logger.js';
import { toMinor } from '../core/money.js';
import type { Queryable } from '../store/db.js';
import { entriesDatedWithin, lastLedgerSeq, storeClosings, storedClosings, type BalanceAnchor, type ClosingDay } from './closing-store.js';
import type { ClosingBalance, ClosingBalanceGap } from './types.js';

/** Balance reads tried when entries keep landing at the instant of the read. */
const ANCHOR_ATTEMPTS = 3;
/** How far the API's clock and the app's may disagree on an entry's date at the instant of a read. */
const CLOCK_MARGIN_MS = 250;

export interface ClosingSources {
  /** Absent when the ledger is off. */
  ledger: LedgerReader | undefined;
  db: Queryable;
  clock: Clock;
  /** The current balance per currency (the Fleet client's `getBalance`). */
  balance: () => Promise<Balances>;
  /** How long to wait for the ledger's next two polls after a balance read; 0: do not wait. */
  ledgerWaitMs: number;
  logger: Logger;
}

export type DayClosing = { kind: 'known'; balances: Map<string, ClosingBalance & { known: true }> } | { kind: 'unknown'; reason: ClosingBalanceGap };

const unknown = (reason: ClosingBalanceGap): DayClosing => ({ kind: 'unknown', reason });

/** The closing balances of `day`, or why they cannot be known exactly. `signal` stops a wait for the ledger. */
export async function dayClosing(sources: ClosingSources, day: ClosingDay, signal: AbortSignal | undefined): Promise<DayClosing> {
  const { ledger, db, clock } = sources;
  if (!ledger) return unknown('ledger_off');
  if (day.end.getTime() > clock.now().getTime()) return unknown('day_not_over');
  const stored = await storedClosings(db, day);
  if (stored.size > 0) return { kind: 'known', balances: stored };
  if (!(await ledger.status()).historyComplete) return unknown('history_incomplete');
  const anchor = await takeAnchor(sources, ledger, signal);
  if ('reason' in anchor) return unknown(anchor.reason);
  await storeClosings(db, day, anchor, clock.now());
  // Read back: when another replica stored the day first, its figures are the day's.
  return { kind: 'known', balances: await storedClosings(db, day) };
}

/** A balance read the ledger vouches for, or why none could be had. */
async function takeAnchor(
  sources: ClosingSources,
  ledger: LedgerReader,
  signal: AbortSignal | undefined,
): Promise<BalanceAnchor | { reason: ClosingBalanceGap }> {
  const { db, clock, logger } = sources;
  for (let attempt = 1; ; attempt += 1) {
    const readStart = clock.now();
    let balances: Balances;
    try {
      balances = await sources.balance();
    } catch (error) {
      logger.warn({ err: error }, 'digest: the balance could not be read; the closing balance is left out');
      return { reason: 'balance_unavailable' };
    }
    const readEnd = clock.now();
    const caughtUp = await ledgerCaughtUp(sources, ledger, readEnd.getTime(), signal);
    if (caughtUp !== true) return { reason: caughtUp };
    const ledgerSeq = await lastLedgerSeq(db);
    const atTheRead = await entriesDatedWithin(db, new Date(readStart.getTime() - CLOCK_MARGIN_MS), new Date(readEnd.getTime() + CLOCK_MARGIN_MS), ledgerSeq);
    if (atTheRead === 0) {
      const balancesMinor = new Map(Object.entries(balances).map(([currency, amount]) => [currency, toMinor(amount, currency)] as const));
      return { balancesMinor, readStart, ledgerSeq };
    }
    if (attempt >= ANCHOR_ATTEMPTS) return { reason: 'balance_moving' };
    logger.info({ attempt, entries: atTheRead }, 'digest: entries landed at the instant the balance was read; reading it again');
  }
}

/**
 * True once the ledger finished two polls after `readAt` (waiting up to `ledgerWaitMs`), else why not:
 * the first poll may have asked the API before the read, the second began after the first ended.
 */
async function ledgerCaughtUp(
  sources: ClosingSources,
  ledger: LedgerReader,
  readAt: number,
  signal: AbortSignal | undefined,
): Promise<true | ClosingBalanceGap> {
  const { clock } = sources;
  const waitUntil = readAt + sources.ledgerWaitMs;
  let firstPollAfter: number | undefined;
  for (;;) {
    const status = await ledger.status();
    if (!status.historyComplete) return 'history_incomplete';
    const polledAt = status.upToDateSince ? status.lastPollAt?.getTime() : undefined;
    if (polledAt !== undefined && polledAt >= readAt) {
      if (firstPollAfter === undefined) firstPollAfter = polledAt;
      else if (polledAt > firstPollAfter) return true;
    }
    if (clock.now().getTime() >= waitUntil) return 'ledger_behind';
    await clock.sleep(Math.min(1000, Math.max(1, waitUntil - clock.now().getTime())), signal);
  }
}

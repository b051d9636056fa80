/**
 * The runway: per currency, how many days the fleet account's balance lasts at the pace of the last
 * whole days. The one place this figure is computed; `/fleet runway`, the Home, the digest, the
 * chart and the alert all read it. Payouts credit the fleet account (spec §1); what drains it are its
 * debits (card funding, `B2B_JIT_FUNDING`), so the pace is the net of both, from the ledger's
 * completed entries, in exact minor units.
 */
import type { BalanceReading } from '../account/account-reader.js';
import { addDays, dayIn, previousDay, startOfDay } from '../core/calendar.js';
import type { Clock } from '../core/clock.js';
import type { LedgerReader } from '../ledger/index.js';
import { toMinor } from '../core/money.js';
import type { RunwaySettings } from './settings.js';

const COMPLETED = 'COMPLETED';

/**
 * Why there is no figure: the ledger is off (`LEDGER_ENABLED=false`), or it holds no whole day
 * before today yet (a new install, or a history still loading from today's entries).
 */
export type RunwayGap = 'ledger_off' | 'no_whole_day';

/** One day's closing balance, as the chart draws it. */
export interface DayBalance {
  day: string;
  balanceMinor: number;
}

export interface CurrencyRunway {
  currency: string;
  /** The balance now, as the Fleet API gave it, in minor units. */
  balanceMinor: number;
  /** The average net flow of one day over the days read, in minor units (not rounded): negative when falling. */
  averageDailyNetMinor: number;
  /** Set only when the balance falls: how many days it lasts at this pace (0 when it is already nil or below). */
  daysLeft?: number;
  /** Set only when the balance falls: the calendar day it reaches zero at this pace. */
  zeroDay?: string;
  /** The closing balance of each day read, oldest first, worked back from the balance now. */
  history: DayBalance[];
}

export type Runway =
  | {
      known: true;
      /** Today in `timeZone`; its entries so far are left out of the pace. */
      today: string;
      timeZone: string;
      /** RUNWAY_WINDOW_DAYS. */
      windowDays: number;
      /** How many whole days the pace was taken over: `windowDays`, or fewer when the ledger holds fewer. */
      daysRead: number;
      firstDay: string;
      lastDay: string;
      /** When the balance was read. */
      readAt: Date;
      /** Every currency of the balance, sorted by code. */
      currencies: CurrencyRunway[];
    }
  | { known: false; reason: RunwayGap; windowDays: number };

export interface RunwayOptions {
  /** Absent when the ledger is off. */
  ledger: LedgerReader | undefined;
  /** The balance the rest of the app reads (the account reader's, cached a few seconds). */
  balance: (options: { signal?: AbortSignal }) => Promise<BalanceReading>;
  clock: Clock;
  settings: RunwaySettings;
}

/** Computes the runway of every currency of the balance now. */
export async function computeRunway(options: RunwayOptions, request: { signal?: AbortSignal } = {}): Promise<Runway> {
  const { ledger, settings, clock } = options;
  const windowDays = settings.windowDays;
  if (!ledger) return { known: false, reason: 'ledger_off', windowDays };
  const today = dayIn(clock.now(), settings.timeZone);
  const lastDay = previousDay(today);
  const firstDay = await firstDayHeld(ledger, addDays(today, -windowDays), settings.timeZone);
  if (firstDay === undefined || firstDay > lastDay) return { known: false, reason: 'no_whole_day', windowDays };
  const daysRead = daysBetween(firstDay, today);

  const [reading, flows] = await Promise.all([
    options.balance({ signal: request.signal }),
    netFlowsByDay(ledger, startOfDay(firstDay, settings.timeZone), settings.timeZone, request.signal),
  ]);
  const currencies = Object.entries(reading.balances)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([currency, amount]): CurrencyRunway => {
      const balanceMinor = toMinor(amount, currency);
      const byDay = flows.get(currency) ?? new Map<string, number>();
      let net = 0;
      for (let day = firstDay; day < today; day = addDays(day, 1)) net += byDay.get(day) ?? 0;
      const averageDailyNetMinor = net / daysRead;
      const history = closingBalances(balanceMinor, byDay, firstDay, today);
      if (averageDailyNetMinor >= 0) return { currency, balanceMinor, averageDailyNetMinor, history };
      const daysLeft = Math.max(0, balanceMinor / -averageDailyNetMinor);
      return { currency, balanceMinor, averageDailyNetMinor, daysLeft, zeroDay: addDays(today, Math.floor(daysLeft)), history };
    });
  return { known: true, today, timeZone: settings.timeZone, windowDays, daysRead, firstDay, lastDay, readAt: reading.readAt, currencies };
}

/**
 * The first whole day the ledger holds within the window (`windowStart` when it holds days before
 * it): the day of its oldest entry while its history is complete, the day after while it still loads
 * (that day may be only partly read). Undefined when it holds nothing.
 */
async function firstDayHeld(ledger: LedgerReader, windowStart: string, timeZone: string): Promise<string | undefined> {
  let oldest: string | undefined;
  for await (const entry of ledger.stream({}, { batchSize: 1 })) {
    oldest = entry.date;
    break;
  }
  if (oldest === undefined) return undefined;
  const oldestDay = dayIn(new Date(oldest), timeZone);
  if (oldestDay < windowStart) return windowStart;
  const { historyComplete } = await ledger.status();
  return historyComplete ? oldestDay : addDays(oldestDay, 1);
}

/** Completed entries from `since` on (today's too, to work back from the balance now), summed per currency and day. */
async function netFlowsByDay(ledger: LedgerReader, since: Date, timeZone: string, signal?: AbortSignal): Promise<Map<string, Map<string, number>>> {
  const flows = new Map<string, Map<string, number>>();
  for await (const entry of ledger.stream({ since, status: COMPLETED }, { batchSize: 1000, ...(signal ? { signal } : {}) })) {
    let byDay = flows.get(entry.currency);
    if (!byDay) flows.set(entry.currency, (byDay = new Map<string, number>()));
    const day = dayIn(new Date(entry.date), timeZone);
    byDay.set(day, (byDay.get(day) ?? 0) + entry.amountMinor);
  }
  return flows;
}

/** Each day's closing balance from `firstDay` to the day before `today`, worked back from the balance now. */
function closingBalances(balanceMinor: number, byDay: ReadonlyMap<string, number>, firstDay: string, today: string): DayBalance[] {
  // Today's entries so far are in the balance now: taking them off gives yesterday's close.
  let closing = balanceMinor;
  for (const [day, net] of byDay) if (day >= today) closing -= net;
  const history: DayBalance[] = [];
  for (let day = previousDay(today); day >= firstDay; day = previousDay(day)) {
    history.unshift({ day, balanceMinor: closing });
    closing -= byDay.get(day) ?? 0;
  }
  return history;
}

/** How many calendar days from `from` (included) to `to` (excluded). */
function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

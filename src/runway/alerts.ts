/**
 * The runway alert: one message when a currency's days left fall below RUNWAY_ALERT_DAYS, one when
 * they rise back to it or above (or the balance stops falling), once per crossing across replicas and
 * restarts. The crossing state is the low-balance alerts' (`feed_balance_alerts`, kind `runway`), and
 * a side changes in one conditional statement, so that of replicas checking at once only one posts.
 * Every replica checks on its own timer, whether the feed is on or not.
 */
import type { Clock } from '../core/clock.js';
import { claimCrossing, releaseCrossing } from '../feed/feed-store.js';
import type { Queryable } from '../store/db.js';
import type { CurrencyRunway, Runway } from './figure.js';

export interface RunwayAlert {
  kind: 'runway_low' | 'runway_recovered';
  currency: CurrencyRunway;
  /** RUNWAY_ALERT_DAYS. */
  alertDays: number;
}

export interface RunwayAlertOptions {
  db: Queryable;
  clock: Clock;
  alertDays: number;
  /** Posts one alert; resolves once Slack accepted it. */
  post: (alert: RunwayAlert) => Promise<void>;
}

/** Whether a currency is below the line: falling, with fewer days left than `alertDays`. */
export function isBelow(currency: CurrencyRunway, alertDays: number): boolean {
  return currency.daysLeft !== undefined && currency.daysLeft < alertDays;
}

/** Checks every currency of `runway`; returns how many alerts this caller posted. No figure: nothing changes. */
export async function checkRunwayAlerts(runway: Runway, options: RunwayAlertOptions): Promise<number> {
  if (!runway.known || options.alertDays <= 0) return 0;
  let posted = 0;
  for (const currency of runway.currencies) {
    const below = isBelow(currency, options.alertDays);
    const state = { below, balanceMinor: currency.balanceMinor, thresholdMinor: options.alertDays, changedAt: options.clock.now() };
    if (!(await claimCrossing(options.db, 'runway', currency.currency, state))) continue;
    try {
      await options.post({ kind: below ? 'runway_low' : 'runway_recovered', currency, alertDays: options.alertDays });
      posted += 1;
    } catch (error) {
      // Given back, so that the next check (here or on another replica) announces it.
      await releaseCrossing(options.db, 'runway', currency.currency, state);
      throw error;
    }
  }
  return posted;
}

export interface RunwayWatchOptions extends RunwayAlertOptions {
  /** The runway now. */
  runway: () => Promise<Runway>;
  /** False while the figure cannot be trusted yet (the ledger's history still loading): the check waits. */
  ready: () => Promise<boolean>;
}

/** The runway alert's check, run at once and then every minute by the wiring's periodic job. */
export class RunwayWatch {
  constructor(private readonly options: RunwayWatchOptions) {}

  /** One check now; resolves with how many alerts it posted. */
  async checkOnce(): Promise<number> {
    if (!(await this.options.ready())) return 0;
    return checkRunwayAlerts(await this.options.runway(), this.options);
  }
}

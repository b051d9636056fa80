/**
 * Low-balance alerts: compares each watched currency's balance with its threshold and posts once
 * when it falls below and once when it recovers. The last state per currency is in the store, so
 * restarts and replicas do not repeat an alert.
 */
import type { Clock } from '../core/clock.js';
import type { FleetApi } from '../fleet/schemas.js';
import { toMinor, type CurrencyAmounts } from '../core/money.js';
import type { Queryable } from '../store/db.js';
import { loadBalanceAlertStates, saveBalanceAlertState } from './feed-store.js';
import type { FeedPost } from './types.js';

export interface BalanceCheckOptions {
  fleet: FleetApi;
  db: Queryable;
  clock: Clock;
  thresholds: CurrencyAmounts;
  /** Posts one alert; resolves once Slack accepted it. */
  post: (alert: FeedPost) => Promise<void>;
  signal?: AbortSignal;
}

/** Returns how many alerts were posted. A currency missing from the balance is left as it was. */
export async function checkBalanceAlerts(options: BalanceCheckOptions): Promise<number> {
  if (options.thresholds.size === 0) return 0;
  const balances = await options.fleet.getBalance({ signal: options.signal });
  const previous = await loadBalanceAlertStates(options.db);
  let posted = 0;
  for (const [currency, thresholdMinor] of options.thresholds) {
    const amount = balances[currency];
    if (amount === undefined) continue;
    const balanceMinor = toMinor(amount, currency);
    const below = balanceMinor < thresholdMinor;
    const known = previous.get(currency);
    // A currency first seen above its threshold is simply remembered: there is nothing to report.
    const crossed = known ? known.below !== below : below;
    if (crossed) {
      await options.post({ kind: below ? 'balance_low' : 'balance_recovered', currency, balanceMinor, thresholdMinor });
      posted += 1;
    }
    if (crossed || !known) {
      await saveBalanceAlertState(options.db, currency, { below, balanceMinor, thresholdMinor, changedAt: options.clock.now() });
    }
  }
  return posted;
}

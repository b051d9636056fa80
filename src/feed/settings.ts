/** What the live transaction feed needs from the configuration; `config.ts` maps the environment onto it. */
import type { CurrencyAmounts } from '../core/money.js';

export interface FeedSettings {
  /** Where new transactions are posted; the feed does not start without it. */
  channelId: string | undefined;
  pollIntervalSeconds: number;
  /** The most transactions one poll posts after a long pause. */
  maxBacklog: number;
  /** How many past transactions the first start posts. */
  backfill: number;
  /** Low-balance thresholds per currency; empty: no alerts. */
  balanceAlertBelow: CurrencyAmounts;
  /** Where low-balance alerts go; the feed's channel when unset. */
  alertChannelId: string | undefined;
}

/** What bulk payouts need from the configuration; `config.ts` maps the environment onto it. */
export interface PayoutBatchSettings {
  /** The most data rows one file may hold (PAYOUT_BATCH_MAX_ROWS). */
  maxRows: number;
  /** The most rows sent per second, across every replica together (PAYOUT_BATCH_RATE). */
  ratePerSecond: number;
}

/** What the ledger needs from the configuration; `config.ts` maps the environment onto it. */
export interface LedgerSettings {
  /** Off: no sync, and `/fleet tx` filters and exports have no ledger to read. */
  enabled: boolean;
  /** How often the newest entries are read. */
  pollIntervalSeconds: number;
  /** Pause between two pages of the history walk and of a re-walk, so that the API is never flooded. */
  historyPageDelayMs: number;
  /** How often the recent pages are read again for entries the API listed late; 0: never. */
  sweepMinutes: number;
  /** How often the whole list is walked again for late entries; 0: never. */
  rewalkHours: number;
  /** IANA time zone in which calendar days of filters and exports are read. */
  timeZone: string;
}

export const DEFAULT_LEDGER_SETTINGS: LedgerSettings = {
  enabled: true,
  pollIntervalSeconds: 15,
  historyPageDelayMs: 1000,
  sweepMinutes: 2,
  rewalkHours: 24,
  timeZone: 'UTC',
};

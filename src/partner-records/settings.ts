/** What the records check needs from the configuration; `config.ts` maps the environment onto it. */
export interface RecordsSettings {
  /** The largest records file read at all, in bytes (RECORDS_MAX_BYTES). */
  maxBytes: number;
  /** The most data rows a records file may hold (RECORDS_MAX_ROWS). */
  maxRows: number;
  /** How many calendar days apart a record and a ledger entry may be and still match by amount (RECORDS_MATCH_TOLERANCE_DAYS). */
  toleranceDays: number;
}

export const DEFAULT_RECORDS_SETTINGS: RecordsSettings = {
  maxBytes: 10 * 1024 * 1024,
  maxRows: 50_000,
  toleranceDays: 1,
};

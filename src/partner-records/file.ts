/**
 * What every reader of a records file shares: the record the match takes and the limits a file is
 * read within. How a file's columns are read is its import profile's (`profile-reader.ts`); its
 * rows come from the one table reader (`core/table-file.ts`).
 */

/** One line of the partner's records, as the fleet account sees it. */
export interface PartnerRecord {
  /** The row as a spreadsheet numbers it (the header is row 1). */
  row: number;
  /** Empty when the row gives none. */
  reference: string;
  /** The calendar day in LEDGER_TIMEZONE. */
  day: string;
  /** The instant, when the row gives a time; a day alone has none. */
  at: number | undefined;
  /** The date as written, for the exceptions file. */
  dateText: string;
  /** Signed, exact minor units: a credit to the fleet account is positive, a debit negative. */
  amountMinor: number;
  currency: string;
  note: string;
}

export interface RecordsLimits {
  maxBytes: number;
  maxRows: number;
  /** LEDGER_TIMEZONE: days and times without an offset are read there. */
  timeZone: string;
  /** Currencies the account knows; any other is refused. */
  currencies: ReadonlySet<string>;
}

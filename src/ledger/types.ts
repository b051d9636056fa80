/**
 * The ledger's shapes: one stored copy of each fleet account transaction, the filters people search
 * it with, and what the rest of the app may ask of it. No Slack here: the `/fleet tx` text, the
 * Filter modal and the export read and write these types.
 */

/** One transaction of the fleet account as stored locally. */
export interface LedgerEntry {
  /**
   * What identifies the entry in the ledger. The spec does not promise unique references, so it is
   * derived from reference, date, amount and currency (see the ledger store for the exact rule).
   */
  key: string;
  reference: string;
  /** As the API sent it; values beyond `PAYMENT` / `B2B_JIT_FUNDING` are kept as text. */
  type: string;
  /** Signed amount in exact minor units: a credit to the fleet account is positive, a debit negative. */
  amountMinor: number;
  currency: string;
  description: string;
  /** ISO 8601 UTC timestamp as the API sent it. */
  date: string;
  /** As the API sent it (`Completed` is the only value seen). */
  status: string;
  /** When this app first stored the entry. */
  firstSeenAt: Date;
  /** Found after entries with a later `date` were already stored (a late entry). */
  late: boolean;
}

export type Direction = 'in' | 'out';

/**
 * A search over the ledger. Every field narrows the result; an empty filter matches everything.
 * Dates are instants: calendar days are turned into instants by the caller, in LEDGER_TIMEZONE.
 */
export interface LedgerFilter {
  /** Upper-case currency code. */
  currency?: string;
  /** Exact `type` as stored (compared case-insensitively). */
  type?: string;
  /** Exact `status` as stored (compared case-insensitively). */
  status?: string;
  /** `in`: credits to the fleet account (amount > 0); `out`: debits (amount < 0). */
  direction?: Direction;
  /** Entries dated at or after this instant. */
  since?: Date;
  /** Entries dated before this instant (exclusive). */
  before?: Date;
  /**
   * Smallest and largest absolute amount, as exact decimal strings in the entry's own currency
   * (`"100"`, `"5000.50"`): `min:100` matches 100.00 USD and 100 JPY alike.
   */
  minAmount?: string;
  maxAmount?: string;
  /** Words and quoted phrases; each must appear (case-insensitively) in the reference or the description. */
  words?: string[];
  /**
   * Only entries the ledger had stored up to this point (a `LedgerPage.storedUpTo` of an earlier
   * read): paging with it keeps the pages a person turns through fixed while new entries arrive.
   */
  storedUpTo?: number;
}

/** Up to this many matches a page says exactly how many there are; beyond, "more than" this. */
export const MATCH_COUNT_LIMIT = 10_000;

/**
 * Where a page starts. Pages turned with buttons are read by keyset, from the entry where the page
 * shown ended (its `seq`), so a page costs the same however deep it is; a typed page number is an
 * offset; the last page is read from the other end (oldest first) and shown newest first.
 */
export type PagePosition =
  | { offset: number }
  /** The entries older than this one (Next). */
  | { after: number }
  /** The entries newer than this one (Previous). */
  | { before: number }
  | { last: true };

export interface LedgerPage {
  /** Newest first (by `date`, then the order the ledger stored them in). */
  entries: LedgerEntry[];
  /** How many entries match the filter in all, up to `MATCH_COUNT_LIMIT`; see `totalCapped`. */
  total: number;
  /** True when more than `MATCH_COUNT_LIMIT` entries match: `total` is then the limit, not the count. */
  totalCapped: boolean;
  /** Matches newer than this page (a Previous page) and older than it (a Next page). */
  hasPrevious: boolean;
  hasNext: boolean;
  /** The `seq` of the page's first and last entries, where Previous and Next start from; absent for an empty page. */
  bounds?: { first: number; last: number };
  /** The point in the ledger this page was read at: the filter's `storedUpTo`, or the newest entry stored then. */
  storedUpTo: number;
  /** With a `storedUpTo` in the filter: how many matching entries the ledger stored since (up to `MATCH_COUNT_LIMIT` + 1). */
  newer: number;
}

export interface LedgerStatus {
  /** Entries stored. */
  loaded: number;
  /** True once the whole history has been walked at least once. */
  historyComplete: boolean;
  /** An estimate of the account's whole history while it is still loading; undefined when unknown. */
  estimatedTotal: number | undefined;
  /** Since when the ledger has been complete up to the latest poll; undefined while it is not. */
  upToDateSince: Date | undefined;
  /** Last successful poll of the newest entries. */
  lastPollAt: Date | undefined;
}

/** What the app's surfaces may ask of the ledger (implemented over the store, PGlite or Postgres). */
export interface LedgerReader {
  /** One page of matches, newest first, and how many match in all (exactly up to `MATCH_COUNT_LIMIT`). */
  find(filter: LedgerFilter, page: PagePosition & { limit: number }): Promise<LedgerPage>;
  /** How many entries match. */
  count(filter: LedgerFilter): Promise<number>;
  /** Every match, oldest first, read in batches so that memory stays flat whatever the count. */
  stream(filter: LedgerFilter, options?: { batchSize?: number; signal?: AbortSignal }): AsyncIterable<LedgerEntry>;
  status(): Promise<LedgerStatus>;
}

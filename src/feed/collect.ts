/**
 * Reads what is new since the cursor: a small first page, then larger pages only while every entry
 * on a page is new (or, from a local copy, down to the cursor's floor), up to the backlog limit.
 * Pages overlap when entries arrive mid-read (the list shifts down); overlapping entries are
 * recognised by key and kept once.
 */
import type { FleetApi, Transaction } from '../fleet/schemas.js';
import { entryKey, entryMs, isNewEntry, type FeedCursor } from './cursor.js';

export const FIRST_PAGE_SIZE = 10;
export const PAGE_SIZE = 100;
/** Beyond the backlog, pages read only to count what is left out; past this, the count says "at least". */
const MAX_COUNTING_PAGES = 20;
/** Reading down to the floor stops after this many pages (the cursor keeps MAX_KEYS keys: about 5 pages). */
const MAX_FLOOR_PAGES = 12;

export interface CollectOptions {
  maxBacklog: number;
  signal?: AbortSignal;
  /**
   * Read on past entries already posted, down to the cursor's floor: every entry at or above it is
   * known by its key, so one stored late below newer ones is found at this poll, not left to the
   * sweep. For a local copy (the ledger), where a page is a query; a page of the API is a request,
   * so without it a poll stops at the first page that holds a posted entry.
   */
  toFloor?: boolean;
}

export interface CollectedEntries {
  /** New entries to post, oldest first, at most `maxBacklog` (the newest ones when there were more). */
  entries: Transaction[];
  /** Older new entries left out because of the backlog limit. */
  skipped: number;
  /** True when counting stopped before reaching the cursor: `skipped` is a lower bound. */
  skippedAtLeast: boolean;
  /** Keys of left-out entries sharing the oldest posted entry's millisecond (so they stay left out). */
  skippedKeysAtBoundary: Map<string, number>;
  fleetRequests: number;
  /** Entries of the pages read that could not be read (malformed) and were left out. */
  unreadable: number;
}

export async function collectNewEntries(fleet: FleetApi, cursor: FeedCursor, options: CollectOptions): Promise<CollectedEntries> {
  const found = new Map<string, Transaction>();
  let offset = 0;
  let limit = FIRST_PAGE_SIZE;
  let fleetRequests = 0;
  let unreadable = 0;
  let reachedCursor = false;
  // Read one entry past the backlog so that we know whether anything was left out.
  while (!reachedCursor && found.size <= options.maxBacklog) {
    const page = await fleet.listTransactions({ limit, offset }, { signal: options.signal });
    fleetRequests += 1;
    unreadable += page.malformed;
    const sawPosted = addNewEntries(page.transactions, cursor, found);
    const oldest = page.transactions.at(-1);
    const pastFloor = oldest === undefined || entryMs(oldest) < cursor.floorMs || fleetRequests >= MAX_FLOOR_PAGES;
    reachedCursor = page.received < limit || (options.toFloor ? sawPosted && pastFloor : sawPosted);
    offset += page.received;
    limit = PAGE_SIZE;
  }

  const newestFirst = [...found.values()];
  const entries = oldestFirst(newestFirst.slice(0, options.maxBacklog));
  const leftOut = newestFirst.slice(options.maxBacklog);
  const boundaryMs = entries[0] ? entryMs(entries[0]) : undefined;
  const skippedKeysAtBoundary = new Map<string, number>();
  const noteIfAtBoundary = (tx: Transaction) => {
    if (entryMs(tx) === boundaryMs) skippedKeysAtBoundary.set(entryKey(tx), entryMs(tx));
  };
  leftOut.forEach(noteIfAtBoundary);

  const rest =
    leftOut.length > 0 && !reachedCursor
      ? await countRestOfBacklog(fleet, cursor, { offset, counted: new Set(found.keys()), onLeftOut: noteIfAtBoundary, signal: options.signal })
      : { count: 0, atLeast: false, fleetRequests: 0 };
  return {
    entries,
    skipped: leftOut.length + rest.count,
    skippedAtLeast: rest.atLeast,
    skippedKeysAtBoundary,
    fleetRequests: fleetRequests + rest.fleetRequests,
    unreadable,
  };
}

interface CountOptions {
  /** Where reading stopped. */
  offset: number;
  /** Keys of the new entries already read (pages shift while entries arrive). */
  counted: Set<string>;
  onLeftOut: (tx: Transaction) => void;
  signal?: AbortSignal;
}

/** Beyond the backlog, reads on only to count the new entries left out, up to MAX_COUNTING_PAGES. */
async function countRestOfBacklog(fleet: FleetApi, cursor: FeedCursor, options: CountOptions) {
  let { offset } = options;
  let count = 0;
  for (let pages = 0; pages < MAX_COUNTING_PAGES; pages += 1) {
    const page = await fleet.listTransactions({ limit: PAGE_SIZE, offset }, { signal: options.signal });
    offset += page.received;
    let sawOld = false;
    for (const tx of page.transactions) {
      const key = entryKey(tx);
      if (!isNewEntry(cursor, tx)) sawOld = true;
      else if (!options.counted.has(key)) {
        options.counted.add(key);
        count += 1;
        options.onLeftOut(tx);
      }
    }
    if (sawOld || page.received < PAGE_SIZE) return { count, atLeast: false, fleetRequests: pages + 1 };
  }
  return { count, atLeast: true, fleetRequests: MAX_COUNTING_PAGES };
}

/** Adds the page's new entries to `found`; returns true when the page also held an entry already posted. */
function addNewEntries(page: Transaction[], cursor: FeedCursor, found: Map<string, Transaction>): boolean {
  let sawOld = false;
  for (const tx of page) {
    if (!isNewEntry(cursor, tx)) sawOld = true;
    else {
      const key = entryKey(tx);
      if (!found.has(key)) found.set(key, tx);
    }
  }
  return sawOld;
}

/** The API lists newest first; the channel reads oldest first. Same-millisecond entries keep list order reversed. */
function oldestFirst(newestFirst: Transaction[]): Transaction[] {
  return newestFirst
    .map((tx, index) => ({ tx, ms: entryMs(tx), index }))
    .sort((a, b) => a.ms - b.ms || b.index - a.index)
    .map(({ tx }) => tx);
}

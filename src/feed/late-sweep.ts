/**
 * The late sweep: now and then, finds entries the cursor takes for posted that never were.
 * - With the ledger (the feed's source), it compares every entry the ledger stored in the last day
 *   with what the feed posted: the ledger holds every entry, so a gap is found whatever its cause
 *   (an entry listed late, or one a poll missed), and each entry is compared once, by the ledger's
 *   insertion order, so a sweep costs what was stored since the last one.
 * - Without it, it reads the newest pages of the API further than a poll does, for entries that
 *   showed up in the list after newer ones had been posted; bounded in pages and in age.
 */
import type { FleetApi, Transaction } from '../fleet/schemas.js';
import type { Queryable } from '../store/db.js';
import { PAGE_SIZE } from './collect.js';
import { entryKey, entryMs, type FeedCursor } from './cursor.js';
import { postedKeysAmong } from './feed-store.js';
import type { FeedSource } from './types.js';

/** The sweep runs on one poll in this many (every 5 minutes at the default 15 s interval). */
export const LATE_SWEEP_EVERY_POLLS = 20;
/** It reads at most this many pages of PAGE_SIZE entries, newest first. */
const LATE_SWEEP_PAGES = 5;
/**
 * It looks at entries dated at most this long before the database's now: well inside
 * POSTED_ENTRY_RETENTION_MS, so that every entry it looks at and that was posted is still known.
 */
export const LATE_SWEEP_HORIZON_MS = 24 * 60 * 60 * 1000;

export interface LateSweepOptions {
  fleet: FleetApi;
  db: Queryable;
  channelId: string;
  cursor: FeedCursor;
  /** The database's clock. */
  nowMs: number;
  signal?: AbortSignal;
}

/** Entries never posted although dated before the newest posted one, oldest first. */
export async function findLateEntries(options: LateSweepOptions): Promise<{ entries: Transaction[]; fleetRequests: number }> {
  const { fleet, cursor } = options;
  const fromMs = Math.max(cursor.sweepFromMs, options.nowMs - LATE_SWEEP_HORIZON_MS);
  const unknown = new Map<string, Transaction>();
  let offset = 0;
  let fleetRequests = 0;
  while (fleetRequests < LATE_SWEEP_PAGES) {
    const page = await fleet.listTransactions({ limit: PAGE_SIZE, offset }, { signal: options.signal });
    fleetRequests += 1;
    offset += page.received;
    for (const tx of page.transactions) {
      const ms = entryMs(tx);
      // Newer than the newest posted: the poll's own business, not late.
      if (ms >= fromMs && ms <= cursor.newestMs && !cursor.keys.has(entryKey(tx))) unknown.set(entryKey(tx), tx);
    }
    const oldest = page.transactions.at(-1);
    if (page.received < PAGE_SIZE || !oldest || entryMs(oldest) < fromMs) break;
  }
  const posted = await postedKeysAmong(options.db, options.channelId, [...unknown.keys()]);
  const entries = [...unknown].filter(([key]) => !posted.has(key)).map(([, tx]) => tx);
  return { entries: entries.sort((a, b) => entryMs(a) - entryMs(b)), fleetRequests };
}

/** Entries the sweep over the ledger reads at once, and the most it reads in one sweep. */
const STORED_BATCH = 1_000;
const STORED_BATCHES_PER_SWEEP = 50;

export interface StoredSweepOptions {
  source: FeedSource;
  db: Queryable;
  channelId: string;
  cursor: FeedCursor;
  /** Where the last sweep stopped comparing (undefined: the start of the last day). */
  afterPosition: number | undefined;
  /** The database's clock. */
  nowMs: number;
}

export interface StoredSweep {
  /** Entries the ledger holds that the feed never posted although it posted newer ones, oldest first. */
  entries: Transaction[];
  /**
   * Every entry stored up to here is settled once `entries` are posted: posted, out of reach (before
   * the feed's start or the last day), or in `entries`. Entries newer than the newest posted and not
   * yet posted are the poll's business: the position stops before the first of them.
   */
  settledPosition: number | undefined;
}

/** Compares what the ledger stored since the last sweep with what the feed posted. */
export async function findUnpostedStoredEntries(options: StoredSweepOptions): Promise<StoredSweep> {
  const { source, cursor } = options;
  const fromMs = Math.max(cursor.sweepFromMs, options.nowMs - LATE_SWEEP_HORIZON_MS);
  const missing = new Map<string, Transaction>();
  let position = options.afterPosition;
  let settledPosition = options.afterPosition;
  let undecided = false;
  for (let batches = 0; batches < STORED_BATCHES_PER_SWEEP; batches += 1) {
    const stored = await source.storedSince(position, fromMs, STORED_BATCH);
    const keys = stored.map(({ transaction }) => entryKey(transaction));
    const posted = await postedKeysAmong(options.db, options.channelId, keys);
    for (const [index, { position: at, transaction }] of stored.entries()) {
      const key = keys[index] as string;
      if (!posted.has(key) && !cursor.keys.has(key)) {
        if (entryMs(transaction) > cursor.newestMs) undecided = true;
        else missing.set(key, transaction);
      }
      if (!undecided) settledPosition = at;
    }
    position = stored.at(-1)?.position ?? position;
    if (stored.length < STORED_BATCH) break;
  }
  const entries = [...missing.values()].sort((a, b) => entryMs(a) - entryMs(b));
  return { entries, settledPosition };
}

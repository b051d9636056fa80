/**
 * The late sweep: now and then, reads the newest pages further than a poll does and finds entries
 * the cursor takes for posted that never were, because they showed up in the list after newer ones
 * had been posted. Bounded in pages and in age, so it stays cheap; the ledger will replace it.
 */
import type { FleetApi, Transaction } from '../fleet/schemas.js';
import type { Queryable } from '../store/db.js';
import { PAGE_SIZE } from './collect.js';
import { entryKey, entryMs, type FeedCursor } from './cursor.js';
import { postedKeysAmong } from './feed-store.js';

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

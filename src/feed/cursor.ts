/**
 * The feed's durable cursor: which entries count as already posted. It remembers the newest date
 * posted and the keys of entries at and shortly before it (bounded), so that entries sharing a
 * millisecond, or showing up a little late, are told apart from the ones already in the channel.
 */
import type { Transaction } from '../fleet/schemas.js';

/** Keys are kept for entries this far before the newest one posted. */
export const KEY_WINDOW_MS = 10 * 60 * 1000;
/** At most this many keys are kept (whole milliseconds are dropped, oldest first, beyond it). */
export const MAX_KEYS = 500;

export interface FeedCursor {
  /** Date (ms) of the newest entry posted; 0 when nothing is known yet. */
  newestMs: number;
  /** Every posted entry dated at or after `floorMs` has its key in `keys`; older entries count as posted. */
  floorMs: number;
  /** Entry key → entry date (ms). */
  keys: ReadonlyMap<string, number>;
}

/** A cursor that treats every entry as new. */
export const EMPTY_CURSOR: FeedCursor = { newestMs: 0, floorMs: 0, keys: new Map() };

export function entryMs(tx: Transaction): number {
  return Date.parse(tx.date);
}

/**
 * References are not promised unique by the spec, so a key combines everything that identifies an
 * entry. Two entries identical in all of these are indistinguishable and posted once.
 */
export function entryKey(tx: Transaction): string {
  return [tx.reference, new Date(entryMs(tx)).toISOString(), String(tx.amount), tx.currency, tx.type].join('|');
}

export function isNewEntry(cursor: FeedCursor, tx: Transaction): boolean {
  const ms = entryMs(tx);
  if (ms > cursor.newestMs) return true;
  if (ms < cursor.floorMs) return false;
  return !cursor.keys.has(entryKey(tx));
}

/**
 * The cursor for a feed that starts now without backfill: everything on the newest page is past.
 * `pageWasFull` says whether older entries may exist beyond the page.
 */
export function cursorAtNewest(newestPage: Transaction[], pageWasFull: boolean): FeedCursor {
  if (newestPage.length === 0) return EMPTY_CURSOR;
  const dates = newestPage.map(entryMs);
  const newestMs = Math.max(...dates);
  // Entries sharing the page's oldest millisecond may continue on the next page: treat that whole
  // millisecond as past rather than keep only the keys we happened to see.
  const floorMs = pageWasFull ? Math.min(...dates) + 1 : 0;
  const keys = new Map(newestPage.filter((tx) => entryMs(tx) >= floorMs).map((tx) => [entryKey(tx), entryMs(tx)] as const));
  return trimCursor({ newestMs, floorMs, keys });
}

/** The cursor for a first start with FEED_BACKFILL=N: `nthNewest` is the Nth newest entry, if any. */
export function cursorForBackfill(nthNewest: Transaction | undefined): FeedCursor {
  if (!nthNewest) return EMPTY_CURSOR;
  const ms = entryMs(nthNewest);
  return { newestMs: ms - 1, floorMs: ms, keys: new Map() };
}

export interface AdvanceOptions {
  /** Treat everything before this date as posted (after an overflow skipped older entries). */
  raiseFloorTo?: number;
  /** Keys of entries that were deliberately left out and must never be posted later. */
  skippedKeys?: ReadonlyMap<string, number>;
}

/** The cursor after Slack accepted a message carrying `posted`. */
export function advanceCursor(cursor: FeedCursor, posted: Transaction[], options: AdvanceOptions = {}): FeedCursor {
  const keys = new Map(cursor.keys);
  let newestMs = cursor.newestMs;
  for (const tx of posted) {
    const ms = entryMs(tx);
    keys.set(entryKey(tx), ms);
    if (ms > newestMs) newestMs = ms;
  }
  for (const [key, ms] of options.skippedKeys ?? []) keys.set(key, ms);
  const floorMs = Math.max(cursor.floorMs, options.raiseFloorTo ?? 0);
  return trimCursor({ newestMs, floorMs, keys });
}

/** Drops keys older than the window, then whole milliseconds beyond MAX_KEYS, moving the floor up. */
export function trimCursor(cursor: FeedCursor): FeedCursor {
  let floorMs = Math.max(cursor.floorMs, cursor.newestMs - KEY_WINDOW_MS);
  let kept = [...cursor.keys].filter(([, ms]) => ms >= floorMs);
  if (kept.length > MAX_KEYS) {
    kept.sort((a, b) => a[1] - b[1]);
    let drop = 0;
    while (kept.length - drop > MAX_KEYS) {
      const ms = kept[drop]?.[1] ?? cursor.newestMs;
      // The newest millisecond is never dropped: its keys are what tells same-millisecond entries apart.
      if (ms >= cursor.newestMs) break;
      while (drop < kept.length && kept[drop]?.[1] === ms) drop += 1;
      floorMs = ms + 1;
    }
    kept = kept.slice(drop);
  }
  return { newestMs: cursor.newestMs, floorMs, keys: new Map(kept) };
}

export interface StoredCursor {
  newestMs: number;
  floorMs: number;
  keys: Array<[string, number]>;
}

export function serializeCursor(cursor: FeedCursor): StoredCursor {
  return { newestMs: cursor.newestMs, floorMs: cursor.floorMs, keys: [...cursor.keys] };
}

export function deserializeCursor(stored: StoredCursor): FeedCursor {
  return { newestMs: stored.newestMs, floorMs: stored.floorMs, keys: new Map(stored.keys) };
}

/**
 * The feed's durable cursor: which entries count as already posted. It remembers the newest date
 * posted and the keys of entries at and shortly before it (bounded), so that entries sharing a
 * millisecond, or showing up a little late, are told apart from the ones already in the channel.
 * The newest date never goes past the database's now plus MAX_CLOCK_SKEW_MS: an entry dated further
 * ahead is remembered by its key alone, so it cannot make the entries dated before it look posted.
 */
import type { Transaction } from '../fleet/schemas.js';

/** Keys are kept for entries this far before the newest one posted. */
const KEY_WINDOW_MS = 10 * 60 * 1000;
/** At most this many keys are kept (whole milliseconds are dropped, oldest first, beyond it). */
export const MAX_KEYS = 500;
/** An entry dated more than this ahead of the database's clock is future-dated. */
export const MAX_CLOCK_SKEW_MS = 2 * 60 * 1000;

export interface FeedCursor {
  /** Date (ms) of the newest entry posted; 0 when nothing is known yet. */
  newestMs: number;
  /** Every posted entry dated at or after `floorMs` has its key in `keys`; older entries count as posted. */
  floorMs: number;
  /** Entry key → entry date (ms); also holds future-dated entries posted, above `newestMs`. */
  keys: ReadonlyMap<string, number>;
  /**
   * The late sweep looks only at entries dated at or after this: older ones were left out on
   * purpose (before the feed's first start, or by an overflow) and are never posted.
   */
  sweepFromMs: number;
}

/** A cursor that treats every entry as new. */
export const EMPTY_CURSOR: FeedCursor = { newestMs: 0, floorMs: 0, keys: new Map(), sweepFromMs: 0 };

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
  if (cursor.keys.has(entryKey(tx))) return false;
  const ms = entryMs(tx);
  return ms > cursor.newestMs || ms >= cursor.floorMs;
}

/** Dated further ahead of `nowMs` (the database's clock) than clocks may disagree. */
export function isFutureDated(tx: Transaction, nowMs: number): boolean {
  return entryMs(tx) > nowMs + MAX_CLOCK_SKEW_MS;
}

/**
 * The cursor for a feed that starts now without backfill: everything on the newest page is past.
 * `pageWasFull` says whether older entries may exist beyond the page; `nowMs` is the database's clock.
 */
export function cursorAtNewest(newestPage: Transaction[], pageWasFull: boolean, nowMs: number): FeedCursor {
  if (newestPage.length === 0) return EMPTY_CURSOR;
  const dates = newestPage.map(entryMs);
  const notAfter = nowMs + MAX_CLOCK_SKEW_MS;
  const current = dates.filter((ms) => ms <= notAfter);
  // A full page of future-dated entries says nothing of the present: what is dated up to now is past.
  const newestMs = current.length > 0 ? Math.max(...current) : pageWasFull ? nowMs : 0;
  // Entries sharing the page's oldest millisecond may continue on the next page: treat that whole
  // millisecond as past rather than keep only the keys we happened to see.
  const floorMs = pageWasFull ? Math.min(Math.min(...dates) + 1, newestMs + 1) : 0;
  const keys = new Map(newestPage.filter((tx) => entryMs(tx) >= floorMs).map((tx) => [entryKey(tx), entryMs(tx)] as const));
  return trimCursor({ newestMs, floorMs, keys, sweepFromMs: newestMs + 1 });
}

/** The cursor for a first start with FEED_BACKFILL=N: `nthNewest` is the Nth newest entry, if any. */
export function cursorForBackfill(nthNewest: Transaction | undefined, nowMs: number): FeedCursor {
  if (!nthNewest) return EMPTY_CURSOR;
  const ms = Math.min(entryMs(nthNewest), nowMs + MAX_CLOCK_SKEW_MS);
  return { newestMs: ms - 1, floorMs: ms, keys: new Map(), sweepFromMs: ms };
}

export interface AdvanceOptions {
  /** Treat everything before this date as posted (after an overflow skipped older entries). */
  raiseFloorTo?: number;
  /** Keys of entries that were deliberately left out and must never be posted later. */
  skippedKeys?: ReadonlyMap<string, number>;
}

/**
 * The cursor after Slack accepted a message carrying `posted`. `nowMs` is the database's clock: the
 * newest date moves at most to now plus MAX_CLOCK_SKEW_MS, so a future-dated entry posted is known
 * by its key until its date comes, and never makes the entries dated before it look posted.
 */
export function advanceCursor(cursor: FeedCursor, posted: Transaction[], nowMs: number, options: AdvanceOptions = {}): FeedCursor {
  const keys = new Map(cursor.keys);
  for (const tx of posted) keys.set(entryKey(tx), entryMs(tx));
  for (const [key, ms] of options.skippedKeys ?? []) keys.set(key, ms);
  const notAfter = nowMs + MAX_CLOCK_SKEW_MS;
  let newestMs = cursor.newestMs;
  // Future-dated keys posted earlier whose date has come count too.
  for (const ms of keys.values()) if (ms > newestMs && ms <= notAfter) newestMs = ms;
  const raise = options.raiseFloorTo === undefined ? undefined : Math.min(options.raiseFloorTo, newestMs + 1);
  const floorMs = Math.max(cursor.floorMs, raise ?? 0);
  // Entries at the raised floor's millisecond may have been left out: the sweep starts just after it.
  const sweepFromMs = Math.max(cursor.sweepFromMs, raise === undefined ? 0 : raise + 1);
  return trimCursor({ newestMs, floorMs, keys, sweepFromMs });
}

/**
 * Drops keys older than the window; beyond MAX_KEYS, the furthest future-dated keys first (the
 * store's posted entries still know them), then whole milliseconds, oldest first, moving the floor up.
 */
function trimCursor(cursor: FeedCursor): FeedCursor {
  let floorMs = Math.max(cursor.floorMs, cursor.newestMs - KEY_WINDOW_MS);
  let kept = [...cursor.keys].filter(([, ms]) => ms >= floorMs);
  if (kept.length > MAX_KEYS) {
    kept.sort((a, b) => a[1] - b[1]);
    const future = kept.filter(([, ms]) => ms > cursor.newestMs).length;
    kept = kept.slice(0, kept.length - Math.min(future, kept.length - MAX_KEYS));
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
  return { newestMs: cursor.newestMs, floorMs, keys: new Map(kept), sweepFromMs: cursor.sweepFromMs };
}

export interface StoredCursor {
  newestMs: number;
  floorMs: number;
  keys: Array<[string, number]>;
  /** Absent in cursors saved before the late sweep existed. */
  sweepFromMs?: number;
}

export function serializeCursor(cursor: FeedCursor): StoredCursor {
  return { newestMs: cursor.newestMs, floorMs: cursor.floorMs, keys: [...cursor.keys], sweepFromMs: cursor.sweepFromMs };
}

export function deserializeCursor(stored: StoredCursor): FeedCursor {
  // Entries posted before the sweep existed are not in the store's posted entries: never sweep them.
  const sweepFromMs = stored.sweepFromMs ?? stored.newestMs + 1;
  return { newestMs: stored.newestMs, floorMs: stored.floorMs, keys: new Map(stored.keys), sweepFromMs };
}

/** The feed's rows in the store: cursor and health per channel, and balance alert states. */
import type { Db, Queryable } from '../store/db.js';
import { deserializeCursor, serializeCursor, type FeedCursor, type StoredCursor } from './cursor.js';

export interface FeedState {
  channelId: string;
  /** Grows with every cursor move; a move is saved only from the version it started from. */
  version: number;
  /** Undefined until the feed's first start on this channel succeeded. */
  cursor: FeedCursor | undefined;
  newestPosted: { reference: string; date: Date; postedAt: Date } | undefined;
  pendingEntries: number;
  lastPollAt: Date | undefined;
  caughtUpAt: Date | undefined;
  lastError: { message: string; at: Date } | undefined;
  createdAt: Date;
}

interface FeedStateRow {
  channel_id: string;
  version: number | string;
  cursor: StoredCursor | string | null;
  newest_reference: string | null;
  newest_entry_at: Date | null;
  newest_posted_at: Date | null;
  pending_entries: number;
  last_poll_at: Date | null;
  caught_up_at: Date | null;
  last_error: string | null;
  last_error_at: Date | null;
  created_at: Date;
}

export async function loadFeedState(db: Queryable, channelId: string): Promise<FeedState | undefined> {
  const { rows } = await db.query<FeedStateRow>('SELECT * FROM feed_state WHERE channel_id = $1', [channelId]);
  return rows[0] ? toFeedState(rows[0]) : undefined;
}

/** Sets the first cursor on first start; when another replica got there first, theirs stays. */
export async function createFeedCursor(db: Queryable, channelId: string, cursor: FeedCursor, now: Date): Promise<FeedState & { cursor: FeedCursor }> {
  await db.query(
    `INSERT INTO feed_state (channel_id, cursor, created_at) VALUES ($1, $2::jsonb, $3)
     ON CONFLICT (channel_id) DO UPDATE SET cursor = excluded.cursor WHERE feed_state.cursor IS NULL`,
    [channelId, JSON.stringify(serializeCursor(cursor)), now.toISOString()],
  );
  const state = await loadFeedState(db, channelId);
  if (!state?.cursor) throw new Error(`feed state for ${channelId} vanished right after it was created`);
  return { ...state, cursor: state.cursor };
}

export interface CursorMove {
  cursor: FeedCursor;
  newest: { reference: string; date: Date };
  postedAt: Date;
  /** Entries found in this poll and still waiting for their message. */
  pendingEntries: number;
}

/** Saves the cursor after a message was accepted; false when another poller moved it meanwhile. */
export async function saveCursor(db: Queryable, channelId: string, fromVersion: number, move: CursorMove): Promise<boolean> {
  const result = await db.query(
    `UPDATE feed_state
        SET version = version + 1, cursor = $3::jsonb, newest_reference = $4, newest_entry_at = $5,
            newest_posted_at = $6, pending_entries = $7
      WHERE channel_id = $1 AND version = $2`,
    [
      channelId,
      fromVersion,
      JSON.stringify(serializeCursor(move.cursor)),
      move.newest.reference,
      move.newest.date.toISOString(),
      move.postedAt.toISOString(),
      move.pendingEntries,
    ],
  );
  return result.rowCount === 1;
}

/**
 * Every cursor move leaves a dead row version behind (a few KB of JSON). Postgres's autovacuum
 * reclaims them; embedded PGlite has no autovacuum, so the feed vacuums its table now and then.
 */
export async function reclaimFeedStateSpace(db: Db): Promise<void> {
  if (db.kind === 'pglite') await db.query('VACUUM feed_state');
}

export async function recordPollSuccess(db: Queryable, channelId: string, now: Date): Promise<void> {
  await db.query(
    'UPDATE feed_state SET last_poll_at = $2, caught_up_at = $2, pending_entries = 0 WHERE channel_id = $1',
    [channelId, now.toISOString()],
  );
}

/**
 * Also creates the row when the very first start fails, so that `/fleet feed` can show why.
 * `pendingEntries` is the count the failed poll found still unposted; undefined keeps the stored one.
 */
export async function recordPollFailure(db: Queryable, channelId: string, now: Date, message: string, pendingEntries?: number): Promise<void> {
  await db.query(
    `INSERT INTO feed_state (channel_id, last_error, last_error_at, pending_entries, created_at) VALUES ($1, $2, $3, COALESCE($4, 0), $3)
     ON CONFLICT (channel_id) DO UPDATE SET last_error = excluded.last_error, last_error_at = excluded.last_error_at,
       pending_entries = COALESCE($4, feed_state.pending_entries)`,
    [channelId, message, now.toISOString(), pendingEntries ?? null],
  );
}

function toFeedState(row: FeedStateRow): FeedState {
  const stored = typeof row.cursor === 'string' ? (JSON.parse(row.cursor) as StoredCursor) : row.cursor;
  return {
    channelId: row.channel_id,
    version: Number(row.version),
    cursor: stored ? deserializeCursor(stored) : undefined,
    newestPosted: row.newest_reference !== null && row.newest_entry_at && row.newest_posted_at
      ? { reference: row.newest_reference, date: row.newest_entry_at, postedAt: row.newest_posted_at }
      : undefined,
    pendingEntries: row.pending_entries,
    lastPollAt: row.last_poll_at ?? undefined,
    caughtUpAt: row.caught_up_at ?? undefined,
    lastError: row.last_error !== null && row.last_error_at ? { message: row.last_error, at: row.last_error_at } : undefined,
    createdAt: row.created_at,
  };
}

export interface BalanceAlertState {
  below: boolean;
  balanceMinor: number;
  thresholdMinor: number;
  changedAt: Date;
}

export async function loadBalanceAlertStates(db: Queryable): Promise<Map<string, BalanceAlertState>> {
  const { rows } = await db.query<{ currency: string; below: boolean; balance_minor: number | string; threshold_minor: number | string; changed_at: Date }>(
    'SELECT currency, below, balance_minor, threshold_minor, changed_at FROM feed_balance_alerts',
  );
  return new Map(rows.map((row) => [row.currency, {
    below: row.below,
    balanceMinor: Number(row.balance_minor),
    thresholdMinor: Number(row.threshold_minor),
    changedAt: row.changed_at,
  }]));
}

export async function saveBalanceAlertState(db: Queryable, currency: string, state: BalanceAlertState): Promise<void> {
  await db.query(
    `INSERT INTO feed_balance_alerts (currency, below, balance_minor, threshold_minor, changed_at) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (currency) DO UPDATE SET below = excluded.below, balance_minor = excluded.balance_minor,
       threshold_minor = excluded.threshold_minor, changed_at = excluded.changed_at`,
    [currency, state.below, state.balanceMinor, state.thresholdMinor, state.changedAt.toISOString()],
  );
}

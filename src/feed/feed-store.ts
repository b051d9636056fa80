/** The feed's rows in the store: cursor and health per channel, posted entries, and balance alert states. */
import type { Transaction } from '../fleet/schemas.js';
import type { Db, Queryable } from '../store/db.js';
import { deserializeCursor, entryKey, entryMs, serializeCursor, type FeedCursor, type StoredCursor } from './cursor.js';

/**
 * A posted entry's key is kept this long past the later of its date and its posting: longer than
 * the late sweep looks back (LATE_SWEEP_HORIZON_MS), so the sweep never takes a posted entry for unposted.
 */
export const POSTED_ENTRY_RETENTION_MS = 3 * 24 * 60 * 60 * 1000;

export interface FeedState {
  channelId: string;
  /** Grows with every cursor move; a move is saved only from the version it started from. */
  version: number;
  /** Undefined until the feed's first start on this channel succeeded. */
  cursor: FeedCursor | undefined;
  newestPosted: { reference: string; date: Date; postedAt: Date } | undefined;
  pendingEntries: number;
  /** Entries posted late (dated before entries already posted), since the feed started. */
  lateEntries: number;
  /** Of those, the ones the sweep over the ledger found missing from the channel (a gap the polls left). */
  gapEntries: number;
  /** The ledger position up to which the sweep over the ledger compared (see late-sweep.ts). */
  sweptPosition: number | undefined;
  unreadableEntries: number;
  /** Entries posted that were dated in the future, since the feed started. */
  futureDatedEntries: number;
  lastPollAt: Date | undefined;
  caughtUpAt: Date | undefined;
  lastError: { code: string; at: Date } | undefined;
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
  late_entries: number;
  gap_entries: number;
  swept_position: string | number | null;
  unreadable_entries: number;
  future_dated_entries: number;
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
     ON CONFLICT (tenant_id, channel_id) DO UPDATE SET cursor = excluded.cursor WHERE feed_state.cursor IS NULL`,
    [channelId, JSON.stringify(serializeCursor(cursor)), now.toISOString()],
  );
  const state = await loadFeedState(db, channelId);
  if (!state?.cursor) throw new Error(`feed state for ${channelId} vanished right after it was created`);
  return { ...state, cursor: state.cursor };
}

export interface CursorMove {
  cursor: FeedCursor;
  /** The entries the accepted message carried. */
  posted: Transaction[];
  /** How many of them were dated in the future. */
  futureDated: number;
  newest: { reference: string; date: Date };
  postedAt: Date;
  /** Entries found in this poll and still waiting for their message. */
  pendingEntries: number;
}

/**
 * Saves the cursor after a message was accepted, and remembers its entries as posted; false (and
 * nothing saved) when another poller moved the cursor meanwhile.
 */
export async function saveCursor(db: Db, channelId: string, fromVersion: number, move: CursorMove): Promise<boolean> {
  return db.transaction(async (tx) => {
    const result = await tx.query(
      `UPDATE feed_state
          SET version = version + 1, cursor = $3::jsonb, newest_reference = $4, newest_entry_at = $5,
              newest_posted_at = $6, pending_entries = $7, future_dated_entries = future_dated_entries + $8
        WHERE channel_id = $1 AND version = $2`,
      [
        channelId,
        fromVersion,
        JSON.stringify(serializeCursor(move.cursor)),
        move.newest.reference,
        move.newest.date.toISOString(),
        move.postedAt.toISOString(),
        move.pendingEntries,
        move.futureDated,
      ],
    );
    if (result.rowCount !== 1) return false;
    await rememberPosted(tx, channelId, move.posted);
    return true;
  });
}

/**
 * Records late entries that Slack accepted: counted (`gap` when the sweep over the ledger found them
 * missing), and remembered as posted. Moves the version like a cursor move, so that a replica that
 * lost the lease meanwhile cannot save after it; false (and nothing saved) when another poller moved
 * the cursor meanwhile.
 */
export async function saveLatePosted(db: Db, channelId: string, fromVersion: number, posted: Transaction[], options: { gap?: boolean } = {}): Promise<boolean> {
  return db.transaction(async (tx) => {
    const result = await tx.query(
      'UPDATE feed_state SET version = version + 1, late_entries = late_entries + $3, gap_entries = gap_entries + $4 WHERE channel_id = $1 AND version = $2',
      [channelId, fromVersion, posted.length, options.gap ? posted.length : 0],
    );
    if (result.rowCount !== 1) return false;
    await rememberPosted(tx, channelId, posted);
    return true;
  });
}

/** Saves how far the sweep over the ledger compared; false when another poller moved the cursor meanwhile. */
export async function saveSweptPosition(db: Queryable, channelId: string, fromVersion: number, position: number): Promise<boolean> {
  const result = await db.query('UPDATE feed_state SET version = version + 1, swept_position = $3 WHERE channel_id = $1 AND version = $2', [
    channelId,
    fromVersion,
    position,
  ]);
  return result.rowCount === 1;
}

async function rememberPosted(db: Queryable, channelId: string, posted: Transaction[]): Promise<void> {
  if (posted.length === 0) return;
  await db.query(
    `INSERT INTO feed_posted_entries (channel_id, entry_key, entry_at, posted_at, keep_until)
     SELECT $1, entry.key, entry.at, clock_timestamp(), GREATEST(entry.at, clock_timestamp()) + $4 * interval '1 millisecond'
       FROM unnest($2::text[], $3::timestamptz[]) AS entry (key, at)
     ON CONFLICT (tenant_id, channel_id, entry_key) DO NOTHING`,
    [channelId, posted.map(entryKey), posted.map((tx) => new Date(entryMs(tx)).toISOString()), POSTED_ENTRY_RETENTION_MS],
  );
}

/** Which of `keys` the feed posted on this channel (within the retention). */
export async function postedKeysAmong(db: Queryable, channelId: string, keys: string[]): Promise<Set<string>> {
  if (keys.length === 0) return new Set();
  const { rows } = await db.query<{ entry_key: string }>('SELECT entry_key FROM feed_posted_entries WHERE channel_id = $1 AND entry_key = ANY($2::text[])', [
    channelId,
    keys,
  ]);
  return new Set(rows.map((row) => row.entry_key));
}

/** Forgets posted entries past their retention (every channel's); PGlite, without autovacuum, gets the space back too. */
export async function prunePostedEntries(db: Db): Promise<number> {
  const { rowCount } = await db.query('DELETE FROM feed_posted_entries WHERE keep_until < clock_timestamp()');
  if (rowCount > 0 && db.kind === 'pglite') await db.query('VACUUM feed_posted_entries');
  return rowCount;
}

/**
 * Every cursor move leaves a dead row version behind (a few KB of JSON). Postgres's autovacuum
 * reclaims them; embedded PGlite has no autovacuum, so the feed vacuums its table now and then.
 */
export async function reclaimFeedStateSpace(db: Db): Promise<void> {
  if (db.kind === 'pglite') await db.query('VACUUM feed_state');
}

/** `unreadableEntries`: malformed entries this poll left out. */
export async function recordPollSuccess(db: Queryable, channelId: string, now: Date, unreadableEntries: number): Promise<void> {
  await db.query('UPDATE feed_state SET last_poll_at = $2, caught_up_at = $2, pending_entries = 0, unreadable_entries = $3 WHERE channel_id = $1', [
    channelId,
    now.toISOString(),
    unreadableEntries,
  ]);
}

/**
 * Also creates the row when the very first start fails, so that `/fleet feed` can show why.
 * `pendingEntries` is the count the failed poll found still unposted; undefined keeps the stored one.
 */
export async function recordPollFailure(db: Queryable, channelId: string, now: Date, code: string, pendingEntries?: number): Promise<void> {
  await db.query(
    `INSERT INTO feed_state (channel_id, last_error, last_error_at, pending_entries, created_at) VALUES ($1, $2, $3, COALESCE($4, 0), $3)
     ON CONFLICT (tenant_id, channel_id) DO UPDATE SET last_error = excluded.last_error, last_error_at = excluded.last_error_at,
       pending_entries = COALESCE($4, feed_state.pending_entries)`,
    [channelId, code, now.toISOString(), pendingEntries ?? null],
  );
}

function toFeedState(row: FeedStateRow): FeedState {
  const stored = typeof row.cursor === 'string' ? (JSON.parse(row.cursor) as StoredCursor) : row.cursor;
  return {
    channelId: row.channel_id,
    version: Number(row.version),
    cursor: stored ? deserializeCursor(stored) : undefined,
    newestPosted:
      row.newest_reference !== null && row.newest_entry_at && row.newest_posted_at
        ? { reference: row.newest_reference, date: row.newest_entry_at, postedAt: row.newest_posted_at }
        : undefined,
    pendingEntries: row.pending_entries,
    lateEntries: row.late_entries,
    gapEntries: row.gap_entries,
    sweptPosition: row.swept_position === null ? undefined : Number(row.swept_position),
    unreadableEntries: row.unreadable_entries,
    futureDatedEntries: row.future_dated_entries,
    lastPollAt: row.last_poll_at ?? undefined,
    caughtUpAt: row.caught_up_at ?? undefined,
    lastError: row.last_error !== null && row.last_error_at ? { code: row.last_error, at: row.last_error_at } : undefined,
    createdAt: row.created_at,
  };
}

export interface BalanceAlertState {
  below: boolean;
  balanceMinor: number;
  thresholdMinor: number;
  changedAt: Date;
}

/** Which alert a crossing state belongs to: the low-balance alert's (BALANCE_ALERT_BELOW) or the runway's (RUNWAY_ALERT_DAYS). */
export type CrossingKind = 'balance' | 'runway';

export async function loadBalanceAlertStates(db: Queryable, kind: CrossingKind = 'balance'): Promise<Map<string, BalanceAlertState>> {
  const { rows } = await db.query<{ currency: string; below: boolean; balance_minor: number | string; threshold_minor: number | string; changed_at: Date }>(
    'SELECT currency, below, balance_minor, threshold_minor, changed_at FROM feed_balance_alerts WHERE kind = $1',
    [kind],
  );
  return new Map(
    rows.map((row) => [
      row.currency,
      {
        below: row.below,
        balanceMinor: Number(row.balance_minor),
        thresholdMinor: Number(row.threshold_minor),
        changedAt: row.changed_at,
      },
    ]),
  );
}

export async function saveBalanceAlertState(db: Queryable, currency: string, state: BalanceAlertState, kind: CrossingKind = 'balance'): Promise<void> {
  await db.query(
    `INSERT INTO feed_balance_alerts (kind, currency, below, balance_minor, threshold_minor, changed_at) VALUES ($1, $2, $3, $4, $5, $6)
     ON CONFLICT (tenant_id, kind, currency) DO UPDATE SET below = excluded.below, balance_minor = excluded.balance_minor,
       threshold_minor = excluded.threshold_minor, changed_at = excluded.changed_at`,
    [kind, currency, state.below, state.balanceMinor, state.thresholdMinor, state.changedAt.toISOString()],
  );
}

/**
 * Records `state` for a currency and says whether this caller made the crossing, so that of replicas
 * seeing the same change at once only one announces it: true when the stored side changed here, or
 * when the currency is first seen below the line. A row changes side in one conditional statement,
 * which Postgres runs one at a time per row, so exactly one caller wins each crossing.
 */
export async function claimCrossing(db: Queryable, kind: CrossingKind, currency: string, state: BalanceAlertState): Promise<boolean> {
  const values = [kind, currency, state.below, state.balanceMinor, state.thresholdMinor, state.changedAt.toISOString()];
  const inserted = await db.query(
    `INSERT INTO feed_balance_alerts (kind, currency, below, balance_minor, threshold_minor, changed_at) VALUES ($1, $2, $3, $4, $5, $6)
     ON CONFLICT (tenant_id, kind, currency) DO NOTHING RETURNING currency`,
    values,
  );
  if (inserted.rows.length > 0) return state.below;
  const changed = await db.query(
    `UPDATE feed_balance_alerts SET below = $3, balance_minor = $4, threshold_minor = $5, changed_at = $6
      WHERE kind = $1 AND currency = $2 AND below <> $3 RETURNING currency`,
    values,
  );
  return changed.rows.length > 0;
}

/** Gives a crossing back (its announcement failed), so that the next check makes and announces it again. */
export async function releaseCrossing(db: Queryable, kind: CrossingKind, currency: string, state: BalanceAlertState): Promise<void> {
  await db.query(`UPDATE feed_balance_alerts SET below = NOT below WHERE kind = $1 AND currency = $2 AND below = $3 AND changed_at = $4`, [
    kind,
    currency,
    state.below,
    state.changedAt.toISOString(),
  ]);
}

/**
 * The ledger's persistence: entries inserted once by identity, and the sync's progress. Works the
 * same on PGlite and Postgres; the reader side is `reader.ts`.
 */
import type { Queryable } from '../store/db.js';
import { searchWords, type IdentifiedEntry } from './identity.js';

export interface InsertOptions {
  /** When the app learnt of these entries. */
  firstSeenAt: Date;
  /**
   * Whether entries dated before the newest entry already stored count as late. False for the first
   * history walk (everything it finds is older by nature), true for polls, sweeps and re-walks.
   */
  markLate: boolean;
}

export interface InsertedEntry {
  key: string;
  seq: number;
  late: boolean;
}

export interface SyncState {
  historyComplete: boolean;
  historyCompletedAt: Date | undefined;
  walkKind: 'history' | 'rewalk' | undefined;
  walkOffset: number;
  walkStartedAt: Date | undefined;
  walkPages: number;
  lastWalkCompletedAt: Date | undefined;
  estimatedTotal: number | undefined;
  lastPollAt: Date | undefined;
  upToDateSince: Date | undefined;
  lastSweepAt: Date | undefined;
  lastError: string | undefined;
}

const date = (value: unknown): Date | undefined => (value === null || value === undefined ? undefined : new Date(value as string));

/**
 * Stores the entries of one page (in the API's newest-first order) that are not stored yet, oldest
 * first so that insertion order follows the list; returns the ones inserted. Late is judged against
 * the entries stored before this call, in one statement.
 */
export async function insertEntries(db: Queryable, entries: readonly IdentifiedEntry[], options: InsertOptions): Promise<InsertedEntry[]> {
  if (entries.length === 0) return [];
  const rows = entries.map((entry, index) => ({
    ord: index,
    key: entry.key,
    reference: entry.transaction.reference,
    occurrence: entry.occurrence,
    type: entry.transaction.type,
    status: entry.transaction.status,
    amount: String(entry.transaction.amount),
    amount_minor: entry.amountMinor,
    currency: entry.transaction.currency,
    description: entry.transaction.description,
    date_text: entry.transaction.date,
    entry_at: new Date(entry.entryMs).toISOString(),
    words: searchWords(entry.transaction.reference, entry.transaction.description),
  }));
  const result = await db.query<{ entry_key: string; seq: string | number; late: boolean }>(
    `WITH newest AS (SELECT max(entry_at) AS at FROM ledger_entries)
     INSERT INTO ledger_entries
       (entry_key, reference, occurrence, type, status, amount, amount_minor, currency, description, date_text, entry_at, first_seen_at, late, words)
     SELECT r.key, r.reference, r.occurrence, r.type, r.status, r.amount::numeric, r.amount_minor, r.currency, r.description, r.date_text,
            r.entry_at, $2::timestamptz, coalesce($3::boolean AND r.entry_at < (SELECT at FROM newest), false), r.words
       FROM jsonb_to_recordset($1::jsonb) AS r(ord integer, key text, reference text, occurrence integer, type text, status text,
            amount text, amount_minor bigint, currency text, description text, date_text text, entry_at timestamptz, words text[])
      ORDER BY r.ord DESC
     ON CONFLICT (tenant_id, entry_key) DO NOTHING
     RETURNING entry_key, seq, late`,
    [JSON.stringify(rows), options.firstSeenAt.toISOString(), options.markLate],
  );
  return result.rows.map((row) => ({ key: row.entry_key, seq: Number(row.seq), late: row.late }));
}

export async function readSyncState(db: Queryable): Promise<SyncState> {
  let { rows } = await db.query<Record<string, unknown>>('SELECT * FROM ledger_sync_state WHERE id = 1');
  if (rows.length === 0) {
    // A tenant's first sync: its state starts as the migration made the first tenant's.
    await db.query('INSERT INTO ledger_sync_state (id) VALUES (1) ON CONFLICT (tenant_id, id) DO NOTHING');
    ({ rows } = await db.query<Record<string, unknown>>('SELECT * FROM ledger_sync_state WHERE id = 1'));
  }
  const row = rows[0];
  if (!row) throw new Error('ledger_sync_state has no row for this tenant');
  const kind = row.walk_kind;
  return {
    historyComplete: row.history_complete === true,
    historyCompletedAt: date(row.history_completed_at),
    walkKind: kind === 'history' || kind === 'rewalk' ? kind : undefined,
    walkOffset: Number(row.walk_offset),
    walkStartedAt: date(row.walk_started_at),
    walkPages: Number(row.walk_pages),
    lastWalkCompletedAt: date(row.last_walk_completed_at),
    estimatedTotal: row.estimated_total === null ? undefined : Number(row.estimated_total),
    lastPollAt: date(row.last_poll_at),
    upToDateSince: date(row.up_to_date_since),
    lastSweepAt: date(row.last_sweep_at),
    lastError: typeof row.last_error === 'string' ? row.last_error : undefined,
  };
}

const COLUMNS: Record<keyof SyncState, string> = {
  historyComplete: 'history_complete',
  historyCompletedAt: 'history_completed_at',
  walkKind: 'walk_kind',
  walkOffset: 'walk_offset',
  walkStartedAt: 'walk_started_at',
  walkPages: 'walk_pages',
  lastWalkCompletedAt: 'last_walk_completed_at',
  estimatedTotal: 'estimated_total',
  lastPollAt: 'last_poll_at',
  upToDateSince: 'up_to_date_since',
  lastSweepAt: 'last_sweep_at',
  lastError: 'last_error',
};

/** Writes the given fields of the sync state (undefined clears a field); a lastError also stamps its time. */
export async function updateSyncState(db: Queryable, changes: Partial<SyncState>): Promise<void> {
  const sets: string[] = [];
  const params: unknown[] = [];
  for (const [field, value] of Object.entries(changes) as Array<[keyof SyncState, unknown]>) {
    params.push(value instanceof Date ? value.toISOString() : (value ?? null));
    sets.push(`${COLUMNS[field]} = $${params.length}`);
    if (field === 'lastError') sets.push(value === undefined ? 'last_error_at = NULL' : 'last_error_at = clock_timestamp()');
  }
  if (sets.length === 0) return;
  await db.query(`UPDATE ledger_sync_state SET ${sets.join(', ')} WHERE id = 1`, params);
}

/**
 * Brings the schema up to date: applies pending migrations in id order, each in its own transaction
 * and recorded in `schema_migrations`, so that a failed one leaves nothing half done.
 */
import type { Logger } from '../core/logger.js';
import type { Db, Queryable } from './db.js';
import type { Migration } from './migrations/migration.js';

// Any constant this app alone uses. Replicas starting together on one Postgres queue on it, so each
// migration is applied once; the lock ends with the transaction that took it.
const MIGRATION_LOCK_KEY = 7_461_002_315;

/** Applies what `db` lacks of `list`; returns the ids it applied (none when already up to date). */
export async function migrate(db: Db, list: readonly Migration[], logger?: Logger): Promise<number[]> {
  const ordered = checkedOrder(list);
  // Up to date, as on every start but the first: one read instead of a transaction per migration.
  if (await allRecorded(db, ordered)) {
    await warnAboutUnknown(db, ordered, logger);
    return [];
  }
  const applied: number[] = [];
  for (const migration of ordered) {
    const ran = await db.transaction(async (tx) => {
      await lockAndPrepare(tx);
      const recorded = await tx.query('SELECT 1 FROM schema_migrations WHERE id = $1', [migration.id]);
      if (recorded.rowCount > 0) return false;
      await tx.query(migration.sql);
      await tx.query('INSERT INTO schema_migrations (id, name) VALUES ($1, $2)', [migration.id, migration.name]);
      return true;
    });
    if (ran) {
      applied.push(migration.id);
      logger?.info({ migration: migration.id, name: migration.name }, 'applied database migration');
    }
  }
  await warnAboutUnknown(db, ordered, logger);
  return applied;
}

/**
 * Throws unless `db` has every migration of `list` recorded: the check of an app that does not
 * migrate itself (its role may not), once the owner has.
 */
export async function assertUpToDate(db: Db, list: readonly Migration[]): Promise<void> {
  if (!(await allRecorded(db, checkedOrder(list)))) {
    throw new Error('The database schema is not up to date for the app: run the migrations as the owner role (DATABASE_OWNER_URL)');
  }
}

async function allRecorded(db: Db, ordered: readonly Migration[]): Promise<boolean> {
  const { rows } = await db.query<{ present: boolean }>("SELECT to_regclass('schema_migrations') IS NOT NULL AS present");
  if (!rows[0]?.present) return false;
  const recorded = await db.query<{ id: number }>('SELECT id FROM schema_migrations');
  const ids = new Set(recorded.rows.map((row) => Number(row.id)));
  return ordered.every((migration) => ids.has(migration.id));
}

async function lockAndPrepare(tx: Queryable): Promise<void> {
  await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK_KEY]);
  await tx.query(`
    CREATE TABLE IF NOT EXISTS schema_migrations (
      id integer PRIMARY KEY,
      name text NOT NULL,
      applied_at timestamptz NOT NULL DEFAULT now()
    )`);
}

function checkedOrder(list: readonly Migration[]): Migration[] {
  const ordered = [...list].sort((a, b) => a.id - b.id);
  ordered.forEach((migration, index) => {
    if (!Number.isInteger(migration.id) || migration.id <= 0) throw new Error(`Migration ${migration.name} needs a positive whole-number id`);
    const previous = ordered[index - 1];
    if (previous?.id === migration.id) throw new Error(`Migrations ${previous.name} and ${migration.name} share id ${migration.id}`);
  });
  return ordered;
}

// A newer release may have run here before a rollback; this one can still run, but someone should know.
async function warnAboutUnknown(db: Db, known: readonly Migration[], logger?: Logger): Promise<void> {
  if (!logger) return;
  const names = new Map(known.map((migration) => [migration.id, migration.name]));
  const { rows } = await db.query<{ id: number; name: string }>('SELECT id, name FROM schema_migrations ORDER BY id');
  for (const row of rows) {
    const expected = names.get(row.id);
    if (expected === undefined) logger.warn({ migration: row.id, name: row.name }, 'the database has a migration this version does not know');
    else if (expected !== row.name) logger.warn({ migration: row.id, name: row.name, expected }, 'a migration id was applied under another name');
  }
}

/**
 * Opens the app's database, Postgres through DATABASE_URL or embedded PGlite in a folder, and
 * brings its schema up to date before anyone uses it.
 */
import type { Logger } from '../core/logger.js';
import type { Db } from './db.js';
import { migrate } from './migrate.js';
import { migrations as appMigrations } from './migrations/index.js';
import type { Migration } from './migrations/migration.js';
import { openPglite } from './pglite.js';
import { openPostgres } from './postgres.js';

export type { Db, Queryable, QueryResult } from './db.js';
export type { Migration } from './migrations/migration.js';
export { migrate } from './migrate.js';
export { releaseLease, tryAcquireLease } from './leases.js';
export { DataDirLockedError } from './data-dir-lock.js';

export interface OpenDatabaseOptions {
  /** Set: a `pg` pool on this Postgres (replicas share it). Unset: PGlite in `dataDir`. */
  databaseUrl?: string;
  /** PGlite's folder, created when missing; `':memory:'` or `'memory://'` keeps it in memory. Default './data'. */
  dataDir?: string;
  logger?: Logger;
  /** Defaults to the app's migrations; tests pass their own. */
  migrations?: Migration[];
}

export async function openDatabase(options: OpenDatabaseOptions): Promise<Db> {
  const db = options.databaseUrl
    ? await openPostgres(options.databaseUrl, options.logger)
    : await openPglite(options.dataDir ?? './data', { logger: options.logger });
  try {
    await migrate(db, options.migrations ?? appMigrations, options.logger);
  } catch (error) {
    await db.close();
    throw error;
  }
  return db;
}

/** True for Postgres's unique_violation (SQLSTATE 23505), from either driver: the usual sign of a duplicate. */
export function isUniqueViolation(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === '23505';
}

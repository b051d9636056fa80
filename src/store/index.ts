/**
 * Opens the app's database, Postgres through DATABASE_URL or embedded PGlite in a folder, and
 * brings its schema up to date before anyone uses it.
 */
import type { Logger } from '../core/logger.js';
import type { Db } from './db.js';
import { assertUpToDate, migrate } from './migrate.js';
import { migrations as appMigrations } from './migrations/index.js';
import type { Migration } from './migrations/migration.js';
import { openPglite } from './pglite.js';
import { openPostgres } from './postgres.js';
import { currentRole, grantAppRole } from './roles.js';
import { SINGLE_WORKSPACE_TENANT } from './tenant.js';

export type { Db, Queryable, QueryResult } from './db.js';
export type { Migration } from './migrations/migration.js';
export { migrate } from './migrate.js';
export { releaseLease, tryAcquireLease } from './leases.js';
export { DataDirLockedError } from './data-dir-lock.js';
export { notify } from './notices.js';
export { confinedRoleProblem } from './roles.js';
export { openPostgres } from './postgres.js';
export { isTenantId, REPLICAS_TENANT, SINGLE_WORKSPACE_TENANT } from './tenant.js';

export interface OpenDatabaseOptions {
  /** Set: a `pg` pool on this Postgres (replicas share it). Unset: PGlite in `dataDir`. */
  databaseUrl?: string;
  /** PGlite's folder, created when missing; `':memory:'` or `'memory://'` keeps it in memory. Default './data'. */
  dataDir?: string;
  logger?: Logger;
  /** Defaults to the app's migrations; tests pass their own. */
  migrations?: Migration[];
  /** The tenant of the Db returned (others through `forTenant`). Default SINGLE_WORKSPACE_TENANT. */
  tenant?: string;
  /**
   * Postgres only: the owner role's URL. The migrations then run through it, the owner grants the
   * role of `databaseUrl` what the app needs (rows, not tables), and the app's own connections
   * only check that the schema is up to date. Unset: the app's role migrates (and owns the tables).
   */
  ownerUrl?: string;
}

export async function openDatabase(options: OpenDatabaseOptions): Promise<Db> {
  const { logger, tenant = SINGLE_WORKSPACE_TENANT, ownerUrl } = options;
  const list = options.migrations ?? appMigrations;
  if (ownerUrl !== undefined && !options.databaseUrl) throw new Error('An owner URL needs DATABASE_URL: PGlite has one role');
  const db = options.databaseUrl
    ? await openPostgres(options.databaseUrl, { logger, tenant })
    : await openPglite(options.dataDir ?? './data', { logger, tenant });
  try {
    if (ownerUrl === undefined) await migrate(db, list, logger);
    else {
      await migrateAsOwner(ownerUrl, await currentRole(db), list, logger);
      await assertUpToDate(db, list);
    }
  } catch (error) {
    await db.close();
    throw error;
  }
  return db;
}

/** Applies the migrations through the owner's URL, then grants the app's role its rows. */
async function migrateAsOwner(ownerUrl: string, appRole: string, list: readonly Migration[], logger?: Logger): Promise<void> {
  const owner = await openPostgres(ownerUrl, { logger, urlName: 'DATABASE_OWNER_URL' });
  try {
    await migrate(owner, list, logger);
    await owner.transaction((tx) => grantAppRole(tx, appRole));
  } finally {
    await owner.close();
  }
}

/** True for Postgres's unique_violation (SQLSTATE 23505), from either driver: the usual sign of a duplicate. */
export function isUniqueViolation(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === '23505';
}

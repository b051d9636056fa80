/**
 * Leader election across replicas: a named lease that one holder keeps by renewing it before it
 * expires. Expiry is judged by the database's clock alone, so replicas whose own clocks disagree
 * still agree on who holds a lease.
 */
import type { Queryable } from './db.js';

/**
 * Takes `name` for `holder` for `ttlMs` from now (database time), or renews it when `holder`
 * already has it. Succeeds only when the lease is free, expired (at or after `expires_at`) or
 * already ours; one statement, so two replicas racing for it cannot both win.
 */
export async function tryAcquireLease(db: Queryable, name: string, holder: string, ttlMs: number): Promise<boolean> {
  if (!Number.isFinite(ttlMs) || ttlMs <= 0) throw new RangeError('ttlMs must be a positive number of milliseconds');
  const result = await db.query(
    `INSERT INTO app_leases (name, holder, expires_at) VALUES ($1, $2, clock_timestamp() + $3 * interval '1 millisecond')
     ON CONFLICT (tenant_id, name) DO UPDATE SET holder = excluded.holder, expires_at = excluded.expires_at
       WHERE app_leases.holder = excluded.holder OR app_leases.expires_at <= clock_timestamp()
     RETURNING holder`,
    [name, holder, Math.ceil(ttlMs)],
  );
  return result.rows.length === 1;
}

/** Gives the lease up so another replica can take it at once; true when `holder` had it. */
export async function releaseLease(db: Queryable, name: string, holder: string): Promise<boolean> {
  const result = await db.query('DELETE FROM app_leases WHERE name = $1 AND holder = $2', [name, holder]);
  return result.rowCount === 1;
}

/** The database's clock: the one time every replica sees alike, whatever its own clock says. */
export async function databaseNow(db: Queryable): Promise<Date> {
  const { rows } = await db.query<{ now: Date | string }>('SELECT clock_timestamp() AS now');
  const now = rows[0]?.now;
  if (now === undefined) throw new Error('the database did not tell its time');
  return new Date(now);
}

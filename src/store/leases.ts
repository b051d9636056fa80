/**
 * Leader election across replicas: a named lease that one holder keeps by renewing it before it
 * expires. Times come from the caller's clock, not the database's, so expiry is testable.
 */
import type { Queryable } from './db.js';

/**
 * Takes `name` for `holder` until `now + ttlMs`, or renews it when `holder` already has it.
 * Succeeds only when the lease is free, expired (at or after `expires_at`) or already ours; one
 * statement, so two replicas racing for it cannot both win.
 */
export async function tryAcquireLease(db: Queryable, name: string, holder: string, now: Date, ttlMs: number): Promise<boolean> {
  if (!Number.isFinite(ttlMs) || ttlMs <= 0) throw new RangeError('ttlMs must be a positive number of milliseconds');
  const expiresAt = new Date(now.getTime() + ttlMs);
  const result = await db.query(
    `INSERT INTO app_leases (name, holder, expires_at) VALUES ($1, $2, $3)
     ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, expires_at = excluded.expires_at
       WHERE app_leases.holder = excluded.holder OR app_leases.expires_at <= $4
     RETURNING holder`,
    [name, holder, expiresAt.toISOString(), now.toISOString()],
  );
  return result.rows.length === 1;
}

/** Gives the lease up so another replica can take it at once; true when `holder` had it. */
export async function releaseLease(db: Queryable, name: string, holder: string): Promise<boolean> {
  const result = await db.query('DELETE FROM app_leases WHERE name = $1 AND holder = $2', [name, holder]);
  return result.rowCount === 1;
}

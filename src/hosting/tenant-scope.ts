/**
 * Work done for one tenant: one transaction with `app.tenant` set, so that row-level security lets it
 * see and write that tenant's rows alone. The statements name tenant_id too, so they isolate tenants
 * even where the policies do not apply (a superuser, a table owner without FORCE).
 */
import type { Db, Queryable } from '../store/db.js';

// Slack team ids (T…), and the E… of an org, in case one ever needs a registry row: letters and digits.
const TENANT_ID = /^[A-Z0-9]{2,32}$/;

/** Throws unless `tenant` looks like a Slack team id; the id is not a secret, so the message names it. */
export function checkTenantId(tenant: string): string {
  if (!TENANT_ID.test(tenant)) throw new Error(`not a tenant id (a Slack team id, such as T0123ABCD): ${JSON.stringify(tenant).slice(0, 40)}`);
  return tenant;
}

/** Runs `work` in one transaction in which `app.tenant` is `tenant`. */
export function inTenant<T>(db: Db, tenant: string, work: (tx: Queryable) => Promise<T>): Promise<T> {
  checkTenantId(tenant);
  return db.transaction(async (tx) => {
    await tx.query(`SELECT set_config('app.tenant', $1, true)`, [tenant]);
    return work(tx);
  });
}

/** A bytea column as a Buffer: `pg` returns one, PGlite a Uint8Array. */
export function bytes(value: Buffer | Uint8Array): Buffer {
  return Buffer.isBuffer(value) ? value : Buffer.from(value.buffer, value.byteOffset, value.byteLength);
}

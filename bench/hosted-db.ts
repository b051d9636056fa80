/** The hosted benchmark's reads of Postgres as its owner: the feed leases' holders, statement counts, connections per replica. */
import { BENCH_POSTGRES_URL, queryOnce } from './postgres.js';

/** Which replica holds each tenant's feed lease for `channel`. */
export async function feedLeases(schemaName: string, channel: string): Promise<Map<string, string>> {
  const rows = await asAdmin<{ tenant_id: string; holder: string }>(`SELECT tenant_id, holder FROM ${schemaName}.app_leases WHERE name = $1`, [
    `feed:${channel}`,
  ]);
  return new Map(rows.map((row) => [row.tenant_id, row.holder]));
}

/** Statements on app_leases (index and sequential scans), rows written there, and the database's transactions. */
export async function dbStats(schemaName: string): Promise<{ at: number; leaseScans: number; leaseWrites: number; transactions: number }> {
  await asAdmin('SELECT pg_stat_force_next_flush()').catch(() => undefined);
  const [lease] = await asAdmin<{ scans: string; writes: string }>(
    `SELECT coalesce(idx_scan, 0) + coalesce(seq_scan, 0) AS scans, n_tup_ins + n_tup_upd + n_tup_del AS writes FROM pg_stat_user_tables WHERE schemaname = $1 AND relname = 'app_leases'`,
    [schemaName],
  );
  const [database] = await asAdmin<{ xacts: string }>(`SELECT xact_commit + xact_rollback AS xacts FROM pg_stat_database WHERE datname = current_database()`);
  return { at: Date.now(), leaseScans: Number(lease?.scans ?? 0), leaseWrites: Number(lease?.writes ?? 0), transactions: Number(database?.xacts ?? 0) };
}

export async function connectionsByReplica(count: number): Promise<number[]> {
  const rows = await asAdmin<{ application_name: string; n: string }>(
    `SELECT application_name, count(*) AS n FROM pg_stat_activity WHERE application_name LIKE 'bench-replica-%' GROUP BY 1`,
  );
  return Array.from({ length: count }, (_, r) => Number(rows.find((row) => row.application_name === `bench-replica-${r}`)?.n ?? 0));
}

/** One statement as the server's owner. */
export function asAdmin<T = Record<string, unknown>>(sql: string, params: unknown[] = []): Promise<T[]> {
  return queryOnce<T>(BENCH_POSTGRES_URL, sql, params);
}

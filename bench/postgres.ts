/** The benchmarks' Postgres: the server their Postgres modes run on, and one statement run there as its owner. */
import pg from 'pg';

/** Where the benchmarks create (and drop) their schemas and databases. */
export const BENCH_POSTGRES_URL = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** One statement on a connection of its own, closed after: the bench's setup, statistics and clean-up. */
export async function queryOnce<T = Record<string, unknown>>(url: string, sql: string, params: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql, params)).rows as T[];
  } finally {
    await client.end();
  }
}

/**
 * The databases every store test runs against: PGlite in memory always, and Postgres too when
 * TEST_DATABASE_URL is set (CI sets it; see .ci/run). Use it like this:
 *
 *   describe.each(testDatabases())('payout store on $name', ({ open }) => {
 *     let db: Db;
 *     beforeAll(async () => { db = await open(); });   // migrated, empty, yours alone
 *     afterAll(async () => { await db?.close(); });    // also drops the Postgres schema; db is unset if open failed
 *     it('...', async () => { ... });
 *   });
 *
 * Each `open()` is a database of its own: a fresh in-memory PGlite, or on Postgres a fresh schema
 * `t_<random>` (through the connection's search_path), so test files running in parallel never
 * collide. Open once per describe rather than per test (a PGlite open takes about half a second)
 * and keep rows distinct where tests share one. `open({ migrations })` applies only those.
 * When TEST_DATABASE_URL is set but unreachable, `open()` rejects, so the tests fail: never skip.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openDatabase, migrate, type Db, type Migration } from '../../src/store/index.js';
import { migrations as appMigrations } from '../../src/store/migrations/index.js';
import { openPglite } from '../../src/store/pglite.js';
import { blankPgliteCluster } from '../../src/store/pglite-blank.js';

export interface TestDatabase {
  name: 'pglite' | 'postgres';
  open: (options?: { migrations?: Migration[] }) => Promise<Db>;
}

/** The Postgres to test against as well as PGlite, when there is one. */
export const testPostgresUrl: string | undefined = process.env.TEST_DATABASE_URL?.trim() || undefined;

export function testDatabases(): TestDatabase[] {
  const databases: TestDatabase[] = [{ name: 'pglite', open: openTestPglite }];
  const baseUrl = testPostgresUrl;
  if (baseUrl) databases.push({ name: 'postgres', open: (options) => openTestPostgres(baseUrl, options) });
  return databases;
}

async function openTestPglite(options: { migrations?: Migration[] } = {}): Promise<Db> {
  const db = await openPglite(':memory:', { loadDataDir: await blankPgliteCluster() });
  try {
    await migrate(db, options.migrations ?? appMigrations);
  } catch (error) {
    await db.close();
    throw error;
  }
  return db;
}

async function openTestPostgres(baseUrl: string, options: { migrations?: Migration[] } = {}): Promise<Db> {
  const schema = await createTestSchema(baseUrl);
  try {
    const db = await openDatabase({ databaseUrl: schema.databaseUrl, ...options });
    return {
      kind: db.kind,
      tenant: db.tenant,
      forTenant: db.forTenant.bind(db),
      query: db.query.bind(db),
      transaction: db.transaction.bind(db),
      listen: db.listen.bind(db),
      forHeavyWork: db.forHeavyWork.bind(db),
      close: () => db.close().finally(() => schema.drop()),
    };
  } catch (error) {
    await schema.drop();
    throw error;
  }
}

/**
 * A new empty schema on the Postgres at `baseUrl`, and a URL whose connections use it by default.
 * Open as many databases on that URL as you like (replicas); `drop()` removes the schema and all in it.
 */
export async function createTestSchema(baseUrl: string): Promise<{ databaseUrl: string; drop: () => Promise<void> }> {
  const schema = `t_${randomBytes(6).toString('hex')}`;
  await withClient(baseUrl, (client) => client.query(`CREATE SCHEMA ${schema}`));
  const url = new URL(baseUrl);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return {
    databaseUrl: url.toString(),
    drop: () => withClient(baseUrl, (client) => client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`)).then(() => undefined),
  };
}

async function withClient<T>(databaseUrl: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: databaseUrl, connectionTimeoutMillis: 5_000 });
  try {
    await client.connect();
  } catch (error) {
    throw new Error(`TEST_DATABASE_URL is set but its Postgres cannot be reached: ${(error as Error).message || String(error)}`, { cause: error });
  }
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

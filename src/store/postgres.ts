/**
 * The Db over a `pg` connection pool, for deployments with DATABASE_URL where replicas share one
 * Postgres. Values come back with the same JavaScript types as from PGlite.
 */
import pg from 'pg';
import type { Logger } from '../core/logger.js';
import type { Db, Queryable, QueryResult } from './db.js';
import { tenantNotices } from './notices.js';
import { PostgresListener } from './postgres-listener.js';
import { checkedTenant, SINGLE_WORKSPACE_TENANT } from './tenant.js';
import { createTransactionScope, type TransactionScope } from './transaction-scope.js';

/** Connections for interactions (commands, clicks, payouts), and apart from them for heavy jobs. */
const POOL_SIZE = 10;
const HEAVY_POOL_SIZE = 4;
const APPLICATION_NAME = 'fleet-treasury-bot';
const CONNECT_TIMEOUT_MS = 5_000;
const STATEMENT_TIMEOUT_MS = 30_000;
const OID = { int8: 20, textArray: 1009, int8Array: 1016, date: 1082 } as const;

/**
 * DATABASE_URL is set but no connection could be made. The message never holds the password, and
 * the driver's error is not attached as `cause`, since it may carry the connection settings.
 */
class DatabaseConnectionError extends Error {
  readonly code = 'database_unreachable';
  constructor(message: string) {
    super(message);
    this.name = 'DatabaseConnectionError';
  }
}

export interface PostgresOptions {
  logger?: Logger;
  /** The tenant of the Db returned; others through `forTenant`. Default SINGLE_WORKSPACE_TENANT. */
  tenant?: string;
  /** The URL's name in messages. Default 'DATABASE_URL'. */
  urlName?: string;
}

export async function openPostgres(databaseUrl: string, options: PostgresOptions = {}): Promise<Db> {
  const { logger, urlName = 'DATABASE_URL' } = options;
  const firstTenant = checkedTenant(options.tenant ?? SINGLE_WORKSPACE_TENANT);
  // Anything else (a missing scheme, say) is read with the password where the host or user should
  // be, where neither the scrubber nor describeUrl would find it; config.ts refuses it the same way.
  if (!/^postgres(ql)?:\/\//i.test(databaseUrl)) {
    throw new DatabaseConnectionError(`${urlName} must be a postgres:// or postgresql:// URL`);
  }
  const hide = secretScrubber(databaseUrl);
  const pool = createPool(databaseUrl, POOL_SIZE, APPLICATION_NAME, hide, urlName, logger);
  try {
    await pool.query('SELECT 1');
  } catch (error) {
    await pool.end().catch(() => undefined);
    throw new DatabaseConnectionError(`Cannot connect to the database in ${urlName} (${describeUrl(databaseUrl)}): ${hide(reasonOf(error))}`);
  }
  // Heavy jobs' pool: it opens its connections on their first queries only.
  const heavyPool = createPool(databaseUrl, HEAVY_POOL_SIZE, `${APPLICATION_NAME}/heavy`, hide, urlName, logger);
  logger?.info({ kind: 'postgres', database: describeUrl(databaseUrl) }, 'opened database');

  // Shared by every tenant's Db: one scope for both pools (a query on either from inside a
  // transaction is the same mistake), and the tenant each pooled connection was last set to.
  const shared: Shared = { scope: createTransactionScope(), tenants: new WeakMap(), hide, logger };
  // Its connection is opened on the first listen(): one more connection per replica than the pools'.
  const listener = new PostgresListener(databaseUrl, (error) => hide(reasonOf(error)), logger);
  let closed = false;
  const tenantDb = (tenant: string, close: () => Promise<void>): Db => {
    const heavy: Db = {
      ...poolQueries(heavyPool, tenant, shared),
      kind: 'postgres',
      tenant,
      forTenant: (other) => tenantDb(checkedTenant(other), async () => undefined).forHeavyWork(),
      listen: (channel, handlers) => listener.listen(channel, tenantNotices(tenant, handlers)),
      forHeavyWork: () => heavy,
      // Closed with the Db it came from.
      close: async () => undefined,
    };
    return {
      ...poolQueries(pool, tenant, shared),
      kind: 'postgres',
      tenant,
      // Another tenant's view of the same pools; closed with the Db it came from.
      forTenant: (other) => tenantDb(checkedTenant(other), async () => undefined),
      listen: (channel, handlers) => listener.listen(channel, tenantNotices(tenant, handlers)),
      forHeavyWork: () => heavy,
      close,
    };
  };
  return tenantDb(firstTenant, async () => {
    if (closed) return;
    closed = true;
    await listener.close();
    await Promise.all([pool.end(), heavyPool.end()]);
  });
}

interface Shared {
  scope: TransactionScope;
  /** The `app.tenant` each pooled connection holds; a connection missing here holds none yet. */
  tenants: WeakMap<pg.PoolClient, string>;
  hide: (text: string) => string;
  logger?: Logger;
}

function createPool(databaseUrl: string, max: number, applicationName: string, hide: (text: string) => string, urlName: string, logger?: Logger): pg.Pool {
  let pool: pg.Pool;
  try {
    pool = new pg.Pool({
      connectionString: databaseUrl,
      max,
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
      types: { getTypeParser },
      // A silently cut network must not leave a query (and the payout or feed step behind it) waiting for ever.
      keepAlive: true,
      statement_timeout: STATEMENT_TIMEOUT_MS,
      application_name: applicationName,
    });
  } catch (error) {
    throw new DatabaseConnectionError(`${urlName} is not a usable postgres:// URL: ${hide(reasonOf(error))}`);
  }
  // Without a listener, a dropped idle connection would crash the process; the pool replaces it.
  pool.on('error', (error) => logger?.warn({ reason: hide(reasonOf(error)) }, 'an idle database connection failed'));
  return pool;
}

/**
 * `query` and `transaction` over one pool, as `tenant`: each runs on a connection checked out for
 * it, whose `app.tenant` is first set to `tenant` unless it already is (so a process serving one
 * tenant sets it once per connection).
 */
function poolQueries(pool: pg.Pool, tenant: string, shared: Shared): Pick<Db, 'query' | 'transaction'> {
  const { scope, tenants, hide, logger } = shared;
  const checkout = async (): Promise<pg.PoolClient> => {
    const client = await pool.connect();
    if (tenants.get(client) === tenant) return client;
    try {
      // Set for the session (outside any transaction, so it stays), not for one transaction.
      await client.query("SELECT set_config('app.tenant', $1, false)", [tenant]);
    } catch (error) {
      // In doubt about what the connection holds: it is not reused.
      tenants.delete(client);
      client.release(error instanceof Error ? error : true);
      throw error;
    }
    tenants.set(client, tenant);
    return client;
  };
  // A checked-out client has no pool listener: without this, a connection the server ends while
  // it is out (restart, failover) would be an unhandled 'error' event and end the process. The
  // pending query fails with the error; the client is destroyed on release.
  const watch = (client: pg.PoolClient, during: string) => {
    const state: { broken?: Error; stop: () => void } = { stop: () => client.off('error', onError) };
    const onError = (error: Error) => {
      state.broken ??= error;
      logger?.warn({ reason: hide(reasonOf(error)) }, `a database connection failed during ${during}`);
    };
    client.on('error', onError);
    return state;
  };
  return {
    async query(sql, params) {
      scope.assertOutside();
      const client = await checkout();
      const watched = watch(client, 'a query');
      let failure: unknown;
      try {
        return await run(client, sql, params);
      } catch (error) {
        failure = error;
        throw error;
      } finally {
        watched.stop();
        // A server's refusal (it has a SQLSTATE) leaves the connection usable; anything else is doubt.
        client.release(watched.broken ?? (failure === undefined || hasSqlState(failure) ? undefined : true));
      }
    },
    async transaction(work) {
      scope.assertOutside();
      const client = await checkout();
      const watched = watch(client, 'a transaction');
      let ended = false;
      // Refuses queries once the transaction is over, so a stray late query cannot run on a pooled client.
      const tx: Queryable = {
        query: (sql, params) => (ended ? Promise.reject(new Error('Transaction is closed')) : run(client, sql, params)),
      };
      try {
        await client.query('BEGIN');
        const result = await scope.run(() => work(tx));
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch((rollbackError: Error) => {
          watched.broken = rollbackError;
        });
        throw error;
      } finally {
        ended = true;
        watched.stop();
        // A client that failed or could not roll back is in an unknown state: destroy it rather than reuse it.
        client.release(watched.broken);
      }
    },
  };
}

function hasSqlState(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code);
}

/** Without parameters a query may hold several statements; the last one's result is returned. */
async function run<Row>(client: pg.Pool | pg.PoolClient, sql: string, params?: unknown[]): Promise<QueryResult<Row>> {
  const outcome = (await client.query(sql, params && params.length > 0 ? params : undefined)) as unknown as pg.QueryResult | pg.QueryResult[];
  const last = Array.isArray(outcome) ? outcome.at(-1) : outcome;
  if (!last) return { rows: [], rowCount: 0 };
  return { rows: last.rows as Row[], rowCount: last.rowCount ?? 0 };
}

// The same JavaScript types as PGlite gives: int8 as a number while it is exact (a bigint beyond
// that, instead of pg's string), and a date as its 'YYYY-MM-DD' text rather than a local-time Date.
function parseInt8(value: string): number | bigint {
  const exact = BigInt(value);
  return exact >= BigInt(Number.MIN_SAFE_INTEGER) && exact <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(exact) : exact;
}

// pg-types types its ids as an enum of scalar types only; array ids such as text[] are valid too.
const builtinParser = pg.types.getTypeParser as (oid: number, format: 'text' | 'binary') => (value: string) => unknown;

function getTypeParser(oid: number, format?: 'text' | 'binary'): (value: string) => unknown {
  if (format !== 'binary') {
    if (oid === OID.int8) return parseInt8;
    if (oid === OID.date) return (value) => value;
    if (oid === OID.int8Array) {
      const parseTextArray = builtinParser(OID.textArray, 'text') as (value: string) => Array<string | null>;
      return (value) => parseTextArray(value).map((entry) => (entry === null ? null : parseInt8(entry)));
    }
  }
  return builtinParser(oid, format ?? 'text');
}

/** The URL without its password, for messages and logs. */
function describeUrl(databaseUrl: string): string {
  try {
    const url = new URL(databaseUrl);
    return `${url.protocol}//${url.username ? `${decodeURIComponent(url.username)}@` : ''}${url.host}${url.pathname}`;
  } catch {
    return 'an unparsable URL';
  }
}

/** Removes the URL's password (raw and decoded) from any text, in case a driver message echoes it. */
function secretScrubber(databaseUrl: string): (text: string) => string {
  let secrets: string[] = [];
  try {
    const { password } = new URL(databaseUrl);
    if (password) secrets = [password, decodeURIComponent(password)];
  } catch {
    // An unparsable URL has no password we can find; the message then names the URL as unusable.
  }
  return (text) => secrets.reduce((clean, secret) => clean.split(secret).join('[redacted]'), text);
}

function reasonOf(error: unknown): string {
  if (error instanceof AggregateError && error.errors.length > 0) return error.errors.map(reasonOf).join('; ');
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    return error.message || (typeof code === 'string' ? code : error.name);
  }
  return String(error);
}

/**
 * The Db over a `pg` connection pool, for deployments with DATABASE_URL where replicas share one
 * Postgres. Values come back with the same JavaScript types as from PGlite.
 */
import pg from 'pg';
import type { Logger } from '../core/logger.js';
import type { Db, Queryable, QueryResult } from './db.js';
import { PostgresListener } from './postgres-listener.js';
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

export async function openPostgres(databaseUrl: string, logger?: Logger): Promise<Db> {
  // Anything else (a missing scheme, say) is read with the password where the host or user should
  // be, where neither the scrubber nor describeUrl would find it; config.ts refuses it the same way.
  if (!/^postgres(ql)?:\/\//i.test(databaseUrl)) {
    throw new DatabaseConnectionError('DATABASE_URL must be a postgres:// or postgresql:// URL');
  }
  const hide = secretScrubber(databaseUrl);
  const pool = createPool(databaseUrl, POOL_SIZE, APPLICATION_NAME, hide, logger);
  try {
    await pool.query('SELECT 1');
  } catch (error) {
    await pool.end().catch(() => undefined);
    throw new DatabaseConnectionError(`Cannot connect to the database in DATABASE_URL (${describeUrl(databaseUrl)}): ${hide(reasonOf(error))}`);
  }
  // Heavy jobs' pool: it opens its connections on their first queries only.
  const heavyPool = createPool(databaseUrl, HEAVY_POOL_SIZE, `${APPLICATION_NAME}/heavy`, hide, logger);
  logger?.info({ kind: 'postgres', database: describeUrl(databaseUrl) }, 'opened database');

  // One scope for both pools: a query on either from inside a transaction is the same mistake.
  const scope = createTransactionScope();
  // Its connection is opened on the first listen(): one more connection per replica than the pools'.
  const listener = new PostgresListener(databaseUrl, (error) => hide(reasonOf(error)), logger);
  const listen: Db['listen'] = (channel, handlers) => listener.listen(channel, handlers);
  let closed = false;
  const heavy: Db = {
    ...poolQueries(heavyPool, scope, hide, logger),
    kind: 'postgres',
    listen,
    forHeavyWork: () => heavy,
    // Closed with the Db it came from.
    close: async () => undefined,
  };
  return {
    ...poolQueries(pool, scope, hide, logger),
    kind: 'postgres',
    listen,
    forHeavyWork: () => heavy,
    async close() {
      if (closed) return;
      closed = true;
      await listener.close();
      await Promise.all([pool.end(), heavyPool.end()]);
    },
  };
}

function createPool(databaseUrl: string, max: number, applicationName: string, hide: (text: string) => string, logger?: Logger): pg.Pool {
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
    throw new DatabaseConnectionError(`DATABASE_URL is not a usable postgres:// URL: ${hide(reasonOf(error))}`);
  }
  // Without a listener, a dropped idle connection would crash the process; the pool replaces it.
  pool.on('error', (error) => logger?.warn({ reason: hide(reasonOf(error)) }, 'an idle database connection failed'));
  return pool;
}

/** `query` and `transaction` over one pool. */
function poolQueries(pool: pg.Pool, scope: TransactionScope, hide: (text: string) => string, logger?: Logger): Pick<Db, 'query' | 'transaction'> {
  return {
    query(sql, params) {
      scope.assertOutside();
      return run(pool, sql, params);
    },
    async transaction(work) {
      scope.assertOutside();
      const client = await pool.connect();
      let broken: Error | undefined;
      // A checked-out client has no pool listener: without this, a connection the server ends
      // mid-transaction (restart, failover) would be an unhandled 'error' event and end the process.
      // The pending query fails with the error; the client is destroyed on release.
      const onError = (error: Error) => {
        broken ??= error;
        logger?.warn({ reason: hide(reasonOf(error)) }, 'a database connection failed during a transaction');
      };
      client.on('error', onError);
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
          broken = rollbackError;
        });
        throw error;
      } finally {
        ended = true;
        client.off('error', onError);
        // A client that failed or could not roll back is in an unknown state: destroy it rather than reuse it.
        client.release(broken);
      }
    },
  };
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

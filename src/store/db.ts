/**
 * The database seen by the rest of the app: Postgres either way, through the `pg` driver when
 * DATABASE_URL is set (replicas share it) or embedded PGlite in DATA_DIR otherwise.
 */
export interface QueryResult<Row> {
  rows: Row[];
  rowCount: number;
}

export interface Queryable {
  query<Row = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<QueryResult<Row>>;
}

export interface NoticeHandlers {
  notice(payload: string): void;
  /** Notices may have been missed (the listening connection dropped and is back): forget what they guard. */
  reset?(): void;
}

export interface Db extends Queryable {
  readonly kind: 'pglite' | 'postgres';
  /**
   * The tenant every query of this Db runs as (`app.tenant` on its connection): row-level security
   * shows and accepts that tenant's rows alone (see docs/security.md).
   */
  readonly tenant: string;
  /**
   * The same database as `tenant` sees it: on Postgres the same pools, listener and transaction
   * scope, its own `close()` doing nothing; PGlite holds one tenant and refuses any other.
   */
  forTenant(tenant: string): Db;
  /** Runs `work` in one transaction on one connection; rolls back when it throws. */
  transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T>;
  /**
   * Calls `handlers.notice` with the payload of each `NOTIFY` on `channel` for this Db's tenant (sent
   * with `notify()` of notices.ts in a committed transaction, by this process or any replica). On Postgres one dedicated connection per
   * process listens, and is reconnected when it drops; `handlers.reset` is then called, since notices
   * may have been missed. Resolves once listening; the returned function stops.
   */
  listen(channel: string, handlers: NoticeHandlers): Promise<() => Promise<void>>;
  /**
   * The database as heavy jobs use it (exports, the ledger sync, bulk payouts, the feed and the
   * digest), so that interactions never wait behind them for a connection: on Postgres a pool of its
   * own (`application_name` ending in `/heavy`), on PGlite the one connection there is. Closed with
   * this Db; its own `close()` does nothing. It keeps this Db's tenant.
   */
  forHeavyWork(): Db;
  close(): Promise<void>;
}

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
  /** Runs `work` in one transaction on one connection; rolls back when it throws. */
  transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T>;
  /**
   * Calls `handlers.notice` with the payload of each `NOTIFY` on `channel` (sent with `pg_notify` in a
   * committed transaction, by this process or any replica). On Postgres one dedicated connection per
   * process listens, and is reconnected when it drops; `handlers.reset` is then called, since notices
   * may have been missed. Resolves once listening; the returned function stops.
   */
  listen(channel: string, handlers: NoticeHandlers): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

/**
 * `LISTEN` on Postgres: one dedicated connection per process (outside the pool, which would hand it
 * to queries), opened on the first `listen()`, and reconnected when it drops (restart, failover,
 * `pg_terminate_backend`). After a reconnection every channel is listened to again and each
 * handler's `reset` is called, since notices sent while it was away are lost.
 */
import pg from 'pg';
import type { Logger } from '../core/logger.js';
import type { NoticeHandlers } from './db.js';

const CONNECT_TIMEOUT_MS = 5_000;
const FIRST_RETRY_MS = 100;
const LAST_RETRY_MS = 5_000;

export class PostgresListener {
  private readonly channels = new Map<string, Set<NoticeHandlers>>();
  private client: pg.Client | undefined;
  private connecting: Promise<pg.Client> | undefined;
  private retryTimer: NodeJS.Timeout | undefined;
  private retryMs = FIRST_RETRY_MS;
  private closed = false;

  constructor(
    private readonly databaseUrl: string,
    private readonly describe: (error: unknown) => string,
    private readonly logger?: Logger,
  ) {}

  async listen(channel: string, handlers: NoticeHandlers): Promise<() => Promise<void>> {
    if (this.closed) throw new Error('The database is closed');
    let listeners = this.channels.get(channel);
    const first = listeners === undefined;
    if (!listeners) {
      listeners = new Set();
      this.channels.set(channel, listeners);
    }
    listeners.add(handlers);
    try {
      const client = await this.connected();
      if (first) await client.query(`LISTEN ${quoteIdentifier(channel)}`);
    } catch (error) {
      this.forget(channel, handlers);
      throw error;
    }
    return async () => {
      if (!this.forget(channel, handlers)) return;
      await this.client?.query(`UNLISTEN ${quoteIdentifier(channel)}`).catch(() => undefined);
    };
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.retryTimer);
    const client = this.client ?? (await this.connecting?.catch(() => undefined));
    this.client = undefined;
    await client?.end().catch(() => undefined);
  }

  /** Removes the handlers; true when the channel has no listener left. */
  private forget(channel: string, handlers: NoticeHandlers): boolean {
    const listeners = this.channels.get(channel);
    if (!listeners?.delete(handlers) || listeners.size > 0) return false;
    this.channels.delete(channel);
    return true;
  }

  private connected(): Promise<pg.Client> {
    if (this.client) return Promise.resolve(this.client);
    this.connecting ??= this.connect().finally(() => {
      this.connecting = undefined;
    });
    return this.connecting;
  }

  private async connect(): Promise<pg.Client> {
    const client = new pg.Client({ connectionString: this.databaseUrl, connectionTimeoutMillis: CONNECT_TIMEOUT_MS, keepAlive: true });
    // Without a listener, the error of a dropped connection would end the process; 'end' reconnects.
    client.on('error', (error) => this.logger?.warn({ reason: this.describe(error) }, 'the database connection listening for notices failed'));
    client.on('notification', (message) => {
      for (const handlers of this.channels.get(message.channel) ?? []) handlers.notice(message.payload ?? '');
    });
    try {
      await client.connect();
      for (const channel of this.channels.keys()) await client.query(`LISTEN ${quoteIdentifier(channel)}`);
    } catch (error) {
      await client.end().catch(() => undefined);
      throw error;
    }
    if (this.closed) {
      await client.end().catch(() => undefined);
      throw new Error('The database is closed');
    }
    client.once('end', () => this.dropped(client));
    this.client = client;
    return client;
  }

  private dropped(client: pg.Client): void {
    if (this.client !== client) return;
    this.client = undefined;
    if (this.closed) return;
    this.logger?.warn({}, 'the database connection listening for notices dropped; reconnecting');
    this.resetAll();
    this.scheduleReconnect();
  }

  private scheduleReconnect(): void {
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => {
      this.connected().then(
        () => {
          this.retryMs = FIRST_RETRY_MS;
          this.logger?.info({ channels: [...this.channels.keys()] }, 'listening for database notices again');
          this.resetAll();
        },
        (error: unknown) => {
          if (this.closed) return;
          this.logger?.warn({ reason: this.describe(error), retryMs: this.retryMs }, 'could not reconnect to listen for database notices');
          this.retryMs = Math.min(this.retryMs * 2, LAST_RETRY_MS);
          this.scheduleReconnect();
        },
      );
    }, this.retryMs);
    this.retryTimer.unref();
  }

  private resetAll(): void {
    for (const listeners of this.channels.values()) for (const handlers of listeners) handlers.reset?.();
  }
}

function quoteIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

import net from 'node:net';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/core/clock.js';
import { openDatabase, type Db } from '../../src/store/index.js';
import { createTestSchema, testPostgresUrl } from '../support/databases.js';
import { APPROVER, createService, submitted } from '../support/payout-doubles.js';

/** The Postgres every machine of the project runs (CI sets TEST_DATABASE_URL to it too). */
const POSTGRES_URL = testPostgresUrl ?? 'postgres://postgres@127.0.0.1:5432/test';

/**
 * A loopback TCP proxy in front of the real Postgres that can be taken down: every connection cut
 * and the port closed, as the app sees a database server that stopped; then listening again.
 */
class DatabaseOutage {
  private server: net.Server | undefined;
  private readonly sockets = new Set<net.Socket>();
  port = 0;

  constructor(private readonly target: { host: string; port: number }) {}

  async up(): Promise<void> {
    const server = net.createServer((client) => {
      const upstream = net.connect(this.target);
      for (const socket of [client, upstream]) {
        this.sockets.add(socket);
        socket.on('close', () => this.sockets.delete(socket));
        socket.on('error', () => undefined);
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => resolve());
    });
    this.server = server;
    this.port = (server.address() as net.AddressInfo).port;
  }

  async down(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  }
}

describe('a payout answered while the database is away', () => {
  let schema: Awaited<ReturnType<typeof createTestSchema>>;
  let outage: DatabaseOutage;
  let db: Db;
  let direct: pg.Client;

  beforeAll(async () => {
    schema = await createTestSchema(POSTGRES_URL);
    const url = new URL(schema.databaseUrl);
    outage = new DatabaseOutage({ host: url.hostname, port: Number(url.port || 5432) });
    await outage.up();
    url.hostname = '127.0.0.1';
    url.port = String(outage.port);
    db = await openDatabase({ databaseUrl: url.toString() });
    direct = new pg.Client({ connectionString: schema.databaseUrl });
    await direct.connect();
  });

  afterAll(async () => {
    await direct?.end();
    await db?.close();
    await outage?.down();
    await schema?.drop();
  });

  it("keeps the Fleet API's answer and stores it once the database is back: sent once, completed within 60 s", async () => {
    const { service, fleet, notifications } = createService(db, { clock: systemClock });
    const request = await submitted(service);
    // The Fleet API takes the payout; its answer arrives just after Postgres went away.
    fleet.willAnswer(async () => {
      await outage.down();
      return { transactionId: 'TX-DURING-OUTAGE', message: 'Payout processing initiated' };
    });
    await service.approve(request.id, APPROVER).catch(() => undefined);
    expect(fleet.payoutCalls).toHaveLength(1);
    expect(service.pendingOutcomes()).toBe(1);

    // Down for a while: nothing is stored, nothing is sent again.
    await systemClock.sleep(1_500);
    const whileDown = await direct.query<{ state: string }>('SELECT state FROM payout_requests WHERE id = $1', [request.id]);
    expect(whileDown.rows[0]?.state).toBe('executing');

    await outage.up();
    const backAt = Date.now();
    let stored: { state: string; transaction_id: string | null } | undefined;
    while (Date.now() - backAt < 60_000) {
      stored = (
        await direct.query<{ state: string; transaction_id: string | null }>('SELECT state, transaction_id FROM payout_requests WHERE id = $1', [request.id])
      ).rows[0];
      if (stored?.state !== 'executing') break;
      await systemClock.sleep(100);
    }
    expect(stored).toEqual({ state: 'completed', transaction_id: 'TX-DURING-OUTAGE' });
    expect(Date.now() - backAt).toBeLessThan(60_000);
    expect(fleet.payoutCalls).toHaveLength(1);
    expect(service.pendingOutcomes()).toBe(0);
    // The approval message and the requester hear of it as of any outcome.
    expect(notifications.filter((note) => note.id === request.id && note.state === 'completed')).toHaveLength(1);
    await service.stop();
  }, 90_000);
});

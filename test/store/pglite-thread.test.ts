/**
 * The embedded store with PGlite in a worker thread (src/store/pglite.ts): what the app reads back
 * and relies on is the same as when PGlite ran on the app's thread, and that thread keeps serving
 * while a statement runs.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isUniqueViolation, notify, type Db } from '../../src/store/index.js';
import { openPglite } from '../../src/store/pglite.js';
import { blankPgliteCluster } from '../../src/store/pglite-blank.js';

describe('the embedded store in its worker thread', () => {
  let db: Db;
  beforeAll(async () => {
    db = await openPglite(':memory:', { loadDataDir: await blankPgliteCluster() });
    await db.query(`CREATE TABLE owners (name text PRIMARY KEY);
      CREATE TABLE accounts (id int PRIMARY KEY, owner text NOT NULL REFERENCES owners (name));
      INSERT INTO owners VALUES ('treasury')`);
  });
  afterAll(async () => {
    await db?.close();
  });

  it("keeps Postgres's error fields: the code of a unique violation, its constraint and detail", async () => {
    await db.query("INSERT INTO accounts VALUES (1, 'treasury')");

    const error = (await db.query("INSERT INTO accounts VALUES (1, 'treasury')").catch((caught: unknown) => caught)) as Record<string, unknown>;

    expect(error).toBeInstanceOf(Error);
    expect(isUniqueViolation(error)).toBe(true);
    expect(error).toMatchObject({ code: '23505', constraint: 'accounts_pkey', table: 'accounts', detail: 'Key (id)=(1) already exists.' });
    expect(error.message).toContain('duplicate key value violates unique constraint');
  });

  it('keeps the code of a foreign key violation and of a syntax error', async () => {
    await expect(db.query("INSERT INTO accounts VALUES (2, 'nobody')")).rejects.toMatchObject({ code: '23503' });
    await expect(db.query('SELEC 1')).rejects.toMatchObject({ code: '42601' });
  });

  it('reads back dates, timestamps, big integers, numerics, JSON, arrays and bytes with the types PGlite gives', async () => {
    const { rows } = await db.query(`SELECT '2026-03-01'::date AS day, '2026-03-01T10:00:00Z'::timestamptz AS at, 42::int8 AS small,
      9007199254740993::int8 AS big, 12.50::numeric AS amount, '{"a":[1,"b"]}'::jsonb AS doc, ARRAY['x','y'] AS tags,
      '\\x0102'::bytea AS bytes, NULL::text AS nothing, true AS yes`);

    expect(rows[0]).toEqual({
      day: '2026-03-01',
      at: new Date('2026-03-01T10:00:00Z'),
      small: 42,
      big: 9007199254740993n,
      amount: '12.50',
      doc: { a: [1, 'b'] },
      tags: ['x', 'y'],
      bytes: new Uint8Array([1, 2]),
      nothing: null,
      yes: true,
    });
  });

  it('passes parameters of every kind the app sends', async () => {
    const { rows } = await db.query<{ at: Date; doc: unknown; ids: number[]; big: bigint }>(
      'SELECT $1::timestamptz AS at, $2::jsonb AS doc, $3::int[] AS ids, $4::int8 AS big',
      [new Date('2026-01-02T03:04:05Z'), JSON.stringify({ ok: true }), [1, 2], 9007199254740995n],
    );

    expect(rows[0]).toEqual({ at: new Date('2026-01-02T03:04:05Z'), doc: { ok: true }, ids: [1, 2], big: 9007199254740995n });
  });

  it('fails a query whose parameter cannot cross to the worker, and serves the next one', async () => {
    await expect(db.query('SELECT $1::text AS value', [() => 'a function'])).rejects.toThrow();

    const { rows } = await db.query('SELECT $1::text AS value', ['plain text']);
    expect(rows).toEqual([{ value: 'plain text' }]);
  });

  it('rolls back a transaction whose statement failed, passes that error on, and serves the next query', async () => {
    const failed = db.transaction(async (tx) => {
      await tx.query("INSERT INTO accounts VALUES (10, 'treasury')");
      await tx.query("INSERT INTO accounts VALUES (10, 'treasury')");
    });

    await expect(failed).rejects.toMatchObject({ code: '23505' });
    const { rows } = await db.query('SELECT count(*)::int AS n FROM accounts WHERE id = 10');
    expect(rows[0]).toEqual({ n: 0 });
  });

  it('refuses a query on a transaction that has ended', async () => {
    let kept: ((sql: string) => Promise<unknown>) | undefined;
    await db.transaction(async (tx) => {
      kept = (sql) => tx.query(sql);
    });

    await expect(kept!('SELECT 1')).rejects.toThrow('Transaction is closed');
  });

  it('hands each NOTIFY to the listener on this thread, and none once it stopped listening', async () => {
    const payloads: string[] = [];
    const stop = await db.listen('account_changes', { notice: (payload) => payloads.push(payload) });

    await db.transaction(async (tx) => {
      await notify(tx, 'account_changes', 'U0ONE');
    });
    await notify(db, 'account_changes', 'U0TWO');
    await stop();
    await notify(db, 'account_changes', 'U0THREE');
    await db.query('SELECT 1');

    expect(payloads).toEqual(['U0ONE', 'U0TWO']);
  });

  it('keeps this thread serving while a statement runs', async () => {
    const order: string[] = [];
    const statement = db.query('SELECT pg_sleep(1)').then(() => order.push('statement'));

    await nextTurn();
    order.push('this thread');
    await statement;

    expect(order).toEqual(['this thread', 'statement']);
  });
});

describe('closing the embedded store', () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'ftb-pglite-thread-'));
  });
  afterAll(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it('writes what was committed to the folder, frees it for the next open, and refuses queries after', async () => {
    const first = await openPglite(dataDir);
    await first.query('CREATE TABLE kept (note text)');
    await first.query("INSERT INTO kept VALUES ('before close')");
    await first.close();

    await expect(first.query('SELECT 1')).rejects.toThrow('closed');
    await first.close();
    const second = await openPglite(dataDir);
    try {
      const { rows } = await second.query('SELECT note FROM kept');
      expect(rows).toEqual([{ note: 'before close' }]);
    } finally {
      await second.close();
    }
  });

  it('settles every query still queued or sent while the store closes, rather than leaving its caller waiting', async () => {
    const db = await openPglite(':memory:', { loadDataDir: await blankPgliteCluster() });

    const queued = [db.query('SELECT pg_sleep(0.2)'), db.query('SELECT 1'), db.query('SELECT 2')];
    const closing = db.close();
    const late = db.query('SELECT 3');
    const settled = Promise.allSettled([...queued, late]);
    await closing;

    const outcomes = await settled;
    expect(outcomes).toHaveLength(4);
    expect(outcomes.at(-1)?.status).toBe('rejected');
  });

  it('closes while a transaction is still open (a shutdown mid-job): its writes are rolled back, the committed ones kept', async () => {
    const first = await openPglite(dataDir);
    await first.query('CREATE TABLE IF NOT EXISTS payouts_seen (note text)');
    await first.query("INSERT INTO payouts_seen VALUES ('committed')");
    let inside!: () => void;
    const opened = new Promise<void>((resolve) => (inside = resolve));
    const job = first.transaction(async (tx) => {
      await tx.query("INSERT INTO payouts_seen VALUES ('never committed')");
      inside();
      // The job is still working when the app stops.
      await new Promise((resolve) => setTimeout(resolve, 60_000).unref());
    });
    job.catch(() => undefined);
    await opened;
    // Another job waits for the one connection.
    const queued = first
      .transaction((tx) => tx.query("INSERT INTO payouts_seen VALUES ('queued')"))
      .then(
        () => 'committed',
        (error: Error) => error.message,
      );

    await first.close();

    expect(await queued).toBe('The embedded database is closing');

    const second = await openPglite(dataDir);
    try {
      const { rows } = await second.query('SELECT note FROM payouts_seen');
      expect(rows).toEqual([{ note: 'committed' }]);
    } finally {
      await second.close();
    }
  });
});

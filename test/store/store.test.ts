import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isUniqueViolation, migrate, openDatabase, type Db, type Migration } from '../../src/store/index.js';
import { findBatch } from '../../src/payouts/batch/store.js';
import { migrations } from '../../src/store/migrations/index.js';
import { createTestSchema, testDatabases, testPostgresUrl } from '../support/databases.js';

const counterTable: Migration = {
  id: 900,
  name: 'test_counters',
  sql: `
    CREATE TABLE test_counters (name text PRIMARY KEY, value integer NOT NULL);
    CREATE TABLE test_notes (id serial PRIMARY KEY, body text NOT NULL UNIQUE, amount bigint, day date);
  `,
};

const yieldToOthers = () => new Promise<void>((resolve) => setImmediate(resolve));

describe.each(testDatabases())('the store on $name', ({ open }) => {
  let db: Db;
  beforeAll(async () => {
    db = await open({ migrations: [...migrations, counterTable] });
  });
  afterAll(async () => {
    await db?.close(); // db is unset when open() failed; let that failure be the one reported
  });

  it('records every migration once, and running them again applies nothing', async () => {
    const recorded = await db.query<{ id: number; name: string }>('SELECT id, name FROM schema_migrations ORDER BY id');
    expect(recorded.rows).toEqual([...migrations, counterTable].map(({ id, name }) => ({ id, name })));
    expect(await migrate(db, [...migrations, counterTable])).toEqual([]);
    expect((await db.query('SELECT id FROM schema_migrations')).rowCount).toBe(migrations.length + 1);
  });

  it('indexes payouts by their transaction id, which the export joins every ledger row on', async () => {
    const { rows } = await db.query<{ indexdef: string }>(
      "SELECT indexdef FROM pg_indexes WHERE indexname = 'payout_requests_transaction' AND schemaname = current_schema()",
    );
    expect(rows.map((row) => row.indexdef)).toEqual([
      expect.stringMatching(/ON (\w+\.)?payout_requests USING btree \(transaction_id\) WHERE \(transaction_id IS NOT NULL\)/),
    ]);
  });

  it('applies a migration only once when several migrators race for it', async () => {
    const raced: Migration = { id: 901, name: 'test_raced', sql: 'CREATE TABLE test_raced (id integer PRIMARY KEY)' };
    const runs = await Promise.all(Array.from({ length: 5 }, () => migrate(db, [...migrations, counterTable, raced])));
    expect(runs.flat()).toEqual([901]);
    expect((await db.query('SELECT 1 FROM schema_migrations WHERE id = 901')).rowCount).toBe(1);
  });

  it('leaves nothing behind of a migration that fails halfway', async () => {
    const broken: Migration = { id: 902, name: 'test_broken', sql: 'CREATE TABLE test_half (id integer); SELECT no_such_column FROM test_half;' };
    await expect(migrate(db, [broken])).rejects.toThrow(/no_such_column/);
    expect((await db.query("SELECT 1 FROM information_schema.tables WHERE table_name = 'test_half'")).rowCount).toBe(0);
    expect((await db.query('SELECT 1 FROM schema_migrations WHERE id = 902')).rowCount).toBe(0);
  });

  it('rolls back every write of a transaction whose work throws, and passes its error on', async () => {
    const failure = new Error('payout refused');
    await expect(
      db.transaction(async (tx) => {
        await tx.query("INSERT INTO test_notes (body) VALUES ('rolled back')");
        throw failure;
      }),
    ).rejects.toBe(failure);
    expect((await db.query("SELECT 1 FROM test_notes WHERE body = 'rolled back'")).rowCount).toBe(0);
  });

  it('keeps the writes of a transaction that completes and returns its result', async () => {
    const id = await db.transaction(async (tx) => {
      const inserted = await tx.query<{ id: number }>('INSERT INTO test_notes (body) VALUES ($1) RETURNING id', ['committed']);
      return inserted.rows[0]?.id;
    });
    const stored = await db.query<{ id: number }>('SELECT id FROM test_notes WHERE body = $1', ['committed']);
    expect(stored.rows).toEqual([{ id }]);
  });

  it('ends at 20 after 20 concurrent read-increment-write transactions', async () => {
    await db.query("INSERT INTO test_counters (name, value) VALUES ('clicks', 0)");
    await Promise.all(
      Array.from({ length: 20 }, () =>
        db.transaction(async (tx) => {
          const current = await tx.query<{ value: number }>("SELECT value FROM test_counters WHERE name = 'clicks' FOR UPDATE");
          await yieldToOthers();
          await tx.query("UPDATE test_counters SET value = $1 WHERE name = 'clicks'", [(current.rows[0]?.value ?? 0) + 1]);
        }),
      ),
    );
    expect((await db.query("SELECT value FROM test_counters WHERE name = 'clicks'")).rows).toEqual([{ value: 20 }]);
  });

  it('never lets a plain query slip into a running transaction and its rollback', async () => {
    let inside!: () => void;
    const entered = new Promise<void>((resolve) => (inside = resolve));
    const transaction = db.transaction(async (tx) => {
      await tx.query("INSERT INTO test_notes (body) VALUES ('inside the transaction')");
      inside();
      await yieldToOthers();
      await yieldToOthers();
      throw new Error('abandon the transaction');
    });
    await entered;
    const plain = db.query("INSERT INTO test_notes (body) VALUES ('outside the transaction')");
    await expect(transaction).rejects.toThrow('abandon the transaction');
    await plain;
    const bodies = await db.query<{ body: string }>("SELECT body FROM test_notes WHERE body LIKE '% the transaction' ORDER BY body");
    expect(bodies.rows).toEqual([{ body: 'outside the transaction' }]);
  });

  it('refuses db.query inside a transaction and points at tx, instead of hanging', async () => {
    await expect(db.transaction(async () => db.query('SELECT 1'))).rejects.toThrow(/use the tx passed/);
    await expect(db.transaction(async () => db.transaction(async () => 1))).rejects.toThrow(/use the tx passed/);
    expect((await db.query<{ one: number }>('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
  });

  it('counts the rows an insert, update or delete changed', async () => {
    const inserted = await db.query("INSERT INTO test_notes (body) VALUES ('count a'), ('count b'), ('count c')");
    const updated = await db.query("UPDATE test_notes SET amount = 1 WHERE body IN ('count a', 'count b')");
    const untouched = await db.query("UPDATE test_notes SET amount = 1 WHERE body = 'no such note'");
    const deleted = await db.transaction((tx) => tx.query('DELETE FROM test_notes WHERE body LIKE $1', ['count %']));
    expect([inserted.rowCount, updated.rowCount, untouched.rowCount, deleted.rowCount]).toEqual([3, 2, 0, 3]);
  });

  it('returns bigint columns as numbers and dates as YYYY-MM-DD text', async () => {
    await db.query('INSERT INTO test_notes (body, amount, day) VALUES ($1, $2, $3)', ['typed', 5_000_000_000_00, '2025-03-01']);
    const row = await db.query('SELECT amount, day, count(*) OVER () AS total FROM test_notes WHERE body = $1', ['typed']);
    expect(row.rows).toEqual([{ amount: 5_000_000_000_00, day: '2025-03-01', total: 1 }]);
  });

  it('recognises a duplicate as a unique violation', async () => {
    await db.query("INSERT INTO test_notes (body) VALUES ('only once')");
    const duplicate = await db.query("INSERT INTO test_notes (body) VALUES ('only once')").catch((error: unknown) => error);
    expect(isUniqueViolation(duplicate)).toBe(true);
    expect(isUniqueViolation(new Error('something else'))).toBe(false);
  });
});

describe('opening the store', () => {
  it('keeps PGlite data in its folder across a reopen without migrating again', async () => {
    const parent = await mkdtemp(path.join(os.tmpdir(), 'store-test-'));
    const dataDir = path.join(parent, 'nested', 'data');
    try {
      const first = await openDatabase({ dataDir });
      await first.query("INSERT INTO app_leases (name, holder, expires_at) VALUES ('feed', 'replica-a', '2030-01-01T00:00:00Z')");
      const appliedAt = (await first.query('SELECT applied_at FROM schema_migrations')).rows;
      await first.close();

      const second = await openDatabase({ dataDir });
      expect((await second.query('SELECT name, holder FROM app_leases')).rows).toEqual([{ name: 'feed', holder: 'replica-a' }]);
      expect((await second.query('SELECT applied_at FROM schema_migrations')).rows).toEqual(appliedAt);
      await second.close();
    } finally {
      await rm(parent, { recursive: true, force: true });
    }
  });

  it('names DATABASE_URL and hides the password when Postgres cannot be reached', async () => {
    const failure = await openDatabase({ databaseUrl: 'postgres://treasurer:pa55w0rd-secret@127.0.0.1:1/fleet' }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(Error);
    expect((failure as Error).message).toContain('DATABASE_URL');
    expect((failure as Error).message).toContain('postgres://treasurer@127.0.0.1:1/fleet');
    expect((failure as Error).message).not.toContain('pa55w0rd-secret');
  });

  it('keeps the password out of the message when DATABASE_URL lacks its postgres:// prefix', async () => {
    // Read as a URL of scheme "treasurer:", whose host part is the password.
    const failure = await openDatabase({ databaseUrl: 'treasurer:pa55w0rd-secret@127.0.0.1:1/fleet' }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(Error);
    expect((failure as Error).message).toContain('DATABASE_URL');
    expect((failure as Error).message).not.toContain('pa55w0rd-secret');
  });
});

describe.each(testDatabases())('migration 032 on bulk files stored before it, on $name', ({ open }) => {
  it('keeps every stored bulk file, readable, and drops its content hash with the index on it', async () => {
    const db = await open({ migrations: migrations.filter((migration) => migration.id < 32) });
    try {
      await db.query(
        `INSERT INTO payout_batches (id, requested_by, created_at, expires_at, state, content_hash, row_count, totals, updated_at)
         VALUES ('PB-OLD032', 'UREQUESTER', '2026-11-20T10:00:00Z', '2026-11-21T10:00:00Z', 'pending', 'h', 2, '{"USD": 20000}', '2026-11-20T10:00:00Z')`,
      );
      expect(
        await migrate(
          db,
          migrations.filter((migration) => migration.id <= 32),
        ),
      ).toEqual([32]);
      expect(await findBatch(db, 'PB-OLD032')).toMatchObject({ state: 'pending', rowCount: 2, totals: new Map([['USD', 20_000]]) });
      const column = await db.query(
        "SELECT 1 FROM information_schema.columns WHERE table_name = 'payout_batches' AND column_name = 'content_hash' AND table_schema = current_schema()",
      );
      expect(column.rowCount).toBe(0);
      expect((await db.query("SELECT 1 FROM pg_indexes WHERE indexname = 'payout_batches_by_content' AND schemaname = current_schema()")).rowCount).toBe(0);
    } finally {
      await db.close();
    }
  });
});

// Only where a Postgres is given: PGlite is one process's database, so it has no replicas.
if (testPostgresUrl) {
  const baseUrl = testPostgresUrl;
  describe('two replicas starting on one Postgres', () => {
    it('both open, and each migration is applied once', async () => {
      const schema = await createTestSchema(baseUrl);
      const starts = await Promise.allSettled([openDatabase({ databaseUrl: schema.databaseUrl }), openDatabase({ databaseUrl: schema.databaseUrl })]);
      const replicas = starts.flatMap((start) => (start.status === 'fulfilled' ? [start.value] : []));
      try {
        expect(starts.map((start) => start.status)).toEqual(['fulfilled', 'fulfilled']);
        const recorded = await replicas[0]!.query<{ id: number }>('SELECT id FROM schema_migrations ORDER BY id');
        expect(recorded.rows).toEqual(migrations.map(({ id }) => ({ id })));
      } finally {
        await Promise.all(replicas.map((replica) => replica.close()));
        await schema.drop();
      }
    });
  });

  describe('a Postgres connection lost in the middle of a transaction', () => {
    it('fails that transaction only, and the store keeps serving queries', async () => {
      const schema = await createTestSchema(baseUrl);
      const db = await openDatabase({ databaseUrl: schema.databaseUrl });
      const admin = await openDatabase({ databaseUrl: schema.databaseUrl });
      try {
        // The server ends the connection while the work is between two queries (a restart, a failover).
        const outcome = await db
          .transaction(async (tx) => {
            const { rows } = await tx.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
            await admin.query('SELECT pg_terminate_backend($1)', [rows[0]!.pid]);
            await new Promise((resolve) => setTimeout(resolve, 200));
            await tx.query('SELECT 1');
            return 'committed';
          })
          .catch((error: unknown) => error);
        expect(outcome).toBeInstanceOf(Error);
        expect((await db.query<{ one: number }>('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
      } finally {
        await Promise.all([db.close(), admin.close()]);
        await schema.drop();
      }
    });
  });
}

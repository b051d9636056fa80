import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../src/store/index.js';
import { createTestSchema, testDatabases, testPostgresUrl } from '../support/databases.js';

describe.each(testDatabases())("heavy jobs' database on $name", ({ open }) => {
  let db: Db;
  beforeAll(async () => {
    db = await open();
    await db.query('CREATE TABLE heavy_probe (id int PRIMARY KEY)');
  });
  afterAll(async () => {
    await db?.close();
  });

  it('holds the same data: what one writes the other reads, in transactions too', async () => {
    const heavy = db.forHeavyWork();
    await heavy.transaction(async (tx) => tx.query('INSERT INTO heavy_probe (id) VALUES (1)'));
    await db.query('INSERT INTO heavy_probe (id) VALUES (2)');
    expect((await db.query('SELECT id FROM heavy_probe ORDER BY id')).rows).toEqual([{ id: 1 }, { id: 2 }]);
    expect((await heavy.query('SELECT id FROM heavy_probe ORDER BY id')).rows).toEqual([{ id: 1 }, { id: 2 }]);
    expect(heavy.forHeavyWork()).toBe(heavy);
  });

  it('refuses a heavy query inside a transaction as the store does, instead of hanging', async () => {
    const heavy = db.forHeavyWork();
    const outcome = await db.transaction(async () => heavy.query('SELECT 1')).catch((error: unknown) => error);
    expect(String(outcome)).toContain('use the tx');
  });
});

// Only where a Postgres is given: PGlite has one connection, which heavy jobs share.
if (testPostgresUrl) {
  const baseUrl = testPostgresUrl;
  describe('heavy jobs on Postgres', () => {
    let db: Db;
    let drop: () => Promise<void>;
    beforeAll(async () => {
      const schema = await createTestSchema(baseUrl);
      drop = schema.drop;
      db = await openDatabase({ databaseUrl: schema.databaseUrl });
    });
    afterAll(async () => {
      await db?.close();
      await drop?.();
    });

    const applicationName = async (on: Db) => (await on.query<{ name: string }>("SELECT current_setting('application_name') AS name")).rows[0]!.name;

    it("run on connections of their own, named apart from the interactions' ones", async () => {
      expect(await applicationName(db)).toBe('fleet-treasury-bot');
      expect(await applicationName(db.forHeavyWork())).toBe('fleet-treasury-bot/heavy');
    });

    it('leave interactions a connection while every heavy connection is busy, and the other way round', async () => {
      const heavy = db.forHeavyWork();
      // Every heavy connection held in a transaction that waits for the test to let it go.
      let release!: () => void;
      const released = new Promise<void>((resolve) => {
        release = resolve;
      });
      const holding: Array<Promise<unknown>> = [];
      let holders = 0;
      for (let index = 0; index < 4; index += 1) {
        holding.push(
          heavy.transaction(async (tx) => {
            await tx.query('SELECT 1');
            holders += 1;
            await released;
          }),
        );
      }
      while (holders < 4) await new Promise((resolve) => setTimeout(resolve, 10));
      // A fifth heavy job waits for a heavy connection; an interaction does not.
      let fifthDone = false;
      const fifth = heavy.query('SELECT 1').then(() => {
        fifthDone = true;
      });
      expect((await db.query<{ one: number }>('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
      expect(fifthDone).toBe(false);
      release();
      await Promise.all([...holding, fifth]);
      expect(fifthDone).toBe(true);
    });
  });
}

import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CachedLanguageChoices } from '../../src/i18n/language-choices.js';
import { openDatabase, type Db } from '../../src/store/index.js';
import { createTestSchema, testDatabases, testPostgresUrl } from '../support/databases.js';

/** The database, counting the statements sent to it (queries and transactions). */
function counting(db: Db): { db: Db; statements: () => number } {
  let statements = 0;
  return {
    db: {
      kind: db.kind,
      tenant: db.tenant,
      forTenant: (tenant) => db.forTenant(tenant),
      query: (sql, params) => {
        statements += 1;
        return db.query(sql, params);
      },
      transaction: (work) => {
        statements += 1;
        return db.transaction(work);
      },
      listen: (channel, handlers) => db.listen(channel, handlers),
      forHeavyWork: () => db.forHeavyWork(),
      close: () => db.close(),
    },
    statements: () => statements,
  };
}

/** Waits until `check` holds, asking every 20 ms, for at most `withinMs`; returns whether it held. */
async function eventually(check: () => Promise<boolean>, withinMs: number): Promise<boolean> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    if (await check()) return true;
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const now = new Date('2026-11-26T10:00:00Z');

describe.each(testDatabases())('cached language choices on $name', ({ open }) => {
  let db: Db;
  beforeAll(async () => {
    db = await open();
  });
  afterAll(async () => {
    await db?.close();
  });

  it('answers a warm look-up without reading the database, for a choice and for no choice', async () => {
    const { db: counted, statements } = counting(db);
    await db.query("INSERT INTO language_choices (user_id, locale, updated_at) VALUES ('U0WARM', 'fr', now())");
    const choices = new CachedLanguageChoices(counted);
    await choices.start();
    expect(await choices.get('U0WARM')).toBe('fr');
    expect(await choices.get('U0NOCHOICE')).toBeUndefined();
    const afterColdReads = statements();
    expect(await choices.get('U0WARM')).toBe('fr');
    expect(await choices.get('U0NOCHOICE')).toBeUndefined();
    expect(statements()).toBe(afterColdReads);
    await choices.close();
  });

  it('sees its own change at once, and reads no database for it afterwards', async () => {
    const { db: counted, statements } = counting(db);
    const choices = new CachedLanguageChoices(counted);
    await choices.start();
    expect(await choices.get('U0OWN')).toBeUndefined();
    await choices.set('U0OWN', 'fr', now);
    expect(await choices.get('U0OWN')).toBe('fr');
    await choices.set('U0OWN', undefined, now);
    expect(await choices.get('U0OWN')).toBeUndefined();
    const { rows } = await db.query('SELECT 1 FROM language_choices WHERE user_id = $1', ['U0OWN']);
    expect(rows).toEqual([]);
    // The own notice may drop the entry once; after that, warm again.
    await new Promise((resolve) => setTimeout(resolve, 100));
    await choices.get('U0OWN');
    const settled = statements();
    expect(await choices.get('U0OWN')).toBeUndefined();
    expect(statements()).toBe(settled);
    await choices.close();
  });

  it("drops a person's cached choice when another cache on the same database stores theirs", async () => {
    const reader = new CachedLanguageChoices(db);
    const writer = new CachedLanguageChoices(db);
    await Promise.all([reader.start(), writer.start()]);
    expect(await reader.get('U0SHARED')).toBeUndefined();
    await writer.set('U0SHARED', 'fr', now);
    expect(await eventually(async () => (await reader.get('U0SHARED')) === 'fr', 1000)).toBe(true);
    await Promise.all([reader.close(), writer.close()]);
  });

  it('caches nothing once full, reading the store for the people beyond', async () => {
    const { db: counted, statements } = counting(db);
    const choices = new CachedLanguageChoices(counted, { maxPeople: 1 });
    await choices.start();
    await choices.get('U0FIRST');
    await choices.get('U0SECOND');
    const before = statements();
    await choices.get('U0FIRST');
    await choices.get('U0SECOND');
    expect(statements()).toBe(before + 1);
    await choices.close();
  });
});

describe.runIf(testPostgresUrl)('cached language choices across replicas on Postgres', () => {
  let schema: Awaited<ReturnType<typeof createTestSchema>>;
  let replicas: Db[] = [];
  // A name of this test's own, so that it stops only its own listening connections.
  const applicationName = `langcache_${process.pid}_${Date.now()}`;
  beforeAll(async () => {
    schema = await createTestSchema(testPostgresUrl!);
    const url = new URL(schema.databaseUrl);
    url.searchParams.set('application_name', applicationName);
    replicas = [await openDatabase({ databaseUrl: url.toString() })];
    replicas.push(await openDatabase({ databaseUrl: url.toString() }));
  });
  afterAll(async () => {
    await Promise.all(replicas.map((db) => db.close()));
    await schema?.drop();
  });

  it('sees within a second a choice stored by another replica', async () => {
    const [one, two] = [new CachedLanguageChoices(replicas[0]!), new CachedLanguageChoices(replicas[1]!)];
    await Promise.all([one.start(), two.start()]);
    expect(await one.get('U0RITA')).toBeUndefined();
    await two.set('U0RITA', 'fr', now);
    expect(await eventually(async () => (await one.get('U0RITA')) === 'fr', 1000)).toBe(true);
    await two.set('U0RITA', 'en', now);
    expect(await eventually(async () => (await one.get('U0RITA')) === 'en', 1000)).toBe(true);
    await Promise.all([one.close(), two.close()]);
  });

  it('listens again after its connection is killed, forgetting what it cached meanwhile', async () => {
    const { db: counted, statements } = counting(replicas[0]!);
    const one = new CachedLanguageChoices(counted);
    const two = new CachedLanguageChoices(replicas[1]!);
    await Promise.all([one.start(), two.start()]);
    expect(await one.get('U0LEON')).toBeUndefined();
    const warm = statements();
    expect(await one.get('U0LEON')).toBeUndefined();
    expect(statements()).toBe(warm);

    const admin = new pg.Client({ connectionString: testPostgresUrl });
    await admin.connect();
    const listening = async () =>
      (await admin.query<{ pid: number }>("SELECT pid FROM pg_stat_activity WHERE application_name = $1 AND query LIKE 'LISTEN%'", [applicationName])).rows.map(
        (row) => row.pid,
      );
    try {
      const killed = await listening();
      expect(killed.length).toBeGreaterThan(0);
      await admin.query('SELECT pg_terminate_backend(pid) FROM unnest($1::int[]) AS pid', [killed]);

      // The cache was cleared: the look-up reads the store again.
      expect(
        await eventually(async () => {
          const before = statements();
          await one.get('U0LEON');
          return statements() > before;
        }, 2000),
      ).toBe(true);
      // Listening again on a new connection, the other replica's change reaches it.
      expect(await eventually(async () => (await listening()).some((pid) => !killed.includes(pid)), 3000)).toBe(true);
    } finally {
      await admin.end();
    }
    expect(await one.get('U0LEON')).toBeUndefined();
    await two.set('U0LEON', 'fr', now);
    expect(await eventually(async () => (await one.get('U0LEON')) === 'fr', 1000)).toBe(true);
    await Promise.all([one.close(), two.close()]);
  });
});

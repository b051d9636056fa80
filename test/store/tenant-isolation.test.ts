import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lockRecipientDay, lockRequesterDay } from '../../src/payouts/day-totals-store.js';
import { confinedRoleProblem, migrate, notify, openDatabase, SINGLE_WORKSPACE_TENANT, type Db } from '../../src/store/index.js';
import { TENANT_TABLES } from '../../src/store/migrations/035_tenants.js';
import { migrations } from '../../src/store/migrations/index.js';
import { createTestSchema, testDatabases, testPostgresUrl } from '../support/databases.js';
import { insertOf, tenantRows } from '../support/tenant-rows.js';

const TENANT_A = 'T0AAAA1111';
const TENANT_B = 'T0BBBB2222';

/** The ledger's main list query (src/ledger/ledger-listing.ts), explained. */
const LEDGER_LIST_EXPLAINED =
  'EXPLAIN SELECT reference, type, amount::text AS amount, currency, description, date_text, status FROM ledger_entries ORDER BY entry_at DESC, seq DESC LIMIT 20 OFFSET 0';

/**
 * Policies beyond tenant_isolation, each a widening of what a tenant sees: listed, so that a new one
 * fails the catalog test until someone decides it belongs. (Permissive policies are OR-ed.)
 */
const EXTRA_POLICIES: Record<string, string[]> = {
  // Hosted mode's registry of workspaces, readable by every tenant (migration 036).
  workspaces: ['registry_readable'],
};

/** Unique keys allowed without tenant_id: ids drawn at random by the app or from a sequence. */
const GLOBAL_SURROGATE_KEYS = [
  'ledger_entries_pkey (seq)',
  'payout_batch_events_pkey (id)',
  'payout_batches_pkey (id)',
  'payout_events_pkey (id)',
  'payout_requests_pkey (id)',
  'payout_schedule_events_pkey (id)',
  'records_runs_pkey (id)',
  'saved_recipient_events_pkey (id)',
];

/** The app's tables (those in schema_migrations' schema) with what isolates each. */
async function catalog(db: Db) {
  const { rows } = await db.query<{ name: string; has_tenant: boolean; rls: boolean; forced: boolean; policies: string[] | null }>(
    `SELECT c.relname AS name,
            EXISTS (SELECT 1 FROM pg_attribute a WHERE a.attrelid = c.oid AND a.attname = 'tenant_id' AND a.attnotnull AND NOT a.attisdropped) AS has_tenant,
            c.relrowsecurity AS rls, c.relforcerowsecurity AS forced,
            (SELECT array_agg(p.polname::text ORDER BY p.polname) FROM pg_policy p WHERE p.polrelid = c.oid) AS policies
       FROM pg_class c
      WHERE c.relkind IN ('r', 'p') AND c.relnamespace = (SELECT relnamespace FROM pg_class WHERE oid = 'schema_migrations'::regclass)
      ORDER BY c.relname`,
  );
  return rows;
}

async function uniqueKeysWithoutTenant(db: Db): Promise<string[]> {
  const { rows } = await db.query<{ key: string }>(
    `SELECT i.relname || ' (' || (SELECT string_agg(a.attname, ', ' ORDER BY k.ord) FROM unnest(x.indkey) WITH ORDINALITY AS k(attnum, ord)
                                   JOIN pg_attribute a ON a.attrelid = x.indrelid AND a.attnum = k.attnum) || ')' AS key
       FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid JOIN pg_class t ON t.oid = x.indrelid
      WHERE x.indisunique AND t.relname <> 'schema_migrations'
        AND t.relnamespace = (SELECT relnamespace FROM pg_class WHERE oid = 'schema_migrations'::regclass)
        AND NOT EXISTS (SELECT 1 FROM pg_attribute a WHERE a.attrelid = x.indrelid AND a.attname = 'tenant_id' AND a.attnum = ANY (x.indkey))
      ORDER BY 1`,
  );
  return rows.map((row) => row.key);
}

describe.each(testDatabases())('tenants in the schema on $name', ({ open }) => {
  let db: Db;
  beforeAll(async () => {
    db = await open();
  });
  afterAll(async () => {
    await db?.close();
  });

  it('gives every table but schema_migrations a tenant column, row-level security enabled and forced, and a policy', async () => {
    const tables = await catalog(db);
    const app = tables.filter((table) => table.name !== 'schema_migrations');
    expect(app.length).toBe(tenantRows('A').length);
    for (const table of app) {
      expect({ table: table.name, hasTenant: table.has_tenant, rls: table.rls, forced: table.forced, policies: table.policies }).toEqual({
        table: table.name,
        hasTenant: true,
        rls: true,
        forced: true,
        policies: [...(EXTRA_POLICIES[table.name] ?? []), 'tenant_isolation'].sort(),
      });
    }
  });

  it('keys every unique index on a natural key by tenant: only surrogate ids stay unique across tenants', async () => {
    expect(await uniqueKeysWithoutTenant(db)).toEqual(GLOBAL_SURROGATE_KEYS);
  });

  it('runs as the single workspace by default, and a PGlite database holds no other tenant', async () => {
    expect(db.tenant).toBe(SINGLE_WORKSPACE_TENANT);
    expect(db.forTenant(SINGLE_WORKSPACE_TENANT).tenant).toBe(SINGLE_WORKSPACE_TENANT);
    expect(() => db.forTenant('not a tenant')).toThrow('A tenant is');
    if (db.kind === 'pglite') expect(() => db.forTenant(TENANT_A)).toThrow('a PGlite database holds one tenant: hosted mode needs DATABASE_URL');
  });

  it('still lists the ledger through its index', async () => {
    const plan = await db.transaction(async (tx) => {
      await tx.query('SET LOCAL enable_seqscan = off');
      const { rows } = await tx.query<{ 'QUERY PLAN': string }>(LEDGER_LIST_EXPLAINED);
      return rows.map((row) => row['QUERY PLAN']).join('\n');
    });
    expect(plan).toMatch(/Index Scan using ledger_entries_list on ledger_entries/);
    expect(plan).not.toMatch(/Seq Scan|^\s*->\s*Sort/m);
  });
});

describe.each(testDatabases())('migrating rows from before tenants on $name', ({ open }) => {
  let db: Db;
  beforeAll(async () => {
    db = await open({ migrations: migrations.filter((migration) => migration.id < 35) });
  });
  afterAll(async () => {
    await db?.close();
  });

  it('gives the rows already there to the single workspace, which still sees them, and keeps its ledger count', async () => {
    const before = new Set<string>(TENANT_TABLES);
    // Tables from before tenants only; the sync state's one row and the words are the migrations' own.
    for (const row of tenantRows('old').filter(({ table }) => before.has(table) && table !== 'ledger_sync_state' && table !== 'ledger_words')) {
      const { sql, params } = insertOf(row);
      await db.query(sql, params);
    }
    await migrate(db, migrations);

    const { rows } = await db.query<{ tenant_id: string; reference: string }>('SELECT tenant_id, reference FROM payout_requests');
    expect(rows).toEqual([{ tenant_id: SINGLE_WORKSPACE_TENANT, reference: 'INV-2026-0042' }]);
    const tenants = await db.query<{ tenant_id: string }>('SELECT DISTINCT tenant_id FROM ledger_words UNION SELECT DISTINCT tenant_id FROM ledger_sync_state');
    expect(tenants.rows).toEqual([{ tenant_id: SINGLE_WORKSPACE_TENANT }]);
    expect((await db.query('SELECT entries_stored FROM ledger_sync_state')).rows).toEqual([{ entries_stored: 1 }]);
    await db.query("INSERT INTO home_views (user_id) VALUES ('U0LATER')");
    expect((await db.query("SELECT tenant_id FROM home_views WHERE user_id = 'U0LATER'")).rows).toEqual([{ tenant_id: SINGLE_WORKSPACE_TENANT }]);
  });
});

describe.runIf(testPostgresUrl)('tenants kept apart by row-level security on postgres, as a confined role', () => {
  const baseUrl = testPostgresUrl!;
  const appRole = `fleet_app_${randomBytes(5).toString('hex')}`;
  let schema: Awaited<ReturnType<typeof createTestSchema>>;
  let appUrl: string;
  let a: Db;
  let b: Db;
  let owner: Db;

  const asAdmin = async (sql: string) => {
    const client = new pg.Client({ connectionString: baseUrl });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  const count = async (db: Db, table: string) => Number((await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`)).rows[0]?.n);

  beforeAll(async () => {
    await asAdmin(`CREATE ROLE ${appRole} LOGIN NOSUPERUSER NOBYPASSRLS`);
    schema = await createTestSchema(baseUrl);
    const url = new URL(schema.databaseUrl);
    url.username = appRole;
    appUrl = url.toString();
    a = await openDatabase({ databaseUrl: appUrl, ownerUrl: schema.databaseUrl, tenant: TENANT_A });
    b = a.forTenant(TENANT_B);
    owner = await openDatabase({ databaseUrl: schema.databaseUrl });
  });
  afterAll(async () => {
    await a?.close();
    await owner?.close();
    await schema?.drop();
    await asAdmin(`DROP OWNED BY ${appRole}; DROP ROLE ${appRole}`);
  });

  it('has a fixture row for every table of the app', async () => {
    const tables = (await catalog(owner)).map((table) => table.name).filter((name) => name !== 'schema_migrations');
    expect([...new Set(tenantRows('A').map((row) => row.table))].sort()).toEqual(tables);
  });

  it("hides every table's rows of one tenant from another, which can neither change them nor write in their name", async () => {
    await a.transaction(async (tx) => {
      for (const row of tenantRows('A')) {
        const { sql, params } = insertOf(row);
        await tx.query(sql, params);
      }
    });
    const claims = tenantRows('B-claim');
    for (const { table } of tenantRows('A')) {
      const stored = await count(a, table);
      expect({ table, stored: stored > 0 }).toEqual({ table, stored: true });
      // A table with a policy of its own on top is one every tenant may read (the registry), none write.
      expect({ table, seen: await count(b, table) }).toEqual({ table, seen: EXTRA_POLICIES[table] ? stored : 0 });
      expect({ table, updated: (await b.query(`UPDATE ${table} SET tenant_id = tenant_id`)).rowCount }).toEqual({ table, updated: 0 });
      expect({ table, deleted: (await b.query(`DELETE FROM ${table}`)).rowCount }).toEqual({ table, deleted: 0 });
      const claim = insertOf(
        claims.find((row) => row.table === table)!,
        { tenant_id: TENANT_A },
      );
      await expect(b.query(claim.sql, claim.params), table).rejects.toMatchObject({ code: '42501' });
      expect({ table, kept: await count(a, table) }).toEqual({ table, kept: stored });
    }
  });

  it('lets two tenants hold the same natural keys: payout reference, entry key, language choice, lease, singleton rows', async () => {
    await b.transaction(async (tx) => {
      for (const row of tenantRows('B')) {
        const { sql, params } = insertOf(row);
        await tx.query(sql, params);
      }
    });
    for (const [table, key] of [
      ['payout_requests', "reference = 'INV-2026-0042'"],
      ['ledger_entries', "entry_key = 'FT26324ABC:1'"],
      ['language_choices', "user_id = 'U0AMANI'"],
      ['app_leases', "name = 'payouts-worker'"],
      ['digest_state', 'id = 1'],
      ['ledger_sync_state', 'id = 1'],
    ] as const) {
      // The owner, a superuser here, sees every tenant (the single workspace's singleton rows too).
      const rows = (await owner.query<{ tenant_id: string }>(`SELECT tenant_id FROM ${table} WHERE ${key} AND tenant_id LIKE 'T%' ORDER BY tenant_id`)).rows;
      expect({ table, tenants: rows.map((row) => row.tenant_id) }).toEqual({ table, tenants: [TENANT_A, TENANT_B] });
      expect({ table, a: await count(a, `${table} WHERE ${key}`), b: await count(b, `${table} WHERE ${key}`) }).toEqual({ table, a: 1, b: 1 });
    }
    // Each tenant's ledger count, kept by the triggers, counts its own entries.
    expect((await a.query('SELECT entries_stored FROM ledger_sync_state')).rows).toEqual([{ entries_stored: 1 }]);
    expect((await b.query('SELECT entries_stored FROM ledger_sync_state')).rows).toEqual([{ entries_stored: 1 }]);
  });

  it('shows nothing to a connection with no tenant set, and refuses its inserts', async () => {
    const client = new pg.Client({ connectionString: appUrl });
    await client.connect();
    try {
      expect((await client.query('SELECT count(*)::int AS n FROM payout_requests')).rows).toEqual([{ n: 0 }]);
      expect((await client.query('SELECT count(*)::int AS n FROM language_choices')).rows).toEqual([{ n: 0 }]);
      await expect(client.query("INSERT INTO app_leases (name, holder, expires_at) VALUES ('x', 'y', now())")).rejects.toThrow('app.tenant');
    } finally {
      await client.end();
    }
  });

  it('still lists the ledger through its index under the policy', async () => {
    // A ledger of some size for two tenants, as the planner would see it in production.
    await owner.query(
      `INSERT INTO ledger_entries (tenant_id, entry_key, reference, occurrence, type, status, amount, amount_minor, currency, description, date_text, entry_at, first_seen_at, words)
       SELECT t, 'FT' || n || ':1', 'FT' || n, 1, 'PAYOUT', 'COMPLETED', -1.25, -125, 'USD', 'Payout', '2026-11-20', timestamptz '2026-01-01' + n * interval '1 hour', now(), '{}'
         FROM unnest(ARRAY[$1, $2]) AS t, generate_series(1, 3000) AS n`,
      [TENANT_A, TENANT_B],
    );
    await owner.query('ANALYZE ledger_entries');
    const plan = await a.transaction(async (tx) => {
      const { rows } = await tx.query<{ 'QUERY PLAN': string }>(LEDGER_LIST_EXPLAINED);
      return rows.map((row) => row['QUERY PLAN']).join('\n');
    });
    // The list's index or the by-date one (then sorting only the seq of equal dates), the tenant as a filter.
    expect(plan).toMatch(/Index Scan using ledger_entries_(list|by_date) on ledger_entries/);
    expect(plan).toContain("Filter: (tenant_id = current_setting('app.tenant'::text, true))");
    expect(plan).not.toMatch(/Seq Scan|^\s*->\s*Sort/m);
  });

  it('finds the app role confined, and the superuser owner not', async () => {
    expect(await confinedRoleProblem(a)).toBeUndefined();
    expect(await confinedRoleProblem(owner)).toMatch(/is a superuser/);
  });

  it("delivers each tenant's notices to its own listeners alone, without the tenant", async () => {
    const heard = { a: [] as string[], b: [] as string[] };
    const stopA = await a.listen('language_choices', { notice: (payload) => heard.a.push(payload) });
    const stopB = await b.listen('language_choices', { notice: (payload) => heard.b.push(payload) });
    try {
      await a.transaction((tx) => notify(tx, 'language_choices', 'U0AMANI'));
      await notify(b, 'language_choices', 'U0NDAYA');
      for (let waited = 0; heard.a.length + heard.b.length < 2 && waited < 5_000; waited += 20) await new Promise((resolve) => setTimeout(resolve, 20));
      await notify(a.forTenant(TENANT_A), 'language_choices', 'U0LAST');
      for (let waited = 0; heard.a.length < 2 && waited < 5_000; waited += 20) await new Promise((resolve) => setTimeout(resolve, 20));
    } finally {
      await stopA();
      await stopB();
    }
    expect(heard).toEqual({ a: ['U0AMANI', 'U0LAST'], b: ['U0NDAYA'] });
  });

  it("does not make one tenant's payout wait for another's day-totals locks of the same key, but the same tenant's", async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let locked!: () => void;
    const taken = new Promise<void>((resolve) => (locked = resolve));
    const holder = a.transaction(async (tx) => {
      await lockRequesterDay(tx, 'U0AMANI', 'USD');
      await lockRecipientDay(tx, 'mobile:243812345678', 'USD');
      locked();
      await held;
    });
    try {
      await taken;
      const other = b.transaction(async (tx) => {
        await lockRequesterDay(tx, 'U0AMANI', 'USD');
        await lockRecipientDay(tx, 'mobile:243812345678', 'USD');
        return 'proceeded';
      });
      const timeout = new Promise((resolve) => setTimeout(() => resolve('waited'), 3_000));
      expect(await Promise.race([other, timeout])).toBe('proceeded');
      const same = await a.forTenant(TENANT_A).transaction(async (tx) => {
        const { rows } = await tx.query<{ got: boolean }>("SELECT pg_try_advisory_xact_lock(hashtext(current_setting('app.tenant') || ':' || $1)) AS got", [
          'payout-daily-limit:U0AMANI:USD',
        ]);
        return rows[0]?.got;
      });
      expect(same).toBe(false);
    } finally {
      release();
      await holder;
    }
  });
});

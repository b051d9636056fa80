import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FleetConnections } from '../../src/hosting/fleet-connections.js';
import { SlackInstallationStore } from '../../src/hosting/installation-store.js';
import { KeyVault } from '../../src/hosting/key-vault.js';
import { deleteOrder, WorkspaceRegistry } from '../../src/hosting/workspaces.js';
import type { Db } from '../../src/store/index.js';
import { testDatabases } from '../support/databases.js';
import { capturingLogger, kekEntry, newTeamId, ringOf } from './vault-fixtures.js';

const DAY = 24 * 60 * 60 * 1000;

describe.each(testDatabases())('the workspace registry on $name', ({ open }) => {
  let db: Db;
  let now: Date;
  let vault: KeyVault;
  let installations: SlackInstallationStore;
  let fleet: FleetConnections;
  let registry: WorkspaceRegistry;
  const log = capturingLogger();
  const clock = { now: () => now, sleep: () => Promise.resolve() };

  beforeAll(async () => {
    db = await open();
    now = new Date('2026-11-01T09:00:00Z');
    vault = new KeyVault({ db, keyRing: ringOf(kekEntry('k1')), clock, logger: log.logger });
    installations = new SlackInstallationStore({ db, vault, clock });
    fleet = new FleetConnections({ db, vault, clock });
    registry = new WorkspaceRegistry({ db, vault, clock, logger: log.logger });
    // A table added later, with history of its own: the purge must find it without being told.
    await db.query('CREATE TABLE later_history (id serial PRIMARY KEY, tenant_id text NOT NULL, note text NOT NULL)');
    await db.query('CREATE TABLE later_history_notes (id serial PRIMARY KEY, tenant_id text NOT NULL, history_id int NOT NULL REFERENCES later_history (id))');
  });
  afterAll(async () => {
    await db?.close();
  });

  async function install(tenant: string, botToken: string, apiKey: string) {
    await registry.installed({ tenant, teamName: `Team ${tenant}`, installedBy: 'U0INSTALLER' });
    await installations.storeInstallation({
      team: { id: tenant, name: `Team ${tenant}` },
      enterprise: undefined,
      user: { token: undefined, scopes: undefined, id: 'U0INSTALLER' },
      bot: { token: botToken, scopes: ['commands'], id: 'B0BOT', userId: 'U0BOT' },
      isEnterpriseInstall: false,
      appId: 'A0APP',
      authVersion: 'v2',
    });
    await fleet.connect(tenant, apiKey, 'U0INSTALLER');
    const { rows } = await db.query<{ id: number }>(`INSERT INTO later_history (tenant_id, note) VALUES ($1, 'paid a driver') RETURNING id`, [tenant]);
    await db.query(`INSERT INTO later_history_notes (tenant_id, history_id) VALUES ($1, $2)`, [tenant, rows[0]!.id]);
  }

  const rowsOf = async (table: string, tenant: string) => (await db.query(`SELECT * FROM ${table} WHERE tenant_id = $1`, [tenant])).rows;
  const workspace = async (tenant: string) =>
    (await db.query<{ state: string; purge_after: Date | null; uninstalled_at: Date | null }>('SELECT * FROM workspaces WHERE tenant_id = $1', [tenant]))
      .rows[0];

  it('lists the installed workspaces as active', async () => {
    const tenant = newTeamId();
    await install(tenant, 'xoxb-active-token', 'fk_live_active_000000');
    expect(await registry.active()).toContain(tenant);
    expect(await workspace(tenant)).toMatchObject({ state: 'active', purge_after: null });
  });

  it('deletes the tokens and the key at uninstall, and keeps the history until the purge', async () => {
    const tenant = newTeamId();
    await install(tenant, 'xoxb-uninstall-token', 'fk_live_uninstall_000');
    const { purgeAfter } = await registry.uninstalled(tenant, 30);
    expect(purgeAfter.toISOString()).toBe(new Date(now.getTime() + 30 * DAY).toISOString());
    for (const table of ['slack_installations', 'fleet_connections', 'tenant_data_keys']) expect(await rowsOf(table, tenant)).toEqual([]);
    await expect(installations.fetchInstallation({ teamId: tenant, enterpriseId: undefined, isEnterpriseInstall: false })).rejects.toThrow();
    expect(await fleet.apiKeyFor(tenant)).toBeUndefined();
    expect(await rowsOf('later_history', tenant)).toHaveLength(1);
    expect(await workspace(tenant)).toMatchObject({ state: 'uninstalled', uninstalled_at: now });
    expect(await registry.active()).not.toContain(tenant);
    // Uninstalled twice (Slack sends app_uninstalled and tokens_revoked): the first retention holds.
    now = new Date(now.getTime() + DAY);
    await registry.uninstalled(tenant, 30);
    expect((await workspace(tenant))!.purge_after?.toISOString()).toBe(purgeAfter.toISOString());
  });

  it('makes a reinstalled workspace active again, with no purge pending', async () => {
    const tenant = newTeamId();
    await install(tenant, 'xoxb-first-token', 'fk_live_first_0000000');
    await registry.uninstalled(tenant, 30);
    await install(tenant, 'xoxb-second-token', 'fk_live_second_000000');
    expect(await workspace(tenant)).toMatchObject({ state: 'active', purge_after: null, uninstalled_at: null });
    expect(await fleet.apiKeyFor(tenant)).toBe('fk_live_second_000000');
    expect(await registry.purgeExpired(new Date(now.getTime() + 400 * DAY))).not.toContain(tenant);
    expect(await rowsOf('later_history', tenant)).toHaveLength(2);
  });

  it('purges every row of a workspace whose retention ended, in every tenant table, leaving the others intact', async () => {
    const [gone, kept, waiting] = [newTeamId(), newTeamId(), newTeamId()];
    for (const tenant of [gone, kept, waiting]) await install(tenant, `xoxb-${tenant}`, `fk_live_${tenant}`);
    await registry.uninstalled(gone, 30);
    await registry.uninstalled(waiting, 90);
    const later = new Date(now.getTime() + 31 * DAY);
    expect(await registry.purgeExpired(new Date(now.getTime() + 29 * DAY))).not.toContain(gone);
    const purged = await registry.purgeExpired(later);
    expect(purged).toContain(gone);
    expect(purged).not.toContain(waiting);
    const { rows: tables } = await db.query<{ table_name: string }>(
      `SELECT table_name FROM information_schema.columns WHERE column_name = 'tenant_id' AND table_schema = current_schema()`,
    );
    expect(tables.map((row) => row.table_name)).toEqual(expect.arrayContaining(['workspaces', 'later_history', 'later_history_notes', 'fleet_connections']));
    for (const { table_name: table } of tables) expect(await rowsOf(table, gone), table).toEqual([]);
    expect(await rowsOf('later_history', kept)).toHaveLength(1);
    expect(await rowsOf('later_history_notes', waiting)).toHaveLength(1);
    expect(await fleet.apiKeyFor(kept)).toBe(`fk_live_${kept}`);
    // Run again, and on two replicas at once: nothing more is purged, nothing fails.
    expect(await Promise.all([registry.purgeExpired(later), registry.purgeExpired(later)])).toEqual([[], []]);
  });

  it('keeps every token and key out of its log lines', () => {
    const text = log.lines.join('\n');
    expect(text).toContain('workspace purged');
    expect(text).not.toMatch(/xoxb-|fk_live/);
  });

  it('orders deletes so that a table goes before the tables it references', () => {
    const order = deleteOrder(
      ['payout_requests', 'payout_events', 'payout_batches', 'payout_batch_items'],
      [
        { child: 'payout_events', parent: 'payout_requests' },
        { child: 'payout_requests', parent: 'payout_batches' },
        { child: 'payout_batch_items', parent: 'payout_batches' },
        { child: 'payout_batch_items', parent: 'payout_requests' },
      ],
    );
    expect(order.indexOf('payout_events')).toBeLessThan(order.indexOf('payout_requests'));
    expect(order.indexOf('payout_batch_items')).toBeLessThan(order.indexOf('payout_requests'));
    expect(order.indexOf('payout_requests')).toBeLessThan(order.indexOf('payout_batches'));
    expect(() =>
      deleteOrder(
        ['a', 'b'],
        [
          { child: 'a', parent: 'b' },
          { child: 'b', parent: 'a' },
        ],
      ),
    ).toThrow('circle: a, b');
  });
});

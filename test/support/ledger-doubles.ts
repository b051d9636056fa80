/** The ledger sync's world for tests: the real sandbox over HTTP, a stepping clock, and a fresh ledger. */
import { FleetClient } from '../../src/fleet/client.js';
import type { FleetApi, Transaction } from '../../src/fleet/schemas.js';
import { identifyPage } from '../../src/ledger/identity.js';
import { DEFAULT_LEDGER_SETTINGS, type LedgerSettings } from '../../src/ledger/settings.js';
import { LedgerSync, type LedgerSyncOptions } from '../../src/ledger/sync.js';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import type { Db } from '../../src/store/db.js';
import { silentLogger, SteppingClock } from './feed-doubles.js';

/** Empties the ledger and its sync state (and the lease), so tests sharing a database start alike. */
export async function resetLedger(db: Db): Promise<void> {
  await db.query('DELETE FROM ledger_entries');
  await db.query('DELETE FROM ledger_sync_state');
  await db.query('INSERT INTO ledger_sync_state (id) VALUES (1)');
  await db.query("DELETE FROM app_leases WHERE name = 'ledger-sync'");
}

export function ledgerSettings(overrides: Partial<LedgerSettings> = {}): LedgerSettings {
  return { ...DEFAULT_LEDGER_SETTINGS, historyPageDelayMs: 250, ...overrides };
}

export interface LedgerRig {
  clock: SteppingClock;
  sandbox: Sandbox;
  fleet: FleetClient;
  settings: LedgerSettings;
  /** A sync as a replica (or a restarted process) would make it. */
  newSync: (options?: Partial<LedgerSyncOptions>) => LedgerSync;
  /** `count` new entries at the top of the list, one millisecond apart. */
  arrive: (count: number) => Transaction[];
  /** Requests the sandbox answered for the transaction list. */
  listRequests: () => number;
  close: () => Promise<void>;
}

export async function ledgerRig(
  db: Db,
  options: { transactionCount?: number; settings?: Partial<LedgerSettings>; fleet?: FleetApi; startAt?: Date } = {},
): Promise<LedgerRig> {
  await resetLedger(db);
  const clock = new SteppingClock((options.startAt ?? new Date('2026-11-20T12:00:00.000Z')).toISOString());
  const sandbox = await startSandbox({ clock, transactionCount: options.transactionCount ?? 250 });
  const fleet = new FleetClient({ baseUrl: sandbox.url, apiKey: sandbox.apiKey, timeouts: { headersMs: 2000, bodyMs: 2000 } });
  const settings = ledgerSettings(options.settings);
  let replicas = 0;
  return {
    clock,
    sandbox,
    fleet,
    settings,
    newSync: (overrides = {}) => {
      replicas += 1;
      return new LedgerSync({ fleet: options.fleet ?? fleet, db, clock, settings, logger: silentLogger, instanceId: `replica-${replicas}`, ...overrides });
    },
    arrive: (count) => {
      const added: Transaction[] = [];
      for (let index = 0; index < count; index += 1) {
        clock.advance(1);
        added.push(sandbox.addTransaction());
      }
      return added;
    },
    listRequests: () => sandbox.requests.filter((request) => request.path.endsWith('/account/transactions')).length,
    close: async () => {
      await fleet.close();
      await sandbox.close();
    },
  };
}

/** Runs walk pages until the walk says it is complete; returns how many pages it took. */
export async function walkToTheEnd(sync: LedgerSync, between?: (page: number) => void | Promise<void>): Promise<number> {
  for (let page = 1; page < 10_000; page += 1) {
    const report = await sync.walkPage();
    if (!report || report.walkComplete) return page;
    await between?.(page);
  }
  throw new Error('the walk never ended');
}

/** Every key the list holds now (as the ledger would key it, reading the list as one page) and every key stored. */
export async function compareWithList(db: Db, list: Transaction[]) {
  const expected = identifyPage(list)
    .map((entry) => entry.key)
    .sort();
  const { rows } = await db.query<{ entry_key: string }>('SELECT entry_key FROM ledger_entries');
  const stored = rows.map((row) => row.entry_key).sort();
  const storedSet = new Set(stored);
  const expectedSet = new Set(expected);
  return {
    missed: expected.filter((key) => !storedSet.has(key)).length,
    extra: stored.filter((key) => !expectedSet.has(key)).length,
    stored: stored.length,
    expected: expected.length,
  };
}

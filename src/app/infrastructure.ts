/**
 * The parts every area uses: the metrics, the Fleet API (or the embedded sandbox), the database and
 * its pool for heavy work, and the account reader.
 */
import { AccountReader } from '../account/account-reader.js';
import type { Config } from '../config/config.js';
import { FleetClient } from '../fleet/client.js';
import type { Logger } from '../core/logger.js';
import { Metrics, type FleetCall } from '../ops/metrics.js';
import { startSandbox } from '../sandbox/server.js';
import { openDatabase, type Db } from '../store/index.js';
import type { Wiring } from './context.js';

export async function buildInfrastructure({ config, logger, clock, shutdown, options }: Wiring) {
  // A hosted workspace's bot counts its own figures, labelled with its workspace; the process's figures (memory, event loop) are counted once, by the host.
  const metrics = options.hosted ? new Metrics({ defaultMetrics: false, labels: { tenant: options.hosted.tenant } }) : new Metrics();
  const sandbox = config.fleet.url === 'sandbox' ? await startSandbox({ clock, activityIntervalMs: config.fleet.sandboxActivitySeconds * 1000 }) : undefined;
  if (sandbox) {
    shutdown.add('sandbox', () => sandbox.close());
    logger.info({ url: sandbox.url }, 'embedded sandbox Fleet API started');
  }

  const db = options.db ?? (await openConfiguredDatabase(config, logger, (closeDb) => shutdown.add('database', closeDb)));

  // Who watches each Fleet API call, in order: the metrics, then readiness (added by the Slack area, before any call is made).
  const fleetObservers: Array<(call: FleetCall) => void> = [(call) => metrics.fleetCall(call)];
  const fleet = new FleetClient({
    baseUrl: sandbox?.url ?? config.fleet.url,
    apiKey: sandbox?.apiKey ?? config.fleet.apiKey ?? '',
    ...(config.fleet.requestsPerSecond === undefined ? {} : { requestsPerSecond: config.fleet.requestsPerSecond }),
    logger: logger.child({ component: 'fleet' }),
    clock,
    ...(options.fleetTimeouts ? { timeouts: options.fleetTimeouts } : {}),
    ...(options.fleetConnections ? { connections: options.fleetConnections } : {}),
    observe: (call) => {
      for (const observe of fleetObservers) observe(call);
    },
  });
  shutdown.add('fleet', () => fleet.close());
  const account = new AccountReader(fleet, clock);
  shutdown.add('account', () => account.close());

  // Exports, the ledger sync, bulk payouts, the feed and the digest: on Postgres a pool of their own,
  // so that commands and clicks never wait behind them for a connection.
  const heavyDb = db.forHeavyWork();
  return { metrics, sandbox, db, heavyDb, fleet, account, observeFleet: (observer: (call: FleetCall) => void) => fleetObservers.push(observer) };
}

export type Infrastructure = Awaited<ReturnType<typeof buildInfrastructure>>;

/** The database named by the configuration, opened and migrated, closed with the bot. */
async function openConfiguredDatabase(config: Config, logger: Logger, closeWithBot: (close: () => Promise<void>) => void): Promise<Db> {
  const db = await openDatabase({ databaseUrl: config.store.databaseUrl, dataDir: config.store.dataDir, logger: logger.child({ component: 'store' }) });
  closeWithBot(() => db.close());
  logger.info({ kind: db.kind }, 'database ready');
  return db;
}

/**
 * Hosted mode assembled: one database (the app's role confined by row-level security), the key vault
 * and the stores of installations, Fleet keys, settings and the registry; the front door (install,
 * removal, every Slack request); the hosting's own listeners; and one bot per connected workspace,
 * kept in line with the database on every replica. `main.ts` calls it when the hosting's variables are set.
 */
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { App } from '@slack/bolt';
import { startBot, type BotOptions, type RunningBot } from '../bot.js';
import type { Config } from '../config/config.js';
import { systemClock, type Clock } from '../core/clock.js';
import type { Logger } from '../core/logger.js';
import { fleetConnectionPool } from '../fleet/http.js';
import { every, type PeriodicJob } from '../runtime/every.js';
import { EventLoopTurns } from '../runtime/turns.js';
import { isHostingRequest, registerHostingListeners } from '../slack/listeners/hosting.js';
import { ListenerRouter } from '../slack/transport/listener-router.js';
import { EXTERNAL_RECEIVER, toBoltLogger } from '../slack/transport/app.js';
import { confinedRoleProblem, openDatabase, openPostgres, REPLICAS_TENANT, type Db } from '../store/index.js';
import { FleetConnections } from './fleet-connections.js';
import { startHostOps } from './host-ops.js';
import { startFrontDoor, type FrontDoor } from './front-door.js';
import { SlackInstallationStore } from './installation-store.js';
import { KeyVault } from './key-vault.js';
import { WorkspaceSettingsStore } from './settings-store.js';
import { workspaceConfig } from './tenant-config.js';
import { TenantBots } from './tenant-bots.js';
import { WorkPlacement, REPLICA_BEAT_MS } from './placement.js';
import { WorkspaceAdmin } from './workspace-admin.js';
import { WorkspaceRegistry } from './workspaces.js';

/** How often each hosted bot looks for bulk payout rows due when nothing woke it. */
const HOSTED_BATCH_LOOK_MS = 5_000;

export interface HostedOptions {
  config: Config;
  /** The process's environment: each workspace's configuration is read over it. */
  env: Record<string, string | undefined>;
  logger: Logger;
  clock?: Clock;
  /** Tests: an open, migrated database. */
  db?: Db;
  /** Tests: what every workspace's bot is started with besides its own (short timers, say). */
  botDefaults?: Partial<BotOptions>;
  /** How often each replica brings its bots in line with the database; 15 s by default. */
  reconcileEveryMs?: number;
  /** After a workspace's installation is stored, before the installer sees the success page (the demo invites the bot to its channels). */
  onInstalled?(tenant: string): Promise<void> | void;
  /** This replica's name among the replicas; by default its host name, process id and a random part. */
  replicaId?: string;
  /** Tests: how often this replica says it is alive (3 s by default), and after how long silent one is gone (10 s). */
  placement?: { beatMs?: number; goneAfterMs?: number };
}

export interface RunningHost {
  url: string;
  /** With METRICS_PORT: where /healthz, /readyz and /metrics (every workspace's, labelled with its tenant) are served. */
  opsUrl: string | undefined;
  db: Db;
  bots: TenantBots;
  /** The running bot of a workspace, for tests. */
  botFor(tenant: string): Promise<RunningBot | undefined>;
  close(): Promise<void>;
}

export async function startHosted(options: HostedOptions): Promise<RunningHost> {
  const { config, env, logger, clock = systemClock } = options;
  const hosting = config.hosting;
  if (!hosting) throw new Error('startHosted needs the hosting variables (SLACK_CLIENT_ID and the others)');
  const closers: Array<() => unknown> = [];
  const close = async () => {
    for (const closer of closers.splice(0).reverse()) await closer();
  };
  try {
    const db =
      options.db ??
      (await openDatabase({ databaseUrl: config.store.databaseUrl, ownerUrl: config.store.ownerUrl, logger: logger.child({ component: 'store' }) }));
    if (!options.db) closers.push(() => db.close());
    const confined = await confinedRoleProblem(db);
    if (confined) throw new Error(`DATABASE_URL: ${confined}; hosted mode connects as a role that row-level security confines (docs/deploy.md)`);

    // Which workspaces' periodic work runs here: known before any bot starts, and left at close, after the bots stopped.
    // Its beat has a connection of its own, so that pools busy with the bots' work never make a live replica look gone.
    const placementDb =
      options.db ?? (await openPostgres(config.store.databaseUrl ?? '', { tenant: REPLICAS_TENANT, logger: logger.child({ component: 'store' }) }));
    if (!options.db) closers.push(() => placementDb.close());
    const placement = new WorkPlacement({
      db: placementDb,
      replicaId: options.replicaId ?? `${hostname()}-${process.pid}-${randomBytes(3).toString('hex')}`,
      ...(options.placement?.goneAfterMs === undefined ? {} : { goneAfterMs: options.placement.goneAfterMs }),
    });
    await placement.beat();
    closers.push(() =>
      placement.leave().catch((error: unknown) => logger.warn({ err: error }, 'could not leave the list of replicas; the others see it gone in seconds')),
    );

    const vault = new KeyVault({ db, keyRing: hosting.keyRing, clock, logger: logger.child({ component: 'vault' }) });
    closers.push(() => vault.close());
    await vault.rewrapAll();
    const installations = new SlackInstallationStore({ db, vault, clock });
    const connections = new FleetConnections({ db, vault, clock });
    const registry = new WorkspaceRegistry({ db, vault, clock, logger: logger.child({ component: 'workspaces' }) });
    const settings = new WorkspaceSettingsStore(db);

    // One set of Fleet API connections for the process: a workspace's read finds a warm one instead of opening its own.
    // Closed after the bots (closers run in reverse), whose clients wait for their requests under way.
    const fleetConnections = fleetConnectionPool();
    closers.push(() => fleetConnections.close());

    // One set of turns for the process: Slack requests, whichever workspace they are for, go before every bot's background work.
    const turns = new EventLoopTurns();
    // Set once the front door listens, before any workspace's bot is built.
    // The front door, once it listens: bots are built only after that, from its `authorize`.
    const door: { started?: FrontDoor } = {};
    const bots = new TenantBots({
      logger: logger.child({ component: 'workspaces' }),
      servable: (tenant) => registry.servable(tenant),
      botOptions: async (tenant) => {
        const fleetApiKey = await connections.apiKeyFor(tenant);
        if (!fleetApiKey) return undefined;
        // Through InstallProvider, which refreshes a rotating token about to expire.
        if (!door.started) return undefined;
        const auth = await door.started.authorize(tenant);
        if (!auth.botToken) return undefined;
        const tenantConfig = workspaceConfig(env, await settings.read(tenant), { botToken: auth.botToken, fleetApiKey });
        const [sealSecret, tokenSecret] = await Promise.all([vault.derive(tenant, 'button-seal'), vault.derive(tenant, 'workflow-tokens')]);
        const botOptions: BotOptions = {
          ...options.botDefaults,
          // Many bots share a replica's pools: an idle look for bulk rows to send every 5 s rather than every
          // second (a released bulk payout still wakes its sender at once, and a run sends until none is due).
          payoutTimers: { batchEveryMs: HOSTED_BATCH_LOOK_MS, ...options.botDefaults?.payoutTimers },
          config: tenantConfig,
          logger: logger.child({ tenant }),
          clock,
          db: db.forTenant(tenant),
          turns,
          fleetConnections,
          hosted: { tenant, sealSecret, tokenSecret },
        };
        // Built again an hour before the token expires, when InstallProvider refreshes it (within two hours of expiry).
        const renewAt = auth.botTokenExpiresAt === undefined ? undefined : new Date((auth.botTokenExpiresAt - 60 * 60) * 1000);
        return { options: botOptions, renewAt };
      },
      start: startBot,
      owns: (tenant) => placement.owns(tenant),
    });
    closers.push(() => bots.close());

    // The hosting's own listeners: `/fleet connect`, `/fleet settings`, and every command of a workspace not yet connected.
    const hostingApp = new App({
      logger: toBoltLogger(logger.child({ component: 'hosting' })),
      receiver: EXTERNAL_RECEIVER,
      convoStore: false,
      deferInitialization: true,
      ...(config.slack.apiUrl ? { clientOptions: { slackApiUrl: config.slack.apiUrl } } : {}),
      authorize: async ({ teamId }) => {
        const installation = await installations.fetchInstallation({ teamId, isEnterpriseInstall: false, enterpriseId: undefined });
        return { botToken: installation.bot?.token, botId: installation.bot?.id, botUserId: installation.bot?.userId, teamId };
      },
    });
    const admin = new WorkspaceAdmin({
      hostEnv: env,
      fleetUrl: config.fleet.url,
      logger: logger.child({ component: 'hosting' }),
      clock,
      storeKey: async (tenant, apiKey, userId) => {
        await connections.connect(tenant, apiKey, userId);
        await registry.bumpBotVersion(tenant);
      },
      storeSettings: (tenant, values, userId) => settings.save(tenant, values, userId),
    });
    const router = new ListenerRouter(turns);
    registerHostingListeners(router, {
      admin,
      installerOf: (tenant) => registry.installerOf(tenant),
      isConnected: (tenant) => connections.isConnected(tenant),
      settingsOf: (tenant) => settings.read(tenant),
      changed: async (tenant) => void (await bots.refresh(tenant)),
      defaultLocale: config.language.defaultLocale,
      logger: logger.child({ component: 'hosting' }),
    });
    hostingApp.use(router.middleware());
    await hostingApp.init();

    const frontDoor = await startFrontDoor({
      hosting,
      signingSecret: config.slack.signingSecret ?? '',
      // The registry first: it waits for a purge of the same workspace under way, which would otherwise delete the new installation.
      installationStore: {
        storeInstallation: async (installation) => {
          const tenant = installation.team?.id;
          if (tenant && !installation.isEnterpriseInstall) {
            await registry.installed({
              tenant,
              teamName: installation.team?.name ?? '',
              installedBy: installation.user.id,
              enterpriseId: installation.enterprise?.id,
            });
          }
          await installations.storeInstallation(installation);
        },
        fetchInstallation: (query) => installations.fetchInstallation(query),
        deleteInstallation: (query) => installations.deleteInstallation(query),
      },
      port: config.slack.port,
      host: config.slack.host,
      turns,
      logger,
      ...(config.slack.apiUrl ? { slackApiUrl: config.slack.apiUrl } : {}),
      dispatch: async (teamId, event) => {
        const forHosting = isHostingRequest(event.body, true);
        // A workspace whose bot runs here is served without a database read before its ack: under
        // load the pools are busy with the bots' periodic work, and Slack waits 3 seconds at most.
        const running = forHosting ? undefined : bots.runningNow(teamId);
        if (running) {
          await running.app.processEvent(event);
          return true;
        }
        if ((await registry.servable(teamId)).size === 0) return false;
        const bot = forHosting ? undefined : await bots.botFor(teamId);
        await (bot ? bot.app.processEvent(event) : hostingApp.processEvent(event));
        return true;
      },
      // The workspace is served from its first request; its bot starts once it is connected.
      onInstalled: async (installation) => {
        const tenant = installation.team?.id;
        if (tenant && !installation.isEnterpriseInstall) await options.onInstalled?.(tenant);
      },
      // The registry first: once the workspace is no longer servable and its tokens are gone, nothing
      // (a request, the next look) can build its bot again between the stop and the deletion.
      onUninstalled: async (teamId) => {
        await registry.uninstalled(teamId, hosting.retentionDays);
        await bots.stop(teamId);
      },
    });
    door.started = frontDoor;
    closers.push(() => frontDoor.close());

    const jobs: PeriodicJob[] = [
      every(
        'replicas',
        options.placement?.beatMs ?? REPLICA_BEAT_MS,
        async () => {
          if (!(await placement.beat())) return;
          const moved = await bots.placementChanged();
          logger.info({ replicas: placement.replicas.length, ...moved }, 'replicas changed; periodic work placed again');
        },
        { logger, failure: 'could not say this replica is alive; tried again at the next beat', failureLevel: 'warn' },
      ),
      every('workspaces', options.reconcileEveryMs ?? 15_000, () => bots.reconcile(), { logger, runAtStart: true }),
      every('purge', 60 * 60 * 1000, () => registry.purgeExpired(), { logger, runAtStart: true }),
    ];
    closers.push(() => Promise.all(jobs.map((job) => job.stop())));
    await bots.reconcile();
    let opsUrl: string | undefined;
    if (config.ops.metricsPort !== undefined) {
      const ops = await startHostOps({ port: config.ops.metricsPort, host: config.ops.metricsHost, db, bots: () => bots.running(), logger });
      closers.push(() => ops.close());
      opsUrl = ops.url;
    }
    logger.info({ url: frontDoor.url, workspaces: bots.size }, 'hosted mode serving Slack requests');
    return { url: frontDoor.url, opsUrl, db, bots, botFor: (tenant) => bots.botFor(tenant), close };
  } catch (error) {
    await close();
    throw error;
  }
}

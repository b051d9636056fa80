/**
 * Hosted benchmark: many workspaces on several replicas, side by side with one. Each replica is
 * `startHosted` in a process of its own (`bench/hosted-replica.ts`), the app connected as a confined
 * role: the 500 tenants' three on one Postgres schema, the one tenant's on a schema of its own, both
 * running at once. A local grid holds one Slack workspace per tenant (the app installed in advance),
 * one sandbox in a process of its own an account per tenant; commands are sent and timed from a
 * process of their own (`hosted-sender.ts`). Tenants are seeded through the hosting's stores.
 * Measures memory per added tenant, ack p99 through the front doors (bursts to one and to many alternating), the feed's creation → post delay, Postgres connections per replica, the
 * leases' load, and a replica killed: how soon its tenants' feeds resume, each entry once.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { DEFAULT_USERS, startLocalSlackGrid, type LocalSlackGrid } from '@fleet-treasury-bot/local-slack';
import { loadConfig } from '../src/config/config.js';
import { createLogger } from '../src/core/logger.js';
import { FleetConnections } from '../src/hosting/fleet-connections.js';
import { SlackInstallationStore } from '../src/hosting/installation-store.js';
import { KeyVault } from '../src/hosting/key-vault.js';
import { WorkspaceSettingsStore } from '../src/hosting/settings-store.js';
import { WorkspaceRegistry } from '../src/hosting/workspaces.js';
import { openDatabase } from '../src/store/index.js';
import { createTestSchema } from '../test/support/databases.js';
import { asAdmin, connectionsByReplica, dbStats, feedLeases } from './hosted-db.js';
import { BENCH_POSTGRES_URL } from './postgres.js';
import { startFleet, type FleetProcess } from './hosted-fleet.js';
import { startSender, type Sender } from './hosted-sender.js';
import type { ReplicaReply } from './hosted-replica.js';
import { percentile, round } from './stats.js';
import type { HostedBenchResult, LoopFigures } from './hosted-report.js';

const TENANTS = Number(process.env.BENCH_HOSTED_TENANTS ?? 500);
const REPLICAS = 3;
const POLL_S = 15;
const SIGNING_SECRET = 'benchsigningsecret0123456789abcd';
const CLIENT_SECRET = 'hostedbenchclientsecret0123456789';
const FEED_CHANNEL = 'C0FEED';
const ADMIN = 'U0APPROVER';
const ACK_ROUNDS = 24;
const ACK_CONCURRENCY = 100;
/** The index of the tenant served alone (its workspace and Fleet account), after the 500 others'. */
const SINGLE = TENANTS;
const FEED_SAMPLES = 60;
const ENTRY = fileURLToPath(new URL('./hosted-replica.ts', import.meta.url));

interface Replica {
  child: ChildProcess;
  url: string;
  startMs: number;
  memory(): Promise<{ rssMb: number; heapUsedMb: number }>;
  /** How many workspaces' periodic work it runs now. */
  working(): Promise<number>;
  loop(): Promise<LoopFigures>; // since the last call
  close(): Promise<void>;
}

const teamId = (i: number) => `T${String(i).padStart(6, '0')}`;
const fleetKey = (i: number) => `sk_sandbox_bench_${String(i).padStart(6, '0')}`;
const botToken = (i: number) => `xoxb-bench-${String(i).padStart(6, '0')}`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const usedMb = () => process.memoryUsage().rss / 1024 / 1024;

export async function runHostedBench(): Promise<HostedBenchResult> {
  const began = performance.now();
  const appRole = `fleet_bench_${randomBytes(5).toString('hex')}`;
  await asAdmin(`CREATE ROLE ${appRole} LOGIN NOSUPERUSER NOBYPASSRLS`);
  const schema = await createTestSchema(BENCH_POSTGRES_URL);
  // The one tenant served alone has a schema (a database) of its own: its replica sees no other.
  const singleSchema = await createTestSchema(BENCH_POSTGRES_URL);
  const schemaName = new URL(schema.databaseUrl).searchParams.get('options')!.split('=')[1]!;
  const appUrlIn = (of: { databaseUrl: string }, name: string) => {
    const url = new URL(of.databaseUrl);
    url.username = appRole;
    url.searchParams.set('application_name', name);
    return url.toString();
  };
  const appUrl = (name: string) => appUrlIn(schema, name);
  const replicas: Replica[] = [];
  let single: Replica | undefined;
  let grid: LocalSlackGrid | undefined;
  let sandbox: FleetProcess | undefined;
  let sender: Sender | undefined;
  try {
    sandbox = await startFleet(Array.from({ length: TENANTS + 1 }, (_, i) => fleetKey(i)));
    sender = await startSender();
    global.gc?.();
    const before = usedMb();
    grid = await startLocalSlackGrid({
      signingSecret: SIGNING_SECRET,
      oauth: { clientId: '1111.2222', clientSecret: CLIENT_SECRET, redirectUrls: ['http://127.0.0.1/slack/oauth_redirect'] },
      ackTimeoutMs: 10_000,
      rateLimits: false,
      sendSigned: (post) => sender!.send(post),
      latency: false,
      workspaces: Array.from({ length: TENANTS + 1 }, (_, i) => ({
        teamId: teamId(i),
        teamDomain: `bench-${i}`,
        teamName: `Bench ${i}`,
        botToken: botToken(i),
        users: DEFAULT_USERS.map((user) => (user.id === ADMIN ? { ...user, isAdmin: true } : user)),
      })),
    });
    global.gc?.();
    const afterGrid = usedMb();
    for (const slack of grid.workspaces) slack.invite(FEED_CHANNEL);

    const env: Record<string, string> = {
      SLACK_CLIENT_ID: '1111.2222',
      SLACK_CLIENT_SECRET: CLIENT_SECRET,
      SLACK_STATE_SECRET: 'a-state-secret-of-at-least-thirty-two-characters',
      KEY_ENCRYPTION_KEYS: `k1:${randomBytes(32).toString('base64')}`,
      SLACK_SIGNING_SECRET: SIGNING_SECRET,
      SLACK_API_URL: grid.apiUrl,
      PUBLIC_URL: 'http://127.0.0.1',
      PORT: '0',
      HOST: '127.0.0.1',
      FLEET_API_URL: sandbox.url,
      DATABASE_URL: appUrl('bench-seed'),
      DATABASE_OWNER_URL: schema.databaseUrl,
      // The feed reads the API itself; the ledger's sync (a second poller per tenant) is left off.
      LEDGER_ENABLED: 'false',
      FEED_POLL_INTERVAL_SECONDS: String(POLL_S),
      LOG_LEVEL: 'warn',
    };
    const singleEnv = { ...env, DATABASE_URL: appUrlIn(singleSchema, 'bench-seed'), DATABASE_OWNER_URL: singleSchema.databaseUrl };
    await seedTenants(singleEnv, SINGLE, SINGLE + 1);

    const startReplica = (name: string, tenants: number) => forkReplica({ ...env, DATABASE_URL: appUrl(name), BENCH_TENANTS: String(tenants) });
    // One tenant on one replica, alone at first (its feed's delay), then beside the 500 tenants' 3 replicas to the end.
    single = await forkReplica({ ...singleEnv, DATABASE_URL: appUrlIn(singleSchema, 'bench-single'), BENCH_TENANTS: '1' });
    const singleUrl = `${single.url}/slack/events`;
    grid.workspace(teamId(SINGLE)).setAppUrl(singleUrl);
    await sleep(5_000); // its feed's first poll, which takes what is already there as past
    const singleFeed = await feedDelays(grid, sandbox, () => SINGLE, 8);

    const seeding = performance.now();
    await seedTenants(env, 0, TENANTS);
    const seedMsPerTenant = (performance.now() - seeding) / TENANTS;
    for (let r = 0; r < REPLICAS; r += 1) replicas.push(await startReplica(`bench-replica-${r}`, TENANTS));
    grid.setAppUrl(`${replicas[0]!.url}/slack/events`);
    grid.workspace(teamId(SINGLE)).setAppUrl(singleUrl);
    // Measured once the replicas agree on who runs what (the last one's arrival moved a third of the work).
    const settling = performance.now();
    await placementSettled(replicas);
    const settleS = (performance.now() - settling) / 1000;
    const singleMemory = await single.memory();
    const memories = await Promise.all(replicas.map((replica) => replica.memory()));
    const random = () => Math.floor(Math.random() * TENANTS);
    // Side by side: bursts to the one tenant's replica and to the first of the 500 tenants' alternate, on the same machine at the same time.
    await Promise.all([single.loop(), replicas[0]!.loop()]);
    const { single: singleAck, many: manyAck, gridLoop } = await ackSideBySide(grid, () => SINGLE, random);
    const [singleLoop, manyLoop] = await Promise.all([single.loop(), replicas[0]!.loop()]);
    const statsBefore = await dbStats(schemaName);
    const manyFeed = await feedDelays(grid, sandbox, random, FEED_SAMPLES);
    const statsAfter = await dbStats(schemaName);
    const window = (statsAfter.at - statsBefore.at) / 1000;
    const connections = await connectionsByReplica(REPLICAS);

    // A replica dies: every tenant gets an entry at that moment; those whose feed lease it held resume once the lease expires.
    const leasesBefore = await feedLeases(schemaName, FEED_CHANNEL);
    const killed = replicas.shift()!;
    killed.child.kill('SIGKILL');
    grid.setAppUrl(`${replicas[0]!.url}/slack/events`);
    grid.workspace(teamId(SINGLE)).setAppUrl(singleUrl);
    const resumeByTenant = await feedDelaysAll(grid, sandbox, 90_000);
    const leasesAfter = await feedLeases(schemaName, FEED_CHANNEL);
    const moved = [...leasesBefore].filter(([tenant, holder]) => leasesAfter.get(tenant) !== holder).map(([tenant]) => tenant);
    const resume = moved.map((tenant) => resumeByTenant.get(tenant) ?? Number.POSITIVE_INFINITY);
    const stayed = [...leasesBefore.keys()].filter((tenant) => !moved.includes(tenant)).map((tenant) => resumeByTenant.get(tenant) ?? Number.POSITIVE_INFINITY);

    await sleep(POLL_S * 1000 + 2000);
    const tally = countPosts(grid);
    const sorted = (values: number[]) => [...values].sort((a, b) => a - b);
    const singleAckSorted = sorted(singleAck);
    const manyAckSorted = sorted(manyAck);
    const manyFeedSorted = sorted(manyFeed);
    const resumeSorted = sorted(resume);
    const rss = memories.map((memory) => memory.rssMb);
    const heap = memories.map((memory) => memory.heapUsedMb);
    const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
    return {
      tenants: TENANTS,
      replicas: REPLICAS,
      grid_mb_per_workspace: round((afterGrid - before) / TENANTS, 2),
      sandbox_rss_mb: sandbox.rssMb,
      seed_ms_per_tenant: round(seedMsPerTenant, 1),
      replica_start_s: [single, ...replicas, killed].map((replica) => round(replica.startMs / 1000, 1)),
      placement_settled_s: round(settleS, 1),
      ack_window_loop: { one_tenant: singleLoop, many_first_replica: manyLoop, grid: gridLoop },
      one_tenant: {
        rss_mb: singleMemory.rssMb,
        heap_mb: singleMemory.heapUsedMb,
        ack_p50_ms: round(percentile(singleAckSorted, 50), 1),
        ack_p99_ms: round(percentile(singleAckSorted, 99), 1),
        feed_delay_p99_s: round(percentile(sorted(singleFeed), 99), 2),
      },
      many: {
        rss_mb: rss,
        heap_mb: heap,
        ack_p50_ms: round(percentile(manyAckSorted, 50), 1),
        ack_p99_ms: round(percentile(manyAckSorted, 99), 1),
        feed_delay_p50_s: round(percentile(manyFeedSorted, 50), 2),
        feed_delay_p99_s: round(percentile(manyFeedSorted, 99), 2),
      },
      rss_mb_per_added_tenant: round((mean(rss) - singleMemory.rssMb) / (TENANTS - 1), 2),
      heap_mb_per_added_tenant: round((mean(heap) - singleMemory.heapUsedMb) / (TENANTS - 1), 2),
      ack_p99_ratio: round(percentile(manyAckSorted, 99) / percentile(singleAckSorted, 99), 2),
      poll_interval_s: POLL_S,
      connections_per_replica: connections,
      lease_statements_per_s: round((statsAfter.leaseScans - statsBefore.leaseScans) / window, 1),
      lease_writes_per_s: round((statsAfter.leaseWrites - statsBefore.leaseWrites) / window, 1),
      db_transactions_per_s: round((statsAfter.transactions - statsBefore.transactions) / window, 1),
      killed_tenants: moved.length,
      unaffected_delay_max_s: stayed.length === 0 ? 0 : round(Math.max(...stayed), 1),
      resume_p50_s: round(percentile(resumeSorted, 50), 1),
      resume_max_s: round(resumeSorted.at(-1) ?? Number.NaN, 1),
      entries_posted: tally.posted,
      entries_missing: tally.missing,
      entries_repeated: tally.repeated,
      commands_refused: refusals,
      total_s: round((performance.now() - began) / 1000, 0),
    };
  } finally {
    await Promise.allSettled([single, ...replicas].flatMap((replica) => (replica ? [replica.close()] : [])));
    await Promise.allSettled([grid?.close(), sandbox?.close()]);
    sender?.close();
    await schema.drop();
    await singleSchema.drop();
    await asAdmin(`DROP OWNED BY ${appRole}; DROP ROLE ${appRole}`);
  }
}

/** Each tenant as after OAuth and `/fleet connect` and `/fleet settings`, written through the hosting's stores. */
async function seedTenants(env: Record<string, string>, from: number, to: number): Promise<void> {
  const config = loadConfig(env);
  const logger = createLogger({ level: 'silent' });
  const db = await openDatabase({ databaseUrl: config.store.databaseUrl, ownerUrl: config.store.ownerUrl, logger });
  const vault = new KeyVault({ db, keyRing: config.hosting!.keyRing, logger });
  const registry = new WorkspaceRegistry({ db, vault, logger });
  const installations = new SlackInstallationStore({ db, vault });
  const connections = new FleetConnections({ db, vault });
  const settings = new WorkspaceSettingsStore(db);
  try {
    let next = from;
    const lane = async () => {
      while (next < to) {
        const i = next++;
        const tenant = teamId(i);
        await registry.installed({ tenant, teamName: `Bench ${i}`, installedBy: ADMIN, enterpriseId: undefined });
        await installations.storeInstallation({
          team: { id: tenant, name: `Bench ${i}` },
          enterprise: undefined,
          user: { id: ADMIN, token: undefined, scopes: undefined },
          bot: { token: botToken(i), scopes: ['commands', 'chat:write'], id: 'B0FLEETBOT', userId: 'U0FLEETBOT' },
          appId: 'A0FLEETAPP',
          tokenType: 'bot',
          isEnterpriseInstall: false,
          authVersion: 'v2',
        });
        await connections.connect(tenant, fleetKey(i), ADMIN);
        await settings.save(tenant, { FEED_CHANNEL_ID: FEED_CHANNEL, FLEET_VIEWERS: '*' }, ADMIN);
      }
    };
    await Promise.all(Array.from({ length: 8 }, lane));
  } finally {
    vault.close();
    await db.close();
  }
}

function forkReplica(env: Record<string, string>): Promise<Replica> {
  const child = fork(ENTRY, { env: { ...process.env, ...env }, execArgv: ['--import', 'tsx', '--expose-gc'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const next = (type: ReplicaReply['type']) =>
    new Promise<ReplicaReply>((resolve, reject) => {
      const onMessage = (message: ReplicaReply) => {
        if (message.type === type || message.type === 'failed') {
          child.off('message', onMessage);
          if (message.type === 'failed') reject(new Error(`a replica failed: ${message.reason}`));
          else resolve(message);
        }
      };
      child.on('message', onMessage);
      child.once('exit', (code) => reject(new Error(`a replica exited (${code})`)));
    });
  const ask = async <Type extends ReplicaReply['type']>(type: Type) => {
    const reply = next(type);
    child.send({ ask: type });
    return (await reply) as Extract<ReplicaReply, { type: Type }>;
  };
  return next('ready').then((ready) => {
    if (ready.type !== 'ready') throw new Error('unexpected reply');
    return {
      child,
      url: ready.url,
      startMs: ready.startMs,
      memory: () => ask('memory'),
      working: async () => (await ask('status')).working,
      loop: async () => {
        const { type: _type, ...figures } = await ask('loop');
        return figures;
      },
      close: async () => {
        if (child.exitCode !== null || child.signalCode !== null) return;
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.send({ ask: 'close' });
        await Promise.race([exited, sleep(15_000).then(() => child.kill('SIGKILL'))]);
      },
    };
  });
}

/** Waits until the replicas run every workspace's periodic work once between them, twice in a row a second apart. */
async function placementSettled(replicas: Replica[]): Promise<void> {
  let agreed = 0;
  for (let tries = 0; tries < 120 && agreed < 2; tries += 1) {
    await sleep(1000);
    const working = await Promise.all(replicas.map((replica) => replica.working()));
    agreed = working.reduce((sum, count) => sum + count, 0) === TENANTS ? agreed + 1 : 0;
  }
  if (agreed < 2) throw new Error('the replicas never agreed on who runs each workspace’s periodic work');
}

/**
 * Signed `/fleet balance` commands through the front doors, ACK_CONCURRENCY at once, each from the
 * workspace a pick names: bursts for the one tenant and for the many alternate (their order too),
 * 2 s apart, after a warm-up burst of each. Ack times in ms.
 */
async function ackSideBySide(grid: LocalSlackGrid, single: () => number, many: () => number) {
  // The grid's event loop while it serves the bots' Web API calls (the commands leave from the sender's process).
  const gridDelay = monitorEventLoopDelay({ resolution: 10 });
  gridDelay.enable();
  const users = ['U0REQUESTER', 'U0APPROVER', 'U0APPROVER2'];
  const burst = (pick: () => number) =>
    Promise.all(
      Array.from({ length: ACK_CONCURRENCY }, async (_, i) => {
        const result = await grid.workspace(teamId(pick())).runCommand({ userId: users[i % users.length]!, channelId: 'C0TREASURY', text: 'balance' });
        if (result.status !== 200) refusals.push(`${result.status} ${(JSON.stringify(result.body) ?? '(empty)').slice(0, 80)}`);
        return result.elapsedMs;
      }),
    );
  await burst(single);
  await burst(many);
  const samples = { single: [] as number[], many: [] as number[] };
  for (let r = 0; r < ACK_ROUNDS; r += 1) {
    for (const which of r % 2 === 0 ? (['single', 'many'] as const) : (['many', 'single'] as const)) {
      await sleep(2000);
      samples[which].push(...(await burst(which === 'single' ? single : many)));
    }
  }
  gridDelay.disable();
  return { ...samples, gridLoop: { delayMaxMs: round(gridDelay.max / 1e6, 1), delayP99Ms: round(gridDelay.percentile(99) / 1e6, 1) } };
}

const added: Array<{ tenant: number; reference: string }> = [];
/** Commands the front door did not answer 200, with the status and the start of the body. */
const refusals: string[] = [];
let references = 0;

function addEntry(sandbox: FleetProcess, tenant: number): string {
  const reference = `HB${String((references += 1)).padStart(7, '0')}`;
  sandbox.add(fleetKey(tenant), reference);
  added.push({ tenant, reference });
  return reference;
}

const postedIn = (grid: LocalSlackGrid, tenant: number, reference: string) =>
  grid.workspace(teamId(tenant)).countMessages(FEED_CHANNEL, {}, (message) => JSON.stringify(message).includes(reference));

/** `count` entries, one every 500 ms, each in the account of the tenant `pick` names: seconds from its creation to its post. */
async function feedDelays(grid: LocalSlackGrid, sandbox: FleetProcess, pick: () => number, count: number, timeoutMs = 60_000): Promise<number[]> {
  const pending = new Map<string, { tenant: number; at: number }>();
  const delays: number[] = [];
  const deadline = Date.now() + timeoutMs;
  let sent = 0;
  let nextAt = 0;
  while ((sent < count || pending.size > 0) && Date.now() < deadline) {
    if (sent < count && Date.now() >= nextAt) {
      const tenant = pick();
      pending.set(addEntry(sandbox, tenant), { tenant, at: performance.now() });
      sent += 1;
      nextAt = Date.now() + 500;
    }
    for (const [reference, { tenant, at }] of pending) {
      if (postedIn(grid, tenant, reference) > 0) {
        delays.push((performance.now() - at) / 1000);
        pending.delete(reference);
      }
    }
    await sleep(100);
  }
  // Not posted in time: counted at the timeout, and again as missing in the final tally if never posted.
  for (const _ of pending.values()) delays.push(timeoutMs / 1000);
  return delays;
}

/** An entry in every tenant's account at once: seconds until each tenant's is posted, by tenant id. */
async function feedDelaysAll(grid: LocalSlackGrid, sandbox: FleetProcess, timeoutMs: number): Promise<Map<string, number>> {
  const at = performance.now();
  const pending = new Map(Array.from({ length: TENANTS }, (_, tenant) => [tenant, addEntry(sandbox, tenant)]));
  const delays = new Map<string, number>();
  while (pending.size > 0 && performance.now() - at < timeoutMs) {
    for (const [tenant, reference] of pending) {
      if (postedIn(grid, tenant, reference) > 0) {
        delays.set(teamId(tenant), (performance.now() - at) / 1000);
        pending.delete(tenant);
      }
    }
    await sleep(200);
  }
  return delays;
}

/** Every entry the bench added, counted in its tenant's feed channel: none missing, none twice. */
function countPosts(grid: LocalSlackGrid): { posted: number; missing: number; repeated: number } {
  const times = added.map(({ tenant, reference }) => postedIn(grid, tenant, reference));
  return { posted: times.filter((n) => n > 0).length, missing: times.filter((n) => n === 0).length, repeated: times.filter((n) => n > 1).length };
}

/**
 * Hosted mode as production runs it: the front door and one bot per workspace (`startHosted`) on a
 * Postgres schema of its own, the app connected as a role that row-level security confines and the
 * migrations run as the owner, a local grid of Slack workspaces installing the app through its OAuth
 * page, and one sandbox Fleet API with an account per partner.
 */
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import { Writable } from 'node:stream';
import { loadConfig } from '../../src/config/config.js';
import { createLogger } from '../../src/core/logger.js';
import { startHosted, type HostedOptions, type RunningHost } from '../../src/hosting/hosted.js';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { createThrowawaySchema } from '../../src/store/throwaway-schema.js';
import { startLocalSlackGrid, DEFAULT_USERS, type LocalSlackGrid } from '@fleet-treasury-bot/local-slack';

export const HOSTED_SIGNING_SECRET = 'c0ffee0ddba11c0ffee0ddba11c0ffee';
const CLIENT_ID = '1111.2222';
const CLIENT_SECRET = 'hostedclientsecret0123456789';
const STATE_SECRET = 'a-state-secret-of-at-least-thirty-two-characters';

/** Each partner: its workspace (the same people's and channels' ids in each) and its Fleet account's key. */
export const PARTNERS = [
  { teamId: 'T0ALPHA', teamDomain: 'alpha-motors', teamName: 'Alpha Motors', fleetKey: `sk_sandbox_alpha_${randomBytes(6).toString('hex')}` },
  { teamId: 'T0BETA', teamDomain: 'beta-logistics', teamName: 'Beta Logistics', fleetKey: `sk_sandbox_beta_${randomBytes(6).toString('hex')}` },
] as const;
/** Abel is each workspace's admin; the others are members. */
export const ADMIN = 'U0APPROVER';

export interface HostedHarness {
  host: RunningHost;
  grid: LocalSlackGrid;
  sandbox: Sandbox;
  logs: string[];
  /** Abel installs the app into the workspace through the Add to Slack page and the grid's consent page. */
  install(teamId: string, userId?: string): Promise<string>;
  /** Another replica on the same database, Slack grid and sandbox, on a port of its own; closed with the harness unless closed before. */
  startReplica(options?: Partial<HostedOptions>): Promise<RunningHost>;
  close(): Promise<void>;
}

export interface HostedHarnessOptions extends Partial<HostedOptions> {
  /** Host variables over the harness's own (LEDGER_ENABLED, METRICS_PORT, poll intervals…). */
  hostEnv?: Record<string, string>;
}

export async function startHostedHarness(baseUrl: string, { hostEnv, ...options }: HostedHarnessOptions = {}): Promise<HostedHarness> {
  const schema = await createThrowawaySchema(baseUrl);
  const sandbox = await startSandbox({ seed: 7, accounts: PARTNERS.map((partner, index) => ({ apiKey: partner.fleetKey, seed: 100 + index })) });
  const port = await freePort();
  const publicUrl = `http://127.0.0.1:${port}`;
  const grid = await startLocalSlackGrid({
    signingSecret: HOSTED_SIGNING_SECRET,
    oauth: { clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, redirectUrls: [`${publicUrl}/slack/oauth_redirect`] },
    workspaces: PARTNERS.map(({ teamId, teamDomain, teamName }) => ({
      teamId,
      teamDomain,
      teamName,
      users: DEFAULT_USERS.map((user) => (user.id === ADMIN ? { ...user, isAdmin: true } : user)),
    })),
  });
  const logs: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      logs.push(chunk.toString());
      callback();
    },
  });
  const env: Record<string, string> = {
    SLACK_CLIENT_ID: CLIENT_ID,
    SLACK_CLIENT_SECRET: CLIENT_SECRET,
    SLACK_STATE_SECRET: STATE_SECRET,
    KEY_ENCRYPTION_KEYS: `k1:${randomBytes(32).toString('base64')}`,
    SLACK_SIGNING_SECRET: HOSTED_SIGNING_SECRET,
    SLACK_API_URL: grid.apiUrl,
    PUBLIC_URL: publicUrl,
    PORT: String(port),
    HOST: '127.0.0.1',
    FLEET_API_URL: sandbox.url,
    DATABASE_URL: schema.appUrl,
    DATABASE_OWNER_URL: schema.ownerUrl,
    LEDGER_ENABLED: 'false',
    LOG_LEVEL: 'debug',
    ...hostEnv,
  };
  const config = loadConfig(env);
  const logger = createLogger({ level: 'debug', destination, secrets: [CLIENT_SECRET, STATE_SECRET, ...PARTNERS.map((partner) => partner.fleetKey)] });
  let host: RunningHost;
  try {
    host = await startHosted({ config, env, logger, reconcileEveryMs: 500, ...options });
  } catch (error) {
    await Promise.allSettled([grid.close(), sandbox.close()]);
    await schema.drop();
    throw error;
  }
  grid.setAppUrl(`${host.url}/slack/events`);

  const install = async (teamId: string, userId = ADMIN): Promise<string> => {
    const start = await fetch(`${host.url}/slack/install`);
    const cookie = (start.headers.getSetCookie()[0] ?? '').split(';')[0]!;
    const link = /href="([^"]+)"/.exec(await start.text())?.[1]?.replace(/&amp;|&#38;/g, '&');
    if (!link) throw new Error('the install page has no Add to Slack link');
    const params = new URL(link).searchParams;
    params.set('team', teamId);
    params.set('user', userId);
    params.set('decision', 'allow');
    const consent = await fetch(`${grid.url}/oauth/v2/authorize`, { method: 'POST', body: params, redirect: 'manual' });
    const back = consent.headers.get('location');
    if (!back)
      throw new Error(
        `the consent page answered ${consent.status} without a redirect: ${(await consent.text()).replace(/<style>[^]*<\/style>/, '').slice(0, 900)} for ${link}`,
      );
    const done = await fetch(back, { headers: { cookie }, redirect: 'manual' });
    return done.text();
  };

  const replicas: RunningHost[] = [];
  const startReplica = async (more: Partial<HostedOptions> = {}): Promise<RunningHost> => {
    const replicaEnv = { ...env, PORT: '0' };
    const replica = await startHosted({ config: loadConfig(replicaEnv), env: replicaEnv, logger, reconcileEveryMs: 500, ...options, ...more });
    replicas.push(replica);
    return replica;
  };

  return {
    host,
    grid,
    sandbox,
    logs,
    install,
    startReplica,
    close: async () => {
      // Closing twice is safe: a replica a test closed closes nothing more.
      for (const replica of replicas) await replica.close();
      await host.close();
      await Promise.allSettled([grid.close(), sandbox.close()]);
      await schema.drop();
    },
  };
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

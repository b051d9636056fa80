/**
 * `npm run demo -- --hosted`: the app hosted for two partners, as a provider runs it (`startHosted`:
 * the Add to Slack page, one bot per connected workspace, Postgres confined by row-level security),
 * with a local grid of two Slack workspaces to install it into and one sandbox Fleet API with an
 * account per partner. Postgres is the one thing it needs: a schema and a confined role of its own,
 * made at start and dropped on close.
 */
import { randomBytes } from 'node:crypto';
import { startLocalSlackGrid, type LocalSlackGrid } from '../workspace/index.js';
import { mountPage } from '../workspace/page-server.js';
import { COMMAND_HINT } from './demo.js';
import { DEMO_BOT_CHANNELS, DEMO_CHANNELS, DEMO_PEOPLE } from './people.js';
import { createLogger, createThrowawaySchema, loadConfig, startHosted, startSandbox, type Logger, type RunningHost, type Sandbox } from './product.js';

/** The Postgres the hosted demo uses when DATABASE_URL is unset: this machine's, as docs/deploy.md says. */
export const DEFAULT_HOSTED_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/test';

/** The partners hosted: each a workspace of the grid and an account of the sandbox. */
export const HOSTED_PARTNERS = [
  { teamId: 'T0ALPHA', teamDomain: 'alpha-motors', teamName: 'Alpha Motors' },
  { teamId: 'T0BETA', teamDomain: 'beta-logistics', teamName: 'Beta Logistics' },
] as const;

/** Who installs the app and connects it in each workspace: the one admin. */
export const HOSTED_ADMIN = DEMO_PEOPLE.abel;

export interface HostedDemoOptions {
  /** A Postgres URL whose role may create schemas and roles. */
  databaseUrl: string;
  /** The front door's port (the Add to Slack page); 0 picks a free one. */
  port: number;
  logger?: Logger;
  logLevel?: string;
}

export interface HostedPartner {
  teamId: string;
  teamName: string;
  /** Its Fleet account's sandbox key, which its admin pastes into `/fleet connect`. */
  fleetKey: string;
  /** Its workspace's page. */
  pageUrl: string;
}

export interface HostedDemo {
  /** This run's schema and confined role, dropped on close. */
  database: { schema: string; role: string };
  /** The front door, e.g. http://127.0.0.1:3000; the Add to Slack page is under /slack/install. */
  url: string;
  installUrl: string;
  partners: HostedPartner[];
  grid: LocalSlackGrid;
  sandbox: Sandbox;
  host: RunningHost;
  close(): Promise<void>;
}

export async function startHostedDemo(options: HostedDemoOptions): Promise<HostedDemo> {
  const secrets = {
    signingSecret: randomBytes(16).toString('hex'),
    clientSecret: randomBytes(16).toString('hex'),
    stateSecret: randomBytes(24).toString('hex'),
    keyEncryptionKey: randomBytes(32).toString('base64'),
  };
  const keys = HOSTED_PARTNERS.map((partner) => `sk_sandbox_${partner.teamDomain.split('-')[0]}_${randomBytes(6).toString('hex')}`);
  const closers: Array<() => Promise<unknown>> = [];
  const close = async () => {
    for (const closer of closers.splice(0).reverse()) await closer().catch(() => undefined);
  };
  try {
    const schema = await createThrowawaySchema(options.databaseUrl);
    closers.push(() => schema.drop());
    const logger =
      options.logger ??
      createLogger({ level: options.logLevel ?? 'warn', pretty: true, secrets: [...Object.values(secrets), ...keys, new URL(schema.appUrl).password] });
    const sandbox = await startSandbox({ seed: 7, accounts: keys.map((apiKey, index) => ({ apiKey, seed: 100 + index })) });
    closers.push(() => sandbox.close());
    // The front door's own port, known before it starts: the grid only redirects to a registered URL.
    const port = options.port === 0 ? await freePort() : options.port;
    const publicUrl = `http://127.0.0.1:${port}`;
    const clientId = '1111.2222';
    const grid = await startLocalSlackGrid({
      signingSecret: secrets.signingSecret,
      oauth: { clientId, clientSecret: secrets.clientSecret, redirectUrls: [`${publicUrl}/slack/oauth_redirect`] },
      workspaces: HOSTED_PARTNERS.map((partner) => ({
        ...partner,
        users: Object.values(DEMO_PEOPLE).map(({ role: _role, ...user }) => (user.id === HOSTED_ADMIN.id ? { ...user, isAdmin: true } : user)),
        channels: Object.values(DEMO_CHANNELS),
      })),
    });
    closers.push(() => grid.close());
    const env: Record<string, string> = {
      SLACK_CLIENT_ID: clientId,
      SLACK_CLIENT_SECRET: secrets.clientSecret,
      SLACK_STATE_SECRET: secrets.stateSecret,
      KEY_ENCRYPTION_KEYS: `k1:${secrets.keyEncryptionKey}`,
      SLACK_SIGNING_SECRET: secrets.signingSecret,
      SLACK_API_URL: grid.apiUrl,
      PUBLIC_URL: publicUrl,
      PORT: String(port),
      HOST: '127.0.0.1',
      FLEET_API_URL: sandbox.url,
      DATABASE_URL: schema.appUrl,
      DATABASE_OWNER_URL: schema.ownerUrl,
    };
    const host = await startHosted({
      config: loadConfig(env),
      env,
      logger,
      reconcileEveryMs: 2_000,
      // As the admin of a real workspace would after installing: the bot invited to each channel it posts to.
      onInstalled: (tenant) => {
        for (const channel of DEMO_BOT_CHANNELS) grid.workspace(tenant).invite(channel);
      },
    });
    closers.push(() => host.close());
    grid.setAppUrl(`${host.url}/slack/events`);
    for (const slack of grid.workspaces) {
      mountPage(slack, {
        people: Object.values(DEMO_PEOPLE).map(({ id }) => ({ id, role: hostedRole(id) })),
        commandHint: `/fleet connect · /fleet settings · ${COMMAND_HINT}`,
        workspaces: grid.pageWorkspaces(),
      });
    }
    let closing: Promise<void> | undefined;
    return {
      url: host.url,
      database: { schema: schema.schema, role: schema.role },
      installUrl: `${host.url}/slack/install`,
      partners: HOSTED_PARTNERS.map((partner, index) => ({
        teamId: partner.teamId,
        teamName: partner.teamName,
        fleetKey: keys[index]!,
        pageUrl: grid.workspace(partner.teamId).url,
      })),
      grid,
      sandbox,
      host,
      close: () => (closing ??= close()),
    };
  } catch (error) {
    await close();
    throw error;
  }
}

/** What the page shows beside each person: who may install, and the id `/fleet settings` takes. */
export function hostedRole(userId: string): string {
  return `${userId === HOSTED_ADMIN.id ? 'workspace admin' : 'member'}, ${userId}`;
}

function freePort(): Promise<number> {
  return import('node:net').then(
    ({ createServer }) =>
      new Promise((resolve, reject) => {
        const server = createServer();
        server.once('error', reject);
        server.listen(0, '127.0.0.1', () => {
          const { port } = server.address() as { port: number };
          server.close(() => resolve(port));
        });
      }),
  );
}

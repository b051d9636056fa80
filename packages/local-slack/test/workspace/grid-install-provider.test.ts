import { InstallProvider, LogLevel, MemoryInstallationStore } from '@slack/oauth';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startLocalSlackGrid, type LocalSlackGrid } from '../../src/workspace/index.js';

const CLIENT_ID = '3333.4444';
const CLIENT_SECRET = 'install-provider-secret';

let grid: LocalSlackGrid;
let app: Server;
let installer: InstallProvider;
let redirectUri = '';

beforeAll(async () => {
  // The app's redirect URL, served by @slack/oauth as Bolt's receivers serve it.
  app = createServer((request, response) => {
    void installer.handleCallback(request, response, undefined, { scopes: ['commands', 'chat:write'], redirectUri });
  });
  await new Promise<void>((resolve) => app.listen(0, '127.0.0.1', resolve));
  redirectUri = `http://127.0.0.1:${(app.address() as AddressInfo).port}/slack/oauth_redirect`;
  grid = await startLocalSlackGrid({
    signingSecret: 'installprovidersigningsecret012',
    oauth: { clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, redirectUrls: [redirectUri] },
    rateLimits: false,
    latency: false,
    workspaces: ['T0EAST', 'T0WEST'].map((teamId) => ({
      teamId,
      teamDomain: teamId.toLowerCase(),
      teamName: `${teamId} Fleet`,
      users: [{ id: 'U0OWNER', name: 'owner', isOwner: true }],
    })),
  });
  installer = new InstallProvider({
    clientId: CLIENT_ID,
    clientSecret: CLIENT_SECRET,
    // The state's cookie check is the app's own business; this test is about Slack's side.
    stateVerification: false,
    installationStore: new MemoryInstallationStore(),
    authorizationUrl: `${grid.url}/oauth/v2/authorize`,
    clientOptions: { slackApiUrl: grid.apiUrl },
    logLevel: LogLevel.ERROR,
  });
});

afterAll(async () => {
  await grid.close();
  await new Promise<void>((resolve) => app.close(() => resolve()));
});

it("installs into two workspaces through @slack/oauth's InstallProvider, each with its own working bot token", async () => {
  for (const teamId of ['T0EAST', 'T0WEST']) {
    const installUrl = await installer.generateInstallUrl({ scopes: ['commands', 'chat:write'], redirectUri, teamId }, false);
    const page = await fetch(`${installUrl}&user=U0OWNER`);
    expect(await page.text()).toContain(`access the ${teamId} Fleet Slack workspace`);
    const allow = new URLSearchParams({ ...Object.fromEntries(new URL(installUrl).searchParams), user: 'U0OWNER', decision: 'allow' });
    const redirect = await fetch(`${grid.url}/oauth/v2/authorize`, { method: 'POST', body: allow, redirect: 'manual' });
    const callback = await fetch(redirect.headers.get('location') ?? '');
    expect(callback.status).toBe(200);
  }
  const east = await installer.authorize({ teamId: 'T0EAST', isEnterpriseInstall: false, enterpriseId: undefined });
  const west = await installer.authorize({ teamId: 'T0WEST', isEnterpriseInstall: false, enterpriseId: undefined });
  expect(east).toMatchObject({ teamId: 'T0EAST', botUserId: 'U0FLEETBOT', botId: 'B0FLEETBOT' });
  expect(west.botToken).toMatch(/^xoxb-/);
  expect(west.botToken).not.toBe(east.botToken);
  expect(grid.workspaces.map((slack) => slack.installed)).toEqual([true, true]);
});

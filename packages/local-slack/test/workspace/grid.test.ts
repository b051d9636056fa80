import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { mountPage } from '../../src/workspace/page-server.js';
import { signRequest, startLocalSlackGrid, UnknownSlashCommandError, type LocalSlackGrid, type WorkspaceUser } from '../../src/workspace/index.js';

const SIGNING_SECRET = 'gridtestsigningsecret0123456789';
const CLIENT = { clientId: '1111.2222', clientSecret: 'grid-client-secret', redirectUrls: ['http://127.0.0.1:3999/slack/oauth_redirect'] };
const REDIRECT = CLIENT.redirectUrls[0] ?? '';
const NORTH_TOKEN = 'xoxb-north-preinstalled';
const ADMIN = 'U0ADMIN';
const MEMBER = 'U0MEMBER';
const CHANNEL = 'C0TREASURY';

// The same ids in both workspaces, with different names: what a call answers says which workspace served it.
const people = (suffix: string): WorkspaceUser[] => [
  { id: ADMIN, name: `admin-${suffix}`, realName: `Admin ${suffix}`, isAdmin: true },
  { id: MEMBER, name: `member-${suffix}`, realName: `Member ${suffix}` },
];

interface Received {
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

let grid: LocalSlackGrid;
let app: Server;
let clock = Date.parse('2026-11-29T08:00:00Z');
const received: Received[] = [];

beforeAll(async () => {
  app = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
      response.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => app.listen(0, '127.0.0.1', resolve));
  grid = await startLocalSlackGrid({
    signingSecret: SIGNING_SECRET,
    appUrl: `http://127.0.0.1:${(app.address() as AddressInfo).port}/slack/events`,
    oauth: CLIENT,
    now: () => clock,
    rateLimits: false,
    latency: false,
    workspaces: [
      {
        teamId: 'T0NORTH',
        teamDomain: 'north-fleet',
        teamName: 'North Fleet',
        users: people('north'),
        channels: [{ id: CHANNEL, name: 'treasury' }],
        botToken: NORTH_TOKEN,
      },
      { teamId: 'T0SOUTH', teamDomain: 'south-fleet', teamName: 'South Fleet', users: people('south'), channels: [{ id: CHANNEL, name: 'treasury' }] },
      { teamId: 'T0OPEN', teamDomain: 'open-fleet', teamName: 'Open Fleet', users: people('open'), membersCanInstall: true },
    ],
  });
});

afterEach(async () => {
  received.length = 0;
  for (const teamId of ['T0SOUTH', 'T0OPEN']) if (grid.workspace(teamId).installed) await grid.uninstall(teamId);
  received.length = 0;
});

afterAll(async () => {
  await grid.close();
  await new Promise<void>((resolve) => app.close(() => resolve()));
});

async function call(method: string, token: string | undefined, args: Record<string, string> = {}): Promise<Record<string, unknown>> {
  const response = await fetch(`${grid.apiUrl}${method}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: new URLSearchParams(args).toString(),
  });
  return (await response.json()) as Record<string, unknown>;
}

async function exchange(args: Record<string, string>, basic?: string): Promise<Record<string, unknown>> {
  const response = await fetch(`${grid.apiUrl}oauth.v2.access`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...(basic ? { authorization: `Basic ${Buffer.from(basic).toString('base64')}` } : {}) },
    body: new URLSearchParams(args).toString(),
  });
  return (await response.json()) as Record<string, unknown>;
}

/** The person's Allow (or Cancel) on the consent page, as the browser posts it: the redirect it answers. */
async function decide(decision: 'allow' | 'deny', input: { team: string; user: string; redirectUri?: string; state?: string }): Promise<Response> {
  const form = new URLSearchParams({
    client_id: CLIENT.clientId,
    scope: 'commands,chat:write',
    state: input.state ?? 'state-1',
    team: input.team,
    user: input.user,
    decision,
  });
  if (input.redirectUri) form.set('redirect_uri', input.redirectUri);
  return fetch(`${grid.url}/oauth/v2/authorize`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: form.toString(),
    redirect: 'manual',
  });
}

async function codeFor(team: string, user = ADMIN): Promise<string> {
  const answer = await decide('allow', { team, user, redirectUri: REDIRECT });
  return new URL(answer.headers.get('location') ?? '').searchParams.get('code') ?? '';
}

async function install(team: string): Promise<string> {
  const answer = await exchange({ code: await codeFor(team), redirect_uri: REDIRECT }, `${CLIENT.clientId}:${CLIENT.clientSecret}`);
  return String(answer.access_token);
}

function isSigned(request: Received): boolean {
  const timestamp = Number(request.headers['x-slack-request-timestamp']);
  return request.headers['x-slack-signature'] === signRequest(SIGNING_SECRET, timestamp, request.body);
}

describe('a grid of workspaces behind one Web API URL', () => {
  it('answers each call from the workspace its token belongs to, though both have the same user and channel ids', async () => {
    const southToken = await install('T0SOUTH');
    grid.workspace('T0NORTH').invite(CHANNEL);
    grid.workspace('T0SOUTH').invite(CHANNEL);

    expect(await call('chat.postMessage', NORTH_TOKEN, { channel: CHANNEL, text: 'from the north' })).toMatchObject({ ok: true });
    expect(await call('chat.postMessage', southToken, { channel: CHANNEL, text: 'from the south' })).toMatchObject({ ok: true });

    expect(
      grid
        .workspace('T0NORTH')
        .messages(CHANNEL)
        .map((message) => message.text),
    ).toEqual(['from the north']);
    expect(
      grid
        .workspace('T0SOUTH')
        .messages(CHANNEL)
        .map((message) => message.text),
    ).toEqual(['from the south']);
    expect(await call('users.info', southToken, { user: ADMIN })).toMatchObject({ user: { team_id: 'T0SOUTH', real_name: 'Admin south' } });
    expect(await call('users.info', NORTH_TOKEN, { user: ADMIN })).toMatchObject({ user: { team_id: 'T0NORTH', real_name: 'Admin north' } });
    expect(await call('auth.test', southToken)).toMatchObject({ ok: true, team: 'South Fleet', team_id: 'T0SOUTH', url: 'https://south-fleet.slack.com/' });
  });

  it("serves each workspace's private files at the grid's one host, as files.slack.com, to that workspace's bot token only", async () => {
    const north = grid.workspace('T0NORTH');
    const fileId = north.uploadFileAs({ userId: ADMIN, name: 'payouts.csv', bytes: 'kind,number\r\n' });
    const info = (await call('files.info', NORTH_TOKEN, { file: fileId })) as { file?: { url_private_download?: string } };
    const url = info.file?.url_private_download ?? '';
    expect(url.startsWith(`${grid.url}/files-pri/T0NORTH-${fileId}/`)).toBe(true);
    expect(await (await fetch(url, { headers: { authorization: `Bearer ${NORTH_TOKEN}` } })).text()).toBe('kind,number\r\n');
    expect((await fetch(url, { redirect: 'manual' })).status).toBe(302);
    expect((await fetch(url, { redirect: 'manual', headers: { authorization: 'Bearer xoxb-south-not-north' } })).status).toBe(302);
  });

  it('refuses a token no workspace issued, and a call without one', async () => {
    expect(await call('auth.test', 'xoxb-never-issued')).toEqual({ ok: false, error: 'invalid_auth' });
    expect(await call('auth.test', undefined)).toEqual({ ok: false, error: 'not_authed' });
  });

  it('sends nothing from a workspace the app is not installed in, as there its command does not exist', async () => {
    expect(grid.workspace('T0SOUTH').installed).toBe(false);
    await expect(grid.workspace('T0SOUTH').runCommand({ userId: ADMIN, channelId: CHANNEL, text: 'help' })).rejects.toBeInstanceOf(UnknownSlashCommandError);
    expect(received).toEqual([]);
  });

  it("puts each workspace's team in what it delivers, signed with the app's one secret", async () => {
    await install('T0SOUTH');
    await grid.workspace('T0NORTH').runCommand({ userId: ADMIN, channelId: CHANNEL, text: 'help' });
    await grid.workspace('T0SOUTH').runCommand({ userId: ADMIN, channelId: CHANNEL, text: 'help' });
    await grid.workspace('T0SOUTH').openHome({ userId: MEMBER });

    const [north, south, home] = received;
    expect(received.every(isSigned)).toBe(true);
    expect(Object.fromEntries(new URLSearchParams(north?.body))).toMatchObject({ team_id: 'T0NORTH', team_domain: 'north-fleet', user_id: ADMIN });
    expect(Object.fromEntries(new URLSearchParams(south?.body))).toMatchObject({ team_id: 'T0SOUTH', team_domain: 'south-fleet', user_id: ADMIN });
    expect(JSON.parse(home?.body ?? '')).toMatchObject({ team_id: 'T0SOUTH', authorizations: [{ team_id: 'T0SOUTH' }], event: { type: 'app_home_opened' } });
  });
});

describe("the grid's pages", () => {
  it("lists every workspace in each workspace's page, marking the one it shows", async () => {
    for (const slack of grid.workspaces) mountPage(slack, { workspaces: grid.pageWorkspaces() });
    const south = grid.workspace('T0SOUTH');
    const state = (await (await fetch(`${south.url}/workspace/state?as=${ADMIN}`)).json()) as { me: { realName: string }; workspaces: unknown[] };
    expect(state.me.realName).toBe('Admin south');
    expect(state.workspaces).toEqual([
      { teamId: 'T0NORTH', name: 'North Fleet', url: grid.workspace('T0NORTH').url, current: false },
      { teamId: 'T0SOUTH', name: 'South Fleet', url: south.url, current: true },
      { teamId: 'T0OPEN', name: 'Open Fleet', url: grid.workspace('T0OPEN').url, current: false },
    ]);
  });
});

describe('installing the app with OAuth v2', () => {
  it('shows the consent page with Allow, redirects with a code and the state, and exchanges the code once', async () => {
    const page = await fetch(grid.authorizeUrl({ scope: 'commands,chat:write', state: 'abc', redirectUri: REDIRECT, team: 'T0SOUTH', user: ADMIN }));
    const html = await page.text();
    expect(page.status).toBe(200);
    expect(html).toContain('requesting permission to access the South Fleet Slack workspace');
    expect(html).toMatch(/<form method="post" action="\/oauth\/v2\/authorize"[\s\S]*name="decision" value="allow"/);

    const allowed = await decide('allow', { team: 'T0SOUTH', user: ADMIN, redirectUri: REDIRECT, state: 'abc' });
    expect(allowed.status).toBe(302);
    const back = new URL(allowed.headers.get('location') ?? '');
    expect(`${back.origin}${back.pathname}`).toBe(REDIRECT);
    expect(back.searchParams.get('state')).toBe('abc');
    const code = back.searchParams.get('code') ?? '';
    expect(code).not.toBe('');
    expect(await call('auth.test', 'xoxb-guess')).toMatchObject({ ok: false });

    const first = await exchange({ client_id: CLIENT.clientId, client_secret: CLIENT.clientSecret, code, redirect_uri: REDIRECT });
    expect(first).toEqual({
      ok: true,
      app_id: 'A0FLEETAPP',
      authed_user: { id: ADMIN },
      scope: 'commands,chat:write',
      token_type: 'bot',
      access_token: expect.stringMatching(/^xoxb-/),
      bot_user_id: 'U0FLEETBOT',
      team: { id: 'T0SOUTH', name: 'South Fleet' },
      enterprise: null,
      is_enterprise_install: false,
    });
    expect(await exchange({ client_id: CLIENT.clientId, client_secret: CLIENT.clientSecret, code, redirect_uri: REDIRECT })).toEqual({
      ok: false,
      error: 'invalid_code',
    });
    expect(await call('auth.test', String(first.access_token))).toMatchObject({ ok: true, team_id: 'T0SOUTH', user_id: 'U0FLEETBOT' });
    expect(await call('users.info', String(first.access_token), { user: 'U0FLEETBOT' })).toMatchObject({
      ok: true,
      user: { is_bot: true, team_id: 'T0SOUTH' },
    });
  });

  it('redirects Cancel with access_denied and the state, and grants nothing', async () => {
    const denied = await decide('deny', { team: 'T0SOUTH', user: ADMIN, redirectUri: REDIRECT, state: 'xyz' });
    expect(denied.status).toBe(302);
    const back = new URL(denied.headers.get('location') ?? '');
    expect(Object.fromEntries(back.searchParams)).toEqual({ error: 'access_denied', state: 'xyz' });
    expect(grid.workspace('T0SOUTH').installed).toBe(false);
  });

  it('refuses a wrong client secret or client id, by Basic auth or form fields', async () => {
    const code = await codeFor('T0SOUTH');
    expect(await exchange({ code, redirect_uri: REDIRECT }, `${CLIENT.clientId}:wrong`)).toEqual({ ok: false, error: 'bad_client_secret' });
    expect(await exchange({ client_id: CLIENT.clientId, client_secret: 'wrong', code, redirect_uri: REDIRECT })).toEqual({
      ok: false,
      error: 'bad_client_secret',
    });
    expect(await exchange({ client_id: '9999.9999', client_secret: CLIENT.clientSecret, code, redirect_uri: REDIRECT })).toEqual({
      ok: false,
      error: 'invalid_client_id',
    });
    expect(grid.workspace('T0SOUTH').installed).toBe(false);
  });

  it('refuses a code past its 10 minutes', async () => {
    const code = await codeFor('T0SOUTH');
    clock += 10 * 60 * 1000 + 1;
    expect(await exchange({ code, redirect_uri: REDIRECT }, `${CLIENT.clientId}:${CLIENT.clientSecret}`)).toEqual({ ok: false, error: 'invalid_code' });
  });

  it('shows an error page and redirects nowhere for a redirect URL the app did not register; the exchange wants the same URL', async () => {
    const page = await fetch(grid.authorizeUrl({ scope: 'commands', redirectUri: 'http://127.0.0.1:3999/elsewhere', team: 'T0SOUTH' }), { redirect: 'manual' });
    expect(page.status).toBe(400);
    expect(page.headers.get('location')).toBeNull();
    expect(await page.text()).toContain('bad_redirect_uri');
    const posted = await decide('allow', { team: 'T0SOUTH', user: ADMIN, redirectUri: `${REDIRECT}/x` });
    expect([posted.status, posted.headers.get('location')]).toEqual([400, null]);

    const code = await codeFor('T0SOUTH');
    expect(await exchange({ code, redirect_uri: 'http://127.0.0.1:3999/other' }, `${CLIENT.clientId}:${CLIENT.clientSecret}`)).toEqual({
      ok: false,
      error: 'bad_redirect_uri',
    });
    expect(await exchange({ code }, `${CLIENT.clientId}:${CLIENT.clientSecret}`)).toEqual({ ok: false, error: 'bad_redirect_uri' });
  });

  it('tells a member an admin must approve, and grants nothing even to an Allow posted by hand', async () => {
    const page = await (await fetch(grid.authorizeUrl({ scope: 'commands', redirectUri: REDIRECT, team: 'T0SOUTH', user: MEMBER }))).text();
    expect(page).toContain('an admin must approve Fleet Treasury');
    expect(page).not.toContain('value="allow"');
    const posted = await decide('allow', { team: 'T0SOUTH', user: MEMBER, redirectUri: REDIRECT });
    expect([posted.status, posted.headers.get('location')]).toEqual([403, null]);
    expect(grid.workspace('T0SOUTH').installed).toBe(false);
  });

  it('lets a member install where the workspace allows members to', async () => {
    const answer = await exchange({ code: await codeFor('T0OPEN', MEMBER), redirect_uri: REDIRECT }, `${CLIENT.clientId}:${CLIENT.clientSecret}`);
    expect(answer).toMatchObject({ ok: true, team: { id: 'T0OPEN' }, authed_user: { id: MEMBER } });
  });
});

describe('removing the app from a workspace', () => {
  it('revokes its token, takes the bot out of its channels and sends tokens_revoked and app_uninstalled, signed, while other workspaces keep theirs', async () => {
    const token = await install('T0SOUTH');
    grid.workspace('T0SOUTH').invite(CHANNEL);
    const acks = await grid.uninstall('T0SOUTH');

    expect(acks).toMatchObject({ tokensRevoked: { status: 200 }, appUninstalled: { status: 200 } });
    expect(await call('auth.test', token)).toEqual({ ok: false, error: 'token_revoked' });
    expect(await call('auth.test', NORTH_TOKEN)).toMatchObject({ ok: true, team_id: 'T0NORTH' });
    expect(received.every(isSigned)).toBe(true);
    expect(received.map((request) => JSON.parse(request.body) as unknown)).toMatchObject([
      { type: 'event_callback', team_id: 'T0SOUTH', api_app_id: 'A0FLEETAPP', event: { type: 'tokens_revoked', tokens: { oauth: [], bot: ['U0FLEETBOT'] } } },
      { type: 'event_callback', team_id: 'T0SOUTH', api_app_id: 'A0FLEETAPP', event: { type: 'app_uninstalled' } },
    ]);

    const again = await install('T0SOUTH');
    expect(again).not.toBe(token);
    expect(await call('auth.test', again)).toMatchObject({ ok: true, team_id: 'T0SOUTH' });
    expect(await call('chat.postMessage', again, { channel: CHANNEL, text: 'back' })).toEqual({ ok: false, error: 'not_in_channel' });
  });
});

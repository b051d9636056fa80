import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ReceiverEvent } from '@slack/bolt';
import type { Installation, InstallationQuery, InstallationStore } from '@slack/oauth';
import { signRequest } from '@fleet-treasury-bot/local-slack';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { HostingConfig } from '../../src/config/hosted-mode.js';
import { createLogger } from '../../src/core/logger.js';
import { startFrontDoor, type FrontDoor } from '../../src/hosting/front-door.js';
import { parseKeyRing } from '../../src/hosting/key-ring.js';
import { BOT_SCOPES } from '../../src/slack/scopes.js';

const SIGNING_SECRET = 'a1b2c3d4e5f6a7b8c9d0';
const TEAM = 'T0TEAM1';
const hosting: HostingConfig = {
  clientId: '1234567890.9876543210',
  clientSecret: '0123456789abcdef0123456789abcdef',
  stateSecret: 'state-secret-of-at-least-32-characters!!',
  keyRing: parseKeyRing(`k1:${Buffer.alloc(32, 1).toString('base64')}`),
  retentionDays: 30,
  publicUrl: 'https://fleet.example.com',
};

/** The installations InstallProvider stores, by team: the database's store is tested on its own. */
class MemoryInstallationStore implements InstallationStore {
  readonly installations = new Map<string, Installation>();
  storeInstallation(installation: Installation): Promise<void> {
    this.installations.set(installation.team?.id ?? '', installation);
    return Promise.resolve();
  }
  fetchInstallation(query: InstallationQuery<boolean>): Promise<Installation> {
    const found = this.installations.get(query.teamId ?? '');
    return found ? Promise.resolve(found) : Promise.reject(new Error('no installation'));
  }
  deleteInstallation(query: InstallationQuery<boolean>): Promise<void> {
    this.installations.delete(query.teamId ?? '');
    return Promise.resolve();
  }
}

/** Slack's oauth.v2.access and auth.test, as a loopback server; each call's form and Authorization header are kept. */
interface SlackCall {
  method: string;
  form: URLSearchParams;
  authorization: string | undefined;
}
function startSlackApi(calls: SlackCall[]): Promise<Server> {
  const server = createServer((request, response) => {
    let text = '';
    request.on('data', (chunk: Buffer) => (text += chunk.toString()));
    request.on('end', () => {
      const method = (request.url ?? '').replace(/^\/api\//, '');
      const form = new URLSearchParams(text);
      calls.push({ method, form, authorization: request.headers.authorization });
      const answer =
        method === 'oauth.v2.access'
          ? form.get('code') === 'good-code' && form.get('client_id') === hosting.clientId && form.get('client_secret') === hosting.clientSecret
            ? {
                ok: true,
                app_id: 'A0APP',
                authed_user: { id: 'U0INSTALLER' },
                scope: BOT_SCOPES.join(','),
                token_type: 'bot',
                access_token: 'xoxb-1-2-installed',
                bot_user_id: 'U0BOT',
                team: { id: TEAM, name: 'Acme <Transport>' },
                enterprise: null,
                is_enterprise_install: false,
              }
            : { ok: false, error: 'invalid_code' }
          : method === 'auth.test'
            ? { ok: true, url: 'https://acme.slack.com/', team_id: TEAM, user_id: 'U0BOT', bot_id: 'B0BOT' }
            : { ok: false, error: 'unknown_method' };
      response.writeHead(200, { 'Content-Type': 'application/json' });
      response.end(JSON.stringify(answer));
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

const now = () => Math.floor(Date.now() / 1000);

describe('the front door of hosted mode', () => {
  let door: FrontDoor;
  let slackApi: Server;
  const slackCalls: SlackCall[] = [];
  const store = new MemoryInstallationStore();
  const dispatched: Array<{ teamId: string; event: ReceiverEvent }> = [];
  // What dispatch does with a request: ack it with a body, return false (unknown workspace), or throw.
  let dispatchAnswer: 'ack' | 'unknown' | 'throw' | 'never' = 'ack';
  const logLines: string[] = [];
  const onInstalled = vi.fn((_installation: Installation) => Promise.resolve());
  const onUninstalled = vi.fn((_teamId: string) => Promise.resolve());

  beforeAll(async () => {
    slackApi = await startSlackApi(slackCalls);
    door = await startFrontDoor({
      hosting,
      signingSecret: SIGNING_SECRET,
      installationStore: store,
      port: 0,
      host: '127.0.0.1',
      // Every line, at every level, with nothing to scrub: what the front door writes itself must hold no secret.
      logger: createLogger({ level: 'trace', destination: { write: (line: string) => void logLines.push(line) } }),
      slackApiUrl: `http://127.0.0.1:${(slackApi.address() as AddressInfo).port}/api/`,
      dispatch: async (teamId, event) => {
        dispatched.push({ teamId, event });
        if (dispatchAnswer === 'throw') throw new Error('listener failed');
        if (dispatchAnswer === 'unknown') return false;
        if (dispatchAnswer === 'never') return true;
        await event.ack({ text: `answered for ${teamId}` });
        return true;
      },
      onInstalled,
      onUninstalled,
    });
  });

  afterAll(async () => {
    await door.close();
    await new Promise((resolve) => slackApi.close(resolve));
  });

  beforeEach(() => {
    dispatched.length = 0;
    slackCalls.length = 0;
    store.installations.clear();
    dispatchAnswer = 'ack';
    onInstalled.mockClear();
    onUninstalled.mockClear();
  });

  /** A request as Slack sends it: signed with the app's secret unless told otherwise. */
  const post = (
    body: string,
    { contentType = 'application/json', timestamp = now(), signature }: { contentType?: string; timestamp?: number; signature?: string } = {},
  ) =>
    fetch(`${door.url}/slack/events`, {
      method: 'POST',
      headers: {
        'Content-Type': contentType,
        'X-Slack-Request-Timestamp': String(timestamp),
        'X-Slack-Signature': signature ?? signRequest(SIGNING_SECRET, timestamp, body),
        'X-Slack-Retry-Num': '1',
        'X-Slack-Retry-Reason': 'http_timeout',
      },
      body,
    });
  const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
  const interaction = (payload: object) => form({ payload: JSON.stringify(payload) });

  describe('POST /slack/events', () => {
    const command = form({
      command: '/fleet',
      text: 'balance',
      team_id: TEAM,
      user_id: 'U1',
      channel_id: 'C1',
      trigger_id: 't',
      response_url: 'https://hooks',
    });

    it('refuses unsigned, wrongly signed and stale requests with 401 and dispatches none of them', async () => {
      const unsigned = await fetch(`${door.url}/slack/events`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: command,
      });
      const forged = await post(command, { contentType: 'application/x-www-form-urlencoded', signature: signRequest('another-secret-0000', now(), command) });
      const stale = await post(command, { contentType: 'application/x-www-form-urlencoded', timestamp: now() - 10 * 60 });
      expect([unsigned.status, forged.status, stale.status]).toEqual([401, 401, 401]);
      expect(dispatched).toEqual([]);
    });

    it("answers Slack's url_verification challenge and ssl_check", async () => {
      const answer = await post(JSON.stringify({ type: 'url_verification', token: 't', challenge: 'challenge-123' }));
      expect(answer.status).toBe(200);
      expect(await answer.json()).toEqual({ challenge: 'challenge-123' });
      const check = await fetch(`${door.url}/slack/events`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: 'ssl_check=1&token=x',
      });
      expect(check.status).toBe(200);
      expect(dispatched).toEqual([]);
    });

    it('dispatches a slash command, a button click, a form submission and an event once each to their workspace, and answers with the ack', async () => {
      const requests = [
        { body: command, contentType: 'application/x-www-form-urlencoded' },
        {
          body: interaction({
            type: 'block_actions',
            team: { id: TEAM, domain: 'acme' },
            user: { id: 'U1', team_id: TEAM },
            actions: [{ action_id: 'approve' }],
          }),
          contentType: 'application/x-www-form-urlencoded',
        },
        {
          body: interaction({
            type: 'view_submission',
            team: null,
            user: { id: 'U1', team_id: 'T0OTHER' },
            view: { id: 'V1', team_id: TEAM, app_installed_team_id: TEAM },
          }),
          contentType: 'application/x-www-form-urlencoded',
        },
        {
          body: JSON.stringify({
            type: 'event_callback',
            team_id: 'T0SHARED',
            authorizations: [{ team_id: TEAM, user_id: 'U0BOT', is_bot: true }],
            event: { type: 'app_home_opened', user: 'U1' },
          }),
          contentType: 'application/json',
        },
      ];
      for (const { body, contentType } of requests) {
        const answer = await post(body, { contentType });
        expect(answer.status).toBe(200);
        expect(await answer.json()).toEqual({ text: `answered for ${TEAM}` });
      }
      expect(dispatched.map(({ teamId }) => teamId)).toEqual([TEAM, TEAM, TEAM, TEAM]);
      expect(dispatched.map(({ event }) => String(event.body.command ?? event.body.type))).toEqual([
        '/fleet',
        'block_actions',
        'view_submission',
        'event_callback',
      ]);
      expect(dispatched[0]?.event).toMatchObject({ retryNum: 1, retryReason: 'http_timeout', customProperties: {} });
      expect(dispatched[1]?.event.body.actions).toEqual([{ action_id: 'approve' }]);
    });

    it('acks with an empty 200 a request for a workspace not installed here, or naming none', async () => {
      dispatchAnswer = 'unknown';
      const unknown = await post(command, { contentType: 'application/x-www-form-urlencoded' });
      expect([unknown.status, await unknown.text()]).toEqual([200, '']);
      expect(dispatched).toHaveLength(1);
      const nameless = await post(JSON.stringify({ type: 'event_callback', event: { type: 'app_home_opened' } }));
      expect([nameless.status, await nameless.text()]).toEqual([200, '']);
      expect(dispatched).toHaveLength(1);
    });

    it("answers 500 when the workspace's app fails before its ack, as Bolt's receiver does", async () => {
      dispatchAnswer = 'throw';
      const answer = await post(command, { contentType: 'application/x-www-form-urlencoded' });
      expect(answer.status).toBe(500);
    });

    it('forgets a workspace that uninstalls the app, without dispatching the event', async () => {
      const answer = await post(JSON.stringify({ type: 'event_callback', team_id: TEAM, event: { type: 'app_uninstalled' } }));
      expect(answer.status).toBe(200);
      await vi.waitFor(() => expect(onUninstalled).toHaveBeenCalledTimes(1));
      expect(onUninstalled).toHaveBeenCalledWith(TEAM);
      expect(dispatched).toEqual([]);
    });

    it('forgets a workspace whose bot token is revoked, and ignores the revocation of user tokens only', async () => {
      const users = await post(JSON.stringify({ type: 'event_callback', team_id: TEAM, event: { type: 'tokens_revoked', tokens: { oauth: ['U1'] } } }));
      expect(users.status).toBe(200);
      const bot = await post(
        JSON.stringify({ type: 'event_callback', team_id: TEAM, event: { type: 'tokens_revoked', tokens: { oauth: ['U1'], bot: ['U0BOT'] } } }),
      );
      expect(bot.status).toBe(200);
      await vi.waitFor(() => expect(onUninstalled).toHaveBeenCalledTimes(1));
      expect(onUninstalled).toHaveBeenCalledWith(TEAM);
      expect(dispatched).toEqual([]);
    });

    it("answers 404 when the workspace's app never acks within 3 seconds, as Bolt's receiver does", async () => {
      dispatchAnswer = 'never';
      const started = Date.now();
      const answer = await post(command, { contentType: 'application/x-www-form-urlencoded' });
      expect(answer.status).toBe(404);
      expect(Date.now() - started).toBeGreaterThanOrEqual(2900);
      expect(dispatched).toHaveLength(1);
    });

    it('refuses a body over the size limit with 413, whether its length is declared or not', async () => {
      const big = JSON.stringify({ type: 'event_callback', team_id: TEAM, padding: 'x'.repeat(200 * 1024) });
      const declared = await post(big);
      expect(declared.status).toBe(413);
      // Sent in chunks, without a Content-Length: cut as it grows past the limit.
      const timestamp = now();
      const chunked = await new Promise<number>((resolve, reject) => {
        const request = httpRequest(`${door.url}/slack/events`, {
          method: 'POST',
          headers: {
            'Content-Type': 'application/json',
            'X-Slack-Request-Timestamp': String(timestamp),
            'X-Slack-Signature': signRequest(SIGNING_SECRET, timestamp, big),
          },
        });
        request.on('response', (response) => {
          response.resume();
          resolve(response.statusCode ?? 0);
        });
        request.on('error', reject);
        for (let at = 0; at < big.length; at += 16 * 1024) request.write(big.slice(at, at + 16 * 1024));
        request.end();
      });
      expect(chunked).toBe(413);
      expect(dispatched).toEqual([]);
    });
  });

  describe('the install', () => {
    /** GET /slack/install: the page, its Add to Slack link and the state cookie. */
    async function startInstall() {
      const page = await fetch(`${door.url}/slack/install`);
      const html = await page.text();
      const href = /<a href="([^"]+)"/.exec(html)?.[1]?.replace(/&#38;/g, '&') ?? '';
      const cookie = (page.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
      return { page, html, link: new URL(href), cookie };
    }
    const callback = (query: string, cookie?: string) => fetch(`${door.url}/slack/oauth_redirect?${query}`, { headers: cookie ? { Cookie: cookie } : {} });

    it("shows an Add to Slack page whose link goes to Slack's authorize page with the client id, the scopes and a state", async () => {
      const { page, html, link, cookie } = await startInstall();
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toContain('text/html');
      expect(html).toContain('Add to Slack');
      // Slack's authorize page sits beside the Web API it was given (https://slack.com/api/ → https://slack.com/oauth/v2/authorize).
      expect(`${link.origin}${link.pathname}`).toBe(`http://127.0.0.1:${(slackApi.address() as AddressInfo).port}/oauth/v2/authorize`);
      expect(link.searchParams.get('client_id')).toBe(hosting.clientId);
      expect(link.searchParams.get('scope')?.split(',')).toEqual([...BOT_SCOPES]);
      expect(link.searchParams.get('redirect_uri')).toBe('https://fleet.example.com/slack/oauth_redirect');
      const state = link.searchParams.get('state') ?? '';
      expect(state.length).toBeGreaterThan(20);
      expect(cookie).toBe(`slack-app-oauth-state=${state}`);
    });

    it('stores the installation Slack returns for the code, tells the installer to run /fleet connect, and calls onInstalled', async () => {
      const { link, cookie } = await startInstall();
      const answer = await callback(`code=good-code&state=${encodeURIComponent(link.searchParams.get('state') ?? '')}`, cookie);
      const html = await answer.text();
      expect(answer.status).toBe(200);
      expect(html).toContain('/fleet connect');
      expect(html).toContain('Acme &#60;Transport&#62;');
      expect(html).not.toContain('xoxb-');
      const exchange = slackCalls.find(({ method }) => method === 'oauth.v2.access');
      expect(exchange?.form.get('client_id')).toBe(hosting.clientId);
      expect(exchange?.form.get('client_secret')).toBe(hosting.clientSecret);
      expect(exchange?.form.get('redirect_uri')).toBe('https://fleet.example.com/slack/oauth_redirect');
      const stored = store.installations.get(TEAM);
      expect(stored?.bot).toMatchObject({ token: 'xoxb-1-2-installed', userId: 'U0BOT', id: 'B0BOT', scopes: [...BOT_SCOPES] });
      expect(onInstalled).toHaveBeenCalledTimes(1);
      expect(onInstalled.mock.calls[0]?.[0]).toBe(stored);
      const log = logLines.join('');
      expect(log).toContain('app installed in a workspace');
      for (const secret of [hosting.clientSecret, hosting.stateSecret, 'good-code']) expect(log).not.toContain(secret);
    });

    it('shows a failure page and stores nothing for a wrong or missing state', async () => {
      const { link, cookie } = await startInstall();
      const state = link.searchParams.get('state') ?? '';
      for (const answer of [
        await callback(`code=good-code&state=${encodeURIComponent(state)}`),
        await callback(`code=good-code&state=forged-state`, 'slack-app-oauth-state=forged-state'),
        await callback('code=good-code', cookie),
      ]) {
        expect(answer.status).toBe(400);
        expect(await answer.text()).toContain('This install link has expired or was opened in another browser.');
      }
      expect(slackCalls).toEqual([]);
      expect(store.installations.size).toBe(0);
      expect(onInstalled).not.toHaveBeenCalled();
    });

    it('shows a failure page without internals when Slack refuses the code, and stores nothing', async () => {
      const { link, cookie } = await startInstall();
      const answer = await callback(`code=bad-code&state=${encodeURIComponent(link.searchParams.get('state') ?? '')}`, cookie);
      const html = await answer.text();
      expect(answer.status).toBe(502);
      expect(html).toContain('Slack did not confirm the install.');
      expect(html).not.toContain('invalid_code');
      expect(store.installations.size).toBe(0);
      expect(onInstalled).not.toHaveBeenCalled();
    });
  });

  it('answers /healthz and nothing else', async () => {
    expect((await fetch(`${door.url}/healthz`)).status).toBe(200);
    expect((await fetch(`${door.url}/slack/unknown`)).status).toBe(404);
  });
});

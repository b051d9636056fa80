/**
 * The grid's pages in Debian's Chromium: the consent page's pickers and Allow (a form post that
 * redirects to the app's own address), and the workspace picker of the workspace page.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startLocalSlack, startLocalSlackGrid, type LocalSlack, type LocalSlackGrid } from '../../src/workspace/index.js';
import { mountPage } from '../../src/workspace/page-server.js';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../demo/browser/session.js';

const CLIENT = { clientId: '5555.6666', clientSecret: 'browser-client-secret' };

let grid: LocalSlackGrid;
let single: LocalSlack;
let app: Server;
let browser: Browser;
let page: Page;
let redirectUri = '';

beforeAll(async () => {
  // The app's redirect URL: exchanges the code as an app does and says where it was installed.
  app = createServer((request, response) => {
    const code = new URL(request.url ?? '/', 'http://localhost').searchParams.get('code') ?? '';
    void fetch(`${grid.apiUrl}oauth.v2.access`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ ...{ client_id: CLIENT.clientId, client_secret: CLIENT.clientSecret }, code, redirect_uri: redirectUri }).toString(),
    })
      .then((answer) => answer.json() as Promise<{ ok: boolean; team?: { name: string } }>)
      .then((answer) => response.writeHead(200, { 'content-type': 'text/plain' }).end(answer.ok ? `Installed in ${answer.team?.name}` : 'Failed'));
  });
  await new Promise<void>((resolve) => app.listen(0, '127.0.0.1', resolve));
  redirectUri = `http://127.0.0.1:${(app.address() as AddressInfo).port}/slack/oauth_redirect`;
  grid = await startLocalSlackGrid({
    signingSecret: 'gridbrowsersigningsecret0123456',
    oauth: { ...CLIENT, redirectUrls: [redirectUri] },
    rateLimits: false,
    latency: false,
    workspaces: ['North', 'South'].map((name) => ({
      teamId: `T0${name.toUpperCase()}`,
      teamDomain: name.toLowerCase(),
      teamName: `${name} Fleet`,
      users: [
        { id: 'U0ADMIN', name: 'admin', realName: `Admin of ${name}`, isAdmin: true },
        { id: 'U0MEMBER', name: 'member', realName: `Member of ${name}` },
      ],
    })),
  });
  for (const slack of grid.workspaces) mountPage(slack, { workspaces: grid.pageWorkspaces() });
  single = await startLocalSlack({ signingSecret: 'singlebrowsersigningsecret01234', botToken: 'xoxb-single', rateLimits: false, latency: false });
  mountPage(single);
  browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  page = await browser.newPage();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await grid.close();
  await single.close();
  await new Promise<void>((resolve) => app.close(() => resolve()));
});

it('installs the app into the workspace the person picks on the consent page', async () => {
  await page.goto(grid.authorizeUrl({ scope: 'commands,chat:write', state: 'browser-state', redirectUri, user: 'U0MEMBER' }));
  await expect.poll(() => page.locator('h1').textContent()).toContain('North Fleet');
  expect(await page.locator('.approval').textContent()).toContain('an admin must approve');
  expect(await page.locator('#allow').count()).toBe(0);

  await page.selectOption('#team', 'T0SOUTH');
  await page.click('#switch');
  await page.selectOption('#user', 'U0ADMIN');
  await page.click('#switch');
  expect(await page.locator('h1').textContent()).toContain('South Fleet');
  await page.click('#allow');
  await page.waitForURL((url) => url.toString().startsWith(redirectUri));
  expect(new URL(page.url()).searchParams.get('state')).toBe('browser-state');
  expect(await page.locator('body').textContent()).toBe('Installed in South Fleet');
  expect(grid.workspaces.map((slack) => slack.installed)).toEqual([false, true]);
}, 30_000);

it("opens another workspace's page from the sidebar's picker, which a single workspace's page does not show", async () => {
  await page.goto(`${grid.workspace('T0NORTH').url}/`);
  await page.waitForSelector('body[data-ready="true"]');
  expect(await page.locator('#workspace option').allTextContents()).toEqual(['North Fleet', 'South Fleet']);
  await page.selectOption('#workspace', { label: 'South Fleet' });
  await page.waitForURL((url) => url.toString().startsWith(grid.workspace('T0SOUTH').url));
  await page.waitForSelector('body[data-ready="true"]');
  expect(await page.locator('#person option:checked').textContent()).toBe('Admin of South');

  await page.goto(`${single.url}/`);
  await page.waitForSelector('body[data-ready="true"]');
  expect(await page.locator('#workspace').isHidden()).toBe(true);
}, 30_000);

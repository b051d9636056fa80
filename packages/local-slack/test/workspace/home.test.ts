/**
 * The App Home tab in the local workspace, with a Bolt app in both delivery modes: the request URL's
 * url_verification challenge, `app_home_opened` delivered signed as JSON (HTTP) or as an `events_api`
 * envelope (Socket Mode), `views.publish` with Slack's hash check, a button of the home delivered as
 * `block_actions` from a view, and the 100-block limit of a home view.
 */
import { App, LogLevel, type BlockAction } from '@slack/bolt';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalSlack, type LocalSlack } from '../../src/workspace/index.js';

const SIGNING_SECRET = 'localslackhometestsigningsecret0';
const BOT_TOKEN = 'xoxb-local-slack-home-test';
const APP_TOKEN = 'xapp-1-A0FLEETAPP-local-slack-home-test';
const RITA = 'U0REQUESTER';
const ABEL = 'U0APPROVER';

const homeView = (text: string, blocks = 1) => ({
  type: 'home' as const,
  blocks: [
    { type: 'section' as const, text: { type: 'mrkdwn' as const, text } },
    {
      type: 'actions' as const,
      block_id: 'home_actions',
      elements: [{ type: 'button' as const, action_id: 'home_refresh', value: 'r', text: { type: 'plain_text' as const, text: 'Refresh' } }],
    },
    ...Array.from({ length: blocks - 1 }, () => ({ type: 'divider' as const })),
  ],
});

/** A Bolt app that publishes a home on app_home_opened and records what it received. */
function homeApp(app: App, seen: { events: Array<Record<string, unknown>>; clicks: BlockAction[] }): void {
  app.event('app_home_opened', async ({ event, client }) => {
    seen.events.push(event as unknown as Record<string, unknown>);
    const opened = seen.events.filter((e) => e.user === event.user).length;
    await client.views.publish({ user_id: event.user, view: homeView(`Opened ${opened} times`, event.user === ABEL ? 100 : 1) });
  });
  app.action('home_refresh', async ({ ack, body }) => {
    await ack();
    seen.clicks.push(body as BlockAction);
  });
}

describe('the Home tab over HTTP', () => {
  let slack: LocalSlack;
  let app: App;
  const seen = { events: [] as Array<Record<string, unknown>>, clicks: [] as BlockAction[] };

  beforeAll(async () => {
    slack = await startLocalSlack({ signingSecret: SIGNING_SECRET, botToken: BOT_TOKEN });
    app = new App({ signingSecret: SIGNING_SECRET, token: BOT_TOKEN, clientOptions: { slackApiUrl: slack.apiUrl }, logLevel: LogLevel.ERROR });
    homeApp(app, seen);
    const server = (await app.start(0)) as Server;
    slack.setAppUrl(`http://127.0.0.1:${(server.address() as AddressInfo).port}/slack/events`);
  });
  afterAll(async () => {
    await app?.stop();
    await slack?.close();
  });

  it('checks the request URL with a signed url_verification challenge, which Bolt answers', async () => {
    await expect(slack.verifyRequestUrl()).resolves.toBeUndefined();
    slack.setAppUrl(`${slack.url}/nowhere`);
    await expect(slack.verifyRequestUrl()).rejects.toThrow(/url_verification/);
  });
});

describe('the Home tab', () => {
  for (const mode of ['HTTP', 'Socket Mode'] as const) {
    describe(`over ${mode}`, () => {
      let slack: LocalSlack;
      let app: App;
      const seen = { events: [] as Array<Record<string, unknown>>, clicks: [] as BlockAction[] };

      beforeAll(async () => {
        slack = await startLocalSlack({ signingSecret: SIGNING_SECRET, botToken: BOT_TOKEN, ...(mode === 'Socket Mode' ? { appToken: APP_TOKEN } : {}) });
        app =
          mode === 'Socket Mode'
            ? new App({ token: BOT_TOKEN, appToken: APP_TOKEN, socketMode: true, clientOptions: { slackApiUrl: slack.apiUrl }, logLevel: LogLevel.ERROR })
            : new App({ signingSecret: SIGNING_SECRET, token: BOT_TOKEN, clientOptions: { slackApiUrl: slack.apiUrl }, logLevel: LogLevel.ERROR });
        homeApp(app, seen);
        if (mode === 'Socket Mode') {
          await app.start();
          await slack.waitFor(() => slack.socketAppConnected);
        } else {
          const server = (await app.start(0)) as Server;
          slack.setAppUrl(`http://127.0.0.1:${(server.address() as AddressInfo).port}/slack/events`);
        }
      });
      afterAll(async () => {
        await app?.stop();
        await slack?.close();
      });

      it('delivers app_home_opened, stores the published home, and sends the home it shows on the next opening', async () => {
        expect((await slack.openHome({ userId: RITA })).status).toBe(200);
        const first = await slack.waitFor(() => slack.home(RITA));
        expect(JSON.stringify(first.view.blocks)).toContain('Opened 1 times');
        expect(seen.events[0]).toMatchObject({ type: 'app_home_opened', user: RITA, channel: 'D0REQUESTER', tab: 'home' });
        expect(seen.events[0]).not.toHaveProperty('view');

        await slack.openHome({ userId: RITA });
        await slack.waitFor(() => JSON.stringify(slack.home(RITA)?.view.blocks).includes('Opened 2 times'));
        expect(seen.events[1]).toMatchObject({ view: { id: first.id, type: 'home', hash: first.hash } });
        expect(slack.home(RITA)?.id).toBe(first.id);
        expect(slack.home(RITA)?.hash).not.toBe(first.hash);
      });

      it("refuses a publish over a hash that is no longer the home's, as Slack does (hash_conflict)", async () => {
        const current = slack.home(RITA)!;
        await app.client.views.publish({ user_id: RITA, hash: current.hash, view: homeView('Newer') });
        const stale = await app.client.views.publish({ user_id: RITA, hash: current.hash, view: homeView('Older') }).then(
          () => 'ok',
          (error: { data?: { error?: string } }) => error.data?.error,
        );
        expect(stale).toBe('hash_conflict');
        expect(JSON.stringify(slack.home(RITA)?.view.blocks)).toContain('Newer');
      });

      it('delivers a click in the home as block_actions from a view, with the home in the payload', async () => {
        const home = slack.home(RITA)!;
        expect((await slack.clickButton({ userId: RITA, viewId: home.id, actionId: 'home_refresh' })).status).toBe(200);
        const click = await slack.waitFor(() => seen.clicks.at(-1));
        expect(click.container).toMatchObject({ type: 'view', view_id: home.id });
        expect(click.view).toMatchObject({ id: home.id, type: 'home', hash: home.hash });
        expect(click.trigger_id).toBeTruthy();
      });

      it('reports a home of more than 100 blocks as a limit violation', async () => {
        await slack.openHome({ userId: ABEL });
        await slack.waitFor(() => slack.home(ABEL));
        expect(slack.limitViolations).toContainEqual(expect.stringContaining('home blocks has 101 blocks (limit 100)'));
      });
    });
  }
});

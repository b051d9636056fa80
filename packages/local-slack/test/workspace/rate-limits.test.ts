import { LogLevel, WebClient } from '@slack/web-api';
import { afterEach, describe, expect, it } from 'vitest';
import { startLocalSlack, type LocalSlack, type LocalSlackOptions } from '../../src/workspace/index.js';

const BOT_TOKEN = 'xoxb-rate-limit-test';
const TREASURY = 'C0TREASURY';
const FEED = 'C0FEED';

describe("Slack's rate limits in the local workspace", () => {
  let slack: LocalSlack | undefined;
  let clock = 1_800_000_000_000;
  afterEach(async () => slack?.close());

  const start = async (options: Partial<LocalSlackOptions> = {}) => {
    clock = 1_800_000_000_000;
    slack = await startLocalSlack({ signingSecret: 'ratelimittestsigningsecret', botToken: BOT_TOKEN, now: () => clock, ...options });
    slack.invite(TREASURY);
    slack.invite(FEED);
    return slack;
  };
  const call = async (method: string, args: Record<string, string>) => {
    const response = await fetch(`${slack!.apiUrl}${method}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Authorization: `Bearer ${BOT_TOKEN}` },
      body: new URLSearchParams(args).toString(),
    });
    return { status: response.status, retryAfter: response.headers.get('retry-after'), body: (await response.json()) as { ok: boolean; error?: string } };
  };

  it('answers chat.postMessage past a burst in one channel with 429 and Retry-After, while another channel still posts', async () => {
    await start();
    for (let i = 0; i < 20; i++) expect((await call('chat.postMessage', { channel: TREASURY, text: `m${i}` })).status).toBe(200);
    const refused = await call('chat.postMessage', { channel: TREASURY, text: 'one too many' });
    expect(refused).toEqual({ status: 429, retryAfter: '1', body: { ok: false, error: 'ratelimited' } });
    expect((await call('chat.postMessage', { channel: FEED, text: 'elsewhere' })).status).toBe(200);
    clock += 1000;
    expect((await call('chat.postMessage', { channel: TREASURY, text: 'a second later' })).status).toBe(200);
    expect(slack!.messages(TREASURY)).toHaveLength(21);
    expect(slack!.apiCalls.filter((c) => c.error === 'http_429').map((c) => c.method)).toEqual(['chat.postMessage']);
  });

  it('limits usergroups.users.list as Tier 2: 20 a minute, then one every 3 seconds', async () => {
    await start({ usergroups: { S0APPROVERS: ['U0APPROVER'] } });
    for (let i = 0; i < 20; i++) expect((await call('usergroups.users.list', { usergroup: 'S0APPROVERS' })).status).toBe(200);
    expect(await call('usergroups.users.list', { usergroup: 'S0APPROVERS' })).toMatchObject({ status: 429, retryAfter: '3' });
    clock += 3000;
    expect((await call('usergroups.users.list', { usergroup: 'S0APPROVERS' })).status).toBe(200);
    // Tier 4 methods are counted apart.
    expect((await call('users.info', { user: 'U0APPROVER' })).status).toBe(200);
  });

  it('lets a WebClient deliver every message of a burst, waiting out each Retry-After', async () => {
    await start({ now: Date.now, rateLimits: { postMessageBurst: 2, postMessagePerSecond: 4 } });
    const client = new WebClient(BOT_TOKEN, { slackApiUrl: slack!.apiUrl, logLevel: LogLevel.ERROR });
    await Promise.all([1, 2, 3, 4].map((i) => client.chat.postMessage({ channel: TREASURY, text: `burst ${i}` })));
    expect(
      slack!
        .messages(TREASURY)
        .map((m) => m.text)
        .sort(),
    ).toEqual(['burst 1', 'burst 2', 'burst 3', 'burst 4']);
    expect(slack!.apiCalls.some((c) => c.error === 'http_429')).toBe(true);
  }, 20_000);

  it('keeps no limit when told so (rateLimits: false)', async () => {
    await start({ rateLimits: false });
    for (let i = 0; i < 30; i++) expect((await call('chat.postMessage', { channel: TREASURY, text: `m${i}` })).status).toBe(200);
  });

  it('still answers an injected 429 first, with its own Retry-After', async () => {
    await start();
    slack!.failNext('users.info', { retryAfterSeconds: 7 });
    expect(await call('users.info', { user: 'U0APPROVER' })).toMatchObject({ status: 429, retryAfter: '7' });
    expect((await call('users.info', { user: 'U0APPROVER' })).status).toBe(200);
  });
});

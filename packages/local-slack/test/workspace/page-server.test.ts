import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalSlack, type LocalSlack } from '../../src/workspace/index.js';
import { mountPage } from '../../src/workspace/page-server.js';

const BOT_TOKEN = 'xoxb-page-test-token';
const RITA = 'U0REQUESTER';
const ABEL = 'U0APPROVER';

interface PageState {
  me: { id: string; role: string };
  conversations: Array<{ id: string; name: string; dm: boolean }>;
  messages: Record<string, Array<{ text: string; ephemeralTo?: string }>>;
}

describe('the workspace page server', () => {
  let slack: LocalSlack;

  beforeAll(async () => {
    slack = await startLocalSlack({ signingSecret: 'page0test0signing0secret', botToken: BOT_TOKEN });
    slack.invite('C0TREASURY');
    let written = 0;
    mountPage(slack, {
      people: [
        { id: RITA, role: 'requester' },
        { id: ABEL, role: 'approver' },
      ],
      commandHint: '/fleet help',
      sampleFiles: [
        { name: 'records.csv', description: 'books to check', content: () => `reference,date\r\nA-${++written},2026-11-02\r\n` },
        { name: 'statement.txt', description: 'a statement', content: () => Uint8Array.from([0xff, 0xfe, 0x41, 0x00]), charset: 'utf-16' },
      ],
    });
  });
  afterAll(async () => slack?.close());

  const callApi = (method: string, args: Record<string, string>) =>
    fetch(`${slack.apiUrl}${method}`, { method: 'POST', headers: { authorization: `Bearer ${BOT_TOKEN}` }, body: new URLSearchParams(args) });
  const stateOf = async (userId: string) => (await (await fetch(`${slack.url}/workspace/state?as=${userId}`)).json()) as PageState;

  it('serves the page and its scripts, and nothing else from disk', async () => {
    const page = await fetch(`${slack.url}/`);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(await page.text()).toContain('/page/app.js');
    expect((await fetch(`${slack.url}/page/blocks.js`)).headers.get('content-type')).toContain('javascript');
    const policy = page.headers.get('content-security-policy') ?? '';
    expect(policy).toContain("default-src 'self'");
    expect(policy).toContain("frame-ancestors 'none'");
    expect(policy).not.toContain('unsafe-inline');
    expect((await fetch(`${slack.url}/page/../page-server.ts`)).status).toBe(404);
    expect((await fetch(`${slack.url}/page/page-server.ts`)).status).toBe(404);
  });

  it('shows each person the channels and only their own DM with the bot, with their ephemeral messages only', async () => {
    await callApi('chat.postEphemeral', { channel: 'C0TREASURY', user: RITA, text: 'for Rita only' });
    await callApi('chat.postMessage', { channel: 'C0TREASURY', text: 'for everyone' });
    const rita = await stateOf(RITA);
    const abel = await stateOf(ABEL);
    expect(rita.me).toEqual(expect.objectContaining({ id: RITA, role: 'requester' }));
    expect(rita.conversations.map((c) => c.name)).toEqual(['treasury', 'treasury-approvals', 'treasury-feed', 'Fleet Treasury']);
    expect(rita.conversations.filter((c) => c.dm).map((c) => c.id)).toEqual(['D0REQUESTER']);
    expect(abel.conversations.filter((c) => c.dm).map((c) => c.id)).toEqual(['D0APPROVER']);
    expect(rita.messages.C0TREASURY!.map((m) => m.text)).toEqual(['for Rita only', 'for everyone']);
    expect(abel.messages.C0TREASURY!.map((m) => m.text)).toEqual(['for everyone']);
  });

  it('offers its example files in the state and as downloads written when asked for, and nothing else under their path', async () => {
    const state = (await (await fetch(`${slack.url}/workspace/state?as=${RITA}`)).json()) as { sampleFiles: unknown };
    expect(state.sampleFiles).toEqual([
      { name: 'records.csv', description: 'books to check' },
      { name: 'statement.txt', description: 'a statement' },
    ]);
    const first = await fetch(`${slack.url}/workspace/samples/records.csv`);
    expect(first.headers.get('content-disposition')).toBe('attachment; filename="records.csv"');
    expect(first.headers.get('content-type')).toContain('text/csv');
    expect(await first.text()).toBe('reference,date\r\nA-1,2026-11-02\r\n');
    expect(await (await fetch(`${slack.url}/workspace/samples/records.csv`)).text()).toContain('A-2');
    expect((await fetch(`${slack.url}/workspace/samples/other.csv`)).status).toBe(404);
  });

  it('sends an example file given as bytes exactly as written, with its encoding in the content type', async () => {
    const answer = await fetch(`${slack.url}/workspace/samples/statement.txt`);
    expect(answer.headers.get('content-type')).toBe('text/plain; charset=utf-16');
    expect([...new Uint8Array(await answer.arrayBuffer())]).toEqual([0xff, 0xfe, 0x41, 0x00]);
  });

  it('refuses actions that are not JSON, so another web page cannot act as a person', async () => {
    const answer = await fetch(`${slack.url}/workspace/command`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: JSON.stringify({ as: RITA, channel: 'C0TREASURY', text: '/fleet balance' }),
    });
    expect(answer.status).toBe(415);
  });

  it('refuses a request naming another host, so a DNS-rebinding web page cannot read or act on the page', async () => {
    const statusFor = (host: string, path: string, method = 'GET') =>
      new Promise<number>((resolve, reject) => {
        const outgoing = request(`${slack.url}${path}`, { method, headers: { host, 'content-type': 'application/json' } }, (answer) => {
          answer.resume();
          resolve(answer.statusCode ?? 0);
        });
        outgoing.on('error', reject);
        outgoing.end(method === 'POST' ? JSON.stringify({ as: RITA, channel: 'C0TREASURY', text: 'hello' }) : undefined);
      });
    const port = new URL(slack.url).port;
    expect(await statusFor(`rebound.example.com:${port}`, `/workspace/state?as=${RITA}`)).toBe(403);
    expect(await statusFor(`rebound.example.com:${port}`, '/workspace/command', 'POST')).toBe(403);
    expect(await statusFor(`localhost:${port}`, `/workspace/state?as=${RITA}`)).toBe(200);
    expect(await statusFor(`127.0.0.1:${port}`, '/')).toBe(200);
  });

  it('answers an unknown action, a malformed one and a plain message with a readable error', async () => {
    const post = (action: string, body: unknown) =>
      fetch(`${slack.url}/workspace/${action}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    expect((await post('toString', {})).status).toBe(404);
    const malformed = await post('click', { as: RITA });
    expect(malformed.status).toBe(400);
    expect(((await malformed.json()) as { error: string }).error).toMatch(/^invalid input/);
    const plain = await post('command', { as: RITA, channel: 'C0TREASURY', text: 'hello' });
    expect(((await plain.json()) as { error: string }).error).toContain('slash commands');
  });
});

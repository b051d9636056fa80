import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebClient } from '@slack/web-api';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FeedPublishError } from '../../../src/feed/types.js';
import { createSlackFeedPublisher } from '../../../src/slack/publishers/feed-publisher.js';
import { silentLogger, transaction } from '../../support/feed-doubles.js';

interface Answer {
  status: number;
  headers?: Record<string, string>;
  body: unknown;
}

/** A loopback stand-in for Slack's chat.postMessage that answers from a script. */
describe('Slack feed publisher', () => {
  let server: Server;
  let apiUrl: string;
  let answers: Answer[] = [];
  const received: Array<{ path: string; form: URLSearchParams; authorization: string | undefined }> = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      void readBody(req).then((body) => {
        received.push({ path: req.url ?? '', form: new URLSearchParams(body), authorization: req.headers.authorization });
        const answer = answers.shift() ?? { status: 200, body: { ok: true, channel: 'C0FEED', ts: '1.000' } };
        res.writeHead(answer.status, { 'Content-Type': 'application/json', ...answer.headers });
        res.end(JSON.stringify(answer.body));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    apiUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });
  beforeEach(() => {
    answers = [];
    received.length = 0;
  });

  // The app's shared client retries for minutes; the publisher must not inherit that.
  const appClient = () => new WebClient('xoxb-test-token', { slackApiUrl: apiUrl, retryConfig: { retries: 10 } });
  const publisher = () => createSlackFeedPublisher(appClient(), { surface: { sandbox: false, locale: 'en' as const }, logger: silentLogger });

  it('posts the rendered batch with chat.postMessage to the feed channel', async () => {
    await publisher().publish('C0FEED', { kind: 'transactions', entries: [transaction(new Date(), { description: 'Hi <!channel>' })], notes: [] });
    expect(received).toHaveLength(1);
    expect(received[0]!.path).toBe('/api/chat.postMessage');
    expect(received[0]!.form.get('channel')).toBe('C0FEED');
    expect(received[0]!.authorization).toBe('Bearer xoxb-test-token');
    const blocks = received[0]!.form.get('blocks') ?? '';
    expect(blocks).toContain('Hi &lt;!channel&gt;');
  });

  it('turns a 429 into an error carrying Retry-After, after exactly one request', async () => {
    answers = [{ status: 429, headers: { 'Retry-After': '7' }, body: { ok: false, error: 'ratelimited' } }];
    const failure = await publisher()
      .publish('C0FEED', { kind: 'notice', notes: [] })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(FeedPublishError);
    expect((failure as FeedPublishError).retryAfterMs).toBe(7_000);
    expect(received).toHaveLength(1);
  });

  it('reports a refusal such as channel_not_found by its code, without retrying and without the token', async () => {
    answers = [{ status: 200, body: { ok: false, error: 'channel_not_found' } }];
    const failure = await publisher()
      .publish('C0GONE', { kind: 'notice', notes: [] })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(FeedPublishError);
    expect((failure as FeedPublishError).details.code).toBe('channel_not_found');
    expect((failure as FeedPublishError).retryAfterMs).toBeUndefined();
    expect((failure as Error).message).not.toContain('xoxb-');
    expect(received).toHaveLength(1);
  });

  it('posts the entries as text when Slack refuses the blocks, so one bad message cannot stall the feed', async () => {
    answers = [{ status: 200, body: { ok: false, error: 'invalid_blocks' } }];
    const entry = transaction(new Date(), { reference: 'TXN-FALLBACK-1', description: 'Fuel <!here>' });
    await publisher().publish('C0FEED', { kind: 'transactions', entries: [entry], notes: [] });
    expect(received).toHaveLength(2);
    expect(received[1]!.form.get('blocks')).toBeNull();
    const text = received[1]!.form.get('text') ?? '';
    expect(text).toContain('TXN-FALLBACK-1');
    expect(text).toContain('Fuel &lt;!here&gt;');
  });

  it('does not post again when the text is refused too, and reports the refusal', async () => {
    answers = [
      { status: 200, body: { ok: false, error: 'invalid_blocks' } },
      { status: 200, body: { ok: false, error: 'msg_too_long' } },
    ];
    const failure = await publisher()
      .publish('C0FEED', { kind: 'transactions', entries: [transaction(new Date())], notes: [] })
      .catch((error: unknown) => error);
    expect((failure as FeedPublishError).details.code).toBe('msg_too_long');
    expect(received).toHaveLength(2);
  });

  it('does not retry a server error on its own: the feed decides when to try again', async () => {
    answers = [{ status: 503, body: { ok: false } }];
    const failure = await publisher()
      .publish('C0FEED', { kind: 'notice', notes: [] })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(FeedPublishError);
    expect(received).toHaveLength(1);
  });
});

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

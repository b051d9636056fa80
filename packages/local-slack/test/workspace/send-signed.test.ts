import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postSigned, signRequest, startLocalSlack, type LocalSlack, type SignedPost } from '../../src/workspace/index.js';

// A benchmark sends the workspace's requests from a process of its own: the workspace hands each signed request to `sendSigned`.
const SIGNING_SECRET = 'sendsignedtestsecret0123456789ab';
let app: Server;
let slack: LocalSlack;
const received: Array<{ signature: string | undefined; body: string }> = [];
const handed: SignedPost[] = [];

beforeAll(async () => {
  app = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    request.on('end', () => {
      received.push({ signature: request.headers['x-slack-signature'] as string | undefined, body });
      response.writeHead(200, { 'content-type': 'application/json' }).end('{"text":"acked"}');
    });
  });
  await new Promise<void>((resolve) => app.listen(0, '127.0.0.1', resolve));
  slack = await startLocalSlack({
    signingSecret: SIGNING_SECRET,
    botToken: 'xoxb-send-signed',
    rateLimits: false,
    latency: false,
    appUrl: `http://127.0.0.1:${(app.address() as AddressInfo).port}/slack/events`,
    sendSigned: (post) => {
      handed.push(post);
      return postSigned(post);
    },
  });
  slack.invite('C0TREASURY');
});

afterAll(async () => {
  await slack.close();
  await new Promise<void>((resolve) => app.close(() => resolve()));
});

describe('a workspace given sendSigned', () => {
  it('hands it each signed request, which reaches the app with Slack’s signature, and reads the ack it returns', async () => {
    const ack = await slack.runCommand({ userId: 'U0REQUESTER', channelId: 'C0TREASURY', text: 'balance' });
    expect(ack.status).toBe(200);
    expect(ack.body).toEqual({ text: 'acked' });
    expect(handed).toHaveLength(1);
    expect(new URLSearchParams(handed[0]!.body).get('text')).toBe('balance');
    expect(received).toHaveLength(1);
    expect(received[0]!.body).toBe(handed[0]!.body);
    expect(received[0]!.signature).toBe(signRequest(SIGNING_SECRET, handed[0]!.timestampSeconds, handed[0]!.body));
  });
});

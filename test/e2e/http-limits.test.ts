import { createHmac } from 'node:crypto';
import { createServer, type ServerResponse } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HTTP_LIMITS, limitConnections } from '../../src/slack/transport/http-limits.js';
import { CHANNELS, PEOPLE, SIGNING_SECRET, startHarness, type Harness } from '../support/bot-harness.js';

// Transactions are read afresh for every command (the balance is cached for a few seconds).
const TRANSACTIONS_PATH = '/api/v1/b2b/account/transactions';
const MB = 1024 * 1024;

/** A signed `/fleet transactions` whose body is padded with an extra form field to about `size` bytes. */
function paddedCommand(size: number): { body: string; headers: Record<string, string> } {
  const fields = new URLSearchParams({
    team_id: 'T0DEMO',
    channel_id: CHANNELS.treasury,
    user_id: PEOPLE.requester,
    user_name: 'someone',
    command: '/fleet',
    text: 'transactions 1 1',
    api_app_id: 'A0TEST',
    response_url: 'http://127.0.0.1:9/unused',
    trigger_id: '1.2.3',
  }).toString();
  const body = `${fields}&padding=${'x'.repeat(Math.max(0, size - fields.length - 9))}`;
  const timestamp = Math.floor(Date.now() / 1000);
  const signature = `v0=${createHmac('sha256', SIGNING_SECRET).update(`v0:${timestamp}:${body}`).digest('hex')}`;
  return {
    body,
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'X-Slack-Request-Timestamp': String(timestamp), 'X-Slack-Signature': signature },
  };
}

/** A raw TCP connection to the bot, written to by hand so that a test controls every byte and its timing. */
class RawConnection {
  received = '';
  closed = false;
  private constructor(readonly socket: Socket) {
    socket.setEncoding('latin1');
    socket.on('data', (data: string) => {
      this.received += data;
    });
    // Resets are expected: the server closes connections whose bodies it refuses.
    socket.on('error', () => undefined);
    socket.on('close', () => {
      this.closed = true;
    });
  }

  static open(url: URL): Promise<RawConnection> {
    return new Promise((resolve, reject) => {
      const socket = connect({ host: url.hostname, port: Number(url.port) });
      socket.once('connect', () => resolve(new RawConnection(socket)));
      socket.once('error', reject);
    });
  }

  /** Resolves once the bytes are handed to the system, or the connection is gone. */
  write(data: string | Buffer): Promise<void> {
    return new Promise((resolve) => {
      if (this.socket.destroyed) return resolve();
      this.socket.once('close', () => resolve());
      this.socket.write(data, () => resolve());
    });
  }

  /** The status of the server's answer, once its status line arrived. */
  get status(): number | undefined {
    const match = /^HTTP\/1\.1 (\d{3})/.exec(this.received);
    return match ? Number(match[1]) : undefined;
  }

  close(): void {
    this.socket.destroy();
  }
}

function requestHead(url: URL, headers: Record<string, string>): string {
  const lines = [`POST ${url.pathname} HTTP/1.1`, `Host: ${url.host}`, ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`)];
  return `${lines.join('\r\n')}\r\n\r\n`;
}

function transactionReads(h: Harness): number {
  return h.sandbox.requests.filter((request) => request.path === TRANSACTIONS_PATH).length;
}

describe('the HTTP endpoint with its default limits', () => {
  let h: Harness;
  const open: RawConnection[] = [];
  const dial = async () => {
    const connection = await RawConnection.open(new URL(h.bot.eventsUrl!));
    open.push(connection);
    return connection;
  };

  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    for (const connection of open) connection.close();
    await h?.close();
  });

  it('answers a signed request declaring a body over the limit with 413 before the body is sent, and calls no Fleet API', async () => {
    const before = transactionReads(h);
    const { body, headers } = paddedCommand(2 * HTTP_LIMITS.maxBodyBytes);
    const url = new URL(h.bot.eventsUrl!);
    const connection = await dial();
    // Only the headers: an answer can only come from refusing the declared length, not from reading the body.
    await connection.write(requestHead(url, { ...headers, 'Content-Length': String(Buffer.byteLength(body)) }));
    await h.slack.waitFor(() => connection.status, { message: 'an answer to the headers alone' });
    expect(connection.status).toBe(413);
    await h.slack.waitFor(() => connection.closed, { message: 'the server to close the refused connection' });
    expect(transactionReads(h)).toBe(before);
  });

  it('cuts off a signed chunked body that grows past the limit, and calls no Fleet API', async () => {
    const before = transactionReads(h);
    const { body, headers } = paddedCommand(2 * HTTP_LIMITS.maxBodyBytes);
    const url = new URL(h.bot.eventsUrl!);
    const connection = await dial();
    await connection.write(requestHead(url, { ...headers, 'Transfer-Encoding': 'chunked' }));
    await connection.write(`${Buffer.byteLength(body).toString(16)}\r\n${body}\r\n0\r\n\r\n`);
    await h.slack.waitFor(() => connection.closed, { message: 'the server to close the oversized chunked request' });
    // The 413 may be lost when the server resets a connection that is still sending; it is never a 200.
    expect([413, undefined]).toContain(connection.status);
    expect(transactionReads(h)).toBe(before);
  });

  it('still serves a signed request just under the limit', async () => {
    const before = transactionReads(h);
    const { body } = paddedCommand(HTTP_LIMITS.maxBodyBytes - 1024);
    const ack = await h.slack.sendSigned(body);
    expect(ack.status).toBe(200);
    await h.slack.waitFor(() => transactionReads(h) > before, { message: 'the transactions read of the padded command' });
  });
});

describe('the HTTP endpoint under 300 slow, unsigned connections', () => {
  let h: Harness;
  const connections: RawConnection[] = [];
  // Short timeouts stand in for the real ones (10 s for headers, 15 s for a request), so the test need not wait for them.
  const limits = { headersTimeoutMs: 500, requestTimeoutMs: 1000, timeoutCheckEveryMs: 100 };

  beforeAll(async () => {
    h = await startHarness({ bot: { httpLimits: limits } });
  });
  afterAll(async () => {
    for (const connection of connections) connection.close();
    await h?.close();
  });

  it('keeps memory flat and closes every slow connection', { timeout: 60_000 }, async () => {
    const url = new URL(h.bot.eventsUrl!);
    const unsigned = { 'Content-Type': 'application/x-www-form-urlencoded' };
    // One buffer shared by every connection, so that the test's own memory stays small.
    const twoMegabytes = Buffer.alloc(2 * MB, 'x');
    const chunkedTwoMegabytes = Buffer.concat([Buffer.from(`${twoMegabytes.length.toString(16)}\r\n`), twoMegabytes]);
    const kinds = {
      /** Declares 3 MB (under Bolt's own 4 MB default) and sends 2 MB at once. */
      declaredLarge: async (connection: RawConnection) => {
        await connection.write(requestHead(url, { ...unsigned, 'Content-Length': String(3 * MB) }));
        await connection.write(twoMegabytes);
      },
      /** Declares no length and sends a 2 MB chunk. */
      chunkedLarge: async (connection: RawConnection) => {
        await connection.write(requestHead(url, { ...unsigned, 'Transfer-Encoding': 'chunked' }));
        await connection.write(chunkedTwoMegabytes);
      },
      /** Declares a body within the limit and sends one byte of it. */
      trickle: async (connection: RawConnection) => {
        await connection.write(requestHead(url, { ...unsigned, 'Content-Length': String(HTTP_LIMITS.maxBodyBytes / 2) }));
        await connection.write('x');
      },
      /** Never finishes its headers. */
      slowHeaders: async (connection: RawConnection) => {
        await connection.write(`POST ${url.pathname} HTTP/1.1\r\nHost: ${url.host}\r\n`);
      },
    };

    const rssBefore = process.memoryUsage().rss;
    const sending: Array<Promise<void>> = [];
    for (let i = 0; i < 300; i += 1) {
      const connection = await RawConnection.open(url);
      connections.push(connection);
      const kind = Object.values(kinds)[i % 4]!;
      sending.push(kind(connection));
    }
    await Promise.all(sending);

    // Far past the injected timeouts; today's Node defaults would keep these connections for minutes.
    const allClosed = await h.slack.waitFor(() => connections.every((connection) => connection.closed), { timeoutMs: 15_000 }).catch(() => false);
    const growthMb = (process.memoryUsage().rss - rssBefore) / MB;

    expect(growthMb).toBeLessThan(100);
    expect(connections.filter((connection) => !connection.closed)).toHaveLength(0);
    expect(allClosed).toBe(true);
    expect(connections.some((connection) => connection.status === 200)).toBe(false);
    // The endpoint still answers afterwards.
    const health = await fetch(new URL('/healthz', url));
    expect(health.status).toBe(200);
  });
});

describe('the HTTP endpoint with its connection cap taken by idle clients', () => {
  let h: Harness;
  const idle: RawConnection[] = [];

  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    for (const connection of idle) connection.close();
    await h?.close();
  });

  it('still acks a signed slash command, closing the oldest idle connection to make room', { timeout: 60_000 }, async () => {
    const url = new URL(h.bot.eventsUrl!);
    // Connected, and never a byte sent: the cap's worth, before Slack's request opens its own connection.
    for (let i = 0; i < HTTP_LIMITS.maxConnections; i += 1) idle.push(await RawConnection.open(url));

    const ack = await h.slack.runCommand({ userId: PEOPLE.requester, channelId: CHANNELS.treasury, text: 'balance' });

    expect(ack.status).toBe(200);
    await h.waitForMessage(PEOPLE.requester, 'balance');
    await h.slack.waitFor(() => idle[0]!.closed, { message: 'the oldest idle connection to be closed' });
    expect(idle.at(-1)!.closed).toBe(false);
  });
});

/** Polls `probe` every 10 ms until it is true, for at most 5 s. */
async function until(probe: () => boolean, what: string): Promise<void> {
  for (let waited = 0; !probe(); waited += 10) {
    if (waited > 5000) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('choosing which connection makes room at the cap', () => {
  const held: ServerResponse[] = [];
  const arrived: string[] = [];
  // Answers are held until the test releases them, so that "being answered" lasts as long as needed.
  const server = createServer((request, response) => {
    arrived.push(request.url ?? '');
    if (request.url === '/hold') held.push(response);
    if (request.url === '/quick') response.end('quick');
  });
  const connections: RawConnection[] = [];
  let url: URL;
  const dial = async () => {
    const connection = await RawConnection.open(url);
    connections.push(connection);
    return connection;
  };
  const send = (connection: RawConnection, path: string, head: Record<string, string>, body = '') =>
    connection.write(`${requestHead(new URL(path, url), head)}${body}`);

  beforeAll(async () => {
    limitConnections(server, { ...HTTP_LIMITS, maxConnections: 4 });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
  });
  afterAll(async () => {
    for (const connection of connections) connection.close();
    await new Promise((resolve) => server.close(resolve));
  });

  it('closes the oldest still sending its first head, then the one idle or sending its body longest, and never one being answered', async () => {
    const answering = await dial();
    await send(answering, '/hold', { 'Content-Length': '2' }, 'ok');
    const sendingBody = await dial();
    await send(sendingBody, '/slow', { 'Content-Length': '10' }, 'x');
    await until(() => arrived.length === 2, 'both request heads');
    const keptAlive = await dial();
    await send(keptAlive, '/quick', { 'Content-Length': '2' }, 'ok');
    await until(() => keptAlive.status === 200, 'the quick answer');
    // Connected after the others, but it has not sent a request head: the first to go.
    const silent = await dial();

    const first = await dial();
    await until(() => silent.closed, 'the silent connection to make room');
    const second = await dial();
    await until(() => first.closed, 'the newer silent connection to make room');
    expect([answering.closed, sendingBody.closed, keptAlive.closed, second.closed]).toEqual([false, false, false, false]);

    await send(second, '/hold', { 'Content-Length': '2' }, 'ok');
    await until(() => held.length === 2, 'the second held request');
    const third = await dial();
    await until(() => sendingBody.closed, 'the connection sending its body longest to make room');
    expect(keptAlive.closed).toBe(false);
    await send(third, '/hold', { 'Content-Length': '2' }, 'ok');
    await until(() => held.length === 3, 'the third held request');
    const fourth = await dial();
    await until(() => keptAlive.closed, 'the kept-alive connection to make room');
    await send(fourth, '/hold', { 'Content-Length': '2' }, 'ok');
    await until(() => held.length === 4, 'the fourth held request');

    // Every place holds a request being answered: only now is the newcomer closed.
    const refused = await dial();
    await until(() => refused.closed, 'the newcomer to be closed');
    expect([answering, second, third, fourth].map((connection) => connection.closed)).toEqual([false, false, false, false]);
    for (const response of held) response.end('done');
    await until(() => [answering, second, third, fourth].every((connection) => connection.status === 200), 'the held answers');
  });
});

import { createHmac } from 'node:crypto';
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HTTP_LIMITS } from '../../src/slack/http-limits.js';
import { CHANNELS, PEOPLE, SIGNING_SECRET, startHarness, type Harness } from '../support/bot-harness.js';

// Transactions are read afresh for every command (the balance is cached for a few seconds).
const TRANSACTIONS_PATH = '/api/v1/b2b/account/transactions';
const MB = 1024 * 1024;

/** A signed `/fleet transactions` whose body is padded with an extra form field to about `size` bytes. */
function paddedCommand(size: number): { body: string; headers: Record<string, string> } {
  const fields = new URLSearchParams({
    team_id: 'T0DEMO', channel_id: CHANNELS.treasury, user_id: PEOPLE.requester, user_name: 'someone', command: '/fleet',
    text: 'transactions 1 1', api_app_id: 'A0TEST', response_url: 'http://127.0.0.1:9/unused', trigger_id: '1.2.3',
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
    const allClosed = await h.slack
      .waitFor(() => connections.every((connection) => connection.closed), { timeoutMs: 15_000 })
      .catch(() => false);
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

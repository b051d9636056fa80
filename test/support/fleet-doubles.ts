/** Test doubles for the Fleet client tests: a clock that records sleeps, a capturing log, and a scriptable HTTP server. */
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Clock } from '../../src/core/clock.js';
import { createLogger, type Logger } from '../../src/core/logger.js';

/** A clock whose sleep returns at once but remembers how long it was asked to wait. */
export function recordingClock(now = new Date('2026-11-21T12:00:00.000Z')): Clock & { sleeps: number[] } {
  const sleeps: number[] = [];
  return {
    sleeps,
    now: () => now,
    sleep: async (ms, signal) => {
      signal?.throwIfAborted();
      sleeps.push(ms);
    },
  };
}

export function capturingLogger(secrets: string[] = []): { logger: Logger; lines: string[] } {
  const lines: string[] = [];
  const logger = createLogger({ level: 'trace', secrets, destination: { write: (line: string) => void lines.push(line) } });
  return { logger, lines };
}

export interface StubRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** The client's end of the connection: equal ports mean one kept-alive connection. */
  remotePort: number | undefined;
}

/** A loopback server that answers each request with `respond`; it sees every header the client sent. */
export async function startStubServer(respond: (request: StubRequest, response: ServerResponse) => void) {
  const requests: StubRequest[] = [];
  const server = createServer((incoming, response) => {
    let body = '';
    incoming.setEncoding('utf8');
    incoming.on('data', (chunk: string) => (body += chunk));
    incoming.on('end', () => {
      const request = { method: incoming.method ?? '', url: incoming.url ?? '', headers: incoming.headers, body, remotePort: incoming.socket.remotePort };
      requests.push(request);
      respond(request, response);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

export function json(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  response.writeHead(status, { 'content-type': 'application/json', ...headers });
  response.end(typeof body === 'string' ? body : JSON.stringify(body));
}

/** A port that nothing listens on: bound once, then released. */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

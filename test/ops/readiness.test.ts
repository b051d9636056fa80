import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { Readiness } from '../../src/ops/readiness.js';
import { opsRoutes, publicOpsRoutes, type OpsHandler } from '../../src/ops/routes.js';
import { Metrics } from '../../src/ops/metrics.js';

let server: Server | undefined;
afterEach(async () => {
  await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
  server = undefined;
});

/** Serves `routes` on a loopback port and returns a GET for a path. */
async function serve(routes: Partial<Record<string, OpsHandler>>) {
  server = createServer((req, res) => {
    const handler = routes[req.url ?? ''];
    if (handler) handler(req, res);
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return async (path: string) => {
    const response = await fetch(`http://127.0.0.1:${port}${path}`);
    return { status: response.status, body: await response.text() };
  };
}

function readinessWithCounters(start = 1_000_000) {
  let now = start;
  const counts = { pings: 0, probes: 0 };
  const readiness = new Readiness({
    pingDatabase: async () => {
      counts.pings += 1;
    },
    probeFleet: async () => {
      counts.probes += 1;
      readiness.fleetCall({ method: 'GET', path: '/api/v1/b2b/account/balance', status: 200, seconds: 0.01 });
    },
    now: () => now,
  });
  readiness.slackTokenAccepted();
  return { readiness, counts, advance: (ms: number) => (now += ms) };
}

describe('GET /readyz on the port that faces Slack', () => {
  it('answers from one check a second however often it is called, so that strangers cannot load the database', async () => {
    const { readiness, counts, advance } = readinessWithCounters();
    const get = await serve({ ...publicOpsRoutes(readiness) });
    const answers = await Promise.all(Array.from({ length: 50 }, () => get('/readyz')));
    expect(answers.every((answer) => answer.status === 200 && answer.body === '{"ready":true}')).toBe(true);
    for (let call = 0; call < 20; call += 1) expect((await get('/readyz')).status).toBe(200);
    expect(counts.pings).toBe(1);

    advance(1_001);
    await get('/readyz');
    expect(counts.pings).toBe(2);
  });

  it('says unready as soon as a check a second newer finds the database gone', async () => {
    let up = true;
    let now = 0;
    const readiness = new Readiness({
      pingDatabase: async () => {
        if (!up) throw new Error('down');
      },
      probeFleet: async () => undefined,
      now: () => now,
    });
    readiness.slackTokenAccepted();
    readiness.fleetCall({ method: 'GET', path: '/api/v1/b2b/account/balance', status: 200, seconds: 0.01 });
    const get = await serve({ ...publicOpsRoutes(readiness) });
    expect((await get('/readyz')).status).toBe(200);
    up = false;
    expect((await get('/readyz')).status).toBe(200);
    now += 1_001;
    expect(await get('/readyz')).toEqual({ status: 503, body: '{"ready":false}' });
  });
});

describe("GET /readyz on the operators' port", () => {
  it('checks afresh at every call, with the reasons', async () => {
    const { readiness, counts } = readinessWithCounters();
    const get = await serve({ ...opsRoutes(readiness, new Metrics()) });
    for (let call = 0; call < 3; call += 1) expect(JSON.parse((await get('/readyz')).body)).toMatchObject({ ready: true, checks: { database: { ok: true } } });
    expect(counts.pings).toBe(3);
  });
});

/**
 * GET /healthz (alive), GET /readyz (able to work, see readiness.ts) and GET /metrics (Prometheus
 * text). The operators' server on METRICS_PORT (startOpsServer), in both modes, serves all three
 * with /readyz's checks; HTTP mode's port that faces Slack serves only /healthz and a /readyz that
 * says 200 or 503 and nothing of why (publicOpsRoutes), from a check at most a second old, since anyone who
 * reaches Slack's port reaches them.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Metrics } from './metrics.js';
import type { Readiness } from './readiness.js';

export type OpsHandler = (req: IncomingMessage, res: ServerResponse) => void;

export interface OpsRoutes {
  '/healthz': OpsHandler;
  '/readyz': OpsHandler;
  '/metrics': OpsHandler;
}

export type PublicOpsRoutes = Pick<OpsRoutes, '/healthz' | '/readyz'>;

const healthz: OpsHandler = (_req, res) => {
  res.writeHead(200, { 'Content-Type': 'application/json' });
  res.end('{"ok":true}');
};

/** Readiness with its checks, checked afresh (`detailed`), or only whether the app is ready, from a check at most a second old. */
function readyz(readiness: Readiness, detailed: boolean): OpsHandler {
  return (_req, res) => {
    (detailed ? readiness.check() : readiness.recentCheck()).then(
      (report) => {
        res.writeHead(report.ready ? 200 : 503, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' });
        res.end(detailed ? JSON.stringify(report) : JSON.stringify({ ready: report.ready }));
      },
      () => {
        res.writeHead(503, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' });
        res.end('{"ready":false}');
      },
    );
  };
}

/** The port that faces Slack: liveness, and readiness as a status alone. */
/** GET /metrics: the exposition text `read` gives, or 500 when it fails. */
export function metricsRoute(read: () => Promise<{ contentType: string; body: string }>): OpsHandler {
  return (_req, res) => {
    read().then(
      ({ contentType, body }) => {
        res.writeHead(200, { 'Content-Type': contentType });
        res.end(body);
      },
      () => {
        res.writeHead(500, { 'Content-Type': 'text/plain' });
        res.end('metrics unavailable\n');
      },
    );
  };
}

export function publicOpsRoutes(readiness: Readiness): PublicOpsRoutes {
  return { '/healthz': healthz, '/readyz': readyz(readiness, false) };
}

export function opsRoutes(readiness: Readiness, metrics: Metrics): OpsRoutes {
  return {
    '/healthz': healthz,
    '/readyz': readyz(readiness, true),
    '/metrics': metricsRoute(() => metrics.text()),
  };
}

/** The operators' small server for the three routes; resolves once it listens. */
export async function startOpsServer(
  routes: OpsRoutes,
  listen: { port: number; host: string },
): Promise<{ server: Server; url: string; close(): Promise<void> }> {
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    // Own keys only: `/constructor` is no route.
    const handler = req.method === 'GET' && Object.hasOwn(routes, path) ? routes[path as keyof OpsRoutes] : undefined;
    if (handler) handler(req, res);
    else {
      res.writeHead(404, { 'Content-Type': 'text/plain' });
      res.end('not found\n');
    }
  });
  server.requestTimeout = 10_000;
  server.headersTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(listen.port, listen.host, () => resolve());
  });
  const { address, port, family } = server.address() as AddressInfo;
  return {
    server,
    url: `http://${family === 'IPv6' ? `[${address}]` : address}:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

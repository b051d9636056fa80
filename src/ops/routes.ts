/**
 * GET /healthz (alive), GET /readyz (able to work, see readiness.ts) and GET /metrics (Prometheus
 * text). HTTP mode serves them on Bolt's receiver next to /slack/events; Socket Mode, which has no
 * HTTP server of its own, serves them on METRICS_PORT (startOpsServer).
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

export function opsRoutes(readiness: Readiness, metrics: Metrics): OpsRoutes {
  return {
    '/healthz': (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end('{"ok":true}');
    },
    '/readyz': (_req, res) => {
      readiness.check().then(
        (report) => {
          res.writeHead(report.ready ? 200 : 503, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' });
          res.end(JSON.stringify(report));
        },
        () => {
          res.writeHead(503, { 'Content-Type': 'application/json' });
          res.end('{"ready":false}');
        },
      );
    },
    '/metrics': (_req, res) => {
      metrics.text().then(
        ({ contentType, body }) => {
          res.writeHead(200, { 'Content-Type': contentType });
          res.end(body);
        },
        () => {
          res.writeHead(500, { 'Content-Type': 'text/plain' });
          res.end('metrics unavailable\n');
        },
      );
    },
  };
}

/** Socket Mode's small server for the three routes; resolves once it listens. */
export async function startOpsServer(routes: OpsRoutes, listen: { port: number; host?: string | undefined }): Promise<{ server: Server; port: number; close(): Promise<void> }> {
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0] as keyof OpsRoutes;
    const handler = req.method === 'GET' ? routes[path] : undefined;
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
  return {
    server,
    port: (server.address() as AddressInfo).port,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

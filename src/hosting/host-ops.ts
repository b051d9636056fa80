/**
 * Hosted mode's operators' port (METRICS_PORT): /healthz, a /readyz that says whether the shared
 * database answers and how many workspace bots run, and /metrics with the process's own figures
 * (memory, event loop) and every running bot's, each bot's series labelled with its `tenant`.
 */
import { collectDefaultMetrics, Registry } from 'prom-client';
import type { RunningBot } from '../bot.js';
import type { Logger } from '../core/logger.js';
import { aggregatedText } from '../ops/metrics.js';
import { metricsRoute, startOpsServer, type OpsHandler } from '../ops/routes.js';
import type { Db } from '../store/index.js';

const DATABASE_TIMEOUT_MS = 1_000;

export interface HostOpsOptions {
  port: number;
  host: string;
  db: Db;
  /** The bots running now, read on each request. */
  bots: () => readonly RunningBot[];
  logger: Logger;
}

export async function startHostOps(options: HostOpsOptions): Promise<{ url: string; close(): Promise<void> }> {
  const { db, bots } = options;
  // The process's figures, once; each bot's registry holds only its own (no default metrics in hosted mode).
  const processRegistry = new Registry();
  collectDefaultMetrics({ register: processRegistry });

  const json = (res: Parameters<OpsHandler>[1], status: number, body: unknown) => {
    res.writeHead(status, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' });
    res.end(JSON.stringify(body));
  };
  const server = await startOpsServer(
    {
      '/healthz': (_req, res) => json(res, 200, { ok: true }),
      '/readyz': (_req, res) => {
        void databaseAnswers(db).then((database) =>
          json(res, database.ok ? 200 : 503, { ready: database.ok, checks: { database }, workspaces: { running: bots().length } }),
        );
      },
      '/metrics': metricsRoute(() => aggregatedText([processRegistry, ...bots().map((bot) => bot.metrics.registry)])),
    },
    { port: options.port, host: options.host },
  );
  options.logger.info({ url: server.url }, 'serving /healthz, /readyz and /metrics');
  return { url: server.url, close: () => server.close() };
}

async function databaseAnswers(db: Db): Promise<{ ok: boolean; reason?: string }> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), DATABASE_TIMEOUT_MS)));
  try {
    const outcome = await Promise.race([
      db.query('SELECT 1').then(
        () => 'ok' as const,
        () => 'failed' as const,
      ),
      timeout,
    ]);
    if (outcome === 'ok') return { ok: true };
    return {
      ok: false,
      reason: outcome === 'timeout' ? `the database did not answer SELECT 1 within ${DATABASE_TIMEOUT_MS} ms` : 'the database refused or failed SELECT 1',
    };
  } finally {
    clearTimeout(timer);
  }
}

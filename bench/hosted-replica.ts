/**
 * One replica of the hosted benchmark in a process of its own (`startHosted` over the environment the
 * parent gives it), so that its memory is its own and a SIGKILL ends it as a crash would. It tells the
 * parent its URL once every workspace's bot runs, and answers `memory` with its RSS and heap after a GC,
 * `status` with how many workspaces' periodic work it runs, `loop` with its event loop's delays and
 * garbage collection's pauses since the last `loop`.
 * BENCH_HOSTED_LOG names a file for its log (info and above).
 */
import { subscribe } from 'node:diagnostics_channel';
import { createWriteStream } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { monitorEventLoopDelay, PerformanceObserver } from 'node:perf_hooks';
import { Writable } from 'node:stream';
import { loadConfig } from '../src/config/config.js';
import { createLogger } from '../src/core/logger.js';
import { startHosted } from '../src/hosting/hosted.js';
import { percentile, round } from './stats.js';

export type ReplicaReply =
  | { type: 'ready'; url: string; bots: number; startMs: number }
  | { type: 'memory'; rssMb: number; heapUsedMb: number; bots: number }
  | { type: 'status'; working: number }
  | { type: 'loop'; delayMaxMs: number; delayP99Ms: number; gcMaxMs: number; gcTotalMs: number; serverAckP50Ms: number; serverAckP99Ms: number }
  | { type: 'failed'; reason: string };

const expected = Number(process.env.BENCH_TENANTS ?? 1);
const send = (message: ReplicaReply) => process.send?.(message);
const quiet = new Writable({ write: (_chunk, _encoding, callback) => callback() });
const mb = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;

// What the event loop waited for since the last `loop` ask: its delays, and garbage collection's pauses.
const loopDelay = monitorEventLoopDelay({ resolution: 10 });
loopDelay.enable();
const gc = { maxMs: 0, totalMs: 0 };
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    gc.maxMs = Math.max(gc.maxMs, entry.duration);
    gc.totalMs += entry.duration;
  }
}).observe({ entryTypes: ['gc'] });

// Each Slack request's time inside this process: from its headers read to its answer's last byte handed to the socket.
const arrivals = new WeakMap<IncomingMessage, number>();
let serverAcks: number[] = [];
subscribe('http.server.request.start', (message) => {
  const { request } = message as { request: IncomingMessage };
  if (request.method === 'POST') arrivals.set(request, performance.now());
});
subscribe('http.server.response.finish', (message) => {
  const at = arrivals.get((message as { request: IncomingMessage }).request);
  if (at !== undefined) serverAcks.push(performance.now() - at);
});
const percentileOf = (values: number[], p: number) => {
  const sorted = [...values].sort((x, y) => x - y);
  return round(percentile(sorted, p), 1);
};

// The parent gone (a failed run), this replica goes too.
process.on('disconnect', () => process.exit(0));

try {
  const started = performance.now();
  const config = loadConfig(process.env);
  const host = await startHosted({
    config,
    env: process.env,
    logger: createLogger({
      level: process.env.BENCH_HOSTED_LOG ? 'info' : 'warn',
      destination: process.env.BENCH_HOSTED_LOG ? createWriteStream(process.env.BENCH_HOSTED_LOG, { flags: 'a' }) : quiet,
    }),
  });
  // startHosted's first reconcile starts every bot; a failed one is tried again at the next (every 15 s).
  while (host.bots.size < expected) await new Promise((resolve) => setTimeout(resolve, 200));
  send({ type: 'ready', url: host.url, bots: host.bots.size, startMs: Math.round(performance.now() - started) });
  process.on('message', (message: { ask: string }) => {
    if (message.ask === 'memory') {
      (globalThis as { gc?: () => void }).gc?.();
      const usage = process.memoryUsage();
      send({ type: 'memory', rssMb: mb(usage.rss), heapUsedMb: mb(usage.heapUsed), bots: host.bots.size });
    }
    if (message.ask === 'status') send({ type: 'status', working: host.bots.workingHere().length });
    if (message.ask === 'loop') {
      const ms = (ns: number) => Math.round(ns / 1e5) / 10;
      send({
        type: 'loop',
        delayMaxMs: ms(loopDelay.max),
        delayP99Ms: ms(loopDelay.percentile(99)),
        gcMaxMs: Math.round(gc.maxMs),
        gcTotalMs: Math.round(gc.totalMs),
        serverAckP50Ms: percentileOf(serverAcks, 50),
        serverAckP99Ms: percentileOf(serverAcks, 99),
      });
      serverAcks = [];
      loopDelay.reset();
      Object.assign(gc, { maxMs: 0, totalMs: 0 });
    }
    if (message.ask === 'close') void host.close().then(() => process.exit(0));
  });
} catch (error) {
  send({ type: 'failed', reason: error instanceof Error ? error.message : String(error) });
  process.exit(1);
}

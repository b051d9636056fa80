/**
 * The embedded store's per-query cost of running PGlite in a worker thread (src/store/pglite.ts):
 * a trivial SELECT, one at a time, through PGlite in this thread (as the store ran before) and
 * through the store's worker, side by side in one process: wall time per query, how long this
 * thread is busy per query (event loop utilisation: what acks wait behind), and the process's CPU
 * time per query (both threads).
 * `npx tsx bench/pglite-thread.ts [queries]`.
 */
import { PGlite } from '@electric-sql/pglite';
import { performance } from 'node:perf_hooks';
import { compilePglite, openPglite } from '../src/store/pglite.js';
import { blankPgliteCluster } from '../src/store/pglite-blank.js';

const QUERIES = Number(process.argv[2] ?? 5000);
const ROUNDS = 3;

interface Sample {
  wall_us: number;
  main_thread_busy_us: number;
  process_cpu_us: number;
}

async function measure(query: () => Promise<unknown>): Promise<Sample> {
  for (let i = 0; i < 200; i += 1) await query();
  const cpu = process.cpuUsage();
  const loop = performance.eventLoopUtilization();
  const start = process.hrtime.bigint();
  for (let i = 0; i < QUERIES; i += 1) await query();
  const wall = Number(process.hrtime.bigint() - start) / 1000 / QUERIES;
  const busy = performance.eventLoopUtilization(loop);
  const used = process.cpuUsage(cpu);
  return {
    wall_us: Math.round(wall),
    main_thread_busy_us: Math.round((busy.active * 1000) / QUERIES),
    process_cpu_us: Math.round((used.user + used.system) / QUERIES),
  };
}

const blank = await blankPgliteCluster();
const inThread = await PGlite.create({ loadDataDir: blank, pgliteWasmModule: await compilePglite() });
const viaWorker = await openPglite(':memory:', { loadDataDir: blank });
const rows: Record<string, Sample> = {};
for (let round = 1; round <= ROUNDS; round += 1) {
  rows[`round ${round}: in this thread`] = await measure(() => inThread.query('SELECT 1 AS one'));
  rows[`round ${round}: via the worker`] = await measure(() => viaWorker.query('SELECT 1 AS one'));
}
await inThread.close();
await viaWorker.close();
console.log(`${QUERIES} trivial SELECTs one after another, per query:`);
console.table(rows);

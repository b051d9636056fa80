/**
 * Job-engines benchmark: two ways of running each tenant's periodic work once across replicas,
 * measured on the same synthetic scenario (the coordination alone, not the app). 500 tenants, each
 * with a poll due every 15 s and a check every 5 s; three worker processes (`bench/job-engines-worker.ts`);
 * a unit of work is `SELECT 1` and 20 ms of sleep. First with leases as the app takes them today
 * (every worker tries every tenant's lease at each tick), then with pg-boss. For each: the database's
 * transactions and the workers' statements a second over a steady 60 s, lateness (start − due), runs
 * per tick (missed, twice), RSS and connections per worker; then one worker is killed with SIGKILL:
 * how soon the work it ran runs elsewhere, and the ticks missed or run twice around the kill.
 * Everything lives in a database of its own, so that its transaction count is the bench's alone: a
 * throwaway schema there (pg-boss in a schema of its own beside it), the database dropped after.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import PgBoss from 'pg-boss';
import { createTestSchema } from '../test/support/databases.js';
import { dueAt, KINDS, WORK_MS, type JobEnginesBenchResult, type MechanismFigures, type Mechanism } from './job-engines-report.js';
import type { EngineWorkerReply } from './job-engines-worker.js';
import { BENCH_POSTGRES_URL, queryOnce } from './postgres.js';
import { percentile, round } from './stats.js';

const TENANTS = Number(process.env.BENCH_ENGINES_TENANTS ?? 500);
const WORKERS = 3;
const IDLE_MS = 5_000;
/** Long enough for every tenant's poll to have run once and the leases to have settled. */
const WARMUP_MS = 17_000;
const STEADY_MS = 60_000;
/** A dead worker's poll leases expire 22.5 s after its last renewal; the survivors' next try after that is up to 30 s after. */
const AFTER_KILL_MS = 36_000;
const ENTRY = fileURLToPath(new URL('./job-engines-worker.ts', import.meta.url));
const PG_BOSS_VERSION = (JSON.parse(readFileSync(new URL('../node_modules/pg-boss/package.json', import.meta.url), 'utf8')) as { version: string }).version;

interface Run {
  tenant: number;
  kind: number;
  tick: number;
  worker: number;
  startedAt: number;
}

interface Worker {
  child: ChildProcess;
  ask<T extends EngineWorkerReply['type']>(type: T): Promise<Extract<EngineWorkerReply, { type: T }>>;
  close(): Promise<void>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const sorted = (values: number[]) => [...values].sort((a, b) => a - b);

export async function runJobEnginesBench(): Promise<JobEnginesBenchResult> {
  const began = performance.now();
  const database = `engines_bench_${randomBytes(4).toString('hex')}`;
  await queryOnce(BENCH_POSTGRES_URL, `CREATE DATABASE ${database}`);
  const databaseUrl = new URL(BENCH_POSTGRES_URL);
  databaseUrl.pathname = `/${database}`;
  const benchUrl = databaseUrl.toString();
  const schema = await createTestSchema(benchUrl).catch(async (error: unknown) => {
    await queryOnce(BENCH_POSTGRES_URL, `DROP DATABASE ${database} WITH (FORCE)`);
    throw error;
  });
  const schemaName = new URL(schema.databaseUrl).searchParams.get('options')!.split('=')[1]!;
  const bossSchema = `${schemaName}_boss`;
  const workers: Worker[] = [];
  try {
    await queryOnce(
      benchUrl,
      `CREATE TABLE ${schemaName}.bench_leases (tenant_id text NOT NULL, name text NOT NULL, holder text NOT NULL, expires_at timestamptz NOT NULL, PRIMARY KEY (tenant_id, name))`,
    );
    // pg-boss's tables and the two queues, made once before its workers start (which then only check them).
    const setup = new PgBoss({
      connectionString: benchUrl,
      schema: bossSchema,
      max: 2,
      application_name: 'bench-engines-setup',
      schedule: false,
      supervise: false,
    });
    setup.on('error', () => undefined);
    await setup.start();
    for (const { name } of KINDS) await setup.createQueue(name, { name, retryLimit: 0 });
    await setup.stop({ graceful: false, wait: true });

    const idleBefore = await databaseTransactions(benchUrl);
    await sleep(IDLE_MS);
    const idleAfter = await databaseTransactions(benchUrl);
    const idle = (idleAfter.transactions - idleBefore.transactions) / ((idleAfter.at - idleBefore.at) / 1000);

    const figures: Partial<Record<Mechanism, MechanismFigures>> = {};
    for (const mechanism of ['leases', 'pg-boss'] as const) {
      figures[mechanism] = await measure(mechanism, benchUrl, schema.databaseUrl, bossSchema, workers);
      await Promise.allSettled(workers.splice(0).map((worker) => worker.close()));
    }
    return {
      tenants: TENANTS,
      workers: WORKERS,
      intervals_s: Object.fromEntries(KINDS.map(({ name, intervalMs }) => [name, intervalMs / 1000])),
      work_ms: WORK_MS,
      pg_boss_version: PG_BOSS_VERSION,
      idle_db_transactions_per_s: round(idle, 1),
      leases: figures.leases!,
      pg_boss: figures['pg-boss']!,
      load_average: loadavg()
        .map((load) => load.toFixed(2))
        .join(' '),
      total_s: round((performance.now() - began) / 1000, 0),
    };
  } finally {
    await Promise.allSettled(workers.map((worker) => worker.close()));
    await queryOnce(benchUrl, `DROP SCHEMA IF EXISTS ${bossSchema} CASCADE`).catch(() => undefined);
    await schema.drop().catch(() => undefined);
    await queryOnce(BENCH_POSTGRES_URL, `DROP DATABASE ${database} WITH (FORCE)`);
  }
}

/** One mechanism: three workers, a warm-up, the steady window, memory, then one worker killed. */
async function measure(mechanism: Mechanism, benchUrl: string, schemaUrl: string, bossSchema: string, workers: Worker[]): Promise<MechanismFigures> {
  const runs: Run[] = [];
  const appName = (w: number) => `bench-engines-${mechanism}-${w}`;
  const urlFor = (w: number) => {
    const url = new URL(schemaUrl);
    url.searchParams.set('application_name', appName(w));
    return url.toString();
  };
  const started = await Promise.all(
    Array.from({ length: WORKERS }, (_, w) =>
      forkWorker(
        {
          BENCH_ENGINE: mechanism,
          BENCH_WORKER: `w${w}`,
          BENCH_TENANTS: String(TENANTS),
          BENCH_DATABENCH_POSTGRES_URL: urlFor(w),
          BENCH_BOSS_SCHEMA: bossSchema,
        },
        (run) => runs.push({ ...run, worker: w }),
      ),
    ),
  );
  workers.push(...started);
  await sleep(WARMUP_MS);

  const statementCount = async () => (await Promise.all(workers.map((worker) => worker.ask('stats')))).reduce((sum, stats) => sum + stats.statements, 0);
  const before = await databaseTransactions(benchUrl);
  const statementsBefore = await statementCount();
  // Connections open, the most seen per worker in six looks across the window (a pool closes a connection idle for 10 s).
  const connections = Array.from({ length: WORKERS }, () => 0);
  for (let look = 0; look < 6; look += 1) {
    await sleep(STEADY_MS / 6);
    const open = await connectionsByApplication(
      benchUrl,
      Array.from({ length: WORKERS }, (_, w) => appName(w)),
    );
    open.forEach((count, w) => (connections[w] = Math.max(connections[w]!, count)));
  }
  const after = await databaseTransactions(benchUrl);
  const statementsAfter = await statementCount();
  const window = { from: before.at, to: after.at };
  const seconds = (after.at - before.at) / 1000;
  const memories = await Promise.all(workers.map((worker) => worker.ask('memory')));
  const errors = (await Promise.all(workers.map((worker) => worker.ask('stats')))).reduce((sum, stats) => sum + stats.errors, 0);

  await sleep(2000);
  const killAt = Date.now();
  workers[0]!.child.kill('SIGKILL');
  await sleep(AFTER_KILL_MS);
  const endAt = Date.now();

  const steady = tally(runs, window.from, window.to);
  const kill = afterKill(runs, killAt, 0);
  const aroundKill = tally(runs, killAt - 15_000, endAt - 5_000);
  return {
    mechanism,
    window_s: round(seconds, 1),
    db_transactions_per_s: round((after.transactions - before.transactions) / seconds, 1),
    statements_per_s: round((statementsAfter - statementsBefore) / seconds, 1),
    lateness_p50_ms: round(percentile(steady.lateness, 50), 0),
    lateness_p99_ms: round(percentile(steady.lateness, 99), 0),
    lateness_max_ms: round(steady.lateness.at(-1) ?? Number.NaN, 0),
    ticks: steady.ticks,
    runs: steady.runs,
    ticks_missed: steady.missed,
    ticks_run_twice_or_more: steady.twice,
    runs_by_worker: Array.from({ length: WORKERS }, (_, w) => steady.byWorker.get(w) ?? 0),
    rss_mb: memories.map((memory) => memory.rssMb),
    heap_mb: memories.map((memory) => memory.heapUsedMb),
    connections,
    errors,
    kill: {
      tenant_kinds: kill.affected,
      resume_p50_s: round(percentile(kill.resume, 50), 1),
      resume_max_s: round(kill.resume.at(-1) ?? Number.NaN, 1),
      not_resumed: kill.notResumed,
      ticks: aroundKill.ticks,
      ticks_missed: aroundKill.missed,
      ticks_run_twice_or_more: aroundKill.twice,
    },
  };
}

const key = (tenant: number, kind: number, tick: number) => `${kind}:${tenant}:${tick}`;

/** Every tenant × kind tick due in [from, to): how many there were, the runs of them, missed, run twice or more, lateness sorted, runs by worker. */
function tally(runs: Run[], from: number, to: number) {
  const counts = new Map<string, number>();
  const byWorker = new Map<number, number>();
  const lateness: number[] = [];
  for (const run of runs) {
    const due = dueAt(run.tenant, TENANTS, KINDS[run.kind]!.intervalMs, run.tick);
    if (due < from || due >= to) continue;
    counts.set(key(run.tenant, run.kind, run.tick), (counts.get(key(run.tenant, run.kind, run.tick)) ?? 0) + 1);
    lateness.push(run.startedAt - due);
    byWorker.set(run.worker, (byWorker.get(run.worker) ?? 0) + 1);
  }
  let ticks = 0;
  let missed = 0;
  let twice = 0;
  for (let kind = 0; kind < KINDS.length; kind += 1) {
    const { intervalMs } = KINDS[kind]!;
    for (let tenant = 0; tenant < TENANTS; tenant += 1) {
      for (let tick = Math.floor(from / intervalMs) - 1; dueAt(tenant, TENANTS, intervalMs, tick) < to; tick += 1) {
        if (dueAt(tenant, TENANTS, intervalMs, tick) < from) continue;
        ticks += 1;
        const count = counts.get(key(tenant, kind, tick)) ?? 0;
        if (count === 0) missed += 1;
        if (count > 1) twice += 1;
      }
    }
  }
  return { ticks, runs: lateness.length, missed, twice, byWorker, lateness: sorted(lateness) };
}

/** The tenant × kind pairs whose last run before the kill was on the killed worker: seconds from the kill to their next run on another. */
function afterKill(runs: Run[], killAt: number, killed: number) {
  const last = new Map<string, Run>();
  const next = new Map<string, Run>();
  for (const run of runs) {
    const pair = `${run.kind}:${run.tenant}`;
    if (run.startedAt < killAt) {
      if ((last.get(pair)?.startedAt ?? -Infinity) < run.startedAt) last.set(pair, run);
    } else if (run.worker !== killed && (next.get(pair)?.startedAt ?? Infinity) > run.startedAt) next.set(pair, run);
  }
  const affected = [...last].filter(([, run]) => run.worker === killed).map(([pair]) => pair);
  const resume = affected.flatMap((pair) => (next.has(pair) ? [(next.get(pair)!.startedAt - killAt) / 1000] : []));
  return { affected: affected.length, resume: sorted(resume), notResumed: affected.length - resume.length };
}

function forkWorker(env: Record<string, string>, onRun: (run: Omit<Run, 'worker'>) => void): Promise<Worker> {
  const child = fork(ENTRY, { env: { ...process.env, ...env }, execArgv: ['--import', 'tsx', '--expose-gc'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  child.on('message', (message: EngineWorkerReply) => {
    if (message.type === 'run') onRun({ tenant: message.tenant, kind: message.kind, tick: message.tick, startedAt: message.startedAt });
  });
  const next = <T extends EngineWorkerReply['type']>(type: T) =>
    new Promise<Extract<EngineWorkerReply, { type: T }>>((resolve, reject) => {
      const onMessage = (message: EngineWorkerReply) => {
        if (message.type === type || message.type === 'failed') {
          child.off('message', onMessage);
          child.off('exit', onExit);
          if (message.type === 'failed') reject(new Error(`a worker failed: ${message.reason}`));
          else resolve(message as Extract<EngineWorkerReply, { type: T }>);
        }
      };
      const onExit = (code: number | null) => reject(new Error(`a worker exited (${code})`));
      child.on('message', onMessage);
      child.once('exit', onExit);
    });
  return next('ready').then(() => ({
    child,
    ask: (type) => {
      const reply = next(type);
      child.send({ ask: type });
      return reply;
    },
    close: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.send({ ask: 'close' });
      await Promise.race([exited, sleep(5000).then(() => child.kill('SIGKILL'))]);
    },
  }));
}

/** The bench database's committed and rolled-back transactions so far (these probes' own included, one each). */
async function databaseTransactions(url: string): Promise<{ at: number; transactions: number }> {
  await queryOnce(url, 'SELECT pg_stat_force_next_flush()').catch(() => undefined);
  const [row] = await queryOnce<{ xacts: string }>(url, 'SELECT xact_commit + xact_rollback AS xacts FROM pg_stat_database WHERE datname = current_database()');
  return { at: Date.now(), transactions: Number(row?.xacts ?? 0) };
}

async function connectionsByApplication(url: string, names: string[]): Promise<number[]> {
  const rows = await queryOnce<{ application_name: string; n: string }>(
    url,
    'SELECT application_name, count(*) AS n FROM pg_stat_activity WHERE application_name = ANY($1) GROUP BY 1',
    [names],
  );
  return names.map((name) => Number(rows.find((row) => row.application_name === name)?.n ?? 0));
}

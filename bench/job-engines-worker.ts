/**
 * One worker process of the job-engines benchmark (`bench/job-engines.ts`), so that its memory and
 * connections are its own and a SIGKILL ends it as a crash would. BENCH_ENGINE says how it runs each
 * tenant's periodic work once across workers: `leases` (a timer per tenant and kind, each tick a
 * lease statement shaped as `tryAcquireLease`'s, the work when it holds the lease) or `pg-boss`
 * (each tick's jobs inserted by every worker, one kept per tick by pg-boss's throttling key, and
 * fetched by pg-boss's workers). Every statement goes through one counting pool of 10 connections.
 * It tells the parent of each unit of work as it starts, and answers `stats` and `memory`.
 */
import pg from 'pg';
import PgBoss from 'pg-boss';
import { dueAt, KINDS, LEASE_TTL_INTERVALS, WORK_MS } from './job-engines-report.js';

export type EngineWorkerReply =
  | { type: 'ready' }
  | { type: 'run'; tenant: number; kind: number; tick: number; startedAt: number }
  | { type: 'stats'; statements: number; errors: number }
  | { type: 'memory'; rssMb: number; heapUsedMb: number }
  | { type: 'failed'; reason: string };

const engine = process.env.BENCH_ENGINE;
const workerId = process.env.BENCH_WORKER ?? 'worker';
const tenants = Number(process.env.BENCH_TENANTS ?? 500);
const bossSchema = process.env.BENCH_BOSS_SCHEMA ?? 'pgboss';
const send = (message: EngineWorkerReply) => process.send?.(message);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const mb = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;

// The parent gone (a failed run), this worker goes too.
process.on('disconnect', () => process.exit(0));

const pool = new pg.Pool({ connectionString: process.env.BENCH_DATABASE_URL, max: 10 });
let statements = 0;
let errors = 0;
pool.on('error', () => (errors += 1));
const query = (text: string, values?: unknown[]) => {
  statements += 1;
  return pool.query(text, values);
};

/** The unit of work: one small query and 20 ms of simulated I/O, reported as it starts. */
async function work(tenant: number, kind: number, tick: number): Promise<void> {
  send({ type: 'run', tenant, kind, tick, startedAt: Date.now() });
  await query('SELECT 1');
  await sleep(WORK_MS);
}

/** `tryAcquireLease`'s statement (src/store/leases.ts), the tenant in a column instead of the app's per-connection setting. */
async function tryAcquireLease(tenant: string, name: string, ttlMs: number): Promise<boolean> {
  const result = await query(
    `INSERT INTO bench_leases (tenant_id, name, holder, expires_at) VALUES ($1, $2, $3, clock_timestamp() + $4 * interval '1 millisecond')
     ON CONFLICT (tenant_id, name) DO UPDATE SET holder = excluded.holder, expires_at = excluded.expires_at
       WHERE bench_leases.holder = excluded.holder OR bench_leases.expires_at <= clock_timestamp()
     RETURNING holder`,
    [tenant, name, workerId, Math.ceil(ttlMs)],
  );
  return result.rows.length === 1;
}

/** As the app does today: every worker, for every tenant and kind, tries the lease at each tick and works when it holds it. */
function startLeases(): void {
  const schedule = (tenant: number, kind: number, tick: number) => {
    const { name, intervalMs } = KINDS[kind]!;
    const now = Date.now();
    // A tick whose time passed while the event loop was busy is skipped, as a timer of the app's would be.
    while (dueAt(tenant, tenants, intervalMs, tick) < now - intervalMs) tick += 1;
    setTimeout(
      () => {
        schedule(tenant, kind, tick + 1);
        tryAcquireLease(`T${tenant}`, `${name}:T${tenant}`, intervalMs * LEASE_TTL_INTERVALS)
          .then((held) => (held ? work(tenant, kind, tick) : undefined))
          .catch(() => (errors += 1));
      },
      Math.max(0, dueAt(tenant, tenants, intervalMs, tick) - now),
    );
  };
  const now = Date.now();
  for (let kind = 0; kind < KINDS.length; kind += 1) {
    const { intervalMs } = KINDS[kind]!;
    for (let tenant = 0; tenant < tenants; tenant += 1) {
      let tick = Math.floor(now / intervalMs);
      if (dueAt(tenant, tenants, intervalMs, tick) < now) tick += 1;
      schedule(tenant, kind, tick);
    }
  }
}

/**
 * pg-boss: at the start of each interval every worker inserts that interval's job for every tenant,
 * due at the tenant's offset (`startAfter`); `singletonKey` (the tenant) with `singletonSeconds`
 * (the interval) keeps one job per tenant and interval however many workers insert it. Each worker
 * fetches up to 50 due jobs a queue every 0.5 s (pg-boss's shortest polling interval) and runs them
 * at once; a periodic job is not retried (the next tick replaces it).
 */
async function startPgBoss(): Promise<void> {
  const boss = new PgBoss({ db: { executeSql: (text, values) => query(text, values) }, schema: bossSchema, schedule: false, migrate: false });
  boss.on('error', () => (errors += 1));
  await boss.start();
  for (let kind = 0; kind < KINDS.length; kind += 1) {
    const { name, intervalMs } = KINDS[kind]!;
    const produce = (slot: number) => {
      setTimeout(
        () => {
          produce(slot + 1);
          const jobs = Array.from({ length: tenants }, (_, tenant) => ({
            name,
            data: { tenant, tick: slot },
            singletonKey: `T${tenant}`,
            singletonSeconds: intervalMs / 1000,
            startAfter: new Date(dueAt(tenant, tenants, intervalMs, slot)).toISOString(),
          }));
          boss.insert(jobs).catch(() => (errors += 1));
        },
        // 25 ms into the interval, so that every worker's insert falls in the same throttling slot.
        Math.max(0, slot * intervalMs + 25 - Date.now()),
      );
    };
    produce(Math.floor(Date.now() / intervalMs) + 1);
    await boss.work<{ tenant: number; tick: number }>(name, { batchSize: 50, pollingIntervalSeconds: 0.5 }, async (jobs) => {
      await Promise.all(jobs.map((job) => work(job.data.tenant, kind, job.data.tick)));
    });
  }
}

try {
  if (engine === 'leases') startLeases();
  else if (engine === 'pg-boss') await startPgBoss();
  else throw new Error(`BENCH_ENGINE must be leases or pg-boss, not ${engine}`);
  send({ type: 'ready' });
  process.on('message', (message: { ask: string }) => {
    if (message.ask === 'stats') send({ type: 'stats', statements, errors });
    if (message.ask === 'memory') {
      (globalThis as { gc?: () => void }).gc?.();
      const usage = process.memoryUsage();
      send({ type: 'memory', rssMb: mb(usage.rss), heapUsedMb: mb(usage.heapUsed) });
    }
    if (message.ask === 'close') process.exit(0);
  });
} catch (error) {
  send({ type: 'failed', reason: error instanceof Error ? error.message : String(error) });
  process.exit(1);
}

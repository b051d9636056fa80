/**
 * The job-engines benchmark's scenario and figures (`bench/job-engines.ts`): the periodic kinds and
 * when each tick is due, shared by the parent and its worker processes, then its result and its table.
 */

/** The two periodic kinds every tenant has, as in the scenario: a poll every 15 s, a check every 5 s. */
export const KINDS = [
  { name: 'poll', intervalMs: 15_000 },
  { name: 'check', intervalMs: 5_000 },
] as const;

/** The simulated I/O of one unit of work, after its `SELECT 1`. */
export const WORK_MS = 20;

/** A lease outlives one interval by half of one, as the feed's does (`src/feed/transaction-feed.ts`). */
export const LEASE_TTL_INTERVALS = 1.5;

export type Mechanism = 'leases' | 'pg-boss';

/**
 * When tick `tick` of a tenant's kind is due (ms since the epoch): ticks are the kind's interval
 * counted from the epoch (pg-boss's throttling slots are the same), each tenant at a fixed offset
 * into it so that the tenants' work is spread across the interval rather than due all at once.
 */
export function dueAt(tenant: number, tenants: number, intervalMs: number, tick: number): number {
  return tick * intervalMs + Math.floor((tenant * intervalMs) / tenants);
}

/** One mechanism's figures. */
export interface MechanismFigures {
  mechanism: Mechanism;
  window_s: number;
  /** pg_stat_database, the whole database: another process's work on it adds (see idle_db_transactions_per_s). */
  db_transactions_per_s: number;
  /** Statements the three workers sent, counted by their pools (a multi-statement text counts once). */
  statements_per_s: number;
  /** Work runs whose tick was due in the steady window: start − due. */
  lateness_p50_ms: number;
  lateness_p99_ms: number;
  lateness_max_ms: number;
  ticks: number;
  runs: number;
  ticks_missed: number;
  ticks_run_twice_or_more: number;
  /** How the steady window's runs fell on the three workers. */
  runs_by_worker: number[];
  rss_mb: number[];
  heap_mb: number[];
  connections: number[];
  errors: number;
  kill: {
    /** Tenant × kind pairs whose last run before the kill was on the killed worker. */
    tenant_kinds: number;
    resume_p50_s: number;
    resume_max_s: number;
    not_resumed: number;
    ticks: number;
    ticks_missed: number;
    ticks_run_twice_or_more: number;
  };
}

export interface JobEnginesBenchResult {
  tenants: number;
  workers: number;
  intervals_s: Record<string, number>;
  work_ms: number;
  pg_boss_version: string;
  /** The database's transactions a second for 10 s before any worker started: other processes' share. */
  idle_db_transactions_per_s: number;
  leases: MechanismFigures;
  pg_boss: MechanismFigures;
  load_average: string;
  total_s: number;
}

export function printJobEnginesBench(result: JobEnginesBenchResult): void {
  const kinds = Object.entries(result.intervals_s)
    .map(([kind, seconds]) => `${kind} every ${seconds} s`)
    .join(', ');
  console.log(
    `\nPeriodic work, leases against pg-boss ${result.pg_boss_version}: ${result.tenants} tenants × (${kinds}), ${result.workers} worker processes, ` +
      `a unit of work = SELECT 1 + ${result.work_ms} ms`,
  );
  const row = (figures: MechanismFigures) => ({
    'transactions/s': figures.db_transactions_per_s,
    'statements/s': figures.statements_per_s,
    'late p50/p99/max ms': `${figures.lateness_p50_ms} / ${figures.lateness_p99_ms} / ${figures.lateness_max_ms}`,
    'ticks / runs': `${figures.ticks} / ${figures.runs}`,
    'missed / twice': `${figures.ticks_missed} / ${figures.ticks_run_twice_or_more}`,
    'runs by worker': figures.runs_by_worker.join(' / '),
    'RSS MB': figures.rss_mb.join(' / '),
    'connections (max)': figures.connections.join(' / '),
  });
  console.table({ leases: row(result.leases), 'pg-boss': row(result.pg_boss) });
  const kill = (figures: MechanismFigures) => ({
    'tenant×kinds it ran': figures.kill.tenant_kinds,
    'next run elsewhere p50 s': figures.kill.resume_p50_s,
    'max s': figures.kill.resume_max_s,
    'not resumed': figures.kill.not_resumed,
    'ticks around kill': figures.kill.ticks,
    'missed / twice': `${figures.kill.ticks_missed} / ${figures.kill.ticks_run_twice_or_more}`,
  });
  console.log('one worker killed (SIGKILL):');
  console.table({ leases: kill(result.leases), 'pg-boss': kill(result.pg_boss) });
  console.log(
    `database transactions/s before any worker ran: ${result.idle_db_transactions_per_s}; errors leases ${result.leases.errors}, pg-boss ${result.pg_boss.errors}; ` +
      `load average ${result.load_average}; whole bench ${result.total_s} s`,
  );
}

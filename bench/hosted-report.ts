/** The hosted benchmark's figures (`bench/hosted.ts`): its result, its table and its rows of the targets table. */
import { boundRow, ratioRow, type TargetRow } from './targets.js';

/** A replica's event loop over a window: its delay's max and p99, garbage collection's longest pause and their sum. */
export interface LoopFigures {
  delayMaxMs: number;
  delayP99Ms: number;
  gcMaxMs: number;
  gcTotalMs: number;
  /** Slack's requests inside the replica, headers read to answer sent: the part of an ack the process itself takes. */
  serverAckP50Ms: number;
  serverAckP99Ms: number;
}

export interface HostedBenchResult {
  tenants: number;
  replicas: number;
  grid_mb_per_workspace: number;
  /** The sandbox Fleet API's process, every account in it. */
  sandbox_rss_mb: number;
  seed_ms_per_tenant: number;
  replica_start_s: number[];
  /** During the acks: the event loop's delays and GC pauses of the one tenant's replica and of the first of the three. */
  ack_window_loop: { one_tenant: LoopFigures; many_first_replica: LoopFigures; grid: { delayMaxMs: number; delayP99Ms: number } };
  /** After the last replica started, until the replicas agreed on who runs each workspace's periodic work. */
  placement_settled_s: number;
  one_tenant: { rss_mb: number; heap_mb: number; ack_p50_ms: number; ack_p99_ms: number; feed_delay_p99_s: number };
  many: { rss_mb: number[]; heap_mb: number[]; ack_p50_ms: number; ack_p99_ms: number; feed_delay_p50_s: number; feed_delay_p99_s: number };
  rss_mb_per_added_tenant: number;
  heap_mb_per_added_tenant: number;
  ack_p99_ratio: number;
  poll_interval_s: number;
  connections_per_replica: number[];
  lease_statements_per_s: number;
  lease_writes_per_s: number;
  db_transactions_per_s: number;
  killed_tenants: number;
  /** The delay of the tenants whose feed stayed where it was (0 when the killed replica held every one). */
  unaffected_delay_max_s: number;
  resume_p50_s: number;
  resume_max_s: number;
  entries_posted: number;
  entries_missing: number;
  entries_repeated: number;
  commands_refused: string[];
  total_s: number;
}

export function printHostedBench(result: HostedBenchResult): void {
  console.log(`\nHosted: ${result.tenants} tenants on ${result.replicas} replicas (each a process of its own, Postgres), side by side with one tenant on one`);
  console.table({
    'one tenant, one replica': {
      rss_mb: result.one_tenant.rss_mb,
      heap_mb: result.one_tenant.heap_mb,
      ack_p99_ms: result.one_tenant.ack_p99_ms,
      feed_delay_p99_s: result.one_tenant.feed_delay_p99_s,
    },
    [`${result.tenants} tenants, each replica`]: {
      rss_mb: result.many.rss_mb.join(' / '),
      heap_mb: result.many.heap_mb.join(' / '),
      ack_p99_ms: result.many.ack_p99_ms,
      feed_delay_p99_s: result.many.feed_delay_p99_s,
    },
  });
  console.log(
    `per added tenant: RSS ${result.rss_mb_per_added_tenant} MB, heap ${result.heap_mb_per_added_tenant} MB; ack p99 ratio ${result.ack_p99_ratio}; ` +
      `Postgres connections per replica ${result.connections_per_replica.join(' / ')}; app_leases ${result.lease_statements_per_s} statements/s, ${result.lease_writes_per_s} rows written/s (database ${result.db_transactions_per_s} transactions/s)`,
  );
  console.log(
    `replica killed: ${result.killed_tenants} tenants' feeds moved, resumed p50 ${result.resume_p50_s} s, max ${result.resume_max_s} s (others' max ${result.unaffected_delay_max_s} s); ` +
      `entries posted ${result.entries_posted}, missing ${result.entries_missing}, repeated ${result.entries_repeated}; ` +
      `grid ${result.grid_mb_per_workspace} MB/workspace, sandbox process ${result.sandbox_rss_mb} MB, seeding ${result.seed_ms_per_tenant} ms/tenant; ` +
      `replica start ${result.replica_start_s.join(' / ')} s, placement settled ${result.placement_settled_s} s later; whole bench ${result.total_s} s`,
  );
  const loop = (figures: LoopFigures) =>
    `loop delay p99 ${figures.delayP99Ms} / max ${figures.delayMaxMs} ms, GC longest ${figures.gcMaxMs} ms, ${figures.gcTotalMs} ms in all, ` +
    `ack inside the process p50 ${figures.serverAckP50Ms} / p99 ${figures.serverAckP99Ms} ms`;
  console.log(
    `during the acks: one tenant's replica ${loop(result.ack_window_loop.one_tenant)}; the first of three ${loop(result.ack_window_loop.many_first_replica)}; ` +
      `the grid serving the Web API: loop delay p99 ${result.ack_window_loop.grid.delayP99Ms} / max ${result.ack_window_loop.grid.delayMaxMs} ms`,
  );
  if (result.commands_refused.length > 0)
    console.log(`commands not answered 200: ${result.commands_refused.length}, e.g. ${result.commands_refused.slice(0, 3).join('; ')}`);
}

/** The targets for hosted mode, for the table at the end of `npm run bench`. */
export function hostedTargets(result: HostedBenchResult): TargetRow[] {
  return [
    boundRow(
      `hosted, ${result.tenants} tenants: feed creation → post p99 (poll ${result.poll_interval_s} s + 2 s)`,
      result.many.feed_delay_p99_s,
      's',
      result.poll_interval_s + 2,
    ),
    boundRow(`hosted: a replica killed, its tenants' feeds resume within (max)`, result.resume_max_s, 's', 30),
    boundRow('hosted: entries missing or posted twice across the kill', result.entries_missing + result.entries_repeated, 'entries', 0),
    boundRow('hosted: RSS per added tenant', result.rss_mb_per_added_tenant, 'MB', 0.5),
    ratioRow(`hosted: ack p99, ${result.tenants} tenants`, result.many.ack_p99_ms, result.one_tenant.ack_p99_ms, 'ms', 1.2, 'one tenant'),
  ];
}

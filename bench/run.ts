/**
 * `npm run bench`: every benchmark of the project in one run; the last line is one JSON object.
 * `BENCH_ONLY=ack,heavy` (any of the names passed to `wanted` below) runs only those, still ending
 * with the targets table.
 */
import { loadavg } from 'node:os';
import { runAckBench, type AckBenchResult } from './ack.js';
import { printApprovalSignalsBench, runApprovalSignalsBench } from './approval-signals.js';
import { printBatchBench, runBatchBench } from './batch.js';
import { printConnectionsBench, runConnectionsBench } from './connections.js';
import { printExportBench, runExportBench } from './export.js';
import { printFeedBench, runFeedBench } from './feed.js';
import { demoStartTargets, printDemoStartBench, runDemoStartBench } from './demo-start.js';
import { IDLE_RSS_RATIO, printFootprintBench, runFootprintBench } from './footprint.js';
import { runHostedBench } from './hosted.js';
import { hostedTargets, printHostedBench } from './hosted-report.js';
import { runJobEnginesBench } from './job-engines.js';
import { printJobEnginesBench } from './job-engines-report.js';
import { printHeavyBench, runHeavyBench, type HeavyBenchResult } from './heavy.js';
import { listFilterTargets } from './ledger-filters.js';
import { printLedgerBench, runLedgerBench } from './ledger.js';
import { printModalOpenBench, runModalOpenBench } from './modal-open.js';
import { printRecordsBench, recordsTargets, runRecordsBench } from './records.js';
import { printRunwayBench, runRunwayBench } from './runway.js';
import { printSoak, runSoak, soakOptionsFrom, type SoakResult } from './soak.js';
import { boundRow, printTargets, ratioRow, type TargetRow } from './targets.js';

const targets: TargetRow[] = [];
const results: Record<string, unknown> = { targets };
const only = new Set((process.env.BENCH_ONLY ?? '').split(',').filter(Boolean));
const wanted = (name: string) => only.size === 0 || only.has(name);
/** The machine's load beside each figure: absolute figures mean little on a loaded machine. */
const loadAverage = () =>
  loadavg()
    .map((load) => load.toFixed(2))
    .join(' ');

const ackRuns: Record<string, AckBenchResult> = {};
for (const store of wanted('ack') ? (['embedded', 'postgres'] as const) : []) {
  const storeName = store === 'embedded' ? 'embedded store' : 'Postgres';
  const ack = await runAckBench({ store });
  console.log(
    `\nAck latency, ${storeName}: 200 concurrent signed /fleet balance (Fleet API +2 s), 6 rounds each, order alternating, each app in a process of its own`,
  );
  console.table({
    bot: { p50_ms: ack.bot_ack_p50_ms, p99_ms: ack.bot_ack_p99_ms, cpu_ms_per_command: ack.bot_cpu_ms_per_command },
    'bare Bolt (ack, answer 2 s later)': { p50_ms: ack.bare_ack_p50_ms, p99_ms: ack.bare_ack_p99_ms, cpu_ms_per_command: ack.bare_cpu_ms_per_command },
  });
  targets.push(ratioRow(`ack p99, answers waiting on the API, ${storeName}`, ack.bot_ack_p99_ms, ack.bare_ack_p99_ms, 'ms', 1.2, 'bare Bolt'));
  console.log(
    `p99 ratio ${ack.p99_ratio} (target ≤ 1.2); Fleet API balance calls per burst of ${ack.commands_per_burst}: ${ack.fleet_balance_calls_per_burst} (target 1)`,
  );
  console.log(`load average (1, 5, 15 min): ${loadAverage()}`);
  ackRuns[`${store}_waiting_on_api`] = ack;

  const ackCached = await runAckBench({ store, answersFromCache: true });
  console.log(`\nAck latency, ${storeName}, answers from cache: the same bursts, the balance read just before each (bare Bolt acks and answers)`);
  console.table({
    bot: { p50_ms: ackCached.bot_ack_p50_ms, p99_ms: ackCached.bot_ack_p99_ms, cpu_ms_per_command: ackCached.bot_cpu_ms_per_command },
    'bare Bolt (ack and answer)': {
      p50_ms: ackCached.bare_ack_p50_ms,
      p99_ms: ackCached.bare_ack_p99_ms,
      cpu_ms_per_command: ackCached.bare_cpu_ms_per_command,
    },
  });
  targets.push(ratioRow(`ack p99, answers from cache, ${storeName}`, ackCached.bot_ack_p99_ms, ackCached.bare_ack_p99_ms, 'ms', 1.2, 'bare Bolt'));
  console.log(
    `p99 ratio ${ackCached.p99_ratio} (target ≤ 1.2); Fleet API balance calls per burst of ${ackCached.commands_per_burst}: ${ackCached.fleet_balance_calls_per_burst} (target 0)`,
  );
  console.log(`load average (1, 5, 15 min): ${loadAverage()}`);
  ackRuns[`${store}_from_cache`] = ackCached;
}

if (wanted('ack')) results.ack = ackRuns;

const heavyRuns: HeavyBenchResult[] = [];
for (const store of wanted('heavy') ? (['embedded', 'postgres'] as const) : []) {
  const heavy = await runHeavyBench({ store });
  printHeavyBench(heavy);
  const storeName = store === 'embedded' ? 'embedded store' : 'Postgres';
  targets.push(ratioRow(`ack p99 while heavy work runs, ${storeName}`, heavy.bot_ack_p99_ms, heavy.bare_ack_p99_ms, 'ms', 1.3, 'bare Bolt'));
  targets.push(
    boundRow(
      `event loop delay max while heavy work runs, ${storeName} (p99 ${heavy.event_loop_p99_ms} ms; the bare Bolt app's own max ${heavy.bare_event_loop_max_ms} ms)`,
      heavy.event_loop_max_ms,
      'ms',
      50,
    ),
  );
  console.log(`load average (1, 5, 15 min): ${loadAverage()}`);
  heavyRuns.push(heavy);
}
if (wanted('heavy')) results.heavy = heavyRuns;

if (wanted('connections')) {
  const connections = await runConnectionsBench();
  printConnectionsBench(connections);
  results.connections = connections;
}

if (wanted('feed')) {
  const feed = await runFeedBench();
  printFeedBench(feed);
  results.feed = feed;
}

// The feed soak (issue 45): 2 minutes per store unless SOAK_MINUTES says otherwise (SOAK_STORE=embedded for one store; bench/soak.ts).
if (wanted('soak')) {
  const chosen = soakOptionsFrom([], process.env);
  const soakRuns: SoakResult[] = [];
  for (const store of chosen.store ? [chosen.store] : (['embedded', 'postgres'] as const)) {
    const soak = await runSoak({ ...chosen, store, ...(chosen.dir ? { dir: `${chosen.dir}/${store}` } : {}), progress: (line) => console.log(line) });
    printSoak(soak);
    const storeName = store === 'embedded' ? 'embedded store' : 'Postgres';
    targets.push(boundRow(`feed soak, ${soak.minutes} min: entries missing or repeated, ${storeName}`, soak.missing + soak.repeated, 'entries', 0));
    targets.push(boundRow(`feed soak: creation → post max, ${storeName} (p99 ${soak.delay_p99_s} s)`, soak.delay_max_s, 's', soak.delay_bound_s));
    console.log(`load average (1, 5, 15 min): ${loadAverage()}`);
    soakRuns.push(soak);
  }
  results.soak = soakRuns;
}

if (wanted('footprint')) {
  const footprint = await runFootprintBench();
  printFootprintBench(footprint);
  targets.push(
    ratioRow(
      'idle RSS, embedded store (larger of first and later start)',
      Math.max(footprint.embedded_first.rss_idle_mb, footprint.embedded_later.rss_idle_mb),
      footprint.postgres.rss_idle_mb,
      'MB',
      IDLE_RSS_RATIO,
      'Postgres mode',
    ),
  );
  results.footprint = footprint;
}

if (wanted('demo')) {
  const demoStart = await runDemoStartBench();
  printDemoStartBench(demoStart);
  targets.push(...demoStartTargets(demoStart));
  results.demo_start = demoStart;
}

if (wanted('ledger')) {
  const ledger = await runLedgerBench();
  printLedgerBench(ledger);
  targets.push(
    ...listFilterTargets('Postgres', Number(ledger.figures.postgres_rows), ledger.listFilters.postgres),
    ...listFilterTargets('embedded store', Number(ledger.figures.pglite_rows), ledger.listFilters.pglite),
  );
  results.ledger = ledger;
}

if (wanted('export')) {
  const ledgerExport = await runExportBench();
  printExportBench(ledgerExport);
  results.export = ledgerExport;
}

if (wanted('batch')) {
  const batch = await runBatchBench();
  printBatchBench(batch);
  results.batch = batch;
}

if (wanted('approval-signals')) {
  const approvalSignals = await runApprovalSignalsBench();
  printApprovalSignalsBench(approvalSignals);
  targets.push(
    boundRow(`approval message signals, ${approvalSignals.payouts} payouts stored (max of 20, one query)`, approvalSignals.signals_max_ms, 'ms', 3000),
  );
  results.approval_signals = approvalSignals;
}

if (wanted('records')) {
  const records = await runRecordsBench();
  printRecordsBench(records);
  targets.push(...recordsTargets(records));
  results.records = records;
}

if (wanted('runway')) {
  const runway = await runRunwayBench();
  printRunwayBench(runway);
  targets.push(boundRow('runway chart p99 (3 currencies, PNG in a worker)', runway.chart_p99_ms ?? Number.NaN, 'ms', 200));
  targets.push(boundRow('event loop delay p99 while charts render', runway.event_loop_delay_p99_ms ?? Number.NaN, 'ms', 50));
  results.runway = runway;
}

if (wanted('modal')) {
  const modal = await runModalOpenBench();
  printModalOpenBench(modal);
  targets.push(boundRow(`Approve click → modal open p99, ${modal.round_trip_ms} ms Slack round trips`, modal.click_to_modal_p99_ms, 'ms', 1500));
  targets.push(boundRow(`expired trigger ids in ${modal.clicks} Approve clicks`, modal.expired_triggers, 'clicks', 0));
  targets.push(boundRow('lookups before a modal: p99 added by a 429 storm on background posting', modal.lookup_storm_added_p99_ms, 'ms', 50));
  results.modal_open = modal;
}

if (wanted('hosted')) {
  const hosted = await runHostedBench();
  printHostedBench(hosted);
  targets.push(...hostedTargets(hosted));
  console.log(`load average (1, 5, 15 min): ${loadAverage()}`);
  results.hosted = hosted;
}

if (wanted('engines')) {
  const engines = await runJobEnginesBench();
  printJobEnginesBench(engines);
  console.log(`load average (1, 5, 15 min): ${loadAverage()}`);
  results.job_engines = engines;
}

printTargets(targets);

console.log(JSON.stringify(results));

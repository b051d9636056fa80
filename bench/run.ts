/** `npm run bench`: every benchmark of the project in one run; the last line is one JSON object. */
import { runAckBench } from './ack.js';
import { printBatchBench, runBatchBench } from './batch.js';
import { printConnectionsBench, runConnectionsBench } from './connections.js';
import { printExportBench, runExportBench } from './export.js';
import { printFeedBench, runFeedBench } from './feed.js';
import { printFootprintBench, runFootprintBench } from './footprint.js';
import { printLedgerBench, runLedgerBench } from './ledger.js';
import { printRunwayBench, runRunwayBench } from './runway.js';
import { boundRow, printTargets, ratioRow, type TargetRow } from './targets.js';

const targets: TargetRow[] = [];

const ack = await runAckBench();
console.log('\nAck latency, 200 concurrent signed /fleet balance (Fleet API +2 s), 6 rounds each, order alternating');
console.table({
  bot: { p50_ms: ack.bot_ack_p50_ms, p99_ms: ack.bot_ack_p99_ms },
  'bare Bolt (ack only)': { p50_ms: ack.bare_ack_p50_ms, p99_ms: ack.bare_ack_p99_ms },
});
targets.push(ratioRow('ack p99, answers waiting on the API, embedded store', ack.bot_ack_p99_ms, ack.bare_ack_p99_ms, 'ms', 1.2, 'bare Bolt'));
console.log(`p99 ratio ${ack.p99_ratio} (target ≤ 1.2); Fleet API balance calls per burst of ${ack.commands_per_burst}: ${ack.fleet_balance_calls_per_burst} (target 1)`);

const ackCached = await runAckBench({ answersFromCache: true });
console.log('\nAck latency, answers from cache: the same bursts, the balance read just before each (bare Bolt acks and answers)');
console.table({
  bot: { p50_ms: ackCached.bot_ack_p50_ms, p99_ms: ackCached.bot_ack_p99_ms },
  'bare Bolt (ack and answer)': { p50_ms: ackCached.bare_ack_p50_ms, p99_ms: ackCached.bare_ack_p99_ms },
});
targets.push(ratioRow('ack p99, answers from cache, embedded store', ackCached.bot_ack_p99_ms, ackCached.bare_ack_p99_ms, 'ms', 1.2, 'bare Bolt'));
console.log(`p99 ratio ${ackCached.p99_ratio} (target ≤ 1.2); Fleet API balance calls per burst of ${ackCached.commands_per_burst}: ${ackCached.fleet_balance_calls_per_burst} (target 0)`);

const connections = await runConnectionsBench();
printConnectionsBench(connections);

const feed = await runFeedBench();
printFeedBench(feed);

const footprint = await runFootprintBench();
printFootprintBench(footprint);

const ledger = await runLedgerBench();
printLedgerBench(ledger);

const ledgerExport = await runExportBench();
printExportBench(ledgerExport);

const batch = await runBatchBench();
printBatchBench(batch);

const runway = await runRunwayBench();
printRunwayBench(runway);
targets.push(boundRow('runway chart p99 (3 currencies, PNG in a worker)', runway.chart_p99_ms ?? Number.NaN, 'ms', 200));
targets.push(boundRow('event loop delay p99 while charts render', runway.event_loop_delay_p99_ms ?? Number.NaN, 'ms', 50));

printTargets(targets);

console.log(JSON.stringify({ targets, ack, ack_from_cache: ackCached, connections, feed, footprint, ledger, export: ledgerExport, batch, runway }));

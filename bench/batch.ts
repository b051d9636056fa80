/**
 * Bulk payout benchmarks. (1) Checking a 500-row file: reading, every row's rules, and the store's
 * facts (used references, known recipients) on PGlite. (2) Executing a 500-row batch against the
 * sandbox at PAYOUT_BATCH_RATE through the bot as its own process, killed with SIGKILL half-way and
 * started again on the same DATA_DIR: every row must reach the sandbox once. (3) Two bot processes on
 * one Postgres (TEST_DATABASE_URL) sending one batch: every row once. Rows and rates from
 * BENCH_BATCH_ROWS, BENCH_BATCH_RATE, BENCH_REPLICA_RATE.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { startLocalSlack, type LocalSlack } from '@fleet-treasury-bot/local-slack';
import { createLogger } from '../src/core/logger.js';
import { PayoutBatchService } from '../src/payouts/index.js';
import { startSandbox, type Sandbox } from '../src/sandbox/server.js';
import { openDatabase } from '../src/store/index.js';
import { systemClock } from '../src/core/clock.js';
import { PAYOUT_BATCH, PAYOUT_BATCH_ACTIONS } from '../src/slack/ids.js';
import { createTestSchema } from '../test/support/databases.js';
import { startBotProcess, type BotProcess } from '../test/support/bot-process.js';

const ROWS = Number(process.env.BENCH_BATCH_ROWS ?? 500);
const RATE = Number(process.env.BENCH_BATCH_RATE ?? 2);
const REPLICA_RATE = Number(process.env.BENCH_REPLICA_RATE ?? 20);
const SIGNING_SECRET = 'benchbatch0signing0secret0000000';
const BOT_TOKEN = 'xoxb-bench-batch-token';
const REQUESTER = 'U0REQUESTER';
const APPROVER = 'U0APPROVER';
const HEADER = 'kind,number,provider,name,country,amount,currency,reference,note';

export function fileOf(rows: number, seed: number): string {
  const lines = Array.from(
    { length: rows },
    (_, index) =>
      `mobile,24381${String(seed * 100_000 + index).padStart(7, '0')},VODACOM_MPESA,Person ${index},CD,1.${String(index % 100).padStart(2, '0')},USD,,bench`,
  );
  return `${HEADER}\n${lines.join('\n')}\n`;
}

export interface BatchBench {
  check_500_rows_ms: number;
  rows: number;
  rate_per_second: number;
  killed_after_rows: number;
  execution_seconds: number;
  posts: number;
  duplicates: number;
  missing: number;
  replicas: { rows: number; rate_per_second: number; seconds: number; posts: number; duplicates: number; missing: number } | { skipped: string };
}

async function checkBench(): Promise<number> {
  const folder = await mkdtemp(path.join(os.tmpdir(), 'bench-batch-'));
  const db = await openDatabase({ dataDir: folder, logger: createLogger({ level: 'silent' }) });
  const roles = { canRequest: async () => true, canApprove: async () => true };
  const settings = {
    operators: ['VODACOM_MPESA'],
    currencies: ['USD'],
    maxAmount: new Map([['USD', 5_000_000]]),
    dailyLimit: new Map([['USD', 100_000_000]]),
    dualApprovalAbove: new Map([['USD', 100_000]]),
    requestTtlHours: 24,
    settleWindowMinutes: 10,
    newRecipientApprovals: 2,
    duplicateWindowHours: 72,
    seniorApprovalAbove: new Map(),
  };
  const batches = new PayoutBatchService({
    db,
    clock: systemClock,
    settings,
    batchSettings: { maxRows: 500, ratePerSecond: 2 },
    roles,
    logger: createLogger({ level: 'silent' }),
  });
  const times: number[] = [];
  for (let round = 0; round < 5; round += 1) {
    const started = performance.now();
    const checked = await batches.check(REQUESTER, Buffer.from(fileOf(500, round)));
    times.push(performance.now() - started);
    if (!checked.ok || checked.check.problems.length > 0) throw new Error('the benchmark file has problems');
  }
  await db.close();
  await rm(folder, { recursive: true, force: true });
  return Math.round(Math.max(...times));
}

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** A bot process of its own on `port`, against the external sandbox, with `extra` settings. */
function botOn(slack: LocalSlack, sandbox: Sandbox, port: number, extra: Record<string, string>): BotProcess {
  return startBotProcess({
    SLACK_BOT_TOKEN: BOT_TOKEN,
    SLACK_SIGNING_SECRET: SIGNING_SECRET,
    SLACK_API_URL: slack.apiUrl,
    PORT: String(port),
    HOST: '127.0.0.1',
    FLEET_API_URL: sandbox.url,
    FLEET_API_KEY: sandbox.apiKey,
    APPROVAL_CHANNEL_ID: 'C0APPROVALS',
    FLEET_REQUESTERS: REQUESTER,
    FLEET_APPROVERS: APPROVER,
    PAYOUT_NEW_RECIPIENT_APPROVALS: '1',
    PAYOUT_DAILY_LIMIT: 'USD:100000,EUR:100000,CDF:250000000',
    LEDGER_ENABLED: 'false',
    LOG_LEVEL: 'info',
    ...extra,
  });
}

/** As people: check the file, submit it, approve it. */
export async function runBatchThroughSlack(slack: LocalSlack, content: string): Promise<string> {
  await slack.runCommand({ userId: REQUESTER, channelId: 'C0TREASURY', text: 'payout bulk' });
  const form = await slack.waitFor(() => slack.views(REQUESTER).find((view) => view.view.callback_id === PAYOUT_BATCH.uploadView), { timeoutMs: 15_000 });
  const fileId = slack.uploadFileAs({ userId: REQUESTER, name: 'bench.csv', bytes: content });
  await slack.submitView({ userId: REQUESTER, viewId: form.id, values: { [PAYOUT_BATCH.fileBlock]: { [PAYOUT_BATCH.input]: [fileId] } } });
  const ready = await slack.waitFor(
    () => {
      const view = slack.view(form.id);
      return view?.view.callback_id === PAYOUT_BATCH.readyView ? view : undefined;
    },
    { timeoutMs: 30_000 },
  );
  const submitted = await slack.submitView({ userId: REQUESTER, viewId: ready.id });
  const id = /PB-[A-Z0-9]{6}/.exec(JSON.stringify(slack.view(ready.id)?.view.blocks))?.[0];
  if (!id) throw new Error(`the batch was not submitted (the submission's ack: HTTP ${submitted.status} after ${Math.round(submitted.elapsedMs)} ms)`);
  const message = await slack.waitFor(() => slack.messages('C0APPROVALS').find((entry) => entry.text.includes(id) && !entry.threadTs), { timeoutMs: 15_000 });
  await slack.clickButton({ userId: APPROVER, actionId: PAYOUT_BATCH_ACTIONS.approve, channelId: 'C0APPROVALS', messageTs: message.ts });
  return id;
}

export const postedFor = (sandbox: Sandbox, id: string) =>
  sandbox.requests
    .filter((request) => request.method === 'POST' && request.path.startsWith('/api/v1/b2b/payouts/'))
    .map((request) => (request.body as { reference?: string } | undefined)?.reference ?? '')
    .filter((reference) => reference.startsWith(id));

function tally(references: string[], rows: number) {
  return { posts: references.length, duplicates: references.length - new Set(references).size, missing: rows - new Set(references).size };
}

async function waitUntil(what: string, check: () => boolean, timeoutMs: number): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error(`gave up waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const finished = (slack: LocalSlack, id: string) => slack.messages(`D${REQUESTER.slice(1)}`).some((message) => message.text.includes(`${id}* is finished`));

async function killAndResumeBench(sandbox: Sandbox): Promise<Omit<BatchBench, 'check_500_rows_ms' | 'replicas'>> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'bench-batch-kill-'));
  const port = await freePort();
  const slack = await startLocalSlack({ signingSecret: SIGNING_SECRET, botToken: BOT_TOKEN, appUrl: `http://127.0.0.1:${port}/slack/events` });
  slack.invite('C0APPROVALS');
  const env = { DATA_DIR: dataDir, PAYOUT_BATCH_RATE: String(RATE) };
  const first = botOn(slack, sandbox, port, env);
  await first.ready;
  const started = performance.now();
  const id = await runBatchThroughSlack(slack, fileOf(ROWS, 7));
  step(`batch ${id} approved`);
  const half = Math.floor(ROWS / 2);
  await waitUntil('half the rows', () => postedFor(sandbox, id).length >= half, (ROWS * 2000) / RATE + 60_000);
  step(`killing the bot after ${postedFor(sandbox, id).length} rows`);
  await first.stop('SIGKILL');
  const killedAfter = postedFor(sandbox, id).length;
  const second = botOn(slack, sandbox, port, env);
  await second.ready;
  await waitUntil('the results file', () => finished(slack, id), (ROWS * 2000) / RATE + 120_000);
  const seconds = (performance.now() - started) / 1000;
  await second.stop('SIGTERM');
  await slack.close();
  await rm(dataDir, { recursive: true, force: true });
  return { rows: ROWS, rate_per_second: RATE, killed_after_rows: killedAfter, execution_seconds: Math.round(seconds), ...tally(postedFor(sandbox, id), ROWS) };
}

async function replicasBench(sandbox: Sandbox): Promise<BatchBench['replicas']> {
  const base = process.env.TEST_DATABASE_URL?.trim();
  if (!base) return { skipped: 'TEST_DATABASE_URL is not set' };
  const schema = await createTestSchema(base);
  const [portA, portB] = [await freePort(), await freePort()];
  const slack = await startLocalSlack({ signingSecret: SIGNING_SECRET, botToken: BOT_TOKEN, appUrl: `http://127.0.0.1:${portA}/slack/events` });
  slack.invite('C0APPROVALS');
  const env = { DATABASE_URL: schema.databaseUrl, PAYOUT_BATCH_RATE: String(REPLICA_RATE) };
  const [a, b] = [botOn(slack, sandbox, portA, env), botOn(slack, sandbox, portB, env)];
  await Promise.all([a.ready, b.ready]);
  const started = performance.now();
  const id = await runBatchThroughSlack(slack, fileOf(ROWS, 8));
  await waitUntil('the results file', () => finished(slack, id), (ROWS * 2000) / REPLICA_RATE + 60_000);
  const seconds = (performance.now() - started) / 1000;
  await Promise.all([a.stop('SIGTERM'), b.stop('SIGTERM')]);
  await slack.close();
  await schema.drop();
  return { rows: ROWS, rate_per_second: REPLICA_RATE, seconds: Math.round(seconds), ...tally(postedFor(sandbox, id), ROWS) };
}

const step = (what: string) => console.error(`[batch bench] ${new Date().toISOString()} ${what}`);

export async function runBatchBench(): Promise<BatchBench> {
  step('checking 500-row files');
  const check = await checkBench();
  const sandbox = await startSandbox({ seed: 11 });
  try {
    step('executing with a SIGKILL half-way');
    const execution = await killAndResumeBench(sandbox);
    step('two replicas on one Postgres');
    const replicas = await replicasBench(sandbox);
    return { check_500_rows_ms: check, ...execution, replicas };
  } finally {
    await sandbox.close();
  }
}

export function printBatchBench(result: BatchBench): void {
  console.log(`\nBulk payouts: checking a 500-row file (slowest of 5): ${result.check_500_rows_ms} ms (target < 1000)`);
  console.log(
    `Executing ${result.rows} rows at ${result.rate_per_second}/s, SIGKILL after ${result.killed_after_rows} rows, restart: ${result.execution_seconds} s, ${result.posts} POSTs, ${result.duplicates} duplicates, ${result.missing} missing`,
  );
  if ('skipped' in result.replicas) console.log(`Two replicas on one Postgres: skipped (${result.replicas.skipped})`);
  else
    console.log(
      `Two replicas on one Postgres, ${result.replicas.rows} rows at ${result.replicas.rate_per_second}/s: ${result.replicas.seconds} s, ${result.replicas.posts} POSTs, ${result.replicas.duplicates} duplicates, ${result.replicas.missing} missing`,
    );
}

if (import.meta.url === `file://${process.argv[1]}`) {
  printBatchBench(await runBatchBench());
}

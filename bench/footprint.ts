/**
 * Footprint benchmark: start time and resident memory of the bot as `npm start` runs it
 * (`node dist/main.js`, built first with `npm run build`), HTTP mode, against the sandbox Fleet API
 * and the local Slack workspace, in three setups, one process each:
 *
 * - embedded PGlite, first start on a new DATA_DIR, then a later start on the same folder;
 * - Postgres (DATABASE_URL; BENCH_DATABASE_URL or TEST_DATABASE_URL, default local `test`), on a
 *   schema of its own;
 * - a bare Bolt app that only acknowledges /fleet (BARE_BOLT_APP, plain JavaScript: no loader counted).
 *
 * "Start to healthy" is from spawning the process to GET /healthz answering 200. Resident memory
 * (VmRSS) is read 3 s after start (idle) and 3 s after 300 signed slash commands (`/fleet
 * balance`, `transactions`, `payouts`, `help` in turn, 10 at a time, each answered).
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import pg from 'pg';
import { startLocalSlack, type LocalSlack } from '@fleet-treasury-bot/local-slack';
import { startSandbox, type Sandbox } from '../src/sandbox/server.js';
import { benchAppEnv } from './app-env.js';
import { BENCH_POSTGRES_URL } from './postgres.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SIGNING_SECRET = 'benchsigningsecret0123456789abcd';
const BOT_TOKEN = 'xoxb-bench-0000-token';
const COMMANDS = 300;
const CONCURRENCY = 10;
const SETTLE_MS = 3000;
const USERS = ['U0REQUESTER', 'U0APPROVER', 'U0APPROVER2'];
const TEXTS = ['balance', 'transactions', 'payouts', 'help'];
/** The embedded store's idle resident memory at most this many times the Postgres mode's (issue 31). */
export const IDLE_RSS_RATIO = 1.25;

/** The baseline: a Bolt app in HTTP mode that only acknowledges /fleet, its own process like the bot. */
const BARE_BOLT_APP = `
import bolt from '@slack/bolt';
const app = new bolt.App({
  signingSecret: process.env.SLACK_SIGNING_SECRET,
  token: process.env.SLACK_BOT_TOKEN,
  clientOptions: { slackApiUrl: process.env.SLACK_API_URL },
  customRoutes: [{ path: '/healthz', method: ['GET'], handler: (_req, res) => res.end('{"ok":true}') }],
});
app.command('/fleet', async ({ ack }) => ack());
const server = await app.start({ port: 0, host: '127.0.0.1' });
console.log(JSON.stringify({ msg: 'listening for Slack requests', port: server.address().port }));
`;

export interface FootprintRun {
  start_to_healthy_ms: number;
  rss_idle_mb: number;
  rss_after_300_commands_mb: number;
}

export interface FootprintBenchResult {
  embedded_first: FootprintRun;
  embedded_later: FootprintRun;
  postgres: FootprintRun;
  bare_bolt: FootprintRun;
  /** Embedded RSS over Postgres RSS, the larger of the two embedded starts (idle target ≤ 1.25, issue 31). */
  rss_ratio_idle: number;
  rss_ratio_after_commands: number;
  targets_met: boolean;
}

interface Started {
  child: ChildProcess;
  port: number;
  startMs: number;
}

async function startProcess(args: string[], env: Record<string, string>): Promise<Started> {
  const began = performance.now();
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', TMPDIR: process.env.TMPDIR ?? os.tmpdir(), NODE_ENV: 'production', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const line = output.split('\n').find((text) => text.includes('listening for Slack requests'));
      if (line) resolve((JSON.parse(line) as { port: number }).port);
    });
    child.on('exit', (code) => reject(new Error(`process exited (${code}) before listening:\n${output}`)));
  });
  for (;;) {
    const ok = await fetch(`http://127.0.0.1:${port}/healthz`).then(
      (response) => response.ok,
      () => false,
    );
    if (ok) break;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return { child, port, startMs: performance.now() - began };
}

async function rssMb(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1]);
  return Math.round(kb / 1024);
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

async function load(slack: LocalSlack, expectReplies: boolean): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < COMMANDS) {
      const i = next++;
      const result = await slack.runCommand({ userId: USERS[i % USERS.length]!, channelId: 'C0TREASURY', text: TEXTS[i % TEXTS.length]! });
      if (result.status !== 200) throw new Error(`command ${i} was answered ${result.status}`);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  if (!expectReplies) return;
  // Every command answers through its response_url; wait until all of them did.
  await slack.waitFor(() => USERS.reduce((sum, user) => sum + slack.messages('C0TREASURY', { visibleTo: user }).length, 0) >= COMMANDS || undefined, {
    timeoutMs: 120_000,
    message: 'every command answered',
  });
}

async function measure(args: string[], env: Record<string, string>, sandbox: Sandbox, expectReplies = true): Promise<FootprintRun> {
  const slack = await startLocalSlack({ signingSecret: SIGNING_SECRET, botToken: BOT_TOKEN, ackTimeoutMs: 10_000 });
  try {
    const started = await startProcess(args, {
      ...benchAppEnv({ botToken: BOT_TOKEN, signingSecret: SIGNING_SECRET, slackApiUrl: slack.apiUrl, sandbox, logLevel: 'info' }),
      ...env,
    });
    try {
      slack.setAppUrl(`http://127.0.0.1:${started.port}/slack/events`);
      await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
      const idle = await rssMb(started.child.pid!);
      await load(slack, expectReplies);
      await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
      const after = await rssMb(started.child.pid!);
      return { start_to_healthy_ms: Math.round(started.startMs), rss_idle_mb: idle, rss_after_300_commands_mb: after };
    } finally {
      await stop(started.child);
    }
  } finally {
    await slack.close();
  }
}

async function withSchema<T>(baseUrl: string, work: (url: string) => Promise<T>): Promise<T> {
  const schema = `bench_${randomBytes(6).toString('hex')}`;
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: baseUrl });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await admin(`CREATE SCHEMA ${schema}`);
  try {
    const url = new URL(baseUrl);
    url.searchParams.set('options', `-c search_path=${schema}`);
    return await work(url.toString());
  } finally {
    await admin(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  }
}

export async function runFootprintBench(): Promise<FootprintBenchResult> {
  // What `npm start` runs: the compiled app, with the blank cluster the build leaves next to it.
  await promisify(execFile)('npm', ['run', 'build'], { cwd: ROOT, timeout: 300_000 });
  const databaseUrl = BENCH_POSTGRES_URL;
  const sandbox = await startSandbox({ seed: 3 });
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'ftb-footprint-'));
  try {
    const bot = ['dist/main.js'];
    const embedded_first = await measure(bot, { DATA_DIR: dataDir }, sandbox);
    const embedded_later = await measure(bot, { DATA_DIR: dataDir }, sandbox);
    const postgres = await withSchema(databaseUrl, (url) => measure(bot, { DATABASE_URL: url }, sandbox));
    const bare_bolt = await measure(['--input-type=module', '-e', BARE_BOLT_APP], {}, sandbox, false);
    const ratio = (a: number, b: number) => Math.round((a / b) * 100) / 100;
    const rss_ratio_idle = ratio(Math.max(embedded_first.rss_idle_mb, embedded_later.rss_idle_mb), postgres.rss_idle_mb);
    const rss_ratio_after_commands = ratio(
      Math.max(embedded_first.rss_after_300_commands_mb, embedded_later.rss_after_300_commands_mb),
      postgres.rss_after_300_commands_mb,
    );
    return {
      embedded_first,
      embedded_later,
      postgres,
      bare_bolt,
      rss_ratio_idle,
      rss_ratio_after_commands,
      targets_met:
        embedded_first.start_to_healthy_ms <= 2000 &&
        embedded_later.start_to_healthy_ms <= 1500 &&
        rss_ratio_idle <= IDLE_RSS_RATIO &&
        rss_ratio_after_commands <= 2,
    };
  } finally {
    await sandbox.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

export function printFootprintBench(result: FootprintBenchResult): void {
  console.log('\nFootprint, node dist/main.js in HTTP mode (start to GET /healthz 200; VmRSS idle and after 300 commands)');
  console.table({
    'embedded, new DATA_DIR': result.embedded_first,
    'embedded, later start': result.embedded_later,
    'Postgres (DATABASE_URL)': result.postgres,
    'bare Bolt (ack only)': result.bare_bolt,
  });
  console.log(
    `embedded/Postgres RSS: idle ${result.rss_ratio_idle} (target ≤ ${IDLE_RSS_RATIO}), after commands ${result.rss_ratio_after_commands} (target ≤ 2); ` +
      `start targets ≤ 2000 ms first, ≤ 1500 ms later; all targets met: ${result.targets_met}`,
  );
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const result = await runFootprintBench();
  printFootprintBench(result);
  console.log(JSON.stringify({ footprint: result }));
}

/**
 * Demo start benchmark: `npm run demo` launched as a real process, as someone who just ran
 * `npm install` would, with empty caches (a new temporary folder as TMPDIR), timed until the page
 * answers `/fleet balance`. The bench acts as the browser does: it loads the page, sends the command
 * through the page's JSON API (`POST /workspace/command`) and reads the person's view
 * (`GET /workspace/state`) until the balance is in #treasury. Median of 3 runs.
 *
 * The breakdown says where the time goes, in wall and CPU time: the demo marks its phases
 * (DEMO_TIMINGS=1, see packages/local-slack/src/demo/start-timings.ts), npm's own share is what its
 * process used, the first round trip is the bench's, and the sandbox's data is timed alone here.
 *
 * Also alone: `npx tsx bench/demo-start.ts`.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { startSandbox } from '../src/sandbox/server.js';
import { round } from './stats.js';
import { boundRow, printTargets, type TargetRow } from './targets.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const RUNS = 3;
const PERSON = 'U0REQUESTER';
const CHANNEL = 'C0TREASURY';
const GIVE_UP_MS = 60_000;

export interface DemoStartRun {
  /** From spawning `npm run demo` to its "Open http://…" line. */
  open_line_ms: number;
  /** To the page itself (`GET /`) answering 200. */
  page_ms: number;
  /** To the balance reply being in the person's view of #treasury. */
  balance_answered_ms: number;
  /**
   * CPU time (user + system, all threads) that npm and the demo process had used by then: what the
   * start costs whatever else the machine runs; on a quiet 2-core machine the wall time comes near it.
   */
  cpu_ms: number;
  /** CPU time npm itself used (before it handed over to the demo's process). */
  npm_cpu_ms: number;
  /** The demo's own phases (wall since the bench spawned npm, CPU of the demo's process), then the first answer's round trip. */
  phases: DemoStartPhase[];
}

export interface DemoStartPhase {
  phase: string;
  /** Wall time since `npm run demo` was spawned, at the end of the phase. */
  at_ms: number;
  /** Wall time the phase took (since the previous one ended). */
  wall_ms: number;
  /** CPU time the demo's process used during the phase (all its threads); npm's in the first row. */
  cpu_ms: number;
}

export interface DemoStartBenchResult {
  runs: DemoStartRun[];
  median_open_line_ms: number;
  median_page_ms: number;
  median_balance_answered_ms: number;
  median_cpu_ms: number;
  /** The run with the median answer time, phase by phase. */
  median_run_phases: DemoStartPhase[];
  /** The sandbox's data (320 seeded transactions) and its server, started alone in this process: what the bot's start spends on it. */
  sandbox_alone: { wall_ms: number; cpu_ms: number };
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  // `npm run demo` execs Node, so the process npm started is the demo: SIGTERM stops it cleanly.
  child.kill('SIGTERM');
  await exited;
}

interface PageState {
  messages?: Record<string, Array<{ text?: string }>>;
}

async function balanceShown(base: string): Promise<boolean> {
  const response = await fetch(`${base}/workspace/state?as=${PERSON}`);
  const state = (await response.json()) as PageState;
  return (state.messages?.[CHANNEL] ?? []).some((message) => (message.text ?? '').startsWith('Fleet account balance'));
}

/** utime + stime of a process, in ms (Linux: /proc, clock ticks of 10 ms). */
async function cpuMs(pid: number): Promise<number> {
  const fields = (await readFile(`/proc/${pid}/stat`, 'utf8')).replace(/^.*\) /, '').split(' ');
  // After the command's name: state is field 3, utime 14 and stime 15 (1-based, counting from pid).
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

async function processCpuMs(npmPid: number): Promise<number> {
  const children = (await readFile(`/proc/${npmPid}/task/${npmPid}/children`, 'utf8')).trim().split(/\s+/).filter(Boolean).map(Number);
  const times = await Promise.all([npmPid, ...children].map(cpuMs));
  return times.reduce((sum, value) => sum + value, 0);
}

async function oneRun(): Promise<DemoStartRun> {
  const tmp = await mkdtemp(path.join(os.tmpdir(), 'ftb-demo-start-'));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const began = performance.now();
  const child = spawn('npm', ['run', '--silent', 'demo'], {
    cwd: ROOT,
    // What a fresh shell has, and nothing cached: a new, empty temporary folder.
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', TMPDIR: tmp, DEMO_PORT: String(port), DEMO_TIMINGS: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  let openLineMs: number | undefined;
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
    if (openLineMs === undefined && /Open http:\/\//.test(output)) openLineMs = performance.now() - began;
  });
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const failIfExited = () => {
    if (child.exitCode !== null) throw new Error(`npm run demo exited (${child.exitCode}):\n${output}`);
    if (performance.now() - began > GIVE_UP_MS) throw new Error(`no balance within ${GIVE_UP_MS} ms:\n${output}`);
  };
  try {
    // The browser: load the page as soon as it answers.
    for (;;) {
      failIfExited();
      const ok = await fetch(`${base}/`).then(
        (response) => response.ok,
        () => false,
      );
      if (ok) break;
      await sleep(10);
    }
    const pageMs = performance.now() - began;
    // The person types /fleet balance; the page sends it as soon as it can.
    for (;;) {
      failIfExited();
      const sent = await fetch(`${base}/workspace/command`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ as: PERSON, channel: CHANNEL, text: '/fleet balance' }),
      }).then(
        async (response) => (await response.json()) as { ok?: boolean; status?: number },
        () => ({ ok: false, status: 0 }),
      );
      if (sent.ok && sent.status === 200) break;
      await sleep(10);
    }
    for (;;) {
      failIfExited();
      if (await balanceShown(base)) break;
      await sleep(10);
    }
    const balanceMs = performance.now() - began;
    const cpu = await processCpuMs(child.pid!);
    const npmCpu = await cpuMs(child.pid!);
    const run = {
      open_line_ms: Math.round(openLineMs ?? Number.NaN),
      page_ms: Math.round(pageMs),
      balance_answered_ms: Math.round(balanceMs),
      cpu_ms: cpu,
      npm_cpu_ms: npmCpu,
    };
    return { ...run, phases: phasesOf(output, run) };
  } finally {
    await stop(child);
    await rm(tmp, { recursive: true, force: true });
  }
}

interface StartMark {
  phase: string;
  wallMs: number;
  cpuMs: number;
}

/**
 * The demo's marks put on the bench's clock: the demo's wall times count from its own process's
 * start, which the "page open" mark and the "Open" line (printed right after it) tie to the spawn.
 */
function phasesOf(output: string, run: Omit<DemoStartRun, 'phases'>): DemoStartPhase[] {
  const line = /^DEMO_TIMINGS (.*)$/m.exec(output)?.[1];
  if (!line) throw new Error(`the demo printed no DEMO_TIMINGS line:\n${output}`);
  const marks = JSON.parse(line) as StartMark[];
  const open = marks.find((mark) => mark.phase === 'page open');
  if (!open) throw new Error(`no "page open" mark in ${line}`);
  const offset = run.open_line_ms - open.wallMs;
  const phases: DemoStartPhase[] = [
    { phase: 'npm, then Node starting the demo process', at_ms: Math.round(offset), wall_ms: Math.round(offset), cpu_ms: run.npm_cpu_ms },
  ];
  let previous = { at: offset, cpu: 0 };
  for (const mark of marks) {
    const at = offset + mark.wallMs;
    phases.push({ phase: mark.phase, at_ms: Math.round(at), wall_ms: Math.round(at - previous.at), cpu_ms: mark.cpuMs - previous.cpu });
    previous = { at, cpu: mark.cpuMs };
  }
  phases.push({
    phase: 'first /fleet balance: page loaded, command sent, answer shown',
    at_ms: run.balance_answered_ms,
    wall_ms: Math.round(run.balance_answered_ms - previous.at),
    cpu_ms: run.cpu_ms - run.npm_cpu_ms - previous.cpu,
  });
  return phases;
}

/** The sandbox as the bot starts it (its seeded ledger, its server), alone: wall and CPU time, median of 3. */
async function sandboxAlone(): Promise<{ wall_ms: number; cpu_ms: number }> {
  const runs: Array<{ wall_ms: number; cpu_ms: number }> = [];
  for (let i = 0; i < 3; i++) {
    const cpuBefore = process.cpuUsage();
    const began = performance.now();
    const sandbox = await startSandbox({ activityIntervalMs: 0 });
    const wall = performance.now() - began;
    const cpu = process.cpuUsage(cpuBefore);
    await sandbox.close();
    runs.push({ wall_ms: Math.round(wall), cpu_ms: Math.round((cpu.user + cpu.system) / 1000) });
  }
  return { wall_ms: median(runs.map((run) => run.wall_ms)), cpu_ms: median(runs.map((run) => run.cpu_ms)) };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

export async function runDemoStartBench(runs = RUNS): Promise<DemoStartBenchResult> {
  // As after `npm install`: its postinstall step prepares the demo (the bundle, the blank cluster).
  await promisify(execFile)(process.execPath, ['packages/local-slack/scripts/postinstall.mjs'], { cwd: ROOT, timeout: 300_000 });
  const results: DemoStartRun[] = [];
  for (let i = 0; i < runs; i++) results.push(await oneRun());
  const byAnswer = [...results].sort((a, b) => a.balance_answered_ms - b.balance_answered_ms);
  return {
    runs: results,
    median_open_line_ms: median(results.map((run) => run.open_line_ms)),
    median_page_ms: median(results.map((run) => run.page_ms)),
    median_balance_answered_ms: median(results.map((run) => run.balance_answered_ms)),
    median_cpu_ms: median(results.map((run) => run.cpu_ms)),
    median_run_phases: byAnswer[Math.floor(byAnswer.length / 2)]?.phases ?? [],
    sandbox_alone: await sandboxAlone(),
  };
}

export function printDemoStartBench(result: DemoStartBenchResult): void {
  console.log(`\nDemo start: npm run demo with a new empty TMPDIR, to the page answering /fleet balance (${result.runs.length} runs)`);
  console.table(result.runs.map(({ phases: _phases, ...run }) => run));
  console.log('Where the time goes (the median run; wall since npm was spawned, CPU of npm, then of the demo process):');
  console.table(result.median_run_phases);
  console.log(`The sandbox's data and server alone (inside "bot started"): ${result.sandbox_alone.wall_ms} ms wall, ${result.sandbox_alone.cpu_ms} ms CPU`);
  console.log(
    `median: "Open" line ${round(result.median_open_line_ms / 1000, 2)} s, page ${round(result.median_page_ms / 1000, 2)} s, ` +
      `/fleet balance answered ${round(result.median_balance_answered_ms / 1000, 2)} s (target ≤ 2 s), ` +
      `CPU time of npm and the demo by then ${round(result.median_cpu_ms / 1000, 2)} s; load average ${os.loadavg()[0]?.toFixed(1)}`,
  );
}

/** The target: the page answers /fleet balance within 2 s of `npm run demo`. */
export function demoStartTargets(result: DemoStartBenchResult): TargetRow[] {
  return [
    boundRow(
      `npm run demo, empty TMPDIR, to /fleet balance answered (median of ${result.runs.length}; CPU ${round(result.median_cpu_ms / 1000, 2)} s)`,
      result.median_balance_answered_ms / 1000,
      's',
      2,
    ),
  ];
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const result = await runDemoStartBench();
  printDemoStartBench(result);
  printTargets(demoStartTargets(result));
  console.log(JSON.stringify({ demo_start: result }));
}

/**
 * Starts a benchmark's apps each in a child process of its own (`bench/app-process.ts`), both the
 * same way (the same Node flags, the same HTTP receiver settings), so that the load generator, the
 * sandbox and the local Slack workspaces in the bench's own process never delay an app's acks, and
 * each app's event loop delay is its own. `BENCH_CPU_PROF=<folder>` profiles both (`--cpu-prof`).
 */
import { fork, type ChildProcess } from 'node:child_process';
import type { Stalls } from './stalls.js';
import { fileURLToPath } from 'node:url';

/** What the child starts: the bot on a configuration (environment variables), or a bare Bolt app. */
export type AppProcessSpec =
  | {
      kind: 'bot';
      env: Record<string, string>;
      ledgerRows?: number;
      timeQueries?: boolean;
      /** Where the bot's log goes, at `logLevel` (default warn); nowhere when absent. */
      logFile?: string;
      logLevel?: string;
    }
  | { kind: 'bare'; signingSecret: string; botToken: string; slackApiUrl: string };

/** What the bare app answers each `/fleet` with after its ack (none: it only acks), and after how long. */
export interface BareAnswer {
  text: string;
  blocks?: unknown[];
  /** The wait before answering, as the bot's answer waits on the Fleet API; 0 answers at once. */
  afterMs: number;
}

/** The app's own event loop delay over a window, in milliseconds. */
export interface LoopDelay {
  max_ms: number;
  p99_ms: number;
  /** What the longest delay was made of (Linux): see `stalls.ts`. */
  stalls: Stalls;
}

/** What the parent asks a child app. */
export type AppQuestion =
  | { ask: 'loopStart' | 'loopStop' | 'cpu' | 'memory' | 'feedStatus' | 'ledgerStatus' | 'close' }
  | { ask: 'setAnswer'; answer: BareAnswer }
  /** A statement on the bot's own database (the soak samples the feed's cursor and the ledger while it runs). */
  | { ask: 'query'; sql: string; params?: unknown[] };

export type AppRequest = AppQuestion & { id: number };

export type AppReply = { ready: string } | { failed: string } | { id: number; result?: unknown; error?: string };

export interface AppProcess {
  /** Where the local Slack sends this app's requests. */
  eventsUrl: string;
  pid: number;
  ask<T>(question: AppQuestion): Promise<T>;
  /** Starts measuring this process's event loop delay; `loopDelay` stops and reads it. */
  startLoopDelay(): Promise<void>;
  loopDelay(): Promise<LoopDelay>;
  /** User and system CPU time this process has used so far, in milliseconds. */
  cpuMs(): Promise<number>;
  close(): Promise<void>;
}

const ENTRY = fileURLToPath(new URL('./app-process.ts', import.meta.url));

export async function startAppProcess(spec: AppProcessSpec): Promise<AppProcess> {
  const profileDir = process.env.BENCH_CPU_PROF;
  const child = fork(ENTRY, {
    execArgv: ['--import', 'tsx', ...(profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}/${spec.kind}`] : [])],
    env: { ...process.env, BENCH_APP_SPEC: JSON.stringify(spec) },
    // Dates in the feed's and the ledger's status cross as Dates.
    serialization: 'advanced',
  });
  const eventsUrl = await new Promise<string>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the ${spec.kind} app's process exited (${code}) before it started`)));
    child.on('message', (message: AppReply) => {
      if ('ready' in message) resolve(message.ready);
      if ('failed' in message) reject(new Error(`the ${spec.kind} app did not start: ${message.failed}`));
    });
  });
  return connect(child, eventsUrl);
}

function connect(child: ChildProcess, eventsUrl: string): AppProcess {
  let next = 0;
  const waiting = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  child.on('message', (message: AppReply) => {
    if (!('id' in message)) return;
    const pending = waiting.get(message.id);
    waiting.delete(message.id);
    if (message.error !== undefined) pending?.reject(new Error(message.error));
    else pending?.resolve(message.result);
  });
  let exitedWith: string | undefined;
  const exited = new Promise<void>((resolve) =>
    child.once('exit', (code, signal) => {
      // A process that dies mid-run fails the bench with why, rather than leaving its questions unanswered (the bench would end silently).
      exitedWith = `the app's process (${child.pid}) exited (${signal ?? code})`;
      for (const pending of waiting.values()) pending.reject(new Error(exitedWith));
      waiting.clear();
      resolve();
    }),
  );
  const ask = <T>(question: AppQuestion): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      if (exitedWith) {
        reject(new Error(exitedWith));
        return;
      }
      next += 1;
      waiting.set(next, { resolve: resolve as (value: unknown) => void, reject });
      child.send({ ...question, id: next });
    });
  return {
    eventsUrl,
    pid: child.pid!,
    ask,
    startLoopDelay: () => ask({ ask: 'loopStart' }),
    loopDelay: () => ask({ ask: 'loopStop' }),
    cpuMs: async () => {
      const usage = await ask<NodeJS.CpuUsage>({ ask: 'cpu' });
      return (usage.user + usage.system) / 1000;
    },
    close: async () => {
      if (child.exitCode !== null) return;
      await ask({ ask: 'close' }).catch(() => undefined);
      await exited;
    },
  };
}

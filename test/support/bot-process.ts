/**
 * The bot as its own Node process, started the way `npm start` does (src/main.ts, configuration
 * from the environment), for what only a real process shows: a second process on the same
 * DATA_DIR, a process killed with SIGKILL.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface BotProcess {
  child: ChildProcess;
  /** Everything written so far on stdout and stderr. */
  output(): string;
  /** Resolves when the bot logs that it listens, rejects when it exits first (with its output). */
  ready: Promise<void>;
  /** Resolves with the exit code (or the signal) once the process ended. */
  exited: Promise<number | string>;
  stop(signal?: NodeJS.Signals): Promise<number | string>;
}

export function startBotProcess(env: Record<string, string>): BotProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'src/main.ts')], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', TMPDIR: process.env.TMPDIR ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let text = '';
  child.stdout?.on('data', (chunk: Buffer) => (text += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (text += chunk.toString()));
  const exited = new Promise<number | string>((resolve) => child.on('exit', (code, signal) => resolve(code ?? signal ?? -1)));
  const ready = new Promise<void>((resolve, reject) => {
    const check = () => {
      if (text.includes('listening for Slack requests')) resolve();
    };
    child.stdout?.on('data', check);
    void exited.then((code) => reject(new Error(`the bot process exited (${code}) before it was ready:\n${text}`)));
  });
  ready.catch(() => undefined);
  return {
    child,
    output: () => text,
    ready,
    exited,
    stop: (signal = 'SIGTERM') => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}

/**
 * The hosted benchmark's side of its Fleet API process (`hosted-fleet-process.ts`): starts it with an
 * account per key, adds transactions to accounts, closes it.
 */
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { FleetAsk, FleetReply } from './hosted-fleet-process.js';

const FLEET_ENTRY = fileURLToPath(new URL('./hosted-fleet-process.ts', import.meta.url));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface FleetProcess {
  url: string;
  rssMb: number;
  add(key: string, reference: string): void;
  close(): Promise<void>;
}

/** The sandbox Fleet API in a process of its own, an account per key. */
export async function startFleet(keys: string[]): Promise<FleetProcess> {
  const child = fork(FLEET_ENTRY, { env: process.env, execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const ask = (message: FleetAsk) => child.send(message);
  const ready = await new Promise<FleetReply>((resolve, reject) => {
    child.once('message', resolve);
    child.once('exit', (code) => reject(new Error(`the Fleet API process exited (${code})`)));
    ask({ start: { keys } });
  });
  if (ready.type !== 'ready') throw new Error(`the Fleet API process failed: ${ready.type === 'failed' ? ready.reason : ''}`);
  return {
    url: ready.url,
    rssMb: ready.rssMb,
    add: (key, reference) => ask({ add: { key, reference } }),
    close: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      ask({ close: true });
      await Promise.race([exited, sleep(5_000).then(() => child.kill('SIGKILL'))]);
    },
  };
}

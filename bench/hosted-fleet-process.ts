/**
 * The hosted benchmark's Fleet API (the sandbox, an account per tenant) in a process of its own, as
 * the real API is elsewhere: the replicas' reads then take none of the measuring process's time, so
 * that the ack times it measures are the replicas' alone. Told its accounts' keys at start; adds a
 * transaction to an account when asked; reports its RSS.
 */
import { startSandbox } from '../src/sandbox/server.js';

export type FleetAsk = { start: { keys: string[] } } | { add: { key: string; reference: string } } | { close: true };
export type FleetReply = { type: 'ready'; url: string; rssMb: number } | { type: 'failed'; reason: string };

const send = (message: FleetReply) => process.send?.(message);
process.on('disconnect', () => process.exit(0));

let sandbox: Awaited<ReturnType<typeof startSandbox>> | undefined;
process.on('message', (ask: FleetAsk) => {
  if ('start' in ask) {
    startSandbox({ seed: 3, accounts: ask.start.keys.map((apiKey) => ({ apiKey, transactionCount: 20 })) }).then(
      (started) => {
        sandbox = started;
        send({ type: 'ready', url: started.url, rssMb: Math.round((process.memoryUsage().rss / 1024 / 1024) * 10) / 10 });
      },
      (error: unknown) => send({ type: 'failed', reason: error instanceof Error ? error.message : String(error) }),
    );
  }
  if ('add' in ask) sandbox?.account(ask.add.key).addTransaction({ reference: ask.add.reference });
  if ('close' in ask) void (sandbox?.close() ?? Promise.resolve()).then(() => process.exit(0));
});

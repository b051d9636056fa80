/**
 * Where the hosted benchmark's signed requests leave from and are timed: a process of its own, as
 * Slack's servers that send requests to an app are not those that answer its Web API calls. In the
 * grid's own process, the ack of a command for 100 workspaces would also wait for the grid serving
 * those workspaces' person lookups, which one workspace has cached. `startSender()` forks this file;
 * the child answers each `SignedPost` with its `RawAnswer` (`postSigned`, timed in the child).
 */
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { postSigned, type RawAnswer, type SignedPost } from '@fleet-treasury-bot/local-slack';

interface Sent {
  id: number;
  post: SignedPost;
}
interface Answered {
  id: number;
  answer: RawAnswer;
}

if (process.env.BENCH_SENDER_CHILD === '1') {
  process.on('disconnect', () => process.exit(0));
  process.on('message', (message: Sent) => {
    void postSigned(message.post).then((answer) => process.send?.({ id: message.id, answer } satisfies Answered));
  });
  process.send?.('ready');
}

export interface Sender {
  send(post: SignedPost): Promise<RawAnswer>;
  close(): void;
}

export async function startSender(): Promise<Sender> {
  const child = fork(fileURLToPath(import.meta.url), {
    env: { ...process.env, BENCH_SENDER_CHILD: '1' },
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const waiting = new Map<number, (answer: RawAnswer) => void>();
  await new Promise<void>((resolve, reject) => {
    child.once('message', () => resolve());
    child.once('exit', (code) => reject(new Error(`the sender process exited (${code})`)));
  });
  child.on('message', (message: Answered) => {
    waiting.get(message.id)?.(message.answer);
    waiting.delete(message.id);
  });
  // Gone mid-run: what it was sending counts as never answered (status 0), as an app that did not answer in time.
  child.on('exit', () => {
    for (const answer of waiting.values()) answer({ status: 0, contentType: '', text: '', elapsedMs: 0 });
    waiting.clear();
  });
  let next = 0;
  return {
    send: (post) =>
      new Promise((resolve) => {
        next += 1;
        waiting.set(next, resolve);
        child.send({ id: next, post } satisfies Sent);
      }),
    close: () => void child.kill(),
  };
}

/**
 * Slow connections benchmark: the real bot in HTTP mode with its default limits (a cap of 500
 * connections) while 1,000 slow, unsigned connections are held open against it (each one closed is
 * opened again a second later), and signed `/fleet balance` commands arrive meanwhile, 10 at a time.
 * Every command must be acknowledged with 200 within Slack's 3 s; reports the ack p50/p99.
 */
import { connect, type Socket } from 'node:net';
import { Writable } from 'node:stream';
import { startLocalSlack, type AckResult } from '@fleet-treasury-bot/local-slack';
import { startBot } from '../src/bot.js';
import { loadConfig } from '../src/config/config.js';
import { createLogger } from '../src/core/logger.js';
import { startSandbox } from '../src/sandbox/server.js';
import { HTTP_LIMITS } from '../src/slack/transport/http-limits.js';
import { percentile, round } from './stats.js';
import { benchAppEnv } from './app-env.js';

const SIGNING_SECRET = 'benchsigningsecret0123456789abcd';
const BOT_TOKEN = 'xoxb-bench-0000-token';
const SLOW_CONNECTIONS = Number(process.env.BENCH_SLOW_CONNECTIONS ?? 1000);
const ROUNDS = 30;
const CONCURRENCY = 10;
const REOPEN_AFTER_MS = 1000;
const ACK_DEADLINE_MS = 3000;

export interface ConnectionsBenchResult {
  slow_connections: number;
  connection_cap: number;
  commands: number;
  acked_within_3s: number;
  ack_p50_ms: number;
  ack_p99_ms: number;
  /** Slow connections the bot closed (to make room, or past a timeout), each opened again, during the whole run. */
  slow_connections_closed: number;
}

/** What each slow client does once connected, in turn: nothing; half a head, a byte a second; a head, then a body a byte a second. */
const SLOW_KINDS: Array<(socket: Socket, host: string) => NodeJS.Timeout | undefined> = [
  () => undefined,
  (socket, host) => {
    socket.write(`POST /slack/events HTTP/1.1\r\nHost: ${host}\r\n`);
    return setInterval(() => socket.write('X'), 1000);
  },
  (socket, host) => {
    socket.write(`POST /slack/events HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 65536\r\n\r\n`);
    return setInterval(() => socket.write('x'), 1000);
  },
];

/** Holds `count` slow connections open to `url`: each one closed is opened again after REOPEN_AFTER_MS. */
function holdSlowConnections(url: URL, count: number): { closed: () => number; stop: () => void } {
  let closed = 0;
  let stopped = false;
  const sockets = new Set<Socket>();
  const open = (index: number) => {
    if (stopped) return;
    const socket = connect({ host: url.hostname, port: Number(url.port) });
    sockets.add(socket);
    let timer: NodeJS.Timeout | undefined;
    socket.on('connect', () => {
      timer = SLOW_KINDS[index % SLOW_KINDS.length]!(socket, url.host);
    });
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearInterval(timer);
      sockets.delete(socket);
      if (stopped) return;
      closed += 1;
      setTimeout(() => open(index), REOPEN_AFTER_MS).unref();
    });
  };
  for (let index = 0; index < count; index += 1) open(index);
  return {
    closed: () => closed,
    stop: () => {
      stopped = true;
      for (const socket of sockets) socket.destroy();
    },
  };
}

export async function runConnectionsBench(): Promise<ConnectionsBenchResult> {
  const sandbox = await startSandbox({ seed: 1 });
  const slack = await startLocalSlack({ signingSecret: SIGNING_SECRET, botToken: BOT_TOKEN, ackTimeoutMs: ACK_DEADLINE_MS });
  const silent = new Writable({ write: (_chunk, _encoding, callback) => callback() });
  const config = loadConfig({
    ...benchAppEnv({ botToken: BOT_TOKEN, signingSecret: SIGNING_SECRET, slackApiUrl: slack.apiUrl, sandbox }),
    DATA_DIR: ':memory:',
    LEDGER_ENABLED: 'false',
  });
  const bot = await startBot({ config, logger: createLogger({ level: 'warn', destination: silent }) });
  slack.setAppUrl(bot.eventsUrl!);
  const users = ['U0REQUESTER', 'U0APPROVER', 'U0APPROVER2'];
  const burst = () =>
    Promise.all(
      Array.from({ length: CONCURRENCY }, (_, i) => slack.runCommand({ userId: users[i % users.length]!, channelId: 'C0TREASURY', text: 'balance' })),
    );

  let slow: ReturnType<typeof holdSlowConnections> | undefined;
  try {
    await burst();
    slow = holdSlowConnections(new URL(bot.eventsUrl!), SLOW_CONNECTIONS);
    // Let the slow clients fill the cap and the churn of closing and reopening begin.
    await new Promise((resolve) => setTimeout(resolve, 3000));
    const acks: AckResult[] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      acks.push(...(await burst()));
      await new Promise((resolve) => setTimeout(resolve, 300));
    }
    const times = acks.map((ack) => (ack.status === 200 ? ack.elapsedMs : Number.POSITIVE_INFINITY)).sort((a, b) => a - b);
    return {
      slow_connections: SLOW_CONNECTIONS,
      connection_cap: HTTP_LIMITS.maxConnections,
      commands: acks.length,
      acked_within_3s: acks.filter((ack) => ack.status === 200 && ack.elapsedMs <= ACK_DEADLINE_MS).length,
      ack_p50_ms: round(percentile(times, 50), 1),
      ack_p99_ms: round(percentile(times, 99), 1),
      slow_connections_closed: slow.closed(),
    };
  } finally {
    slow?.stop();
    await bot.close();
    await slack.close();
    await sandbox.close();
  }
}

export function printConnectionsBench(result: ConnectionsBenchResult): void {
  console.log(
    `\nSlow connections: ${result.slow_connections} slow, unsigned connections held open (cap ${result.connection_cap}), signed /fleet balance ${CONCURRENCY} at a time`,
  );
  console.table({
    'acked with 200 within 3 s': { value: `${result.acked_within_3s} of ${result.commands}`, target: 'all' },
    'ack p50 (ms)': { value: result.ack_p50_ms, target: '' },
    'ack p99 (ms)': { value: result.ack_p99_ms, target: '< 3000' },
    'slow connections closed by the bot (each reopened)': { value: result.slow_connections_closed, target: '' },
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  printConnectionsBench(await runConnectionsBench());
}

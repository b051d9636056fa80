/**
 * Ack latency benchmark: 200 concurrent signed `/fleet balance` commands against the real bot in
 * HTTP mode (sandbox Fleet API with 2 s of added latency), next to a bare Bolt app, measured in the
 * same run. Each app runs in a process of its own (`app-processes.ts`); the load generator, the
 * sandbox and both local Slack workspaces stay in this one. Two kinds of burst: answers waiting on
 * the API (the bare app answers 2 s after its ack, with the bot's reply), and answers from cache, the
 * balance read just before so that the answers go out during the burst (the bare app answers at once). Also counts how
 * many balance calls reached the Fleet API, and each app's CPU time.
 */
import { startSandbox } from '../src/sandbox/server.js';
import { startLocalSlack, type LocalSlack } from '@fleet-treasury-bot/local-slack';
import { createTestSchema } from '../test/support/databases.js';
import { startAppProcess, type AppProcess } from './app-processes.js';
import { collectOwnGarbage } from './own-garbage.js';
import { BENCH_POSTGRES_URL } from './postgres.js';
import { percentile, round } from './stats.js';
import { benchAppEnv } from './app-env.js';

const SIGNING_SECRET = 'benchsigningsecret0123456789abcd';
const BOT_TOKEN = 'xoxb-bench-0000-token';
const CONCURRENCY = 200;
const ROUNDS = 6;
const BALANCE_PATH = '/api/v1/b2b/account/balance';
const BALANCE_LATENCY_MS = 2000;

async function burst(slack: LocalSlack, users: string[]): Promise<number[]> {
  collectOwnGarbage();
  const results = await Promise.all(
    Array.from({ length: CONCURRENCY }, (_, i) => slack.runCommand({ userId: users[i % users.length]!, channelId: 'C0TREASURY', text: 'balance' })),
  );
  const failed = results.filter((result) => result.status !== 200);
  if (failed.length > 0)
    throw new Error(
      `${failed.length} of ${CONCURRENCY} commands were not acknowledged with 200 (${[...new Set(failed.map((result) => result.status))].join(', ')})`,
    );
  return results.map((result) => result.elapsedMs);
}

// Counted without copying the messages: polled while thousands pile up, in the process being measured.
function replies(slack: LocalSlack, users: string[]): number {
  return users.reduce((sum, user) => sum + slack.countMessages('C0TREASURY', { visibleTo: user }, (m) => m.text.startsWith('Fleet account balance')), 0);
}

export interface AckBenchResult {
  bot_ack_p50_ms: number;
  bot_ack_p99_ms: number;
  bare_ack_p50_ms: number;
  bare_ack_p99_ms: number;
  p99_ratio: number;
  p50_ratio: number;
  fleet_balance_calls_per_burst: number;
  commands_per_burst: number;
  /** Each app's CPU time (its own process) over the measured rounds, per command. */
  bot_cpu_ms_per_command: number;
  bare_cpu_ms_per_command: number;
}

export interface AckBenchOptions {
  /** Each round reads the balance first, so that the burst's answers come from cache during the burst. */
  answersFromCache?: boolean;
  /** `postgres`: the bot on a fresh schema of BENCH_POSTGRES_URL (DATABASE_URL), dropped afterwards; default the embedded store. */
  store?: 'embedded' | 'postgres';
}

export async function runAckBench(options: AckBenchOptions = {}): Promise<AckBenchResult> {
  const fromCache = options.answersFromCache ?? false;
  const schema = options.store === 'postgres' ? await createTestSchema(BENCH_POSTGRES_URL) : undefined;
  const sandbox = await startSandbox({ seed: 1 });
  sandbox.setFault({ match: { path: BALANCE_PATH }, latencyMs: BALANCE_LATENCY_MS });
  const botSlack = await startLocalSlack({ signingSecret: SIGNING_SECRET, botToken: BOT_TOKEN, ackTimeoutMs: 10_000 });
  const bareSlack = await startLocalSlack({ signingSecret: SIGNING_SECRET, botToken: BOT_TOKEN, ackTimeoutMs: 10_000 });

  const env = {
    ...benchAppEnv({ botToken: BOT_TOKEN, signingSecret: SIGNING_SECRET, slackApiUrl: botSlack.apiUrl, sandbox }),
    ...(schema ? { DATABASE_URL: schema.databaseUrl } : { DATA_DIR: ':memory:' }),
  };
  let bot: AppProcess | undefined;
  let bare: AppProcess | undefined;
  const users = ['U0REQUESTER', 'U0APPROVER', 'U0APPROVER2'];
  try {
    [bot, bare] = await Promise.all([
      // BENCH_QUERY_LOG_MS: the bot prints each statement at least that long (0: every one).
      startAppProcess({ kind: 'bot', env, timeQueries: process.env.BENCH_QUERY_LOG_MS !== undefined }),
      startAppProcess({ kind: 'bare', signingSecret: SIGNING_SECRET, botToken: BOT_TOKEN, slackApiUrl: bareSlack.apiUrl }),
    ]);
    botSlack.setAppUrl(bot.eventsUrl);
    bareSlack.setAppUrl(bare.eventsUrl);
    // Warm both paths (JIT, keep-alive sockets), then alternate rounds so both see the same machine load.
    await burst(botSlack, users);
    const botReply = await botSlack.waitFor(
      () => botSlack.messages('C0TREASURY', { visibleTo: users[0]! }).find((m) => m.text.startsWith('Fleet account balance')),
      { timeoutMs: 10_000 },
    );
    // The bare app answers each command too, as the bot does, with the bot's own reply (its blocks as
    // well), so that the local Slack stores the same message for both: at once from cache, else after
    // the Fleet API's latency, when the bot's answers go out.
    const afterMs = fromCache ? 0 : BALANCE_LATENCY_MS;
    await bare.ask({ ask: 'setAnswer', answer: { text: botReply.text, ...(botReply.blocks ? { blocks: botReply.blocks } : {}), afterMs } });
    await burst(bareSlack, users);
    await new Promise((resolve) => setTimeout(resolve, 7500));
    const [botCpuBefore, bareCpuBefore] = await Promise.all([bot.cpuMs(), bare.cpuMs()]);
    const botSamples: number[] = [];
    const bareSamples: number[] = [];
    const callsPerBurst: number[] = [];
    const settle = () => new Promise((resolve) => setTimeout(resolve, 1000));
    for (let round = 0; round < ROUNDS; round += 1) {
      // Alternate which app goes first, so that neither always inherits the other's garbage to collect.
      const botFirst = round % 2 === 1;
      if (!botFirst) {
        bareSamples.push(...(await burst(bareSlack, users)));
        await settle();
      }
      if (fromCache) {
        // Read the balance (2 s) so that the burst's answers come from the 5 s cache.
        const warmed = replies(botSlack, users);
        await botSlack.runCommand({ userId: users[0]!, channelId: 'C0TREASURY', text: 'balance' });
        await botSlack.waitFor(() => replies(botSlack, users) > warmed || undefined, { timeoutMs: 10_000, message: 'the balance read before the burst' });
      }
      const repliesBefore = replies(botSlack, users);
      const before = sandbox.requests.filter((request) => request.path === BALANCE_PATH).length;
      botSamples.push(...(await burst(botSlack, users)));
      // Let the replies land (2 s of API latency) before counting upstream calls and starting the next round.
      await botSlack.waitFor(() => replies(botSlack, users) >= repliesBefore + CONCURRENCY || undefined, {
        timeoutMs: 20_000,
        message: 'every command answered',
      });
      callsPerBurst.push(sandbox.requests.filter((request) => request.path === BALANCE_PATH).length - before);
      if (botFirst) {
        await settle();
        bareSamples.push(...(await burst(bareSlack, users)));
      }
      // Let the short balance cache expire so that every round starts cold.
      await new Promise((resolve) => setTimeout(resolve, 5500));
    }
    const [botCpu, bareCpu] = await Promise.all([bot.cpuMs(), bare.cpuMs()]);
    const commands = ROUNDS * CONCURRENCY;
    botSamples.sort((a, b) => a - b);
    bareSamples.sort((a, b) => a - b);
    const result: AckBenchResult = {
      bot_ack_p50_ms: round(percentile(botSamples, 50), 2),
      bot_ack_p99_ms: round(percentile(botSamples, 99), 2),
      bare_ack_p50_ms: round(percentile(bareSamples, 50), 2),
      bare_ack_p99_ms: round(percentile(bareSamples, 99), 2),
      p99_ratio: round(percentile(botSamples, 99) / percentile(bareSamples, 99), 2),
      p50_ratio: round(percentile(botSamples, 50) / percentile(bareSamples, 50), 2),
      fleet_balance_calls_per_burst: Math.max(...callsPerBurst),
      commands_per_burst: CONCURRENCY,
      // The bot's includes the balance reads before each round (from cache) and its timers: an upper bound.
      bot_cpu_ms_per_command: round((botCpu - botCpuBefore) / commands, 3),
      bare_cpu_ms_per_command: round((bareCpu - bareCpuBefore) / commands, 3),
    };
    return result;
  } finally {
    await Promise.all([bare?.close(), bot?.close()]);
    await botSlack.close();
    await bareSlack.close();
    await sandbox.close();
    await schema?.drop();
  }
}

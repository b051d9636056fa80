/**
 * One app of a benchmark in a process of its own, as in production, where the bot is its own
 * process: the bot (`startBot`) or a bare Bolt app, forked by `bench/app-processes.ts`. It tells
 * the parent its events URL over IPC and answers the parent's questions: its own event loop delay
 * over a window (`monitorEventLoopDelay`), its CPU time, the bot's feed and ledger status.
 */
import { App, HTTPReceiver } from '@slack/bolt';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createWriteStream } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Writable } from 'node:stream';
import type { RunningBot } from '../src/bot.js';
import { HTTP_LIMITS, httpServerOptions } from '../src/slack/transport/http-limits.js';
import type { Db, Queryable } from '../src/store/index.js';
import type { AppProcessSpec, AppReply, AppRequest, BareAnswer, LoopDelay } from './app-processes.js';
import { StallWatch } from './stalls.js';

const spec = JSON.parse(process.env.BENCH_APP_SPEC ?? '{}') as AppProcessSpec;
const send = (message: AppReply) => process.send?.(message);
const delay = monitorEventLoopDelay({ resolution: 10 });
const stalls = new StallWatch();

/** Prints each statement that took over BENCH_QUERY_LOG_MS (default 50 ms), its wait for the connection included. */
function timingQueries(db: Db): Db {
  const threshold = Number(process.env.BENCH_QUERY_LOG_MS ?? 50);
  const timed = <T>(sql: string, run: () => Promise<T>) => {
    const started = performance.now();
    return run().finally(() => {
      const ms = performance.now() - started;
      if (ms >= threshold) console.log(`${new Date().toISOString().slice(11, 23)} ${Math.round(ms)} ms: ${sql.replace(/\s+/g, ' ').slice(0, 140)}`);
    });
  };
  const wrap = (q: Queryable): Queryable => ({ query: (sql, params) => timed(sql, () => q.query(sql, params)) });
  const wrapped: Db = {
    kind: db.kind,
    tenant: db.tenant,
    forTenant: (tenant) => db.forTenant(tenant),
    query: (sql, params) => timed(sql, () => db.query(sql, params)),
    transaction: (work) => db.transaction((tx) => work(wrap(tx))),
    listen: (channel, handlers) => db.listen(channel, handlers),
    forHeavyWork: () => wrapped,
    close: () => db.close(),
  };
  return wrapped;
}

interface Running {
  eventsUrl: string;
  bot?: RunningBot;
  setAnswer?: (answer: BareAnswer) => void;
  close(): Promise<void>;
}

async function startBotProcess(botSpec: Extract<AppProcessSpec, { kind: 'bot' }>): Promise<Running> {
  // Imported here, so that the bare app's process holds none of the bot's code.
  const [{ startBot }, { loadConfig }, { identifyPage }, { insertEntries }, { createLogger }, { openDatabase }, { transaction }] = await Promise.all([
    import('../src/bot.js'),
    import('../src/config/config.js'),
    import('../src/ledger/identity.js'),
    import('../src/ledger/store.js'),
    import('../src/core/logger.js'),
    import('../src/store/index.js'),
    import('./export.js'),
  ]);
  const config = loadConfig(botSpec.env);
  const quiet = new Writable({ write: (_chunk, _encoding, callback) => callback() });
  // The soak keeps the app's log beside its figures: its warnings are part of what a lost entry tells.
  const logger = createLogger({ level: botSpec.logLevel ?? 'warn', destination: botSpec.logFile ? createWriteStream(botSpec.logFile, { flags: 'a' }) : quiet });
  let db: Db | undefined;
  if (botSpec.ledgerRows || botSpec.timeQueries) {
    const silent = createLogger({ level: 'silent' });
    db = await openDatabase({ databaseUrl: config.store.databaseUrl, dataDir: config.store.dataDir, logger: silent });
    // The ledger already holds these rows, as after months of syncing (the heavy bench's export).
    for (let from = 0; from < (botSpec.ledgerRows ?? 0); from += 1000) {
      const page = Array.from({ length: Math.min(1000, (botSpec.ledgerRows ?? 0) - from) }, (_, i) => transaction(from + i));
      await insertEntries(db, identifyPage(page), { firstSeenAt: new Date(), markLate: false });
    }
  }
  const given = db && (botSpec.timeQueries ? timingQueries(db) : db);
  const bot = await startBot({ config, logger, ...(given ? { db: given } : {}) });
  return {
    eventsUrl: bot.eventsUrl!,
    bot,
    close: async () => {
      await bot.close();
      await db?.close();
    },
  };
}

async function startBareProcess(bareSpec: Extract<AppProcessSpec, { kind: 'bare' }>): Promise<Running> {
  // Bolt's HTTPReceiver with the bot's body limit and server timeouts; none of the bot's middleware.
  const receiver = new HTTPReceiver({ signingSecret: bareSpec.signingSecret, bodyLimit: HTTP_LIMITS.maxBodyBytes });
  const app = new App({ token: bareSpec.botToken, receiver, clientOptions: { slackApiUrl: bareSpec.slackApiUrl } });
  let answer: BareAnswer | undefined;
  app.command('/fleet', async ({ ack, respond }) => {
    await ack();
    if (!answer) return;
    const { afterMs, ...reply } = answer;
    if (afterMs > 0) await new Promise((resolve) => setTimeout(resolve, afterMs));
    await respond({ response_type: 'ephemeral', replace_original: false, ...reply });
  });
  const server = (await app.start({ port: 0, host: '127.0.0.1' }, httpServerOptions(HTTP_LIMITS))) as Server;
  return {
    eventsUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/slack/events`,
    setAnswer: (next) => {
      answer = next;
    },
    close: async () => {
      await app.stop();
    },
  };
}

async function answer(running: Running, request: AppRequest): Promise<unknown> {
  switch (request.ask) {
    case 'loopStart':
      delay.reset();
      delay.enable();
      stalls.start();
      return undefined;
    case 'loopStop': {
      delay.disable();
      const figures: LoopDelay = { max_ms: delay.max / 1e6, p99_ms: delay.percentile(99) / 1e6, stalls: stalls.stop() };
      return figures;
    }
    case 'cpu':
      return process.cpuUsage();
    case 'memory':
      return process.memoryUsage();
    case 'feedStatus':
      return running.bot?.feed?.status();
    case 'ledgerStatus':
      return running.bot?.ledger?.reader.status();
    case 'query':
      if (!running.bot) throw new Error('only the bot has a database');
      return (await running.bot.db.query(request.sql, request.params)).rows;
    case 'setAnswer':
      running.setAnswer?.(request.answer);
      return undefined;
    case 'close':
      await running.close();
      // Exiting (rather than being killed) writes the --cpu-prof profile.
      setImmediate(() => process.exit(0));
      return undefined;
  }
}

const running = await (spec.kind === 'bot' ? startBotProcess(spec) : startBareProcess(spec)).catch((error: unknown) => {
  send({ failed: error instanceof Error ? (error.stack ?? error.message) : String(error) });
  process.exit(1);
});
process.on('message', (request: AppRequest) => {
  answer(running, request).then(
    (result) => send({ id: request.id, result }),
    (error: unknown) => send({ id: request.id, error: error instanceof Error ? error.message : String(error) }),
  );
});
// The parent gone (the bench ended or failed), this process goes too.
process.on('disconnect', () => {
  void running.close().finally(() => process.exit(0));
});
send({ ready: running.eventsUrl });

/**
 * Feed soak (issue 45): the bot as deployed, in a process of its own (`app-processes.ts`): ledger
 * and feed on, both every 5 s, over the sandbox Fleet API (HTTP, real time) that makes a new entry
 * every 250 ms (one in 17 `Pending`, never completed), while a person runs `/fleet balance` and
 * `/fleet tx` every 2 s through signed requests. The local Slack workspace records the feed channel;
 * each entry made is matched by reference against the entries the feed's messages carry: missing,
 * repeated, delay from creation to post, and the bot's memory over time. Either store.
 *
 * Each run keeps its files in a folder of its own: the app's log, samples of the feed's cursor and of
 * the ledger every interval, every entry's times, and the details of each entry missing or repeated;
 * on the embedded store its data folder, on Postgres the schema when the run failed.
 * Alone: `npx tsx bench/soak.ts --minutes 30 --store embedded` (see `soakOptionsFrom` in `soak-options.ts`).
 */
import { startLocalSlack, type SlackMessage } from '@fleet-treasury-bot/local-slack';
import { appendFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { FeedStatus } from '../src/feed/index.js';
import type { Transaction } from '../src/fleet/schemas.js';
import type { LedgerStatus } from '../src/ledger/index.js';
import { seededRandom } from '../src/sandbox/data.js';
import { startSandbox } from '../src/sandbox/server.js';
import { createTestSchema } from '../test/support/databases.js';
import { BENCH_POSTGRES_URL } from './postgres.js';
import { startAppProcess, type AppProcess } from './app-processes.js';
import { percentile, round } from './stats.js';
import { DEFAULT_SOAK, printSoak, soakOptionsFrom, type EntryDetails, type MemorySample, type SoakOptions, type SoakResult } from './soak-options.js';
import { benchAppEnv } from './app-env.js';

// What bench/run.ts reads from here.
export { printSoak, soakOptionsFrom, type SoakResult } from './soak-options.js';

const SIGNING_SECRET = 'benchsoaksigningsecret0123456789';
const BOT_TOKEN = 'xoxb-bench-soak-token';
const FEED_CHANNEL = 'C0FEED';
const PERSON = 'U0REQUESTER';
/** What the feed's messages say of entries posted late (the i18n catalog's `feed.note.late`). */
const LATE_NOTE = ':rewind:';

/** An entry made, and what the feed and the ledger did with it. */
interface MadeEntry {
  reference: string;
  status: string;
  /** When it appeared in the list; its date too, unless it is listed late. */
  madeMs: number;
  dateMs: number;
  /** When each message carrying it was posted (Slack accepted it). */
  postedMs: number[];
  /** Whether a message carrying it said it was late. */
  postedLate: boolean;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
const clockTime = (ms: number) => new Date(ms).toISOString().slice(11, 19);

async function until(what: string, check: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`soak: ${what} did not happen within ${timeoutMs / 1000} s`);
    await sleep(250);
  }
}

/** The references a feed message carries, each as often as it appears: the code spans of its blocks (its text when it has none). */
export function referencesIn(message: Pick<SlackMessage, 'text' | 'blocks'>): string[] {
  const source = message.blocks.length > 0 ? JSON.stringify(message.blocks) : message.text;
  return [...source.matchAll(/`([^`\s]+)`/g)].map((match) => match[1]!);
}

export async function runSoak(given: Partial<SoakOptions> = {}): Promise<SoakResult> {
  const options = { ...DEFAULT_SOAK, ...given };
  const dir = options.dir ?? (await mkdtemp(path.join(os.tmpdir(), `feed-soak-${options.store}-`)));
  await mkdir(dir, { recursive: true });
  const files = {
    log: path.join(dir, 'app.log'),
    samples: path.join(dir, 'samples.jsonl'),
    entries: path.join(dir, 'entries.jsonl'),
    summary: path.join(dir, 'summary.json'),
  };
  const schema = options.store === 'postgres' ? await createTestSchema(BENCH_POSTGRES_URL) : undefined;
  const sandbox = await startSandbox({ seed: 45 });
  const slack = await startLocalSlack({ signingSecret: SIGNING_SECRET, botToken: BOT_TOKEN, ackTimeoutMs: 10_000 });
  slack.invite(FEED_CHANNEL);
  const made = new Map<string, MadeEntry>();
  let postedNotMade = 0;
  let textOnlyMessages = 0;
  const limitViolations: string[] = [];
  slack.on('change', (change) => {
    if (change.type === 'limit_violation') limitViolations.push(change.violation);
    if (change.type !== 'message_posted' || change.channel !== FEED_CHANNEL) return;
    const at = Date.now();
    const message = slack.message(change.channel, change.ts);
    if (!message) return;
    const late = JSON.stringify(message.blocks).includes(LATE_NOTE) || message.text.includes(LATE_NOTE);
    // Blocks refused, the entries went as text (feed-publisher.ts): posted, but a reader counting blocks would miss them.
    if (message.blocks.length === 0) textOnlyMessages += 1;
    for (const reference of referencesIn(message)) {
      const entry = made.get(reference);
      if (!entry) postedNotMade += 1;
      else {
        entry.postedMs.push(at);
        entry.postedLate ||= late;
      }
    }
  });

  let bot: AppProcess | undefined;
  let passed = false;
  try {
    const interval = String(options.intervalSeconds);
    const env: Record<string, string> = {
      ...benchAppEnv({ botToken: BOT_TOKEN, signingSecret: SIGNING_SECRET, slackApiUrl: slack.apiUrl, sandbox, logLevel: 'info' }),
      FEED_CHANNEL_ID: FEED_CHANNEL,
      FEED_POLL_INTERVAL_SECONDS: interval,
      LEDGER_POLL_SECONDS: interval,
      ...(options.historyPageDelayMs !== undefined ? { LEDGER_HISTORY_PAGE_DELAY_MS: String(options.historyPageDelayMs) } : {}),
      ...(schema ? { DATABASE_URL: schema.databaseUrl } : { DATA_DIR: path.join(dir, 'data') }),
    };
    bot = await startAppProcess({ kind: 'bot', env, logFile: files.log, logLevel: 'info' });
    slack.setAppUrl(bot.eventsUrl);
    const app = bot;
    const query = <T>(sql: string, params?: unknown[]) => app.ask<T[]>({ ask: 'query', sql, ...(params ? { params } : {}) });
    await until('the ledger history loaded', async () => (await app.ask<LedgerStatus>({ ask: 'ledgerStatus' })).historyComplete, 180_000);
    await until('the feed started', async () => (await app.ask<FeedStatus>({ ask: 'feedStatus' })).started, 60_000);

    const startedMs = Date.now();
    const count = Math.floor((options.minutes * 60_000) / options.rateMs);
    const boundMs = (options.intervalSeconds + 2) * 1000;
    let making = true;
    let stopping = false;
    const memory: MemorySample[] = [];
    let commandsSent = 0;
    let commandsNotAcknowledged = 0;

    const random = seededRandom(4517);
    const makeEntries = async () => {
      let dueMs = startedMs;
      for (let i = 0; i < count; i += 1) {
        // On a schedule from the start, so that a late timer does not slow the rate down.
        await sleep(dueMs - Date.now());
        dueMs += options.arrivals === 'steady' ? options.rateMs : -Math.log(1 - random()) * options.rateMs;
        const pending = options.pendingEvery > 0 && i % options.pendingEvery === options.pendingEvery - 1;
        const listedLate = options.lateEvery > 0 && i % options.lateEvery === options.lateEvery - 1;
        const madeMs = Date.now();
        const tx: Transaction = sandbox.addTransaction({
          ...(pending ? { status: 'Pending' } : {}),
          ...(listedLate ? { date: new Date(madeMs - options.lateByMs).toISOString() } : {}),
        });
        made.set(tx.reference, {
          reference: tx.reference,
          status: tx.status,
          madeMs: listedLate ? madeMs : Date.parse(tx.date),
          dateMs: Date.parse(tx.date),
          postedMs: [],
          postedLate: false,
        });
      }
      making = false;
    };
    const person = async () => {
      while (!stopping) {
        const next = Date.now() + options.commandEveryMs;
        const acks = await Promise.all(['balance', 'tx'].map((text) => slack.runCommand({ userId: PERSON, channelId: 'C0TREASURY', text })));
        commandsSent += acks.length;
        commandsNotAcknowledged += acks.filter((ack) => ack.status !== 200).length;
        await sleep(next - Date.now());
      }
    };
    // The feed's cursor and the ledger's progress every interval, to read beside a lost entry's times.
    const sample = async () => {
      const [feed] = await query<Record<string, unknown>>(
        `SELECT version, (cursor->>'newestMs')::bigint AS newest_ms, (cursor->>'floorMs')::bigint AS floor_ms, (cursor->>'sweepFromMs')::bigint AS sweep_from_ms,
                jsonb_array_length(cursor->'keys') AS keys, newest_reference, late_entries, pending_entries, last_poll_at, last_error, last_error_at
           FROM feed_state WHERE channel_id = $1`,
        [FEED_CHANNEL],
      );
      const [ledger] = await query<Record<string, unknown>>(
        `SELECT (SELECT max(seq) FROM ledger_entries) AS max_seq, (SELECT count(*) FROM ledger_entries WHERE late) AS late,
                (SELECT max(entry_at) FROM ledger_entries) AS newest_entry_at, s.last_poll_at, s.last_sweep_at, s.walk_kind, s.last_error
           FROM ledger_sync_state s WHERE s.id = 1`,
      );
      await appendFile(files.samples, `${JSON.stringify({ at: new Date().toISOString(), feed, ledger })}\n`);
    };
    const samplers = async () => {
      let nextMemoryMs = startedMs;
      while (!stopping) {
        const next = Date.now() + options.intervalSeconds * 1000;
        await sample().catch((error: unknown) => appendFile(files.samples, `${JSON.stringify({ at: new Date().toISOString(), error: String(error) })}\n`));
        if (Date.now() >= nextMemoryMs) {
          nextMemoryMs += 60_000;
          const usage = await app.ask<NodeJS.MemoryUsage>({ ask: 'memory' });
          const minute = round((Date.now() - startedMs) / 60_000, 1);
          memory.push({
            minute,
            rss_mb: round(usage.rss / 2 ** 20, 1),
            heap_mb: round(usage.heapUsed / 2 ** 20, 1),
            array_buffers_mb: round(usage.arrayBuffers / 2 ** 20, 1),
          });
          const entries = [...made.values()];
          const posted = entries.filter((entry) => entry.postedMs.length > 0).length;
          const overdue = entries.filter((entry) => entry.postedMs.length === 0 && Date.now() - entry.madeMs > boundMs).length;
          options.progress?.(
            `${clockTime(Date.now())} ${options.store} ${minute} min: made ${entries.length}, posted ${posted}, overdue ${overdue}, RSS ${memory.at(-1)!.rss_mb} MB`,
          );
        }
        await sleep(next - Date.now());
      }
    };
    const load = Promise.all([person(), samplers()]);
    load.catch(() => undefined);
    try {
      await makeEntries();
      // Every entry posted and two intervals more (a repeat would show), or the settle time is up.
      const settleUntil = Date.now() + options.settleSeconds * 1000;
      let allPostedAt: number | undefined;
      while (Date.now() < settleUntil && (allPostedAt === undefined || Date.now() < allPostedAt + 2 * options.intervalSeconds * 1000)) {
        if (allPostedAt === undefined && [...made.values()].every((entry) => entry.postedMs.length > 0)) allPostedAt = Date.now();
        await sleep(250);
      }
    } finally {
      stopping = true;
      await load;
    }
    if (making) throw new Error('soak: entries still being made at the end');

    const feedStatus = await app.ask<FeedStatus>({ ask: 'feedStatus' });
    const [ledgerLate] = await query<{ late: string }>('SELECT count(*) AS late FROM ledger_entries WHERE late');
    const entries = [...made.values()];
    const stored = new Map(
      (
        await query<{ reference: string; seq: string; late: boolean; first_seen_at: Date; date_text: string }>(
          'SELECT reference, seq, late, first_seen_at, date_text FROM ledger_entries WHERE reference = ANY($1::text[])',
          [entries.map((entry) => entry.reference)],
        )
      ).map((row) => [row.reference, row]),
    );
    await writeFile(
      files.entries,
      entries
        .map((entry) => {
          const row = stored.get(entry.reference);
          return JSON.stringify({
            reference: entry.reference,
            status: entry.status,
            made: new Date(entry.madeMs).toISOString(),
            date: new Date(entry.dateMs).toISOString(),
            posted: entry.postedMs.map((ms) => new Date(ms).toISOString()),
            posted_late: entry.postedLate,
            seq: row ? Number(row.seq) : null,
            ledger_late: row?.late ?? null,
            first_seen_at: row ? new Date(row.first_seen_at).toISOString() : null,
          });
        })
        .join('\n') + '\n',
    );

    const details = async (entry: MadeEntry): Promise<EntryDetails> => {
      const row = stored.get(entry.reference);
      const [remembered] = await query<{ count: string }>(`SELECT count(*) AS count FROM feed_posted_entries WHERE channel_id = $1 AND entry_key LIKE $2`, [
        FEED_CHANNEL,
        `${entry.reference}|%`,
      ]);
      const seq = row ? Number(row.seq) : undefined;
      const neighbours =
        seq === undefined
          ? []
          : await query<{ seq: string; reference: string; date_text: string; first_seen_at: Date; late: boolean }>(
              'SELECT seq, reference, date_text, first_seen_at, late FROM ledger_entries WHERE seq BETWEEN $1 AND $2 AND seq <> $3 ORDER BY seq',
              [seq - 2, seq + 2, seq],
            );
      return {
        reference: entry.reference,
        date: new Date(entry.dateMs).toISOString(),
        status: entry.status,
        posted: entry.postedMs.length,
        made: new Date(entry.madeMs).toISOString(),
        ledger: row
          ? {
              seq: Number(row.seq),
              late: row.late,
              firstSeenAt: new Date(row.first_seen_at).toISOString(),
              storedAfterS: round((new Date(row.first_seen_at).getTime() - entry.madeMs) / 1000, 3),
            }
          : null,
        rememberedAsPosted: Number(remembered?.count ?? 0) > 0,
        neighbours: neighbours.map((n) => ({
          seq: Number(n.seq),
          reference: n.reference,
          date: n.date_text,
          firstSeenAt: new Date(n.first_seen_at).toISOString(),
          late: n.late,
        })),
      };
    };
    const missing = entries.filter((entry) => entry.postedMs.length === 0);
    const repeated = entries.filter((entry) => entry.postedMs.length > 1);
    const missingEntries = await Promise.all(missing.map(details));
    const repeatedEntries = await Promise.all(repeated.map(details));
    const [feedRow] = await query<Record<string, unknown>>('SELECT * FROM feed_state WHERE channel_id = $1', [FEED_CHANNEL]);
    await writeFile(path.join(dir, 'feed-state.json'), JSON.stringify(feedRow, null, 1));

    const delays = entries
      .filter((entry) => entry.postedMs.length > 0)
      .map((entry) => entry.postedMs[0]! - entry.madeMs)
      .sort((a, b) => a - b);
    passed = missing.length === 0 && repeated.length === 0;
    const result: SoakResult = {
      store: options.store,
      minutes: options.minutes,
      rate_ms: options.rateMs,
      arrivals: options.arrivals,
      pending_every: options.pendingEvery,
      late_every: options.lateEvery,
      late_by_ms: options.lateByMs,
      interval_s: options.intervalSeconds,
      dir,
      ...(schema ? { database_url: schema.databaseUrl } : {}),
      entries_made: entries.length,
      pending_made: entries.filter((entry) => entry.status === 'Pending').length,
      listed_late_made: entries.filter((entry) => entry.dateMs !== entry.madeMs).length,
      entries_posted: entries.length - missing.length,
      missing: missing.length,
      repeated: repeated.length,
      posted_late: entries.filter((entry) => entry.postedLate).length,
      posted_not_made: postedNotMade,
      text_only_messages: textOnlyMessages,
      limit_violations: limitViolations.slice(0, 20),
      delay_p50_s: round(percentile(delays, 50) / 1000, 2),
      delay_p99_s: round(percentile(delays, 99) / 1000, 2),
      delay_max_s: round((delays.at(-1) ?? Number.NaN) / 1000, 2),
      delay_bound_s: boundMs / 1000,
      over_bound: delays.filter((ms) => ms > boundMs).length,
      commands_sent: commandsSent,
      commands_not_acknowledged: commandsNotAcknowledged,
      feed_late_entries: feedStatus.lateEntries,
      ledger_late_entries: Number(ledgerLate?.late ?? 0),
      feed_last_error: feedStatus.lastError?.code,
      memory,
      missing_entries: missingEntries,
      repeated_entries: repeatedEntries,
      passed,
    };
    await writeFile(files.summary, JSON.stringify(result, null, 1));
    return result;
  } finally {
    await bot?.close();
    await sandbox.close();
    await slack.close();
    if (passed && !options.keep) {
      await schema?.drop();
      if (!options.dir) await rm(dir, { recursive: true, force: true });
    }
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const chosen = soakOptionsFrom(process.argv.slice(2), process.env);
  const result = await runSoak({ progress: (line) => console.log(line), ...chosen });
  printSoak(result);
  console.log(JSON.stringify({ soak: result }));
}

/**
 * The whole product on one computer with nothing configured: the sandbox Fleet API with live activity,
 * PGlite in a temporary folder, the real bot in HTTP mode, and the local Slack workspace with its page.
 * Secrets are generated per run; the workspace signs what people do with the bot's signing secret.
 */
import { randomBytes } from 'node:crypto';
import { startLocalSlack, type LocalSlack, type WorkspaceChange } from '../workspace/index.js';
import { mountPage, type PageWorkflowStep } from '../workspace/page-server.js';
import { openDemoDatabase, type DemoDatabase } from './demo-database.js';
import { DEMO_BOT_CHANNELS, DEMO_CHANNELS, DEMO_PEOPLE, demoRoleEnv } from './people.js';
import { exampleFiles } from './example-files.js';
import { markStart } from './start-timings.js';
import { createLogger, loadConfig, PAYOUT_STEP_CALLBACK_ID, startBot, STEP_INPUTS, type Clock, type Db, type Logger, type RunningBot } from './product.js';

export { demoSettings } from './settings.js';

export interface DemoOptions {
  /** The page's port; 0 picks a free one. Default 3000. */
  port?: number;
  /** Default 127.0.0.1: the demo is for this computer only. */
  host?: string;
  /** A new transaction in the sandbox every N seconds; default 4. */
  activitySeconds?: number;
  /** How often the feed asks the Fleet API for new transactions; default 5 (the shortest the bot allows). */
  feedPollSeconds?: number;
  /** An open, migrated database, left open on close (tests); by default PGlite in a temporary folder removed on close. */
  db?: Db;
  /** The demo's database, already opening (main.ts starts it before loading the bot's code); closed with the demo. */
  database?: Promise<DemoDatabase>;
  /** Tests pass their own; otherwise pretty logs at `logLevel` (default warn), scrubbed of this run's secrets. */
  logger?: Logger;
  logLevel?: string;
  /** The bot's clock (tests move it to reach a scheduled payout's time); the system's by default. */
  clock?: Clock;
}

export interface Demo {
  /** The page, e.g. http://127.0.0.1:3000 */
  url: string;
  slack: LocalSlack;
  bot: RunningBot;
  close(): Promise<void>;
}

export const COMMAND_HINT =
  '/fleet balance · /fleet tx [filters] [words] · /fleet payout mobile [phone] [amount] [currency] · /fleet export · /fleet digest · /fleet langue fr · /fleet help';

/**
 * The bot's timers (feed, digest, ledger sync, payouts) start a second after its first answer in the
 * workspace (time for the page to show it), or 2 s after the page opens if nobody asks first: the
 * first /fleet balance does not queue behind their first run (the ledger's first walk stores the
 * sandbox's 320 transactions, the embedded database's queries holding the event loop meanwhile).
 */
const TIMERS_AFTER = { answerMs: 1_000, pageOpenMs: 2_000 };

/** The demo team's zone: the daily digest's days and DIGEST_TIME are read in it. */
export const DEMO_TIME_ZONE = 'Africa/Kinshasa';

/**
 * A DIGEST_TIME one minute after `now` in `timeZone` (HH:MM, so between a few seconds and a minute
 * away), so that the digest of yesterday appears in #treasury-digest soon after the demo starts.
 */
export function digestTimeSoonAfter(now: Date, timeZone: string): string {
  const parts = new Intl.DateTimeFormat('en-US', { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).formatToParts(
    new Date(now.getTime() + 60_000),
  );
  const part = (type: string) => parts.find((piece) => piece.type === type)?.value ?? '00';
  return `${part('hour')}:${part('minute')}`;
}

export async function startDemo(options: DemoOptions = {}): Promise<Demo> {
  const signingSecret = randomBytes(16).toString('hex');
  const botToken = `xoxb-demo-${randomBytes(12).toString('hex')}`;
  const logger = options.logger ?? createLogger({ level: options.logLevel ?? 'warn', pretty: true, secrets: [signingSecret, botToken] });

  let slack: LocalSlack | undefined;
  let database: DemoDatabase | undefined;
  let pageOpened = (): void => undefined;
  const pageOpen = new Promise<void>((resolve) => (pageOpened = resolve));
  try {
    // The database (copying its folder, starting PGlite) and the workspace's server start side by side.
    const [opened, started] = await Promise.allSettled([
      options.db ? Promise.resolve(undefined) : (options.database ?? openDemoDatabase(logger.child({ component: 'store' }))),
      startLocalSlack({
        port: options.port ?? 3000,
        host: options.host ?? '127.0.0.1',
        signingSecret,
        botToken,
        users: Object.values(DEMO_PEOPLE).map(({ role: _role, ...user }) => user),
        channels: Object.values(DEMO_CHANNELS),
      }).then((started) => {
        markStart('workspace listening');
        return started;
      }),
    ]);
    if (opened.status === 'fulfilled') database = opened.value;
    if (started.status === 'fulfilled') slack = started.value;
    if (opened.status === 'rejected') throw opened.reason;
    if (started.status === 'rejected') throw started.reason;
    const db = options.db ?? database?.db;
    if (!slack || !db) throw new Error('the demo database or workspace did not start');
    for (const channel of DEMO_BOT_CHANNELS) slack.invite(channel);
    const config = loadConfig({
      SLACK_BOT_TOKEN: botToken,
      SLACK_SIGNING_SECRET: signingSecret,
      SLACK_API_URL: slack.apiUrl,
      PORT: '0',
      HOST: '127.0.0.1',
      FLEET_API_URL: 'sandbox',
      SANDBOX_ACTIVITY_SECONDS: String(options.activitySeconds ?? 4),
      FEED_POLL_INTERVAL_SECONDS: String(options.feedPollSeconds ?? 5),
      // The feed reads the ledger, so the ledger polls as often: a new transaction shows within one poll.
      LEDGER_POLL_SECONDS: String(Math.max(5, options.feedPollSeconds ?? 5)),
      // The digest of yesterday shows in #treasury-digest about a minute after start.
      DIGEST_TIMEZONE: DEMO_TIME_ZONE,
      // The team's day and the Send on time of scheduled payouts are read in the same zone.
      TEAM_TIMEZONE: DEMO_TIME_ZONE,
      // The transaction filters' days stay UTC days, as before the team's zone.
      LEDGER_TIMEZONE: 'UTC',
      DIGEST_TIME: digestTimeSoonAfter(new Date(), DEMO_TIME_ZONE),
      ...demoRoleEnv(),
    });
    markStart('database and workspace ready');
    const timersAfter = afterFirstAnswer(slack, pageOpen, TIMERS_AFTER);
    const bot = await startBot({ config, logger, db, timersAfter, ...(options.clock ? { clock: options.clock } : {}) });
    markStart('bot started');
    if (bot.eventsUrl) {
      slack.setAppUrl(bot.eventsUrl);
      // As Slack does before sending events to a request URL.
      await slack.verifyRequestUrl();
    }
    markStart('request URL verified');
    const sandbox = bot.sandbox;
    mountPage(slack, {
      people: Object.values(DEMO_PEOPLE).map(({ id, role }) => ({ id, role })),
      commandHint: COMMAND_HINT,
      workflowSteps: [payoutStep()],
      sampleFiles: sandbox
        ? exampleFiles(
            () => sandbox.transactions(),
            () => options.clock?.now() ?? new Date(),
          )
        : [],
    });
    pageOpened();
    const running = slack;
    const openDatabase = database;
    let closing: Promise<void> | undefined;
    return {
      url: slack.url,
      slack,
      bot,
      close: () => {
        closing ??= (async () => {
          await bot.close();
          await running.close();
          await openDatabase?.close();
        })();
        return closing;
      },
    };
  } catch (error) {
    await slack?.close();
    await database?.close();
    throw error;
  }
}

/** Settles `answerMs` after the bot's first answer in the workspace (a message, a modal, a Home tab), or `pageOpenMs` after `pageOpen` without one. */
function afterFirstAnswer(slack: LocalSlack, pageOpen: Promise<void>, after: typeof TIMERS_AFTER): Promise<void> {
  return new Promise((resolve) => {
    let timer: NodeJS.Timeout | undefined;
    const resolveIn = (ms: number) => {
      clearTimeout(timer);
      timer = setTimeout(resolve, ms);
      timer.unref();
    };
    const answered = (change: WorkspaceChange) => {
      if (change.type !== 'message_posted' && change.type !== 'view_opened' && change.type !== 'home_published') return;
      slack.off('change', answered);
      resolveIn(after.answerMs);
    };
    slack.on('change', answered);
    void pageOpen.then(() => {
      if (slack.listeners('change').includes(answered)) resolveIn(after.pageOpenMs);
    });
  });
}

/** The product's Workflow Builder step as "Run workflow" offers it, with the inputs a first run can send as they are. */
function payoutStep(): PageWorkflowStep {
  const required = new Set(['requester', 'kind', 'name', 'country', 'amount', 'currency']);
  const examples: Record<string, string> = {
    kind: 'mobile',
    number: '243812345678',
    provider: 'VODACOM_MPESA',
    country: 'CD',
    name: 'Amani Kabila',
    amount: '150',
    currency: 'USD',
    note: 'Fuel for the Goma run',
  };
  return {
    callbackId: PAYOUT_STEP_CALLBACK_ID,
    title: 'Request a payout',
    inputs: STEP_INPUTS.map((name) => ({
      name,
      title: name,
      type: name === 'requester' ? 'user' : name === 'started_by' ? 'runner' : 'text',
      required: required.has(name),
      ...(examples[name] ? { example: examples[name] } : {}),
    })),
    runningNote:
      'waiting for {requester} to confirm the payout in their direct messages with the app; then it waits for the approvers, and completes once the payout is sent',
  };
}

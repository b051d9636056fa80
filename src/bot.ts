/**
 * Assembles the running bot from its configuration, one area after another, each after what it
 * needs (`app/`): the infrastructure, Slack, the ledger and feed, the digest and runway, payouts, the
 * workflow step, the App Home. `main.ts` calls it; integration tests call it too, with their own logger and clock.
 */
import type { App } from '@slack/bolt';
import { SHUTDOWN_ORDER, type BotOptions, type ShutdownStep, type Wiring } from './app/context.js';
import { buildDigestAndRunway } from './app/digest-and-runway.js';
import { buildInfrastructure } from './app/infrastructure.js';
import { buildLedgerAndFeed } from './app/ledger-and-feed.js';
import { buildPayouts, type PayoutListeners } from './app/payouts.js';
import { buildHome, buildSlack, serveSlack } from './app/slack.js';
import { buildWorkflow } from './app/workflow.js';
import { systemClock } from './core/clock.js';
import type { TransactionFeed } from './feed/index.js';
import type { LedgerSync } from './ledger/index.js';
import type { Metrics } from './ops/metrics.js';
import { RecipientBook, type PayoutBatchService, type PayoutService } from './payouts/index.js';
import type { Sandbox } from './sandbox/server.js';
import { EventLoopTurns } from './runtime/turns.js';
import { Shutdown } from './runtime/shutdown.js';
import { FileChecks } from './slack/files/file-checks.js';
import { registerListeners } from './slack/listeners/index.js';
import type { SlackHomePublisher } from './slack/publishers/home-publisher.js';
import { ValueSeal } from './slack/trust/sealed-values.js';
import type { Db } from './store/index.js';

export type { BotOptions } from './app/context.js';

export interface RunningBot {
  app: App;
  /** HTTP mode only: where Slack sends requests, e.g. http://127.0.0.1:3000/slack/events. */
  eventsUrl: string | undefined;
  /** Present when FLEET_API_URL=sandbox. */
  sandbox: Sandbox | undefined;
  db: Db;
  payouts: PayoutService;
  batches: PayoutBatchService;
  /** Present when FEED_CHANNEL_ID is set. */
  feed: TransactionFeed | undefined;
  /** GET /metrics's registry. */
  metrics: Metrics;
  /** With METRICS_PORT, in either mode: where /healthz, the detailed /readyz and /metrics are served, e.g. http://127.0.0.1:9100. */
  opsUrl: string | undefined;
  /** Present when LEDGER_ENABLED (the default). */
  ledger: LedgerSync | undefined;
  /** Publishes each person's App Home. */
  home: SlackHomePublisher;
  /** The timers: the feed, the ledger sync, the digest, runway alerts, scheduled and bulk payouts, payout upkeep, workflow steps. */
  work: PeriodicWork;
  close(): Promise<void>;
}

export interface PeriodicWork {
  /** Starts every timer (once; again after `stop`). Does nothing once the bot is closed. */
  start(): void;
  /** Stops every timer, waiting for each run under way; the bot still answers Slack. */
  stop(): Promise<void>;
  running(): boolean;
}

export async function startBot(options: BotOptions): Promise<RunningBot> {
  const { config, logger, clock = systemClock } = options;
  const shutdown = new Shutdown(SHUTDOWN_ORDER, logger);
  const turns = options.turns ?? new EventLoopTurns();
  const wiring: Wiring = { config, logger, clock, shutdown, turns, options };
  let closed = false;
  const close = () => {
    closed = true;
    return shutdown.run();
  };

  try {
    const infra = await buildInfrastructure(wiring);
    const slack = await buildSlack(wiring, infra);
    const ledgerAndFeed = buildLedgerAndFeed(wiring, infra, slack);
    const { ledger, feed } = ledgerAndFeed;
    const digestAndRunway = buildDigestAndRunway(wiring, infra, slack, { ledger, account: infra.account });
    // Who hears of a change of a payout or a bulk payout: the lists are filled in order below, before any change is made.
    const hear: PayoutListeners = { payouts: [], batches: [] };
    const payoutArea = buildPayouts(wiring, infra, slack, hear);
    const { payouts, batches, schedules } = payoutArea;
    const workflow = buildWorkflow(wiring, infra, slack, payouts);
    const { runway } = digestAndRunway;
    const home = buildHome(wiring, slack, infra.db, {
      account: infra.account,
      payouts,
      batches,
      schedules,
      feed,
      ledger,
      runway,
      exportsLedger: ledgerAndFeed.exporter !== undefined,
    });

    // The metrics first; the homes before Slack's messages, and not waited for; the Workflow Builder step after
    // the approval message (it completes a step at its payout's final outcome); a released bulk payout's sending last.
    hear.payouts.push(
      { changed: async (request, event) => infra.metrics.payoutChanged(event, request.state) },
      { changed: async (request) => void home.payoutChanged(request) },
      payoutArea.approvalMessages,
      workflow.steps,
    );
    hear.batches.push(
      {
        changed: async (batch, event) => {
          // Progress changes no Home: a home shows a batch's state, not its counts.
          if (event !== 'progress') void home.batchChanged(batch);
        },
      },
      payoutArea.batchMessages,
      payoutArea.wakeSending,
    );

    registerListeners(slack.app, {
      ledger: ledger?.reader,
      exporter: ledgerAndFeed.exporter,
      records: ledgerAndFeed.records,
      fileChecks: new FileChecks(),
      home,
      account: infra.account,
      payouts,
      batches,
      recipients: new RecipientBook({ db: infra.db, clock, roles: payoutArea.roles }),
      feed,
      access: slack.access,
      accessLists: config.access,
      payoutSettings: config.payouts,
      surface: slack.surface,
      locales: slack.locales,
      logger,
      clock,
      readTimeoutMs: 20_000,
      metrics: infra.metrics,
      ledgerTimeZone: config.ledger.timeZone,
      seal: new ValueSeal(options.hosted?.sealSecret ?? config.slack.botToken),
      digest: digestAndRunway.digest,
      schedules,
      invites: slack.invites,
      workflowSteps: workflow.steps,
      tokens: slack.tokens,
      runway,
      charts: digestAndRunway.charts,
      turns,
    });
    const { eventsUrl, opsUrl } = await serveSlack(wiring, slack, infra.metrics);

    // The periodic work, with stops of its own: hosted mode starts and stops it as this replica gains or loses the workspace's work.
    // Safe in any order and twice: a stop under way is waited for by a second stop (the bot's close
    // included), and a start asked meanwhile begins once it is over, unless a stop came after it, so
    // that no timer ever runs twice.
    let stops: Shutdown<ShutdownStep> | undefined;
    let stopping: Promise<void> | undefined;
    let wanted = false;
    const work: PeriodicWork = {
      start: () => {
        wanted = true;
        if (closed || stops) return;
        if (stopping) {
          void stopping.then(() => {
            if (wanted) work.start();
          });
          return;
        }
        stops = new Shutdown(SHUTDOWN_ORDER, logger);
        payoutArea.start(stops);
        workflow.start(stops);
        ledgerAndFeed.start(stops);
        digestAndRunway.start(stops);
      },
      stop: () => {
        wanted = false;
        const running = stops;
        stops = undefined;
        if (running) {
          const done: Promise<void> = running.run().finally(() => {
            if (stopping === done) stopping = undefined;
          });
          stopping = done;
        }
        return stopping ?? Promise.resolve();
      },
      running: () => stops !== undefined,
    };
    shutdown.add('periodic work', () => work.stop());
    if (!options.workWhenAsked) {
      const start = () => work.start();
      if (options.timersAfter) void options.timersAfter.then(start, start);
      else work.start();
    }

    const { sandbox, db, metrics } = infra;
    return { app: slack.app, eventsUrl, sandbox, db, payouts, batches, feed, ledger, metrics, opsUrl, home, work, close };
  } catch (error) {
    await close();
    throw error;
  }
}

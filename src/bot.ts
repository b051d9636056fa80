/**
 * Assembles the running bot from its configuration: the Fleet API (or the embedded sandbox),
 * the account reader, access control and the Slack app with its listeners. `main.ts` calls it;
 * integration tests call it too, with their own logger and clock.
 */
import type { App } from '@slack/bolt';
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { hostname } from 'node:os';
import { AccountReader } from './account/account-reader.js';
import { systemClock, type Clock } from './clock.js';
import type { Config } from './config.js';
import { FleetClient } from './fleet/client.js';
import type { FleetHttpOptions } from './fleet/http.js';
import type { Logger } from './logger.js';
import { TransactionFeed } from './feed/index.js';
import { DigestBuilder, DigestScheduler } from './digest/index.js';
import { LedgerListing, LedgerSync, StoredLedgerReader } from './ledger/index.js';
import { LedgerExporter } from './ledger/exporter.js';
import { RecordsService } from './records/index.js';
import { computeRunway, RunwayWatch } from './runway/index.js';
import { createRunwayAlertPoster } from './slack/publishers/runway-alert-publisher.js';
import { runwayChartFollowUp } from './slack/publishers/runway-chart-publisher.js';
import { ChartRenderer } from './runway/chart/renderer.js';
import { SlackBatchNotifier } from './slack/publishers/batch-notifier.js';
import { BatchSender, runBatchSending } from './payouts/batch/sender.js';
import {
  ApprovalReminders, PayoutBatchService, payoutRecords, PayoutSchedules, PayoutService, RecipientBook, ScheduleReleaser, sentPayoutLookup,
  type BatchNotifier, type PayoutNotifier, type RoleLookup,
} from './payouts/index.js';
import { startSandbox, type Sandbox } from './sandbox/server.js';
import { Shutdown } from './shutdown.js';
import { ValueSeal } from './slack/trust/sealed-values.js';
import { openDatabase, type Db } from './store/index.js';
import { AccessControl } from './slack/access.js';
import { ChannelInvites } from './slack/channel-invites.js';
import { createSlackApp, initSlackApp, lookupClient, startHttpApp } from './slack/transport/app.js';
import { HTTP_LIMITS, type HttpLimits } from './slack/transport/http-limits.js';
import { createSlackFeedPublisher } from './slack/publishers/feed-publisher.js';
import { FileChecks } from './slack/files/file-checks.js';
import { createSlackDigestPublisher } from './slack/publishers/digest-publisher.js';
import { registerListeners } from './slack/listeners/index.js';
import { SlackPayoutNotifier } from './slack/publishers/payout-notifier.js';
import { batchSeniorCall, seniorCall } from './slack/approval-context.js';
import { SlackScheduleNotifier } from './slack/publishers/schedule-notifier.js';
import { runScheduleReleases } from './payouts/schedule/runner.js';
import { approverDirectory, SlackReminderSender } from './slack/publishers/approver-notices.js';
import { SlackHomePublisher } from './slack/publishers/home-publisher.js';
import { HomeViews, type Timers } from './home/index.js';
import { SlackPersonLanguages } from './slack/locales.js';
import { SlackPersonNames, SlackUsers } from './slack/people.js';
import { CachedLanguageChoices } from './i18n/language-choices.js';
import { Metrics, type FleetCall } from './ops/metrics.js';
import { Readiness } from './ops/readiness.js';
import { opsRoutes, publicOpsRoutes, startOpsServer } from './ops/routes.js';
import type { Surface } from './slack/views/text.js';
import { TokenBox } from './slack/trust/token-box.js';
import { SlackStepCompleter } from './slack/publishers/workflow-step-completer.js';
import { PayoutSteps } from './workflow/index.js';

export interface BotOptions {
  config: Config;
  logger: Logger;
  clock?: Clock;
  /** An already open, migrated database; by default one is opened from the configuration and closed with the bot. */
  db?: Db;
  /** Tests only: short Fleet API timeouts, so that a hung payout becomes "unknown" in a second. */
  fleetTimeouts?: FleetHttpOptions['timeouts'];
  /** Tests only: how often payout maintenance runs (default 30 s) and an unknown payout is looked for again (default 30 s). */
  payoutTimers?: { maintenanceEveryMs?: number; recheckEveryMs?: number; batchEveryMs?: number; resultsRetrySeconds?: number; scheduleEveryMs?: number };
  /** Tests only: short HTTP header and body timeouts, so that a slow client is dropped in a second. */
  httpLimits?: Partial<HttpLimits>;
  /** Tests only: how often the runway alert is checked (default a minute). */
  runwayAlertEveryMs?: number;
  /** Tests only: the home tab's throttle interval (default 2 s) and its timers. */
  homeTimers?: { throttleMs?: number; timers?: Timers };
  /** The demo: the timers (feed, digest, ledger sync, payouts) start once this settles, so that the first answer does not queue behind their first run. */
  timersAfter?: Promise<unknown>;
}

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
  close(): Promise<void>;
}

export async function startBot(options: BotOptions): Promise<RunningBot> {
  const { config, logger, clock = systemClock, db: givenDb } = options;
  // First Slack, so that no new work arrives; then the timers (payout maintenance, the feed, the digest, the ledger sync); then
  // what they all use: role and account caches, the Fleet client, the database, the sandbox.
  const shutdown = new Shutdown(['slack', 'ops server', 'home', 'access', 'languages', 'account', 'bulk payout sending', 'scheduled payouts', 'payout maintenance', 'workflow steps', 'feed', 'digest', 'runway alerts', 'charts', 'ledger', 'fleet', 'database', 'sandbox'], logger);
  let closed = false;
  const close = () => {
    closed = true;
    return shutdown.run();
  };

  try {
    const metrics = new Metrics();
    let sandbox: Sandbox | undefined;
    let fleetUrl = config.fleet.url;
    let fleetKey = config.fleet.apiKey ?? '';
    if (config.fleet.url === 'sandbox') {
      sandbox = await startSandbox({ clock, activityIntervalMs: config.fleet.sandboxActivitySeconds * 1000 });
      shutdown.add('sandbox', () => sandbox?.close());
      fleetUrl = sandbox.url;
      fleetKey = sandbox.apiKey;
      logger.info({ url: sandbox.url }, 'embedded sandbox Fleet API started');
    }

    const db = givenDb ?? (await openConfiguredDatabase(config, logger, (closeDb) => shutdown.add('database', closeDb)));

    // Who watches each Fleet API call, in order: the metrics, then readiness (added below, before any call is made).
    const fleetObservers: Array<(call: FleetCall) => void> = [(call) => metrics.fleetCall(call)];
    const fleet = new FleetClient({
      baseUrl: fleetUrl, apiKey: fleetKey, logger: logger.child({ component: 'fleet' }), clock,
      ...(options.fleetTimeouts ? { timeouts: options.fleetTimeouts } : {}),
      observe: (call) => {
        for (const observe of fleetObservers) observe(call);
      },
    });
    shutdown.add('fleet', () => fleet.close());
    // Readiness checks run once the bot serves requests; `invites`: channels where no one invited the bot.
    const invites = new ChannelInvites(async () => (await app.client.auth.test()).user_id);
    const readiness = new Readiness({ pingDatabase: () => db.query('SELECT 1'), probeFleet: () => fleet.getBalance(), missingInvites: () => invites.list() });
    fleetObservers.push((call) => readiness.fleetCall(call));
    const account = new AccountReader(fleet, clock);
    shutdown.add('account', () => account.close());

    const httpLimits = { ...HTTP_LIMITS, ...options.httpLimits };
    const ops = {
      routes: publicOpsRoutes(readiness),
      ack: (route: string, seconds: number) => metrics.ack(route, seconds),
      slackCall: (method: string, answer: { status: number; error?: string | undefined }) => {
        metrics.slackCall(method, answer);
        if (answer.error) readiness.slackError(answer.error);
      },
    };
    const app = createSlackApp({ slack: config.slack, logger, httpLimits, ops });
    await initSlackApp(app);
    readiness.slackTokenAccepted();
    const access = new AccessControl(lookupClient(app), logger, clock, config.slack.teamId);
    shutdown.add('access', () => access.close());

    // Channel messages are read by many: CHANNEL_LOCALE. Replies, DMs and modals: each person's language.
    const surface: Surface = { sandbox: sandbox !== undefined, locale: config.language.channelLocale, timeZone: config.payoutSchedule.timeZone };
    // Who people are in Slack (users.info), read once for their language and the export's names.
    const users = new SlackUsers(lookupClient(app));
    // Each person's choice cached in memory, dropped on any replica's change (LISTEN language_choices).
    const choices = new CachedLanguageChoices(db);
    await choices.start();
    const locales = new SlackPersonLanguages({
      users, choices, defaultLocale: config.language.defaultLocale,
      logger: logger.child({ component: 'language' }), clock,
    });
    shutdown.add('languages', async () => {
      locales.close();
      await choices.close();
    });

    // Exports, the ledger sync, bulk payouts, the feed and the digest: on Postgres a pool of their own,
    // so that commands and clicks never wait behind them for a connection.
    const heavyDb = db.forHeavyWork();
    const ledger = config.ledger.enabled
      ? new LedgerSync({ fleet, db, clock, settings: config.ledger, logger: logger.child({ component: 'ledger' }) })
      : undefined;

    const feed = config.feed.channelId
      ? new TransactionFeed({
          // With the ledger on, its sync is the one reader of the API's list (at least every feed interval)
          // and the feed reads the stored copy, woken on the sync's replica as soon as new entries are stored.
          fleet: ledger ? new LedgerListing(heavyDb, fleet) : fleet, source: ledger, db: heavyDb, clock, settings: config.feed, logger: logger.child({ component: 'feed' }),
          publisher: createSlackFeedPublisher(app.client, { surface, logger: logger.child({ component: 'feed' }), invites }),
        })
      : undefined;

    // The one runway figure, from the balance every surface reads and the ledger.
    const runway = (request: { signal?: AbortSignal } = {}) => computeRunway({ ledger: ledger?.reader, balance: (read) => account.balance(read), clock, settings: config.runway }, request);
    const charts = new ChartRenderer();
    shutdown.add('charts', () => charts.close());

    const digest = new DigestBuilder({
      ledger: ledger && new StoredLedgerReader(heavyDb), db: heavyDb, clock, balance: () => fleet.getBalance(), timeZone: config.digest.timeZone, runway: () => runway(),
      // The closing balance waits for two ledger polls after the balance read (see build.ts).
      requestTtlHours: config.payouts.requestTtlHours, ledgerWaitMs: (2 * config.ledger.pollIntervalSeconds + 5) * 1000, logger: logger.child({ component: 'digest' }),
    });
    const digestChannelId = config.digest.channelId;
    const digestScheduler = digestChannelId
      ? new DigestScheduler({
          builder: digest, db: heavyDb, clock, settings: { ...config.digest, channelId: digestChannelId }, logger: logger.child({ component: 'digest' }),
          publisher: createSlackDigestPublisher(app.client, { surface, logger: logger.child({ component: 'digest' }), invites }),
          followUps: [runwayChartFollowUp(app.client, charts, surface)],
        })
      : undefined;

    const names = new SlackPersonNames({ users, clock, logger: logger.child({ component: 'export' }) });
    const exporter = ledger && new LedgerExporter({
      ledger: new StoredLedgerReader(heavyDb), db: heavyDb, payouts: sentPayoutLookup(heavyDb), names, settings: config.ledgerExport, logger: logger.child({ component: 'export' }),
    });
    // The ledger's last poll may be this old (two polls and a margin) before a period not yet over is said to be behind.
    const records = ledger && new RecordsService({
      db, clock, settings: config.records, timeZone: config.ledger.timeZone, currencies: config.payouts.currencies,
      staleAfterMs: (2 * config.ledger.pollIntervalSeconds + 30) * 1000,
    });

    const payoutRoles = {
      canRequest: (userId: string, lookup?: RoleLookup) => access.allows(config.access.requesters, userId, lookup),
      canApprove: (userId: string, lookup?: RoleLookup) => access.allows(config.access.approvers, userId, lookup),
      // A senior approver must also be an approver.
      isSenior: async (userId: string, lookup?: RoleLookup) =>
        (await access.allows(config.access.seniorApprovers, userId, lookup)) && access.allows(config.access.approvers, userId, lookup),
    };
    // Who hears of each change, in order; each list is filled below as its listeners are made, before any change is made.
    const payoutNotifiers: PayoutNotifier[] = [{ changed: async (request, event) => metrics.payoutChanged(event, request.state) }];
    const batchNotifiers: BatchNotifier[] = [];
    const payouts = new PayoutService({
      db, fleet, clock, settings: config.payouts, logger: logger.child({ component: 'payouts' }), notifiers: payoutNotifiers, roles: payoutRoles,
      catchUpMinutes: config.payoutSchedule.catchUpMinutes,
      ...(options.payoutTimers?.recheckEveryMs !== undefined ? { recheckEveryMs: options.payoutTimers.recheckEveryMs } : {}),
    });
    const batches = new PayoutBatchService({
      db, clock, settings: config.payouts, batchSettings: config.payoutBatches, logger: logger.child({ component: 'batches' }), notifiers: batchNotifiers,
      roles: payoutRoles,
      ...(options.payoutTimers?.resultsRetrySeconds !== undefined ? { resultsRetrySeconds: options.payoutTimers.resultsRetrySeconds } : {}),
    });
    const reminders = new ApprovalReminders({
      db, clock, reminderMinutes: config.approverNotices.reminderMinutes, approvers: approverDirectory(access, config.access.approvers),
      sender: new SlackReminderSender({ client: app.client, surface, locales, logger: logger.child({ component: 'payouts' }) }),
      logger: logger.child({ component: 'payouts' }),
    });

    const home = new SlackHomePublisher({
      client: app.client, homes: new HomeViews(db), surface, locales, clock, logger: logger.child({ component: 'home' }), readTimeoutMs: 20_000,
      sources: {
        access, accessLists: config.access, payouts, batches, account,
        feedStatus: feed && (() => feed.status()), ledgerStatus: ledger && (() => ledger.reader.status()),
        buttons: { newPayout: config.payouts.approvalChannelId !== undefined, export: exporter !== undefined },
        // Made below, before any home is published.
        scheduled: { upcoming: (options) => schedules.upcoming(options), timeZone: config.payoutSchedule.timeZone },
        runway,
      },
      ...options.homeTimers,
    });
    shutdown.add('home', () => home.close());
    // The homes hear before Slack's messages, and are not waited for.
    payoutNotifiers.push({
      changed: async (request) => {
        void home.payoutChanged(request);
      },
    });
    batchNotifiers.push({
      changed: async (batch, event) => {
        // Progress changes no Home: a home shows a batch's state, not its counts.
        if (event !== 'progress') void home.batchChanged(batch);
      },
    });

    // Whom a new request's approval message mentions (none with PAYOUT_MENTION_APPROVERS=false).
    const mentions = config.approverNotices.mention ? config.access.approvers : undefined;
    const approversAvailable = (requestedBy: string) => access.countBesides(config.access.approvers, requestedBy);
    const payoutNotifier = new SlackPayoutNotifier({
      client: app.client, surface, locales, logger: logger.child({ component: 'payouts' }), approvalChannelId: config.payouts.approvalChannelId,
      records: payoutRecords(db, clock, config.payouts), mentions, approversAvailable, duplicateWindowHours: config.payouts.duplicateWindowHours,
      seniorCall: (request, dayTotals) => seniorCall(request, config.payouts, config.access.seniorApprovers, dayTotals), invites,
    });
    payoutNotifiers.push(payoutNotifier);
    // Scheduled payouts: released by whichever replica holds the lease, due by the database's clock (a test's clock stands for it).
    const releaser = new ScheduleReleaser({
      db, clock, roles: payoutRoles, logger: logger.child({ component: 'schedules' }), payoutSettings: config.payouts, settings: config.payoutSchedule,
      payouts, holder: `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`, ...(clock === systemClock ? {} : { databaseNow: async () => clock.now() }),
      notifiers: [new SlackScheduleNotifier({
        client: app.client, surface, locales, logger: logger.child({ component: 'schedules' }), timeZone: config.payoutSchedule.timeZone,
        refresh: (request) => payoutNotifier.refresh(request),
      })],
    });
    const schedules = new PayoutSchedules({ db, clock, roles: payoutRoles, payouts, releaser, settings: config.payoutSchedule });
    const batchNotifier = new SlackBatchNotifier({
      client: app.client, surface, locales, logger: logger.child({ component: 'batches' }), approvalChannelId: config.payouts.approvalChannelId,
      batches: () => batches, approversAvailable, mentions, invites,
      seniorCall: (batch) => batchSeniorCall(batch, config.payouts, config.access.seniorApprovers),
    });
    batchNotifiers.push(batchNotifier);
    // The Workflow Builder step hears after the approval message: it completes a step at its payout's final outcome.
    const tokens = new TokenBox(config.slack.botToken);
    const workflowSteps = new PayoutSteps({
      db, clock, payouts, logger: logger.child({ component: 'workflow' }),
      completer: new SlackStepCompleter({ client: app.client, tokens, locales, payout: (id) => payouts.get(id), logger: logger.child({ component: 'workflow' }) }),
    });
    payoutNotifiers.push(workflowSteps);

    if (feed) metrics.watchFeed(() => feed.status());
    if (ledger) metrics.watchLedger(() => ledger.reader.status());
    registerListeners(app, {
      ledger: ledger?.reader,
      exporter, records, fileChecks: new FileChecks(), home,
      account, payouts, batches, recipients: new RecipientBook({ db, clock, roles: payoutRoles }), feed, access, accessLists: config.access, payoutSettings: config.payouts, surface, locales, logger, clock, readTimeoutMs: 20_000,
      metrics,
      ledgerTimeZone: config.ledger.timeZone,
      seal: new ValueSeal(config.slack.botToken),
      digest, schedules, invites,
      workflowSteps, tokens,
      runway, charts,
    });

    let eventsUrl: string | undefined;
    if (config.slack.appToken) {
      await app.start();
      logger.info('connected to Slack in Socket Mode');
    } else {
      const server = await startHttpApp(app, { port: config.slack.port, host: config.slack.host }, httpLimits);
      const { port } = server.address() as AddressInfo;
      eventsUrl = `http://${config.slack.host ?? '127.0.0.1'}:${port}/slack/events`;
      logger.info({ port }, 'listening for Slack requests on POST /slack/events');
    }
    shutdown.add('slack', () => app.stop());
    let opsUrl: string | undefined;
    if (config.ops.metricsPort !== undefined) {
      // Metrics and readiness details on an address of the operators' choosing, apart from the port that faces Slack.
      const opsServer = await startOpsServer(opsRoutes(readiness, metrics), { port: config.ops.metricsPort, host: config.ops.metricsHost });
      shutdown.add('ops server', () => opsServer.close());
      opsUrl = opsServer.url;
      logger.info({ url: opsUrl }, 'serving /healthz, /readyz and /metrics');
    }
    let sending: ReturnType<typeof runBatchSending> | undefined;
    // A released bulk payout is sent at once, after its approval message says so.
    batchNotifiers.push({
      changed: async (_batch, event) => {
        if (event === 'released') sending?.wake();
      },
    });
    const startTimers = () => {
      if (closed) return;
      sending = runBatchSending(new BatchSender({
        db: heavyDb, clock, logger: logger.child({ component: 'batches' }), ratePerSecond: config.payoutBatches.ratePerSecond,
        send: (request) => payouts.sendApproved(request, 'bulk'), announce: (batch, event) => batches.announce(batch, event),
      }), { logger: logger.child({ component: 'batches' }), ...(options.payoutTimers?.batchEveryMs !== undefined ? { everyMs: options.payoutTimers.batchEveryMs } : {}) });
      const started = sending;
      shutdown.add('bulk payout sending', () => started.stop());
      const releasing = runScheduleReleases(releaser, logger.child({ component: 'schedules' }), options.payoutTimers?.scheduleEveryMs);
      shutdown.add('scheduled payouts', () => releasing.stop());
      shutdown.add('workflow steps', workflowSteps.run(options.payoutTimers?.maintenanceEveryMs));
      shutdown.add('payout maintenance', runPayoutMaintenance(payouts, batches, reminders, payoutNotifier, db, logger, options.payoutTimers?.maintenanceEveryMs));
      if (feed) {
        feed.start();
        shutdown.add('feed', () => feed.stop());
        logger.info({ channel: config.feed.channelId, intervalSeconds: config.feed.pollIntervalSeconds }, 'transaction feed started');
      }
      if (digestScheduler) {
        digestScheduler.start();
        shutdown.add('digest', () => digestScheduler.stop());
        const { hour, minute } = config.digest.time;
        logger.info({ channel: digestChannelId, at: `${String(hour).padStart(2, '0')}:${String(minute).padStart(2, '0')}`, timeZone: config.digest.timeZone }, 'daily digest scheduled');
      }
      // Every replica checks; the stored crossing lets one post each. Needs the ledger (no figure without it), feed on or off.
      const runwayAlertChannel = config.runway.alertChannelId;
      if (ledger && runwayAlertChannel && config.runway.alertDays > 0) {
        const watch = new RunwayWatch({
          runway, ready: async () => (await ledger.reader.status()).historyComplete,
          db, clock, alertDays: config.runway.alertDays, logger: logger.child({ component: 'runway' }),
          post: createRunwayAlertPoster(app.client, runwayAlertChannel, surface, invites), everyMs: options.runwayAlertEveryMs ?? 60_000,
        });
        watch.start();
        shutdown.add('runway alerts', () => watch.stop());
      }
      if (ledger) {
        ledger.start();
        shutdown.add('ledger', () => ledger.stop());
        logger.info({ intervalSeconds: ledger.pollIntervalMs / 1000 }, 'ledger sync started');
      }
    };
    if (options.timersAfter) void options.timersAfter.then(startTimers, startTimers);
    else startTimers();

    return { app, eventsUrl, sandbox, db, payouts, batches, feed, ledger, metrics, opsUrl, home, close };
  } catch (error) {
    await close();
    throw error;
  }
}

/**
 * Settles what a stopped process left behind (at once, in the background), then runs payout
 * maintenance (recovery, expiry, reminders to approvers, reconciliation) on a timer. Returns the closer that stops it.
 */
function runPayoutMaintenance(
  payouts: PayoutService,
  batches: PayoutBatchService,
  reminders: ApprovalReminders,
  notifier: SlackPayoutNotifier,
  db: Db,
  logger: Logger,
  everyMs = 30_000,
): () => Promise<void> {
  let running: Promise<unknown> = Promise.resolve();
  const guard = (what: string, work: () => Promise<unknown>) => {
    running = running.then(work).catch((error: unknown) => logger.error({ err: error }, `payout ${what} failed`));
  };
  // PGlite belongs to this one process, so anything left executing or approved is from a process that died.
  guard('recovery', () => payouts.recoverInterrupted(db.kind === 'pglite' ? { staleAfterMs: 0 } : {}));
  let busy = false;
  const timer = setInterval(() => {
    if (busy) return;
    busy = true;
    guard('maintenance', async () => {
      try {
        await payouts.runMaintenance();
        await batches.expireDue();
        // Beside expiry, on the same clock: approvers who have not decided hear once before it comes.
        await reminders.sendDue();
        await batches.redeliverResults();
        // An approval message whose first post failed is posted again, so approvers still see the request.
        for (const request of await payouts.listRecent({ limit: 100 })) notifier.repostIfMissing(request);
      } finally {
        busy = false;
      }
    });
  }, everyMs);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
    await payouts.stop();
    await notifier.idle();
  };
}

/** The database named by the configuration, opened and migrated, closed with the bot. */
async function openConfiguredDatabase(config: Config, logger: Logger, closeWithBot: (close: () => Promise<void>) => void): Promise<Db> {
  const db = await openDatabase({ databaseUrl: config.store.databaseUrl, dataDir: config.store.dataDir, logger: logger.child({ component: 'store' }) });
  closeWithBot(() => db.close());
  logger.info({ kind: db.kind }, 'database ready');
  return db;
}

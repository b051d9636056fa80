/**
 * The Slack side: the Bolt app with its readiness and metrics, access control, each person's language,
 * the channels missing an invite; then, once every area is built, the listeners, the App Home and the
 * port Slack's requests arrive on (and the operators' port).
 */
import type { AddressInfo } from 'node:net';
import type { AccountReader } from '../account/account-reader.js';
import type { TransactionFeed } from '../feed/index.js';
import { HomeViews } from '../home/index.js';
import { CachedLanguageChoices } from '../i18n/language-choices.js';
import type { LedgerSync } from '../ledger/index.js';
import { Readiness } from '../ops/readiness.js';
import { opsRoutes, publicOpsRoutes, startOpsServer } from '../ops/routes.js';
import type { PayoutBatchService, PayoutSchedules, PayoutService } from '../payouts/index.js';
import type { Runway } from '../runway/index.js';
import { AccessControl } from '../slack/access.js';
import { ChannelInvites } from '../slack/channel-invites.js';
import { SlackPersonLanguages } from '../slack/locales.js';
import { SlackUsers } from '../slack/people.js';
import { SlackHomePublisher } from '../slack/publishers/home-publisher.js';
import { createSlackApp, initSlackApp, lookupClient, postingClient, startHttpApp } from '../slack/transport/app.js';
import { HTTP_LIMITS, type HttpLimits } from '../slack/transport/http-limits.js';
import { TokenBox } from '../slack/trust/token-box.js';
import type { Surface } from '../slack/views/text.js';
import type { Wiring } from './context.js';
import type { Infrastructure } from './infrastructure.js';

export async function buildSlack({ config, logger, clock, shutdown, turns, options }: Wiring, { db, fleet, metrics, sandbox, observeFleet }: Infrastructure) {
  // Readiness checks run once the bot serves requests.
  const readiness = new Readiness({ pingDatabase: () => db.query('SELECT 1'), probeFleet: () => fleet.getBalance() });
  observeFleet((call) => readiness.fleetCall(call));
  const httpLimits: HttpLimits = { ...HTTP_LIMITS, ...options.httpLimits };
  const ops = {
    routes: publicOpsRoutes(readiness),
    ack: (route: string, seconds: number) => metrics.ack(route, seconds),
    slackCall: (method: string, answer: { status: number; error?: string | undefined }) => {
      metrics.slackCall(method, answer);
      if (answer.error) readiness.slackError(answer.error);
    },
  };
  const app = createSlackApp({ slack: config.slack, logger, httpLimits, ops, turns, external: options.hosted !== undefined });
  await initSlackApp(app);
  readiness.slackTokenAccepted();
  // The channels where no one invited the bot, shown by /readyz.
  const invites = new ChannelInvites(async () => (await app.client.auth.test()).user_id);
  readiness.watchInvites(() => invites.list());
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
    users,
    choices,
    defaultLocale: config.language.defaultLocale,
    logger: logger.child({ component: 'language' }),
    clock,
  });
  shutdown.add('languages', async () => {
    locales.close();
    await choices.close();
  });
  // Workflow function tokens, sealed at rest with a key from the bot token (hosted: from the workspace's data key).
  const tokens = new TokenBox(options.hosted?.tokenSecret ?? config.slack.botToken);
  return { app, readiness, httpLimits, invites, access, surface, users, locales, tokens };
}

export type SlackParts = Awaited<ReturnType<typeof buildSlack>>;

export interface HomeSources {
  account: AccountReader;
  payouts: PayoutService;
  batches: PayoutBatchService;
  schedules: PayoutSchedules;
  feed: TransactionFeed | undefined;
  ledger: LedgerSync | undefined;
  runway: () => Promise<Runway>;
  exportsLedger: boolean;
}

/** Each person's App Home, published over the stored hash; it hears of payouts and bulk payouts through the notifier lists. */
export function buildHome(
  { config, logger, clock, shutdown, options }: Wiring,
  { app, access, surface, locales }: SlackParts,
  db: Infrastructure['db'],
  sources: HomeSources,
) {
  const { feed, ledger } = sources;
  const home = new SlackHomePublisher({
    client: postingClient(app),
    homes: new HomeViews(db),
    surface,
    locales,
    clock,
    logger: logger.child({ component: 'home' }),
    readTimeoutMs: 20_000,
    sources: {
      access,
      accessLists: config.access,
      payouts: sources.payouts,
      batches: sources.batches,
      account: sources.account,
      feedStatus: feed && (() => feed.status()),
      ledgerStatus: ledger && (() => ledger.reader.status()),
      buttons: { newPayout: config.payouts.approvalChannelId !== undefined, export: sources.exportsLedger },
      scheduled: { upcoming: (upcoming) => sources.schedules.upcoming(upcoming), timeZone: config.payoutSchedule.timeZone },
      runway: sources.runway,
    },
    ...options.homeTimers,
  });
  shutdown.add('home', () => home.close());
  return home;
}

/** Opens the port Slack's requests arrive on (or connects in Socket Mode), then the operators' port when METRICS_PORT is set. */
export async function serveSlack(
  { config, logger, shutdown, options }: Wiring,
  { app, readiness, httpLimits }: SlackParts,
  metrics: Infrastructure['metrics'],
) {
  // Hosted: the front door owns the ports and hands this workspace's requests to `app.processEvent`.
  if (options.hosted) {
    shutdown.add('slack', () => app.stop());
    return { eventsUrl: undefined, opsUrl: undefined };
  }
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
  return { eventsUrl, opsUrl };
}

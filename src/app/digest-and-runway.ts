/**
 * The runway figure and its chart, the daily digest and the runway alert. `start` schedules the
 * digest and, with the ledger on and RUNWAY_ALERT_CHANNEL_ID set, the alert's check every minute.
 */
import { postingClient } from '../slack/transport/app.js';
import { DigestBuilder, DigestScheduler } from '../digest/index.js';
import type { AccountReader } from '../account/account-reader.js';
import { StoredLedgerReader, type LedgerSync } from '../ledger/index.js';
import { every } from '../runtime/every.js';
import { ChartRenderer } from '../runway/chart/renderer.js';
import { computeRunway, RunwayWatch } from '../runway/index.js';
import { createSlackDigestPublisher } from '../slack/publishers/digest-publisher.js';
import { createRunwayAlertPoster } from '../slack/publishers/runway-alert-publisher.js';
import { runwayChartFollowUp } from '../slack/publishers/runway-chart-publisher.js';
import type { Wiring, WorkStops } from './context.js';
import type { Infrastructure } from './infrastructure.js';
import type { SlackParts } from './slack.js';

export function buildDigestAndRunway(
  { config, logger, clock, shutdown, options }: Wiring,
  { db, heavyDb, fleet }: Infrastructure,
  { app, surface, invites }: SlackParts,
  { ledger, account }: { ledger: LedgerSync | undefined; account: AccountReader },
) {
  // The one runway figure, from the balance every surface reads and the ledger.
  const runway = (request: { signal?: AbortSignal } = {}) =>
    computeRunway({ ledger: ledger?.reader, balance: (read) => account.balance(read), clock, settings: config.runway }, request);
  const charts = new ChartRenderer();
  shutdown.add('charts', () => charts.close());

  const digest = new DigestBuilder({
    ledger: ledger && new StoredLedgerReader(heavyDb),
    db: heavyDb,
    clock,
    balance: () => fleet.getBalance(),
    timeZone: config.digest.timeZone,
    runway: () => runway(),
    // The closing balance waits for two ledger polls after the balance read (see build.ts).
    requestTtlHours: config.payouts.requestTtlHours,
    ledgerWaitMs: (2 * config.ledger.pollIntervalSeconds + 5) * 1000,
    logger: logger.child({ component: 'digest' }),
  });
  const digestChannelId = config.digest.channelId;
  const digestScheduler = digestChannelId
    ? new DigestScheduler({
        builder: digest,
        db: heavyDb,
        clock,
        settings: { ...config.digest, channelId: digestChannelId },
        logger: logger.child({ component: 'digest' }),
        publisher: createSlackDigestPublisher(postingClient(app), { surface, logger: logger.child({ component: 'digest' }), invites }),
        followUps: [runwayChartFollowUp(postingClient(app), charts, surface)],
      })
    : undefined;

  // Every replica checks; the stored crossing lets one post each. Needs the ledger (no figure without it), feed on or off.
  const runwayAlertChannel = config.runway.alertChannelId;
  const watch =
    ledger && runwayAlertChannel && config.runway.alertDays > 0
      ? new RunwayWatch({
          runway,
          ready: async () => (await ledger.reader.status()).historyComplete,
          db,
          clock,
          alertDays: config.runway.alertDays,
          post: createRunwayAlertPoster(postingClient(app), runwayAlertChannel, surface, invites),
        })
      : undefined;

  const start = (stops: WorkStops) => {
    if (digestScheduler) {
      digestScheduler.start();
      stops.add('digest', () => digestScheduler.stop());
      const { hour, minute } = config.digest.time;
      logger.info(
        { channel: digestChannelId, at: `${String(hour).padStart(2, '0')}:${String(minute).padStart(2, '0')}`, timeZone: config.digest.timeZone },
        'daily digest scheduled',
      );
    }
    if (watch) {
      every('runway alerts', options.runwayAlertEveryMs ?? 60_000, () => watch.checkOnce(), {
        logger: logger.child({ component: 'runway' }),
        runAtStart: true,
        failure: 'runway alert check failed; will try again',
        failureLevel: 'warn',
        shutdown: stops,
      });
    }
  };
  return { runway, charts, digest, start };
}

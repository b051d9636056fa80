/**
 * The ledger and what reads it: the sync (the one reader of the Fleet API's list when on), the live
 * feed, the export and the partner's records check. `start` begins the feed's and the sync's loops.
 */
import { postingClient } from '../slack/transport/app.js';
import { TransactionFeed } from '../feed/index.js';
import { LedgerExporter } from '../ledger/exporter.js';
import { LedgerListing, LedgerSync, StoredLedgerReader } from '../ledger/index.js';
import { sentPayoutLookup } from '../payouts/index.js';
import { RecordsService } from '../partner-records/index.js';
import { SlackPersonNames } from '../slack/people.js';
import { createSlackFeedPublisher } from '../slack/publishers/feed-publisher.js';
import type { Wiring, WorkStops } from './context.js';
import type { Infrastructure } from './infrastructure.js';
import type { SlackParts } from './slack.js';

export function buildLedgerAndFeed(
  { config, logger, clock, turns }: Wiring,
  { db, heavyDb, fleet, metrics }: Infrastructure,
  { app, surface, invites, users }: SlackParts,
) {
  const ledger = config.ledger.enabled
    ? new LedgerSync({ fleet, db, clock, settings: config.ledger, logger: logger.child({ component: 'ledger' }), turns })
    : undefined;

  const feed = config.feed.channelId
    ? new TransactionFeed({
        // With the ledger on, its sync is the one reader of the API's list (at least every feed interval)
        // and the feed reads the stored copy, woken on the sync's replica as soon as new entries are stored.
        fleet: ledger ? new LedgerListing(heavyDb, fleet) : fleet,
        source: ledger,
        db: heavyDb,
        clock,
        settings: config.feed,
        logger: logger.child({ component: 'feed' }),
        publisher: createSlackFeedPublisher(postingClient(app), { surface, logger: logger.child({ component: 'feed' }), invites }),
      })
    : undefined;

  const names = new SlackPersonNames({ users, clock, logger: logger.child({ component: 'export' }) });
  const exporter =
    ledger &&
    new LedgerExporter({
      ledger: new StoredLedgerReader(heavyDb),
      db: heavyDb,
      payouts: sentPayoutLookup(heavyDb),
      names,
      settings: config.ledgerExport,
      logger: logger.child({ component: 'export' }),
      turns,
    });
  // The ledger's last poll may be this old (two polls and a margin) before a period not yet over is said to be behind.
  const records =
    ledger &&
    new RecordsService({
      db,
      clock,
      settings: config.records,
      timeZone: config.ledger.timeZone,
      currencies: config.payouts.currencies,
      staleAfterMs: (2 * config.ledger.pollIntervalSeconds + 30) * 1000,
      turns,
    });
  if (feed) metrics.watchFeed(() => feed.status());
  if (ledger) metrics.watchLedger(() => ledger.reader.status());

  const start = (stops: WorkStops) => {
    if (feed) {
      feed.start();
      stops.add('feed', () => feed.stop());
      logger.info({ channel: config.feed.channelId, intervalSeconds: config.feed.pollIntervalSeconds }, 'transaction feed started');
    }
    if (ledger) {
      ledger.start();
      stops.add('ledger', () => ledger.stop());
      logger.info({ intervalSeconds: ledger.pollIntervalMs / 1000 }, 'ledger sync started');
    }
  };
  return { ledger, feed, exporter, records, start };
}

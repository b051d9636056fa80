/**
 * What every Slack listener shares: the domain's front doors (account reader, payout service, live
 * feed), access checks, the settings the Slack surface shows, the surface, the logger and the clock.
 */
import type { AccountReader } from '../account/account-reader.js';
import type { Clock } from '../core/clock.js';
import type { Config } from '../config/config.js';
import type { DigestBuilder } from '../digest/index.js';
import type { TransactionFeed } from '../feed/index.js';
import type { LedgerReader } from '../ledger/index.js';
import type { LedgerExporter } from '../ledger/exporter.js';
import type { Logger } from '../core/logger.js';
import type { PayoutBatchService, PayoutSchedules, PayoutService, RecipientBook } from '../payouts/index.js';
import type { RecordsService } from '../partner-records/index.js';
import type { EventLoopTurns } from '../runtime/turns.js';
import type { Runway } from '../runway/index.js';
import type { ChartRenderer } from '../runway/chart/renderer.js';
import type { AccessControl } from './access.js';
import type { ChannelInvites } from './channel-invites.js';
import type { FileChecks } from './files/file-checks.js';
import type { HomePublisher } from './publishers/home-publisher.js';
import type { PersonLanguages } from './locales.js';
import type { ValueSeal } from './trust/sealed-values.js';
import type { TokenBox } from './trust/token-box.js';
import type { Surface } from './views/text.js';
import type { PayoutSteps } from '../workflow/index.js';

export interface SlackContext {
  account: AccountReader;
  payouts: PayoutService;
  /** `/fleet payout bulk`: checking a file of payouts, and the batch it becomes. */
  batches: PayoutBatchService;
  /** Saved recipients: `/fleet recipients` and the payout form's select. */
  recipients: RecipientBook;
  /** Present when FEED_CHANNEL_ID is set. */
  feed: TransactionFeed | undefined;
  /** The local copy of the account's transactions; present when LEDGER_ENABLED (the default). */
  ledger: LedgerReader | undefined;
  /** `/fleet export`; present with the ledger. */
  exporter: LedgerExporter | undefined;
  /** `/fleet reconcile`: the partner's records against the ledger; present with the ledger. */
  records: RecordsService | undefined;
  /** One file check (bulk payouts or records) at a time per person. */
  fileChecks: FileChecks;
  access: AccessControl;
  accessLists: Config['access'];
  /** What the payout form offers, and the channel where requests wait for approval. */
  payoutSettings: Config['payouts'];
  /** The surface of channel messages (approval channel, feed, alerts); replies go through `surfaceFor`. */
  surface: Surface;
  /** Each person's language (see `surfaceFor`), and their choice of it. */
  locales: PersonLanguages;
  logger: Logger;
  clock: Clock;
  /** How long one interactive read of the Fleet API may take before the person is told it failed. */
  readTimeoutMs: number;
  /** Counts `/fleet` commands by subcommand and outcome (GET /metrics). */
  metrics?: { command(subcommand: string, outcome: 'ok' | 'error' | 'unknown_subcommand'): void };
  /** IANA time zone in which calendar days of searches are read (LEDGER_TIMEZONE). */
  ledgerTimeZone: string;
  /** Seals what a button must give back unchanged (the balance figures a person shares). */
  seal: ValueSeal;
  /** `/fleet digest`: computes any day's digest in DIGEST_TIMEZONE. */
  digest?: DigestBuilder;
  /** The runway now (`/fleet runway`): the one figure, from the account reader's balance and the ledger. */
  runway: (request?: { signal?: AbortSignal }) => Promise<Runway>;
  /** Draws the runway chart (PNG, in a worker thread). */
  charts?: ChartRenderer;
  /** The App Home tab. */
  home?: HomePublisher;
  /** Scheduled and recurring payouts: the form's When, `/fleet scheduled` and the occurrences' buttons. */
  schedules?: PayoutSchedules;
  /** The Workflow Builder step "Request a payout", and the seal of its function tokens at rest. */
  workflowSteps?: PayoutSteps;
  tokens?: TokenBox;
  /** The channels nobody invited the bot to yet (Slack refused a post there), named by `/fleet feed`. */
  invites?: ChannelInvites;
  /** The bot's turns of the event loop: listeners' work after the ack, and replies sharing one reading, let waiting requests go first. */
  turns: EventLoopTurns;
}

/**
 * The app's Prometheus metrics (GET /metrics), in one registry of its own. Each part of the app is
 * told through a narrow seam (the Fleet HTTP layer's observer, the payout notifier, the `/fleet`
 * dispatch, Slack's fetch), never by importing this module into the domain.
 *
 * Labels hold only bounded, non-personal values: subcommand names, outcomes, Fleet API path
 * templates, HTTP statuses, Slack method names and error codes, payout states and events. Never a
 * user, a channel, an amount, a phone number, a reference or a token.
 */
import { AggregatorRegistry, Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

export type CommandOutcome = 'ok' | 'error' | 'unknown_subcommand';

export interface FleetCall {
  method: string;
  /** The request path without its query, e.g. `/api/v1/b2b/account/balance`. */
  path: string;
  /** The HTTP status, or undefined when no answer came (refused, timed out, cut). */
  status: number | undefined;
  seconds: number;
}

/** What the feed reports about itself (TransactionFeed.status()). */
export interface FeedNumbers {
  behindMs: number;
  pendingEntries: number;
  gapEntries: number;
  lastSuccessfulPollAt: Date | undefined;
}

/** What the ledger reports about itself (LedgerReader.status()). */
export interface LedgerNumbers {
  loaded: number;
  historyComplete: boolean;
  lastPollAt: Date | undefined;
}

export class Metrics {
  readonly registry = new Registry();
  private readonly commands: Counter<'subcommand' | 'outcome'>;
  private readonly ackSeconds: Histogram<'route'>;
  private readonly fleetCalls: Counter<'method' | 'endpoint' | 'status'>;
  private readonly fleetSeconds: Histogram<'method' | 'endpoint'>;
  private readonly payoutTransitions: Counter<'event' | 'state'>;
  private readonly slackErrors: Counter<'method' | 'error'>;
  private readonly slackRateLimited: Counter<'method'>;
  private feedSource: (() => Promise<FeedNumbers>) | undefined;
  private ledgerSource: (() => Promise<LedgerNumbers>) | undefined;

  /**
   * `labels`: put on every series (hosted mode: the workspace's `tenant`, its Slack team id, so one
   * process's bots stay apart when their registries are served together, see `aggregatedText`).
   */
  constructor(options: { defaultMetrics?: boolean; labels?: Record<string, string> } = {}) {
    const registers = [this.registry];
    if (options.labels) this.registry.setDefaultLabels(options.labels);
    if (options.defaultMetrics !== false) collectDefaultMetrics({ register: this.registry });
    this.commands = new Counter({
      name: 'fleet_bot_commands_total',
      help: '/fleet commands handled, by subcommand and outcome (ok, error, unknown_subcommand).',
      labelNames: ['subcommand', 'outcome'],
      registers,
    });
    this.ackSeconds = new Histogram({
      name: 'fleet_bot_slack_ack_seconds',
      help: 'Time from a Slack request arriving to its HTTP answer (the ack), HTTP mode.',
      labelNames: ['route'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2, 3, 5],
      registers,
    });
    this.fleetCalls = new Counter({
      name: 'fleet_bot_fleet_api_calls_total',
      help: 'Fleet API calls (each attempt), by method, endpoint template and HTTP status ("none" when no answer came).',
      labelNames: ['method', 'endpoint', 'status'],
      registers,
    });
    this.fleetSeconds = new Histogram({
      name: 'fleet_bot_fleet_api_call_seconds',
      help: 'Fleet API call latency, by method and endpoint template.',
      labelNames: ['method', 'endpoint'],
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 20],
      registers,
    });
    this.payoutTransitions = new Counter({
      name: 'fleet_bot_payout_transitions_total',
      help: 'Committed payout changes, by event and the state the payout moved to.',
      labelNames: ['event', 'state'],
      registers,
    });
    this.slackErrors = new Counter({
      name: 'fleet_bot_slack_api_errors_total',
      help: 'Slack Web API calls that failed, by method and Slack error code (or HTTP status).',
      labelNames: ['method', 'error'],
      registers,
    });
    this.slackRateLimited = new Counter({
      name: 'fleet_bot_slack_api_rate_limited_total',
      help: 'Slack Web API answers with HTTP 429 (rate limited), by method.',
      labelNames: ['method'],
      registers,
    });
    // Gauges read on each scrape from a source the bot hands over (watchFeed, watchLedger).
    const readGauge =
      <N>(source: () => (() => Promise<N>) | undefined) =>
      (name: string, help: string, read: (numbers: N) => number) =>
        new Gauge({
          name,
          help,
          registers,
          async collect() {
            const numbers = source();
            if (!numbers) return;
            try {
              this.set(read(await numbers()));
            } catch {
              // The database is away: /readyz says so; the gauge keeps its last value.
            }
          },
        });
    const feedGauge = readGauge(() => this.feedSource);
    feedGauge('fleet_bot_feed_lag_seconds', 'How long the feed channel has been missing entries (0 when up to date).', (n) => n.behindMs / 1000);
    feedGauge('fleet_bot_feed_backlog_entries', 'Entries seen at the last poll but not yet posted.', (n) => n.pendingEntries);
    feedGauge(
      'fleet_bot_feed_gap_entries',
      'Entries the late sweep found in the ledger but never posted by a poll, and posted late, since the feed started on its channel (0 when none was missed).',
      (n) => n.gapEntries,
    );
    feedGauge('fleet_bot_feed_last_poll_age_seconds', "Seconds since the feed's last successful poll (-1 before the first).", (n) =>
      n.lastSuccessfulPollAt ? Math.max(0, (Date.now() - n.lastSuccessfulPollAt.getTime()) / 1000) : -1,
    );
    const ledgerGauge = readGauge(() => this.ledgerSource);
    ledgerGauge(
      'fleet_bot_ledger_sync_lag_seconds',
      'Seconds since the ledger last read the newest transactions from the Fleet API (-1 before the first).',
      (n) => (n.lastPollAt ? Math.max(0, (Date.now() - n.lastPollAt.getTime()) / 1000) : -1),
    );
    ledgerGauge('fleet_bot_ledger_entries', 'Transactions stored in the ledger.', (n) => n.loaded);
    ledgerGauge('fleet_bot_ledger_history_complete', '1 once the whole history has been loaded into the ledger, else 0.', (n) => (n.historyComplete ? 1 : 0));
  }

  command(subcommand: string, outcome: CommandOutcome): void {
    this.commands.inc({ subcommand, outcome });
  }

  ack(route: string, seconds: number): void {
    this.ackSeconds.observe({ route }, seconds);
  }

  fleetCall(call: FleetCall): void {
    const labels = { method: call.method, endpoint: endpointTemplate(call.path) };
    this.fleetCalls.inc({ ...labels, status: call.status === undefined ? 'none' : String(call.status) });
    this.fleetSeconds.observe(labels, call.seconds);
  }

  payoutChanged(event: string, state: string): void {
    this.payoutTransitions.inc({ event, state });
  }

  slackCall(method: string, answer: { status: number; error?: string | undefined }): void {
    if (answer.status === 429) this.slackRateLimited.inc({ method });
    if (answer.error !== undefined || answer.status >= 400) this.slackErrors.inc({ method, error: answer.error ?? `http_${answer.status}` });
  }

  /** Where the ledger gauges read from on each scrape. */
  watchLedger(source: () => Promise<LedgerNumbers>): void {
    this.ledgerSource = source;
  }

  /** Where the feed gauges read from on each scrape. */
  watchFeed(source: () => Promise<FeedNumbers>): void {
    this.feedSource = source;
  }

  async text(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }
}

/**
 * One Prometheus text of several registries (hosted mode: the process's own and every workspace's
 * bot's). Their metric names repeat, so the series are merged by name; each bot's carry its own
 * `tenant` label, so none is summed with another's.
 */
export async function aggregatedText(registries: readonly Registry[]): Promise<{ contentType: string; body: string }> {
  const merged = AggregatorRegistry.aggregate(await Promise.all(registries.map((registry) => registry.getMetricsAsJSON())));
  return { contentType: merged.contentType, body: await merged.metrics() };
}

/** A path with its variable parts (ids, references) replaced, so a label never holds one. */
function endpointTemplate(path: string): string {
  return (
    path
      .split('?')[0]!
      .split('/')
      // An id is all digits, holds a run of three, or is a long token or UUID; words such as b2b or v1 stay.
      .map((segment) => (/\d{3,}|^[0-9a-f-]{16,}$|^[A-Za-z0-9_-]{24,}$/i.test(segment) || /^\d+$/.test(segment) ? ':id' : segment))
      .join('/')
  );
}

/** Slack method names are bounded (a known API); anything else becomes "other". */
export function slackMethodOf(url: string): string {
  const method = /\/api\/([a-zA-Z]+(?:\.[a-zA-Z]+)+)(?:[?#]|$)/.exec(url)?.[1];
  return method ?? 'other';
}

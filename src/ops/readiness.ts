/**
 * What GET /readyz reports: whether this process can do its work now, as opposed to /healthz,
 * which only says it is alive. Three checks, each named in the JSON body when it fails:
 *
 * - database: a `SELECT 1` answered within DATABASE_TIMEOUT_MS;
 * - slack: Slack accepted the bot token at start (auth.test), and has not refused it since;
 * - fleet_api: the Fleet API answered lately, meaning its last answer (any HTTP status below 500
 *   other than 401/403) is at most FLEET_RECENT_MS old. When no call was made that recently, one
 *   balance read is made to find out (at most one at a time), so an idle bot is not reported
 *   as unready.
 *
 * Beside them, `channels` names each channel where Slack refused a post because nobody invited the
 * bot (`not_in_channel`), with what the app posts there. It does not make the app unready: the
 * app still answers people, and the posts catch up once someone types `/invite` in the channel.
 *
 * The body holds fixed reasons only: no error text from a driver, no URL, no key.
 */
import type { FleetCall } from './metrics.js';

const DATABASE_TIMEOUT_MS = 1_000;
/** The port that faces Slack answers /readyz from a check started at most this long ago. */
export const SHARED_CHECK_MAX_AGE_MS = 1_000;
const FLEET_RECENT_MS = 2 * 60_000;
const FLEET_PROBE_TIMEOUT_MS = 5_000;

export interface CheckResult {
  ok: boolean;
  reason?: string;
}

export interface ReadinessReport {
  ready: boolean;
  checks: { database: CheckResult; slack: CheckResult; fleet_api: CheckResult & { last_answer_seconds_ago?: number } };
  channels: ChannelsReport;
}

export interface ChannelsReport {
  ok: boolean;
  /** Each channel to invite the bot to, and what waits on it (`approvals`, `feed`, `digest`, `alerts`). */
  missing_invites: Array<{ channel: string; for: string[]; since: string }>;
}

export interface ReadinessOptions {
  /** Runs `SELECT 1` on the app's database. */
  pingDatabase: () => Promise<unknown>;
  /** One cheap Fleet API read (the balance), made when no answer came lately. */
  probeFleet: () => Promise<unknown>;
  /** The channels where Slack refused a post with `not_in_channel`. */
  missingInvites?: () => Array<{ channel: string; uses: string[]; since: Date }>;
  now?: () => number;
}

export class Readiness {
  private slackAccepted = false;
  private slackRefusal: string | undefined;
  private fleetLast: { at: number; ok: boolean; reason?: string } | undefined;
  private probing: Promise<unknown> | undefined;
  private shared: { at: number; report: Promise<ReadinessReport> } | undefined;
  private readonly now: () => number;
  private missingInvites: ReadinessOptions['missingInvites'];

  constructor(private readonly options: ReadinessOptions) {
    this.now = options.now ?? Date.now;
    this.missingInvites = options.missingInvites;
  }

  /** Where the channels missing an invite are read from, once the Slack app that finds them is made. */
  watchInvites(missingInvites: NonNullable<ReadinessOptions['missingInvites']>): void {
    this.missingInvites = missingInvites;
  }

  /** Slack accepted the token (initSlackApp succeeded). */
  slackTokenAccepted(): void {
    this.slackAccepted = true;
  }

  /** A Slack call failed with this error code; a refused token makes the app unready. */
  slackError(code: string): void {
    if (['invalid_auth', 'not_authed', 'account_inactive', 'token_revoked', 'token_expired'].includes(code)) this.slackRefusal = code;
  }

  /** Every Fleet API attempt, from the HTTP layer's observer. */
  fleetCall(call: FleetCall): void {
    const at = this.now();
    if (call.status === undefined) this.fleetLast = { at, ok: false, reason: 'no answer from the Fleet API (refused, timed out or cut)' };
    else if (call.status === 401 || call.status === 403) this.fleetLast = { at, ok: false, reason: `the Fleet API refused the API key (HTTP ${call.status})` };
    else if (call.status >= 500) this.fleetLast = { at, ok: false, reason: `the Fleet API answered HTTP ${call.status}` };
    else this.fleetLast = { at, ok: true };
  }

  /**
   * The check started at most SHARED_CHECK_MAX_AGE_MS ago (its callers share it while it runs), or a
   * new one: for the port that faces Slack, which anyone who reaches it may call as often as they
   * like, so that they cannot put a `SELECT 1` per call on the database's queue.
   */
  recentCheck(): Promise<ReadinessReport> {
    const now = this.now();
    if (!this.shared || now - this.shared.at > SHARED_CHECK_MAX_AGE_MS) {
      const report = this.check();
      this.shared = { at: now, report };
      report.catch(() => {
        if (this.shared?.report === report) this.shared = undefined;
      });
    }
    return this.shared.report;
  }

  async check(): Promise<ReadinessReport> {
    const [database, fleet] = await Promise.all([this.checkDatabase(), this.checkFleet()]);
    const slack: CheckResult = !this.slackAccepted
      ? { ok: false, reason: 'the bot token has not been checked with Slack yet' }
      : this.slackRefusal
        ? { ok: false, reason: `Slack refused the bot token (${this.slackRefusal})` }
        : { ok: true };
    const missing = (this.missingInvites?.() ?? []).map(({ channel, uses, since }) => ({ channel, for: uses, since: since.toISOString() }));
    const channels = { ok: missing.length === 0, missing_invites: missing };
    return { ready: database.ok && slack.ok && fleet.ok, checks: { database, slack, fleet_api: fleet }, channels };
  }

  private async checkDatabase(): Promise<CheckResult> {
    const outcome = await withTimeout(this.options.pingDatabase(), DATABASE_TIMEOUT_MS);
    if (outcome === 'timeout') return { ok: false, reason: `the database did not answer SELECT 1 within ${DATABASE_TIMEOUT_MS} ms` };
    if (outcome === 'failed') return { ok: false, reason: 'the database refused or failed SELECT 1' };
    return { ok: true };
  }

  private async checkFleet(): Promise<CheckResult & { last_answer_seconds_ago?: number }> {
    if (!this.fleetLast || this.now() - this.fleetLast.at > FLEET_RECENT_MS) {
      // The probe's own call is seen by fleetCall() through the HTTP layer.
      this.probing ??= this.options
        .probeFleet()
        .catch(() => undefined)
        .finally(() => (this.probing = undefined));
      await withTimeout(this.probing, FLEET_PROBE_TIMEOUT_MS);
    }
    const last = this.fleetLast;
    if (!last || this.now() - last.at > FLEET_RECENT_MS) return { ok: false, reason: 'no answer from the Fleet API lately' };
    const ago = Math.round((this.now() - last.at) / 1000);
    return last.ok ? { ok: true, last_answer_seconds_ago: ago } : { ok: false, reason: last.reason ?? 'the Fleet API failed', last_answer_seconds_ago: ago };
  }
}

async function withTimeout(work: Promise<unknown>, ms: number): Promise<'ok' | 'failed' | 'timeout'> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), ms);
  });
  try {
    return await Promise.race([
      work.then(
        () => 'ok' as const,
        () => 'failed' as const,
      ),
      timeout,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

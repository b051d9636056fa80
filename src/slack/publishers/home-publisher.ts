/**
 * Publishes each person's App Home (`views.publish`): when they open it, when they press Refresh,
 * and when a payout they requested or may approve changes state, at most once per person per
 * `throttleMs` however many changes a burst brings. A home is rendered from what is stored at the
 * moment it is published, never from the event that asked for it, and published over the hash of
 * the home it replaces (kept in the database, shared by replicas): Slack refuses it with
 * `hash_conflict` when another process published since, and it is then read and rendered again.
 */
import type { HomeView } from '@slack/types';
import type { BalanceReading } from '../../account/account-reader.js';
import type { Runway } from '../../runway/index.js';
import type { Clock } from '../../core/clock.js';
import type { Config } from '../../config/config.js';
import type { FeedStatus } from '../../feed/types.js';
import { KeyedThrottle, type HomeViews, type Timers } from '../../home/index.js';
import type { LedgerStatus } from '../../ledger/types.js';
import type { ScheduledEntry } from '../views/payout-schedule.js';
import type { Logger } from '../../core/logger.js';
import type { ApprovalSignals, EarlierPayout, PayoutActor, PayoutBatch, PayoutRequest } from '../../payouts/index.js';
import type { AccessControl } from '../access.js';
import { surfaceFor, type PersonLocales } from '../locales.js';
import { buildHomeView, MINE_SHOWN, WAITING_SHOWN, type HomeBalance, type HomeContent, type ViewerHome } from '../views/home.js';
import type { Surface } from '../views/text.js';

/** What the home needs of Slack's Web API. */
export interface HomeClient {
  views: {
    publish(args: { user_id: string; view: HomeView; hash?: string }): Promise<{ view?: { hash?: string } }>;
  };
}

/** Where a home's content comes from; each is read when the home is published. */
export interface HomeSources {
  access: Pick<AccessControl, 'allows' | 'everyoneIn'>;
  accessLists: Config['access'];
  payouts: {
    actor(userId: string): Promise<PayoutActor>;
    waitingFor(userId: string, options: { limit: number }): Promise<{ requests: PayoutRequest[]; total: number }>;
    requestedBy(userId: string, options: { limit: number }): Promise<PayoutRequest[]>;
    /** What its approvers should notice (one query per request): the home marks a possible duplicate. */
    signals?(request: PayoutRequest): Promise<Pick<ApprovalSignals, 'duplicateOf'>>;
  };
  /** Bulk payouts, listed beside the requests. */
  batches: {
    waitingFor(userId: string, options: { limit: number }): Promise<{ batches: PayoutBatch[]; total: number }>;
    requestedBy(userId: string, options: { limit: number }): Promise<PayoutBatch[]>;
  };
  account: { balance(options: { fresh?: boolean; signal?: AbortSignal }): Promise<BalanceReading> };
  /** Undefined when the feed or the ledger is off. */
  feedStatus: (() => Promise<FeedStatus>) | undefined;
  ledgerStatus: (() => Promise<LedgerStatus>) | undefined;
  buttons: { newPayout: boolean; export: boolean };
  /** Scheduled payouts: the next ones, for requesters and approvers. */
  scheduled?: { upcoming(options: { limit: number }): Promise<ScheduledEntry[]>; timeZone: string } | undefined;
  /** The runway now (the one figure `/fleet runway` shows). */
  runway?: (request: { signal?: AbortSignal }) => Promise<Runway>;
}

export interface SlackHomePublisherOptions {
  client: HomeClient;
  homes: HomeViews;
  sources: HomeSources;
  surface: Surface;
  locales: PersonLocales;
  clock: Clock;
  logger: Logger;
  readTimeoutMs: number;
  /** At most one publish per person per interval for payout changes; default HOME_THROTTLE_MS. */
  throttleMs?: number;
  timers?: Timers;
}

/** Two seconds: a burst of changes (an approval that sends a payout is three) makes one publish. */
/** The next scheduled payouts a home lists. */
const SCHEDULED_SHOWN = 5;
const HOME_THROTTLE_MS = 2_000;
// Enough to catch up with another replica publishing meanwhile, without looping on a busy home.
const MAX_ROUNDS = 4;

/** What the Slack listeners ask of the home. */
export interface HomePublisher {
  opened(userId: string, hash?: string): Promise<void>;
  refresh(userId: string): Promise<void>;
}

export class SlackHomePublisher implements HomePublisher {
  private readonly throttle: KeyedThrottle;
  private readonly freshFor = new Set<string>();
  private lastGoodBalance: BalanceReading | undefined;

  constructor(private readonly options: SlackHomePublisherOptions) {
    this.throttle = new KeyedThrottle((userId) => this.publish(userId), options.throttleMs ?? HOME_THROTTLE_MS, options.timers);
  }

  /** `app_home_opened`: Slack's hash of the home the person sees (if any) is taken as the one to publish over. */
  async opened(userId: string, hash?: string): Promise<void> {
    if (hash)
      await this.options.homes.seen(userId, hash).catch((error: unknown) => this.options.logger.warn({ err: error, userId }, 'could not record the home hash'));
    await this.throttle.now(userId);
  }

  /** Refresh: the balance read again from the Fleet API, past its short cache. */
  async refresh(userId: string): Promise<void> {
    this.freshFor.add(userId);
    await this.throttle.now(userId);
  }

  /** Called on every payout state change: the requester and everyone who may approve, if they have a home, get it again (throttled). */
  payoutChanged(request: Pick<PayoutRequest, 'id' | 'requestedBy'>): Promise<void> {
    return this.peopleFor(request).then(
      (people) => people.forEach((userId) => this.throttle.schedule(userId)),
      (error: unknown) => this.options.logger.warn({ err: error, payoutId: request.id }, 'could not find whose home shows this payout'),
    );
  }

  /** Called on every bulk payout change: its requester and everyone who may approve, as for a single request. */
  batchChanged(batch: PayoutBatch): Promise<void> {
    return this.payoutChanged(batch);
  }

  /** Resolves once no publish is under way (tests, and stopping). */
  idle(): Promise<void> {
    return this.throttle.idle();
  }

  close(): Promise<void> {
    return this.throttle.close();
  }

  /** Only people who have a home (opened once): anyone else gets a current one when they first open it. */
  private async peopleFor(request: Pick<PayoutRequest, 'requestedBy'>): Promise<string[]> {
    const { access, accessLists } = this.options.sources;
    const having = await this.options.homes.people();
    // Nobody has a home yet: no need to ask Slack who is in the approvers' groups.
    if (having.length === 0) return [];
    const approvers = await access.everyoneIn(accessLists.approvers);
    return having.filter((userId) => approvers.everyone || userId === request.requestedBy || approvers.users.has(userId));
  }

  private async publish(userId: string): Promise<void> {
    const { homes, logger } = this.options;
    const fresh = this.freshFor.delete(userId);
    let lastConflictHash: string | undefined | null = null;
    try {
      for (let round = 0; round < MAX_ROUNDS; round += 1) {
        const slot = await homes.slot(userId);
        // Another process is publishing this person's first home: try again once it is done.
        if (slot === 'busy') return this.throttle.schedule(userId);
        // The same hash refused twice is one the app never recorded (its publish was lost): publish over whatever Slack has.
        const over = slot.hash !== undefined && slot.hash === lastConflictHash ? undefined : slot.hash;
        const view = await this.render(userId, fresh);
        const answer = await this.tryPublish(userId, view, over);
        if (answer === 'conflict') {
          lastConflictHash = slot.hash;
          continue;
        }
        if (answer === 'failed') {
          if (slot.hash === undefined) await homes.release(userId);
          return;
        }
        if (answer.hash) await homes.published(userId, slot.hash, answer.hash);
        return;
      }
      logger.info({ userId }, 'the home kept changing while it was published; publishing it again shortly');
      this.throttle.schedule(userId);
    } catch (error) {
      logger.error({ err: error, userId }, 'could not publish a home tab');
    }
  }

  /** Slack's new hash (when it sent one); `conflict` when the home changed since `hash`; `failed` on any other refusal (logged). */
  private async tryPublish(userId: string, view: HomeView, hash: string | undefined): Promise<{ hash: string | undefined } | 'conflict' | 'failed'> {
    try {
      const answer = await this.options.client.views.publish({ user_id: userId, view, ...(hash ? { hash } : {}) });
      return { hash: answer.view?.hash };
    } catch (error) {
      if ((error as { data?: { error?: unknown } }).data?.error === 'hash_conflict') return 'conflict';
      this.options.logger.warn({ err: error, userId }, 'Slack refused a home tab');
      return 'failed';
    }
  }

  private async render(userId: string, fresh: boolean): Promise<HomeView> {
    const surface = await surfaceFor(this.options, userId);
    return buildHomeView(surface, await this.content(userId, fresh));
  }

  /** Everything a home shows, read now. A person who is not a viewer costs no Fleet API call. */
  private async content(userId: string, fresh: boolean): Promise<HomeContent> {
    const { access, accessLists, payouts, batches, buttons } = this.options.sources;
    if (!(await access.allows(accessLists.viewers, userId))) return { kind: 'outsider' };
    const [balance, actor, status, runway] = await Promise.all([this.balance(fresh), payouts.actor(userId), this.statuses(), this.runway()]);
    let waiting: ViewerHome['waiting'];
    if (actor.canApprove) {
      const [requests, bulk] = await Promise.all([payouts.waitingFor(userId, { limit: WAITING_SHOWN }), batches.waitingFor(userId, { limit: WAITING_SHOWN })]);
      waiting = {
        requests: requests.requests,
        batches: bulk.batches,
        total: requests.total + bulk.total,
        duplicates: await this.duplicates(requests.requests),
      };
    }
    const [mine, mineBatches] = await Promise.all([payouts.requestedBy(userId, { limit: MINE_SHOWN }), batches.requestedBy(userId, { limit: MINE_SHOWN })]);
    const { scheduled } = this.options.sources;
    const next =
      scheduled && (actor.canRequest || actor.canApprove)
        ? { entries: await scheduled.upcoming({ limit: SCHEDULED_SHOWN }), timeZone: scheduled.timeZone }
        : undefined;
    return {
      kind: 'viewer',
      now: this.options.clock.now(),
      balance,
      waiting,
      ...status,
      ...(next && next.entries.length > 0 ? { scheduled: next } : {}),
      ...(runway ? { runway } : {}),
      mine: actor.canRequest || mine.length > 0 || mineBatches.length > 0 ? mine : undefined,
      mineBatches,
      buttons: { newPayout: buttons.newPayout && actor.canRequest, export: buttons.export },
    };
  }

  /** The earlier payout each waiting request may repeat; a request whose signals cannot be read is listed unmarked. */
  private async duplicates(requests: readonly PayoutRequest[]): Promise<Map<string, EarlierPayout>> {
    const { payouts } = this.options.sources;
    const found = new Map<string, EarlierPayout>();
    if (!payouts.signals) return found;
    await Promise.all(
      requests.map(async (request) => {
        try {
          const earlier = (await payouts.signals?.(request))?.duplicateOf;
          if (earlier) found.set(request.id, earlier);
        } catch (error) {
          this.options.logger.warn({ err: error, payoutId: request.id }, 'could not read whether a waiting request may be a duplicate');
        }
      }),
    );
    return found;
  }

  /** The runway now; undefined (left out of the home) when it cannot be computed. */
  private async runway(): Promise<Runway | undefined> {
    const source = this.options.sources.runway;
    if (!source) return undefined;
    try {
      return await source({ signal: AbortSignal.timeout(this.options.readTimeoutMs) });
    } catch (error) {
      this.options.logger.warn({ err: error }, 'could not compute the runway for a home tab; leaving it out');
      return undefined;
    }
  }

  /** The balance now, or the last one read well when the Fleet API fails: a home is never left without figures it once had. */
  private async balance(fresh: boolean): Promise<HomeBalance> {
    try {
      const reading = await this.options.sources.account.balance({ fresh, signal: AbortSignal.timeout(this.options.readTimeoutMs) });
      if (!this.lastGoodBalance || reading.readAt >= this.lastGoodBalance.readAt) this.lastGoodBalance = reading;
      return { reading, failed: false };
    } catch (error) {
      this.options.logger.warn({ err: error }, 'could not read the balance for a home tab; showing the last known one');
      return { reading: this.lastGoodBalance, failed: true };
    }
  }

  private async statuses(): Promise<{ feed: FeedStatus | 'off' | undefined; ledger: LedgerStatus | 'off' | undefined }> {
    const { feedStatus, ledgerStatus } = this.options.sources;
    const read = async <T>(status: (() => Promise<T>) | undefined): Promise<T | 'off' | undefined> => {
      if (!status) return 'off';
      try {
        return await status();
      } catch (error) {
        this.options.logger.warn({ err: error }, 'could not read a status for a home tab');
        return undefined;
      }
    };
    const [feed, ledger] = await Promise.all([read(feedStatus), read(ledgerStatus)]);
    return { feed, ledger };
  }
}

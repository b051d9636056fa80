/**
 * Hosted mode's bots, one per workspace that is installed and connected to its Fleet account: each
 * the same bot as a single workspace's (`startBot`), on the shared database scoped to its workspace,
 * with its own token, key, settings and timers. `reconcile` (every replica, every few seconds)
 * starts the bots of new workspaces, builds again those whose version moved (a key replaced,
 * settings saved) and stops those uninstalled. Every replica runs a bot for every workspace, to
 * answer its requests; the bot's timers (its periodic work) run only where `owns` says, and the
 * workspace's own leases still make each piece of it run once. A bot that fails to start delays no other.
 */
import type { BotOptions, RunningBot } from '../bot.js';
import type { Logger } from '../core/logger.js';

export interface TenantBotsOptions {
  logger: Logger;
  /**
   * The workspaces to serve now (or only `tenant`, when given), each with the version of its bot
   * (raised by every change that needs it built again).
   */
  servable(tenant?: string): Promise<ReadonlyMap<string, number>>;
  /**
   * What a workspace's bot is built from, and when its bot token expires (token rotation): the bot is
   * built again, with a refreshed token, before then. Undefined while it has no Fleet key (it is
   * answered by the hosting's listeners instead).
   */
  botOptions(tenant: string): Promise<{ options: BotOptions; renewAt?: Date | undefined } | undefined>;
  start(options: BotOptions): Promise<RunningBot>;
  /** How many bots start at once (each asks Slack and the database a few things). Default 8. */
  concurrency?: number;
  /** After a failed start, how long before the next try. Default a minute. */
  retryAfterMs?: number;
  /** Whether this replica runs the workspace's periodic work now (`WorkPlacement.owns`); by default every replica does. */
  owns?: (tenant: string) => boolean;
}

interface Slot {
  version: number;
  bot: RunningBot | undefined;
  failedAt?: number;
  /** Before its token expires: built again then, with a refreshed token. */
  renewAt?: number | undefined;
}

export class TenantBots {
  private readonly slots = new Map<string, Slot>();
  /** Each workspace's changes one after another: a start, a rebuild and a stop never overlap. */
  private readonly queues = new Map<string, Promise<unknown>>();
  private closed = false;

  constructor(private readonly options: TenantBotsOptions) {}

  /** The running bot of `tenant`, started now when it should run and does not yet (a replica that has not reconciled since the change). */
  async botFor(tenant: string): Promise<RunningBot | undefined> {
    const running = this.slots.get(tenant)?.bot;
    if (running) return running;
    const version = (await this.options.servable(tenant)).get(tenant);
    if (version === undefined) return undefined;
    return this.inTurn(tenant, () => this.ensure(tenant, version, { retryNow: true }));
  }

  /** Builds the workspace's bot again now when its version moved (this replica took the change); others follow at their next look. */
  async refresh(tenant: string): Promise<RunningBot | undefined> {
    const version = (await this.options.servable(tenant)).get(tenant);
    if (version === undefined) {
      await this.stop(tenant);
      return undefined;
    }
    return this.inTurn(tenant, () => this.ensure(tenant, version, { retryNow: true }));
  }

  /** Brings the running bots in line with the database. Safe to run on every replica, at any time. */
  async reconcile(): Promise<{ started: number; stopped: number; failed: number }> {
    const servable = await this.options.servable();
    const counts = { started: 0, stopped: 0, failed: 0 };
    const work: Array<() => Promise<void>> = [];
    for (const [tenant, version] of servable) {
      const slot = this.slots.get(tenant);
      // Up to date: running with a token that is not about to expire, or waiting for its Fleet key (connecting raises the version).
      const renew = slot?.renewAt !== undefined && slot.renewAt <= Date.now();
      if (slot && slot.version === version && !renew && (slot.bot || slot.failedAt === undefined)) continue;
      work.push(async () => {
        const before = this.slots.get(tenant)?.bot;
        const bot = await this.inTurn(tenant, () => this.ensure(tenant, version, { retryNow: false }));
        if (bot && bot !== before) counts.started += 1;
        if (!bot && this.slots.get(tenant)?.failedAt !== undefined) counts.failed += 1;
      });
    }
    for (const tenant of this.slots.keys()) {
      if (servable.has(tenant)) continue;
      work.push(async () => {
        await this.inTurn(tenant, () => this.stopNow(tenant));
        counts.stopped += 1;
      });
    }
    await runLimited(work, this.options.concurrency ?? 8);
    return counts;
  }

  /**
   * After the replicas alive changed: starts the periodic work of the workspaces this replica now
   * owns, and stops that of those it no longer owns (their bots still answer their requests here).
   */
  async placementChanged(): Promise<{ gained: number; lost: number }> {
    const owns = this.options.owns;
    const counts = { gained: 0, lost: 0 };
    if (!owns) return counts;
    const moves: Array<() => Promise<void>> = [];
    for (const tenant of this.slots.keys()) {
      moves.push(() =>
        this.inTurn(tenant, async () => {
          const work = this.slots.get(tenant)?.bot?.work;
          if (!work) return;
          const owned = owns(tenant);
          if (owned && !work.running()) {
            work.start();
            counts.gained += 1;
          } else if (!owned && work.running()) {
            await work.stop();
            counts.lost += 1;
          }
        }),
      );
    }
    await runLimited(moves, this.options.concurrency ?? 8);
    return counts;
  }

  /** Stops the workspace's bot at once (uninstalled, tokens revoked); the next reconcile starts nothing for it. */
  async stop(tenant: string): Promise<void> {
    await this.inTurn(tenant, () => this.stopNow(tenant));
  }

  /** How many bots run: the figure the hosted benchmark divides memory by. */
  get size(): number {
    let running = 0;
    for (const slot of this.slots.values()) if (slot.bot) running += 1;
    return running;
  }

  /** The bot running now for `tenant`, without a look at the database; undefined when none runs here (or its token is due for renewal). */
  runningNow(tenant: string): RunningBot | undefined {
    const slot = this.slots.get(tenant);
    return slot?.renewAt !== undefined && slot.renewAt <= Date.now() ? undefined : slot?.bot;
  }

  /** The workspaces whose periodic work runs on this replica now. */
  workingHere(): string[] {
    return [...this.slots].flatMap(([tenant, slot]) => (slot.bot?.work.running() ? [tenant] : []));
  }

  /** The bots running now (the host's /metrics reads each one's registry). */
  running(): RunningBot[] {
    return [...this.slots.values()].flatMap((slot) => (slot.bot ? [slot.bot] : []));
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.allSettled([...this.slots.keys()].map((tenant) => this.inTurn(tenant, () => this.stopNow(tenant))));
  }

  private async ensure(tenant: string, version: number, { retryNow }: { retryNow: boolean }): Promise<RunningBot | undefined> {
    if (this.closed) return undefined;
    const slot = this.slots.get(tenant);
    const renew = slot?.renewAt !== undefined && slot.renewAt <= Date.now();
    if (slot?.bot && slot.version === version && !renew) return slot.bot;
    if (!retryNow && slot?.failedAt !== undefined && slot.version === version && Date.now() - slot.failedAt < (this.options.retryAfterMs ?? 60_000)) {
      return undefined;
    }
    await this.stopNow(tenant);
    const logger = this.options.logger.child({ tenant });
    try {
      const built = await this.options.botOptions(tenant);
      if (!built) {
        this.slots.set(tenant, { version, bot: undefined });
        return undefined;
      }
      // Its periodic work runs only where this replica owns the workspace's work.
      const bot = await this.options.start({ ...built.options, workWhenAsked: true });
      this.slots.set(tenant, { version, bot, renewAt: built.renewAt?.getTime() });
      if (this.options.owns?.(tenant) ?? true) bot.work.start();
      logger.info({ version }, 'workspace bot started');
      return bot;
    } catch (error) {
      this.slots.set(tenant, { version, bot: undefined, failedAt: Date.now() });
      logger.warn({ reason: error instanceof Error ? error.message : String(error) }, 'workspace bot did not start; tried again later');
      return undefined;
    }
  }

  private async stopNow(tenant: string): Promise<void> {
    const slot = this.slots.get(tenant);
    this.slots.delete(tenant);
    if (!slot?.bot) return;
    await slot.bot.close();
    this.options.logger.info({ tenant }, 'workspace bot stopped');
  }

  private inTurn<T>(tenant: string, work: () => Promise<T>): Promise<T> {
    const previous = this.queues.get(tenant) ?? Promise.resolve();
    const next = previous.then(work, work);
    const settled = next.then(
      () => undefined,
      () => undefined,
    );
    this.queues.set(tenant, settled);
    void settled.then(() => {
      if (this.queues.get(tenant) === settled) this.queues.delete(tenant);
    });
    return next;
  }
}

/** Runs `work` with at most `limit` under way at once. */
async function runLimited(work: Array<() => Promise<void>>, limit: number): Promise<void> {
  let next = 0;
  const lanes = Array.from({ length: Math.min(limit, work.length) }, async () => {
    while (next < work.length) {
      const job = work[next++]!;
      await job();
    }
  });
  await Promise.all(lanes);
}

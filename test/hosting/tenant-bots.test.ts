import { describe, expect, it } from 'vitest';
import type { BotOptions, RunningBot } from '../../src/bot.js';
import { createLogger } from '../../src/core/logger.js';
import { TenantBots } from '../../src/hosting/tenant-bots.js';

/** Each workspace's bot as TenantBots sees it: started from options, closed once. */
function harness(initial: Record<string, number>, connected = new Set(Object.keys(initial)), owned?: Set<string>) {
  const servable = new Map(Object.entries(initial));
  const started: string[] = [];
  /** Whose periodic work runs, as each bot's `work` says. */
  const working = new Set<string>();
  const workStops: string[] = [];
  const closed: string[] = [];
  const failing = new Set<string>();
  const renewAt = new Map<string, Date>();
  const bots = new TenantBots({
    logger: createLogger({ level: 'silent' }),
    servable: async (tenant) => (tenant ? new Map(servable.has(tenant) ? [[tenant, servable.get(tenant)!]] : []) : new Map(servable)),
    botOptions: async (tenant) =>
      connected.has(tenant) ? { options: { hosted: { tenant } } as unknown as BotOptions, renewAt: renewAt.get(tenant) } : undefined,
    start: async (options) => {
      const tenant = options.hosted!.tenant;
      if (failing.has(tenant)) throw new Error('auth.test said invalid_auth');
      started.push(tenant);
      // TenantBots starts each bot's periodic work itself, where this replica owns it.
      if (!options.workWhenAsked) working.add(tenant);
      return {
        work: {
          start: () => void working.add(tenant),
          stop: async () => {
            working.delete(tenant);
            workStops.push(tenant);
          },
          running: () => working.has(tenant),
        },
        close: async () => {
          working.delete(tenant);
          closed.push(tenant);
        },
      } as unknown as RunningBot;
    },
    retryAfterMs: 60_000,
    ...(owned ? { owns: (tenant: string) => owned.has(tenant) } : {}),
  });
  return { bots, servable, connected, started, closed, failing, renewAt, working, workStops };
}

describe('hosted workspaces’ bots', () => {
  it('starts one bot per connected workspace, and none for a workspace without its Fleet key', async () => {
    const h = harness({ T1: 0, T2: 0, T3: 0 }, new Set(['T1', 'T2']));
    expect(await h.bots.reconcile()).toEqual({ started: 2, stopped: 0, failed: 0 });
    expect(h.started.sort()).toEqual(['T1', 'T2']);
    expect(await h.bots.botFor('T3')).toBeUndefined();
    // Nothing moved: nothing starts again.
    await h.bots.reconcile();
    expect(h.started).toHaveLength(2);
  });

  it('builds a bot again when its version moves, and stops the bot of an uninstalled workspace', async () => {
    const h = harness({ T1: 0, T2: 0 });
    await h.bots.reconcile();
    h.servable.set('T1', 1);
    h.servable.delete('T2');
    expect(await h.bots.reconcile()).toEqual({ started: 1, stopped: 1, failed: 0 });
    expect(h.closed.sort()).toEqual(['T1', 'T2']);
    expect(h.started).toEqual(['T1', 'T2', 'T1']);
    expect(h.bots.size).toBe(1);
  });

  it('starts a newly connected workspace on the first request, without waiting for the next look', async () => {
    const h = harness({ T1: 0 }, new Set());
    await h.bots.reconcile();
    expect(h.bots.size).toBe(0);
    h.connected.add('T1');
    h.servable.set('T1', 1);
    expect(await h.bots.botFor('T1')).toBeDefined();
    expect(h.started).toEqual(['T1']);
  });

  it('builds a changed workspace again at once on the replica that took the change', async () => {
    const h = harness({ T1: 0 });
    const first = await h.bots.botFor('T1');
    h.servable.set('T1', 1);
    // Asked for by a request, the running bot answers until the change is applied.
    expect(await h.bots.botFor('T1')).toBe(first);
    const second = await h.bots.refresh('T1');
    expect(second).not.toBe(first);
    expect(h.closed).toEqual(['T1']);
    expect(await h.bots.botFor('T1')).toBe(second);
  });

  it('a workspace whose bot fails to start delays no other, and is tried again later', async () => {
    const h = harness({ T1: 0, T2: 0 });
    h.failing.add('T1');
    expect(await h.bots.reconcile()).toEqual({ started: 1, stopped: 0, failed: 1 });
    expect(h.started).toEqual(['T2']);
    // Within the retry delay, a look does not try it again; a request does.
    h.failing.delete('T1');
    await h.bots.reconcile();
    expect(h.started).toEqual(['T2']);
    expect(await h.bots.botFor('T1')).toBeDefined();
    expect(h.started).toEqual(['T2', 'T1']);
  });

  it('two requests for a workspace at once start its bot once', async () => {
    const h = harness({ T1: 0 });
    const [a, b] = await Promise.all([h.bots.botFor('T1'), h.bots.botFor('T1')]);
    expect(a).toBe(b);
    expect(h.started).toEqual(['T1']);
  });

  it('builds a bot again, with a refreshed token, once its token is about to expire', async () => {
    const h = harness({ T1: 0 });
    h.renewAt.set('T1', new Date(Date.now() + 100));
    await h.bots.reconcile();
    await h.bots.reconcile();
    expect(h.started).toEqual(['T1']);
    await new Promise((resolve) => setTimeout(resolve, 150));
    h.renewAt.set('T1', new Date(Date.now() + 60_000));
    await h.bots.reconcile();
    await h.bots.reconcile();
    expect(h.started).toEqual(['T1', 'T1']);
    expect(h.closed).toEqual(['T1']);
  });

  it('tells which bot runs now without asking the database, and none once it stopped', async () => {
    const h = harness({ T1: 0 }, new Set(['T1']));
    expect(h.bots.runningNow('T1')).toBeUndefined();
    const bot = await h.bots.botFor('T1');
    expect(h.bots.runningNow('T1')).toBe(bot);
    await h.bots.stop('T1');
    expect(h.bots.runningNow('T1')).toBeUndefined();
  });

  it('runs every bot’s timers when no placement is given (one replica, or tests)', async () => {
    const h = harness({ T1: 0, T2: 0 });
    await h.bots.reconcile();
    expect([...h.working].sort()).toEqual(['T1', 'T2']);
    expect(h.bots.workingHere().sort()).toEqual(['T1', 'T2']);
  });

  it('answers every workspace but runs the timers only of those this replica owns, and follows the placement as it moves', async () => {
    const owned = new Set(['T1']);
    const h = harness({ T1: 0, T2: 0, T3: 0 }, undefined, owned);
    await h.bots.reconcile();
    expect(h.started.sort()).toEqual(['T1', 'T2', 'T3']);
    expect(h.bots.workingHere()).toEqual(['T1']);

    // Another replica died: T2 comes here; T1 goes to a newcomer.
    owned.add('T2');
    owned.delete('T1');
    expect(await h.bots.placementChanged()).toEqual({ gained: 1, lost: 1 });
    expect(h.bots.workingHere()).toEqual(['T2']);
    // T1's periodic work stopped, its bot not: still answered here, its work done elsewhere.
    expect(h.workStops).toEqual(['T1']);
    expect(h.closed).toEqual([]);
    expect(h.bots.runningNow('T1')).toBeDefined();
    expect(h.started).toHaveLength(3);
    // Nothing moved since: nothing happens.
    expect(await h.bots.placementChanged()).toEqual({ gained: 0, lost: 0 });
  });

  it('close stops every bot', async () => {
    const h = harness({ T1: 0, T2: 0 });
    await h.bots.reconcile();
    await h.bots.close();
    expect(h.closed.sort()).toEqual(['T1', 'T2']);
    expect(await h.bots.botFor('T1')).toBeUndefined();
  });
});

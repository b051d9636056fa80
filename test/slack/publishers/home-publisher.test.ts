/**
 * Publishing homes against the local workspace and a real database: a burst of payout changes makes
 * one publish per person (time moved by hand), and two replicas publishing at once never leave a
 * person an older home than the one it replaced. The home's content comes from in-memory sources
 * here; what it shows for each role is tested through the real bot in test/e2e/home.test.ts.
 */
import { WebClient } from '@slack/web-api';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startLocalSlack, type LocalSlack } from '@fleet-treasury-bot/local-slack';
import { systemClock } from '../../../src/core/clock.js';
import { createLogger } from '../../../src/core/logger.js';
import { HomeViews, type Timers } from '../../../src/home/index.js';
import type { PayoutRequest } from '../../../src/payouts/index.js';
import { SlackHomePublisher, type HomeClient, type HomeSources } from '../../../src/slack/publishers/home-publisher.js';
import { fixedLocale } from '../../../src/slack/locales.js';
import type { Db } from '../../../src/store/index.js';
import { testDatabases } from '../../support/databases.js';
import { pendingRequest } from '../../support/payout-doubles.js';

const RITA = 'U0REQUESTER';
const ABEL = 'U0APPROVER';
const ADA = 'U0APPROVER2';
const SECRET = 'homepublishertestsigningsecret00';
const TOKEN = 'xoxb-home-publisher-test';

/** Timers that run only when the test says so. */
class ManualTimers implements Timers {
  private next = 0;
  private readonly tasks = new Map<number, () => void>();
  set(run: () => void): unknown {
    this.next += 1;
    this.tasks.set(this.next, run);
    return this.next;
  }
  clear(handle: unknown): void {
    this.tasks.delete(handle as number);
  }
  get pending(): number {
    return this.tasks.size;
  }
  runAll(): void {
    const runs = [...this.tasks.values()];
    this.tasks.clear();
    runs.forEach((run) => run());
  }
}

describe.each(testDatabases())('home publishing on $name', ({ open }) => {
  let db: Db;
  let slack: LocalSlack;
  let client: WebClient;
  /** What the sources answer, changed by each test. */
  const data: { waiting: PayoutRequest[]; mine: PayoutRequest[]; repeats: Map<string, string> } = { waiting: [], mine: [], repeats: new Map() };
  const sources: HomeSources = {
    access: {
      allows: () => Promise.resolve(true),
      everyoneIn: () => Promise.resolve({ everyone: false, users: new Set([ABEL, ADA]) }),
    },
    accessLists: {} as HomeSources['accessLists'],
    payouts: {
      actor: (userId) => Promise.resolve({ userId, canRequest: true, canApprove: true }),
      waitingFor: () => Promise.resolve({ requests: data.waiting, total: data.waiting.length }),
      requestedBy: () => Promise.resolve(data.mine),
      signals: (request) => {
        const earlier = data.repeats.get(request.id);
        return Promise.resolve({
          duplicateOf: earlier ? { kind: 'request', requestId: earlier, reference: 'INV-1', state: 'completed' } : undefined,
          unusualAmount: undefined,
          dayTotals: { currency: request.currency, requesterMinor: 0, recipientMinor: 0 },
        });
      },
    },
    batches: { waitingFor: () => Promise.resolve({ batches: [], total: 0 }), requestedBy: () => Promise.resolve([]) },
    account: { balance: () => Promise.resolve({ balances: { USD: 100 }, readAt: new Date() }) },
    feedStatus: undefined,
    ledgerStatus: undefined,
    buttons: { newPayout: true, export: false },
  };
  const publisher = (options: { client?: HomeClient; timers?: Timers } = {}) =>
    new SlackHomePublisher({
      client: options.client ?? client,
      homes: new HomeViews(db),
      sources,
      surface: { sandbox: false, locale: 'en' },
      locales: fixedLocale('en'),
      clock: systemClock,
      logger: createLogger({ level: 'silent' }),
      readTimeoutMs: 5_000,
      throttleMs: 2_000,
      ...(options.timers ? { timers: options.timers } : {}),
    });
  const publishes = (userId?: string) => slack.apiCalls.filter((call) => call.method === 'views.publish' && (!userId || call.args.user_id === userId));
  const homeText = (userId: string) => JSON.stringify(slack.home(userId)?.view.blocks ?? []);

  beforeAll(async () => {
    db = await open();
    slack = await startLocalSlack({ signingSecret: SECRET, botToken: TOKEN });
    client = new WebClient(TOKEN, { slackApiUrl: slack.apiUrl, retryConfig: { retries: 0 } });
  });
  afterAll(async () => {
    await slack?.close();
    await db?.close();
  });
  beforeEach(async () => {
    data.waiting = [];
    data.mine = [];
    data.repeats = new Map();
    await db.query('DELETE FROM home_views');
  });

  it('makes one publish per person for a burst of changes, and none for a person who never opened the home', async () => {
    const timers = new ManualTimers();
    const homes = publisher({ timers });
    await homes.opened(RITA);
    await homes.opened(ABEL);
    const before = { rita: publishes(RITA).length, abel: publishes(ABEL).length, ada: publishes(ADA).length };
    const request = pendingRequest({ id: 'PR-BURST1', requestedBy: RITA });
    data.waiting = [request];
    for (let change = 0; change < 12; change += 1) await homes.payoutChanged(request);
    expect(timers.pending).toBe(2);
    expect(publishes().length).toBe(before.rita + before.abel + before.ada);

    timers.runAll();
    await homes.idle();
    expect(publishes(RITA).length).toBe(before.rita + 1);
    expect(publishes(ABEL).length).toBe(before.abel + 1);
    expect(publishes(ADA).length).toBe(0);
    expect(homeText(ABEL)).toContain('home_waiting_PR-BURST1');
    await homes.close();
  });

  it("marks a possible duplicate in the approver's list of requests waiting for them", async () => {
    const homes = publisher();
    data.waiting = [pendingRequest({ id: 'PR-AGAIN2', requestedBy: RITA }), pendingRequest({ id: 'PR-FRESH2', requestedBy: RITA })];
    data.repeats = new Map([['PR-AGAIN2', 'PR-EARLY2']]);
    await homes.opened(ABEL);
    await homes.idle();
    expect(homeText(ABEL)).toContain(':warning: *Possible duplicate* of PR-EARLY2');
    expect(homeText(ABEL).split('Possible duplicate').length - 1).toBe(1);
    await homes.close();
  });

  it('never leaves an older home over a newer one when two replicas publish at once', async () => {
    // Replica A's publish is held after it has rendered, until replica B has published a newer home.
    let hold: { reached: () => void; release: Promise<void> } | undefined;
    const held: HomeClient = {
      views: {
        publish: async (args) => {
          const gate = hold;
          hold = undefined;
          if (gate) {
            gate.reached();
            await gate.release;
          }
          return client.views.publish(args);
        },
      },
    };
    const a = publisher({ client: held });
    const b = publisher();
    await a.opened(ABEL);
    const pendingOne = pendingRequest({ id: 'PR-RACE01', requestedBy: RITA });

    let release!: () => void;
    const reached = new Promise<void>((resolve) => {
      hold = { reached: resolve, release: new Promise<void>((done) => (release = done)) };
    });
    data.waiting = [pendingOne];
    const slow = a.refresh(ABEL);
    await reached;
    // Meanwhile the request is approved and sent; replica B publishes that.
    data.waiting = [];
    data.mine = [{ ...pendingOne, state: 'completed', requestedBy: ABEL }];
    await b.refresh(ABEL);
    expect(homeText(ABEL)).not.toContain('home_waiting_PR-RACE01');
    release();
    await slow;

    expect(slack.apiCalls.some((call) => call.method === 'views.publish' && call.error === 'hash_conflict')).toBe(true);
    const text = homeText(ABEL);
    expect(text).not.toContain('home_waiting_PR-RACE01');
    expect(text).toContain('*PR-RACE01* ·');
    expect(text).toContain('· sent ·');
    const stored = await db.query<{ hash: string }>('SELECT hash FROM home_views WHERE user_id = $1', [ABEL]);
    expect(stored.rows[0]?.hash).toBe(slack.home(ABEL)?.hash);
    await a.close();
    await b.close();
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BALANCE_CHECK_EVERY_POLLS } from '../../src/feed/transaction-feed.js';
import type { FeedPost } from '../../src/feed/types.js';
import type { Db } from '../../src/store/db.js';
import { testDatabases } from '../support/databases.js';
import { feedRig } from '../support/feed-doubles.js';

describe.each(testDatabases())('low-balance alerts on $name', ({ open }) => {
  let db: Db;
  beforeAll(async () => {
    db = await open();
  });
  afterAll(async () => {
    await db.close();
  });

  it('alerts once when a balance falls below its threshold, stays quiet while it stays down, and says once when it recovers', async () => {
    const { fleet, publisher, newFeed } = feedRig(db, { balanceAlertBelow: new Map([['USD', 500_000]]), alertChannelId: 'CALERTS01' });
    const feed = newFeed();
    const alerts = () => publisher.posts.filter(({ channelId }) => channelId === 'CALERTS01').map(({ post }) => post);
    const pollChecks = async (checks: number) => {
      for (let i = 0; i < checks * BALANCE_CHECK_EVERY_POLLS; i += 1) await feed.pollOnce();
    };

    fleet.balances = { USD: 6_000, EUR: 10 };
    await pollChecks(2);
    expect(alerts()).toEqual([]);

    fleet.balances = { USD: 4_999.99, EUR: 10 };
    await pollChecks(1);
    expect(alerts()).toEqual<FeedPost[]>([{ kind: 'balance_low', currency: 'USD', balanceMinor: 499_999, thresholdMinor: 500_000 }]);

    fleet.balances = { USD: 3_000, EUR: 10 };
    await pollChecks(3);
    // A restarted replica remembers the alert state from the store.
    const restarted = newFeed();
    await feed.stop();
    for (let i = 0; i < BALANCE_CHECK_EVERY_POLLS; i += 1) await restarted.pollOnce();
    expect(alerts()).toHaveLength(1);

    fleet.balances = { USD: 5_000, EUR: 10 };
    for (let i = 0; i < BALANCE_CHECK_EVERY_POLLS; i += 1) await restarted.pollOnce();
    expect(alerts().slice(1)).toEqual<FeedPost[]>([{ kind: 'balance_recovered', currency: 'USD', balanceMinor: 500_000, thresholdMinor: 500_000 }]);
  });

  it('reads the balance only once every few polls', async () => {
    const { fleet, newFeed } = feedRig(db, { balanceAlertBelow: new Map([['CDF', 1_000_000_000]]) });
    fleet.balances = { CDF: 20_000_000 };
    const feed = newFeed();
    for (let i = 0; i < 3 * BALANCE_CHECK_EVERY_POLLS; i += 1) await feed.pollOnce();
    expect(fleet.balanceCalls).toBe(3);
  });
});

import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadBalanceAlertStates } from '../../src/feed/feed-store.js';
import { checkRunwayAlerts, type RunwayAlert, type Runway } from '../../src/runway/index.js';
import type { Db } from '../../src/store/db.js';
import { testDatabases } from '../support/databases.js';
import { ManualClock } from '../support/payout-doubles.js';

/** A runway of one currency with `daysLeft` (undefined: not falling). */
function runwayWith(daysLeft: number | undefined, currency = 'USD'): Runway {
  return {
    known: true,
    today: '2026-11-26',
    timeZone: 'UTC',
    windowDays: 14,
    daysRead: 14,
    firstDay: '2026-11-12',
    lastDay: '2026-11-25',
    readAt: new Date(),
    currencies: [
      {
        currency,
        balanceMinor: 100_000,
        averageDailyNetMinor: daysLeft === undefined ? 500 : -100_000 / daysLeft,
        history: [],
        ...(daysLeft === undefined ? {} : { daysLeft, zeroDay: '2026-12-01' }),
      },
    ],
  };
}

describe.each(testDatabases())('the runway alert on $name', ({ open }) => {
  let db: Db;
  const clock = new ManualClock(new Date('2026-11-26T09:00:00Z'));
  let posted: RunwayAlert[];
  /** One replica: its own check, posting into the shared list. */
  const replica = (runway: Runway) =>
    checkRunwayAlerts(runway, {
      db,
      clock,
      alertDays: 7,
      post: async (alert) => {
        // Slack takes a moment: the other replica's check runs meanwhile.
        await new Promise((resolve) => setTimeout(resolve, 20));
        posted.push(alert);
      },
    });

  beforeAll(async () => {
    db = await open();
  });
  afterAll(async () => {
    await db?.close();
  });
  beforeEach(async () => {
    posted = [];
    await db.query('DELETE FROM feed_balance_alerts');
  });

  it('posts once when days left fall below RUNWAY_ALERT_DAYS, though two replicas see it at once, and not again after a restart', async () => {
    expect(await replica(runwayWith(20))).toBe(0);
    const counts = await Promise.all([replica(runwayWith(5)), replica(runwayWith(5))]);
    expect(counts.sort()).toEqual([0, 1]);
    expect(posted.map((alert) => [alert.kind, alert.currency.currency])).toEqual([['runway_low', 'USD']]);
    // A restarted process, or the next tick: the stored side says it was announced.
    expect(await replica(runwayWith(4))).toBe(0);
    expect(posted).toHaveLength(1);
  });

  it('posts once when it rises back above, or stops falling, across two replicas', async () => {
    await replica(runwayWith(3));
    posted = [];
    await Promise.all([replica(runwayWith(9)), replica(runwayWith(9))]);
    expect(posted.map((alert) => alert.kind)).toEqual(['runway_recovered']);
    await Promise.all([replica(runwayWith(2)), replica(runwayWith(2))]);
    await Promise.all([replica(runwayWith(undefined)), replica(runwayWith(undefined))]);
    expect(posted.map((alert) => alert.kind)).toEqual(['runway_recovered', 'runway_low', 'runway_recovered']);
  });

  it('says nothing of a currency first seen above the line, or of a runway with no figure', async () => {
    expect(await replica(runwayWith(30))).toBe(0);
    expect(await replica({ known: false, reason: 'ledger_off', windowDays: 14 })).toBe(0);
    expect(posted).toEqual([]);
  });

  it('announces a crossing whose message failed at the next check', async () => {
    await replica(runwayWith(20));
    const failing = checkRunwayAlerts(runwayWith(5), { db, clock, alertDays: 7, post: async () => Promise.reject(new Error('slack down')) });
    await expect(failing).rejects.toThrow('slack down');
    expect(await replica(runwayWith(5))).toBe(1);
    expect(posted.map((alert) => alert.kind)).toEqual(['runway_low']);
  });

  it("keeps its crossing state apart from the low-balance alerts' in the same table", async () => {
    await replica(runwayWith(5));
    expect(await loadBalanceAlertStates(db)).toEqual(new Map());
    expect((await loadBalanceAlertStates(db, 'runway')).get('USD')).toMatchObject({ below: true, thresholdMinor: 7 });
  });
});

import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Transaction } from '../../src/fleet/schemas.js';
import { identifyPage } from '../../src/ledger/identity.js';
import { StoredLedgerReader } from '../../src/ledger/reader.js';
import { insertEntries, updateSyncState } from '../../src/ledger/store.js';
import { computeRunway, type Runway } from '../../src/runway/index.js';
import type { Db } from '../../src/store/db.js';
import { testDatabases } from '../support/databases.js';
import { ManualClock } from '../support/payout-doubles.js';

const seenAt = new Date('2026-11-26T10:00:00.000Z');
let serial = 0;

function tx(date: string, amount: number, overrides: Partial<Transaction> = {}): Transaction {
  serial += 1;
  return {
    reference: `TX-${serial}`,
    type: amount < 0 ? 'B2B_JIT_FUNDING' : 'PAYMENT',
    amount,
    currency: 'USD',
    description: `entry ${serial}`,
    date,
    status: 'Completed',
    ...overrides,
  };
}

/** Every day from 2026-11-12 to 2026-11-25 (the 14 whole days before 2026-11-26) with one entry. */
function everyDay(amount: number, currency = 'USD'): Transaction[] {
  return Array.from({ length: 14 }, (_, i) => tx(`2026-11-${String(12 + i).padStart(2, '0')}T12:00:00.000Z`, amount, { currency }));
}

function known(runway: Runway): Extract<Runway, { known: true }> {
  if (!runway.known) throw new Error(`no runway: ${runway.reason}`);
  return runway;
}

describe.each(testDatabases())('the runway figure on $name', ({ open }) => {
  let db: Db;
  let ledger: StoredLedgerReader;
  beforeAll(async () => {
    db = await open();
    ledger = new StoredLedgerReader(db);
  });
  afterAll(async () => {
    await db?.close();
  });
  beforeEach(async () => {
    await db.query('DELETE FROM ledger_entries');
    await updateSyncState(db, { historyComplete: true });
  });

  const store = (entries: Transaction[]) => insertEntries(db, identifyPage([...entries].reverse()), { firstSeenAt: seenAt, markLate: false });
  const runwayAt = (now: string, balances: Record<string, number>, options: { timeZone?: string; windowDays?: number } = {}) =>
    computeRunway({
      ledger,
      balance: async () => ({ balances, readAt: new Date(now) }),
      clock: new ManualClock(new Date(now)),
      settings: { windowDays: options.windowDays ?? 14, alertDays: 7, timeZone: options.timeZone ?? 'UTC' },
    });

  it('counts days left and the day the balance reaches zero when card funding drains more than payouts bring', async () => {
    // Each day: a payout credits 100.00, card funding debits 300.00: net −200.00 a day.
    await store([...everyDay(100), ...everyDay(-300), tx('2015-01-01T00:00:00.000Z', 1)]);
    const runway = known(await runwayAt('2026-11-26T09:00:00.000Z', { USD: 3000 }));
    expect(runway).toMatchObject({ daysRead: 14, firstDay: '2026-11-12', lastDay: '2026-11-25', today: '2026-11-26' });
    const [usd] = runway.currencies;
    expect(usd).toMatchObject({ currency: 'USD', balanceMinor: 300_000, averageDailyNetMinor: -20_000, daysLeft: 15, zeroDay: '2026-12-11' });
    expect(usd?.history).toHaveLength(14);
    expect(usd?.history.at(-1)).toEqual({ day: '2026-11-25', balanceMinor: 300_000 });
    expect(usd?.history[0]).toEqual({ day: '2026-11-12', balanceMinor: 300_000 + 13 * 20_000 });
  });

  it('says a balance taking in more than it pays out is not falling, with no count', async () => {
    await store([...everyDay(500), ...everyDay(-100), tx('2015-01-01T00:00:00.000Z', 1)]);
    const [usd] = known(await runwayAt('2026-11-26T09:00:00.000Z', { USD: 1000 })).currencies;
    expect(usd?.averageDailyNetMinor).toBe(40_000);
    expect(usd?.daysLeft).toBeUndefined();
    expect(usd?.zeroDay).toBeUndefined();
  });

  it("leaves out entries not completed and today's entries so far, but works yesterday's close back from them", async () => {
    await store([
      ...everyDay(-100),
      tx('2015-01-01T00:00:00.000Z', 1),
      tx('2026-11-20T10:00:00.000Z', -5000, { status: 'Pending' }),
      tx('2026-11-26T08:00:00.000Z', -9000),
    ]);
    const [usd] = known(await runwayAt('2026-11-26T09:00:00.000Z', { USD: 1400 })).currencies;
    expect(usd).toMatchObject({ averageDailyNetMinor: -10_000, daysLeft: 14, zeroDay: '2026-12-10' });
    expect(usd?.history.at(-1)).toEqual({ day: '2026-11-25', balanceMinor: 140_000 + 900_000 });
  });

  it('uses the days a short ledger holds and says how many', async () => {
    await store([tx('2026-11-22T12:00:00.000Z', -400), tx('2026-11-24T12:00:00.000Z', -400)]);
    const runway = known(await runwayAt('2026-11-26T09:00:00.000Z', { USD: 1000 }));
    expect(runway).toMatchObject({ daysRead: 4, firstDay: '2026-11-22', windowDays: 14 });
    expect(runway.currencies[0]).toMatchObject({ averageDailyNetMinor: -20_000, daysLeft: 5, zeroDay: '2026-12-01' });
  });

  it('leaves out the oldest day while the history still loads, since it may be only partly read', async () => {
    await updateSyncState(db, { historyComplete: false });
    await store([tx('2026-11-22T12:00:00.000Z', -400), tx('2026-11-24T12:00:00.000Z', -300)]);
    const runway = known(await runwayAt('2026-11-26T09:00:00.000Z', { USD: 1000 }));
    expect(runway).toMatchObject({ daysRead: 3, firstDay: '2026-11-23' });
    expect(runway.currencies[0]?.averageDailyNetMinor).toBe(-10_000);
  });

  it('gives no figure while the ledger holds no whole day', async () => {
    await store([tx('2026-11-26T01:00:00.000Z', -400)]);
    expect(await runwayAt('2026-11-26T09:00:00.000Z', { USD: 1000 })).toEqual({ known: false, reason: 'no_whole_day', windowDays: 14 });
  });

  it('gives no figure with the ledger off, and says so', async () => {
    const runway = await computeRunway({
      ledger: undefined,
      balance: async () => ({ balances: { USD: 1 }, readAt: new Date() }),
      clock: new ManualClock(new Date()),
      settings: { windowDays: 14, alertDays: 7, timeZone: 'UTC' },
    });
    expect(runway).toEqual({ known: false, reason: 'ledger_off', windowDays: 14 });
  });

  it('gives zero days left, due today, to a nil or negative balance that keeps falling', async () => {
    await store([...everyDay(-100), ...everyDay(-100, 'EUR'), tx('2015-01-01T00:00:00.000Z', 1)]);
    const runway = known(await runwayAt('2026-11-26T09:00:00.000Z', { USD: 0, EUR: -50 }));
    expect(runway.currencies.map((c) => [c.currency, c.daysLeft, c.zeroDay])).toEqual([
      ['EUR', 0, '2026-11-26'],
      ['USD', 0, '2026-11-26'],
    ]);
  });

  it('reads a currency that did not move as not falling', async () => {
    await store([...everyDay(-100), tx('2015-01-01T00:00:00.000Z', 1)]);
    const runway = known(await runwayAt('2026-11-26T09:00:00.000Z', { USD: 10, KES: 5000 }));
    expect(runway.currencies.find((c) => c.currency === 'KES')).toMatchObject({ averageDailyNetMinor: 0, history: expect.any(Array) });
    expect(runway.currencies.find((c) => c.currency === 'KES')?.daysLeft).toBeUndefined();
  });

  it('counts days in LEDGER_TIMEZONE: an entry late in the evening in New York belongs to that day, not to today in UTC', async () => {
    await store([
      tx('2015-01-01T00:00:00.000Z', 1),
      // 2026-11-25 22:30 in New York (UTC−5): yesterday there, today in UTC.
      tx('2026-11-26T03:30:00.000Z', -14_000),
      // 2026-11-26 00:30 in New York: today there, left out.
      tx('2026-11-26T05:30:00.000Z', -70_000),
    ]);
    const inNewYork = known(await runwayAt('2026-11-26T14:00:00.000Z', { USD: 10_000 }, { timeZone: 'America/New_York' }));
    expect(inNewYork).toMatchObject({ today: '2026-11-26', lastDay: '2026-11-25', firstDay: '2026-11-12' });
    expect(inNewYork.currencies[0]).toMatchObject({ averageDailyNetMinor: -100_000, daysLeft: 10, zeroDay: '2026-12-06' });
    const inUtc = known(await runwayAt('2026-11-26T14:00:00.000Z', { USD: 10_000 }));
    expect(inUtc.currencies[0]?.averageDailyNetMinor).toBe(0);
  });
});

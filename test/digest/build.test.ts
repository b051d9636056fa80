import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { dayBounds, zonedTime } from '../../src/core/calendar.js';
import { DigestBuilder, digestDueAt, latestDueDay } from '../../src/digest/index.js';
import type { LedgerReader } from '../../src/ledger/index.js';
import { StoredLedgerReader } from '../../src/ledger/reader.js';
import type { Db } from '../../src/store/db.js';
import { testDatabases } from '../support/databases.js';
import { entry, ledgerComplete, resetDigestWorld, storeEntries, storePayout } from '../support/digest-doubles.js';
import { silentLogger, SteppingClock } from '../support/feed-doubles.js';

describe('calendar days of the digest', () => {
  it('starts and ends a Kinshasa day at local midnight, one hour before UTC midnight', () => {
    const { start, end } = dayBounds('2026-11-20', 'Africa/Kinshasa');
    expect(start.toISOString()).toBe('2026-11-19T23:00:00.000Z');
    expect(end.toISOString()).toBe('2026-11-20T23:00:00.000Z');
  });

  it('gives the Paris day of the October change 25 hours and the March one 23', () => {
    const october = dayBounds('2026-10-25', 'Europe/Paris');
    expect(october.start.toISOString()).toBe('2026-10-24T22:00:00.000Z');
    expect(october.end.toISOString()).toBe('2026-10-25T23:00:00.000Z');
    const march = dayBounds('2026-03-29', 'Europe/Paris');
    expect(march.start.toISOString()).toBe('2026-03-28T23:00:00.000Z');
    expect(march.end.toISOString()).toBe('2026-03-29T22:00:00.000Z');
  });

  it("falls due at DIGEST_TIME on the next day, on the zone's clock either side of a change", () => {
    expect(digestDueAt('2026-10-24', { hour: 8, minute: 0 }, 'Europe/Paris').toISOString()).toBe('2026-10-25T07:00:00.000Z');
    expect(digestDueAt('2026-10-25', { hour: 8, minute: 0 }, 'Europe/Paris').toISOString()).toBe('2026-10-26T07:00:00.000Z');
    // 02:30 does not exist in Paris on 29 March: the digest goes at the end of the gap.
    expect(zonedTime('2026-03-29', { hour: 2, minute: 30 }, 'Europe/Paris').toISOString()).toBe('2026-03-29T01:00:00.000Z');
  });

  it("names yesterday once today's time has passed, and the day before until then", () => {
    const time = { hour: 8, minute: 0 };
    expect(latestDueDay(new Date('2026-11-21T06:59:00Z'), time, 'Africa/Kinshasa')).toBe('2026-11-19');
    expect(latestDueDay(new Date('2026-11-21T07:00:00Z'), time, 'Africa/Kinshasa')).toBe('2026-11-20');
    // 23:30 UTC is already the next day in Kinshasa.
    expect(latestDueDay(new Date('2026-11-21T23:30:00Z'), { hour: 0, minute: 15 }, 'Africa/Kinshasa')).toBe('2026-11-21');
  });
});

describe.each(testDatabases())('digest of one day on $name', ({ open }) => {
  let db: Db;
  let clock: SteppingClock;
  let balances: Record<string, number>;
  beforeAll(async () => {
    db = await open();
  });
  afterAll(async () => {
    await db?.close();
  });
  beforeEach(async () => {
    await resetDigestWorld(db);
    clock = new SteppingClock('2026-11-21T08:00:00.000Z');
    balances = {};
  });

  /** The stored ledger, polled again whenever the clock moves (as the sync does every interval). */
  const pollingLedger = (): LedgerReader => {
    const stored = new StoredLedgerReader(db);
    return {
      find: (filter, page) => stored.find(filter, page),
      count: (filter) => stored.count(filter),
      stream: (filter, options) => stored.stream(filter, options),
      status: async () => {
        const status = await stored.status();
        return status.upToDateSince ? { ...status, lastPollAt: clock.now() } : status;
      },
    };
  };

  const builder = (timeZone = 'UTC', overrides: { ledgerWaitMs?: number; balanceFails?: boolean; polling?: boolean } = {}) =>
    new DigestBuilder({
      ledger: overrides.polling ? pollingLedger() : new StoredLedgerReader(db),
      db,
      clock,
      timeZone,
      requestTtlHours: 24,
      ledgerWaitMs: overrides.ledgerWaitMs ?? 0,
      logger: silentLogger,
      balance: () => (overrides.balanceFails ? Promise.reject(new Error('down')) : Promise.resolve(balances)),
    });

  it('adds money in and out per currency exactly, in cents, yen and fils', async () => {
    await storeEntries(db, [
      entry('2026-11-20T09:00:00.000Z', 0.1, 'USD'),
      entry('2026-11-20T09:01:00.000Z', 0.2, 'USD'),
      entry('2026-11-20T09:02:00.000Z', -0.3, 'USD', { type: 'B2B_JIT_FUNDING' }),
      entry('2026-11-20T10:00:00.000Z', 1500, 'JPY'),
      entry('2026-11-20T10:01:00.000Z', -1, 'JPY'),
      entry('2026-11-20T11:00:00.000Z', 1.005, 'KWD'),
      entry('2026-11-20T11:01:00.000Z', -0.001, 'KWD'),
      entry('2026-11-21T00:00:00.000Z', 99, 'USD'),
    ]);
    const digest = await builder().build('2026-11-20');
    const byCode = Object.fromEntries(digest.currencies.map((day) => [day.currency, day]));
    expect(byCode.USD).toMatchObject({ inMinor: 30, outMinor: 30, netMinor: 0 });
    expect(byCode.USD?.countsByType).toEqual([
      { type: 'B2B_JIT_FUNDING', count: 1 },
      { type: 'PAYMENT', count: 2 },
    ]);
    expect(byCode.JPY).toMatchObject({ inMinor: 1500, outMinor: 1, netMinor: 1499 });
    expect(byCode.KWD).toMatchObject({ inMinor: 1005, outMinor: 1, netMinor: 1004 });
    expect(digest.entryCount).toBe(7);
    expect(digest.quiet).toBe(false);
  });

  it('lists the five largest movements of each currency, debits and credits alike', async () => {
    await storeEntries(
      db,
      [10, -70, 30, 50, -20, 60, 40].map((amount, index) => entry(`2026-11-20T12:0${index}:00.000Z`, amount, 'EUR')),
    );
    const [eur] = (await builder().build('2026-11-20')).currencies;
    expect(eur?.largest.map((movement) => movement.amountMinor)).toEqual([-7000, 6000, 5000, 4000, 3000]);
  });

  it('counts an entry at Kinshasa midnight in the day it opens, not the one before', async () => {
    await storeEntries(db, [
      entry('2026-11-19T22:59:59.999Z', 1, 'CDF'),
      entry('2026-11-19T23:00:00.000Z', 2, 'CDF'),
      entry('2026-11-20T22:59:59.999Z', 4, 'CDF'),
      entry('2026-11-20T23:00:00.000Z', 8, 'CDF'),
    ]);
    const [cdf] = (await builder('Africa/Kinshasa').build('2026-11-20')).currencies;
    expect(cdf?.inMinor).toBe(600);
  });

  it('holds the 25 hours of the Paris day when clocks go back', async () => {
    await storeEntries(db, [
      entry('2026-10-24T21:59:00.000Z', 1, 'EUR'),
      entry('2026-10-24T22:00:00.000Z', 2, 'EUR'),
      entry('2026-10-25T22:59:00.000Z', 4, 'EUR'),
      entry('2026-10-25T23:00:00.000Z', 8, 'EUR'),
    ]);
    const [eur] = (await builder('Europe/Paris').build('2026-10-25')).currencies;
    expect(eur?.inMinor).toBe(600);
  });

  it("derives a finished day's closing balance from a balance read less the entries dated after the day up to that read", async () => {
    await storeEntries(db, [
      entry('2026-11-20T09:00:00.000Z', 100.25, 'USD'),
      entry('2026-11-21T06:00:00.000Z', -40.1, 'USD'),
      entry('2026-11-21T07:00:00.000Z', 5, 'USD'),
    ]);
    await ledgerComplete(db, new Date('2026-11-21T07:59:50.000Z'));
    balances = { USD: 1000.5, EUR: 7 };
    const digest = await builder('UTC', { polling: true, ledgerWaitMs: 30_000 }).build('2026-11-20');
    const byCode = Object.fromEntries(digest.currencies.map((day) => [day.currency, day]));
    expect(byCode.USD?.closing).toEqual({ known: true, minor: 100050 + 4010 - 500 });
    expect(byCode.EUR?.closing).toEqual({ known: true, minor: 700 });
  });

  it('leaves the closing balance out, with the reason, when the ledger cannot vouch for it', async () => {
    await storeEntries(db, [entry('2026-11-20T09:00:00.000Z', 1, 'USD')]);
    balances = { USD: 10 };
    expect((await builder().build('2026-11-20')).currencies[0]?.closing).toEqual({ known: false, reason: 'history_incomplete' });
    // A sync that stopped polling before the balance was read, and one that polled once after it.
    await ledgerComplete(db, new Date('2026-11-21T07:59:00.000Z'));
    expect((await builder('UTC', { ledgerWaitMs: 5000 }).build('2026-11-20')).currencies[0]?.closing).toEqual({ known: false, reason: 'ledger_behind' });
    await ledgerComplete(db, new Date('2026-11-21T08:00:01.000Z'));
    expect((await builder('UTC', { ledgerWaitMs: 5000 }).build('2026-11-20')).currencies[0]?.closing).toEqual({ known: false, reason: 'ledger_behind' });
    await ledgerComplete(db, new Date('2026-11-21T09:00:00.000Z'));
    expect((await builder('UTC', { balanceFails: true }).build('2026-11-20')).currencies[0]?.closing).toEqual({ known: false, reason: 'balance_unavailable' });
  });

  /**
   * A fleet account whose balance is the sum of its entries, where one more entry arrives before each
   * poll of the ledger: every time the ledger's status is asked, a little time passes, a new entry
   * lands in the account (dated then), and the ledger stores what the account lists.
   */
  const liveAccount = async (
    opening: ReturnType<typeof entry>[],
    options: { landsDuringRead?: (read: number) => ReturnType<typeof entry> | undefined } = {},
  ) => {
    const listed = [...opening];
    await storeEntries(db, listed);
    await ledgerComplete(db, new Date(clock.now().getTime() - 10_000));
    const stored = new StoredLedgerReader(db);
    let arrivals = 0;
    const poll = async () => {
      clock.advance(750);
      arrivals += 1;
      listed.push(entry(clock.now().toISOString(), arrivals, 'USD', { reference: `ARRIVAL-${arrivals}` }));
      clock.advance(750);
      await storeEntries(db, listed);
      await db.query('UPDATE ledger_sync_state SET last_poll_at = $1 WHERE id = 1', [clock.now().toISOString()]);
    };
    const ledger: LedgerReader = {
      find: (filter, page) => stored.find(filter, page),
      count: (filter) => stored.count(filter),
      stream: (filter, options) => stored.stream(filter, options),
      status: async () => {
        await poll();
        return stored.status();
      },
    };
    let reads = 0;
    const balance = () => {
      reads += 1;
      const landed = options.landsDuringRead?.(reads);
      if (landed) listed.push(landed);
      const sums: Record<string, number> = {};
      for (const listedEntry of listed) sums[listedEntry.currency] = Math.round(((sums[listedEntry.currency] ?? 0) + listedEntry.amount) * 100) / 100;
      return Promise.resolve(sums);
    };
    return {
      listed,
      builder: () => new DigestBuilder({ ledger, db, clock, timeZone: 'UTC', requestTtlHours: 24, ledgerWaitMs: 30_000, logger: silentLogger, balance }),
    };
  };

  it('gives one closing balance for a finished day however often it is read while new entries keep arriving', async () => {
    const account = await liveAccount([
      entry('2026-11-19T09:00:00.000Z', 1000, 'USD'),
      entry('2026-11-20T09:00:00.000Z', 100.25, 'USD'),
      entry('2026-11-21T06:00:00.000Z', -40.1, 'USD'),
    ]);
    const figures: unknown[] = [];
    for (let read = 0; read < 4; read += 1) {
      figures.push((await account.builder().build('2026-11-20')).currencies.find((day) => day.currency === 'USD')?.closing);
    }
    expect(figures).toEqual(Array(4).fill({ known: true, minor: 110025 }));
  });

  it('reads the balance again when an entry is dated at the very instant of the read, since the balance may or may not hold it', async () => {
    // The API dates this entry 100 ms after the app sent the read, and counts it in the balance it answers.
    const account = await liveAccount([entry('2026-11-19T09:00:00.000Z', 1000, 'USD')], {
      landsDuringRead: (read) => (read === 1 ? entry(new Date(clock.now().getTime() + 100).toISOString(), 3, 'USD') : undefined),
    });
    const [usd] = (await account.builder().build('2026-11-20')).currencies;
    expect(usd?.closing).toEqual({ known: true, minor: 100000 });
  });

  it("corrects a finished day's closing balance only for a late entry dated that day or before, and keeps the figure it corrected", async () => {
    const account = await liveAccount([entry('2026-11-19T09:00:00.000Z', 1000, 'USD'), entry('2026-11-20T09:00:00.000Z', 100.25, 'USD')]);
    const closing = async () => (await account.builder().build('2026-11-20')).currencies.find((day) => day.currency === 'USD')?.closing;
    expect(await closing()).toEqual({ known: true, minor: 110025 });
    // The API adds an entry dated after the day, then one dated within it: only the second moves the day's close.
    for (const late of [entry('2026-11-21T03:00:00.000Z', 7, 'USD'), entry('2026-11-20T12:00:00.000Z', -5, 'USD')]) {
      account.listed.push(late);
      await storeEntries(db, [late]);
    }
    const corrected = { known: true, minor: 109525, correction: { previousMinor: 110025, lateEntries: 1 } };
    expect(await closing()).toEqual(corrected);
    expect(await closing()).toEqual(corrected);
  });

  it('gives no closing balance for a day that is not over', async () => {
    const account = await liveAccount([entry('2026-11-21T06:00:00.000Z', 10, 'USD')]);
    const [usd] = (await account.builder().build('2026-11-21')).currencies;
    expect(usd?.closing).toEqual({ known: false, reason: 'day_not_over' });
  });

  it('counts payouts by how they ended that day, with totals per currency', async () => {
    await storePayout(db, { state: 'completed', amountMinor: 15000, currency: 'USD', requestedAt: '2026-11-20T08:00:00Z' }, [
      ['completed', '2026-11-20T09:00:00Z'],
    ]);
    await storePayout(db, { state: 'completed', amountMinor: 250, currency: 'USD', requestedAt: '2026-11-19T08:00:00Z' }, [
      ['unknown', '2026-11-19T09:00:00Z'],
      ['reconciled', '2026-11-20T01:00:00Z'],
    ]);
    await storePayout(db, { state: 'completed', amountMinor: 999, currency: 'EUR', requestedAt: '2026-11-20T08:00:00Z' }, [
      ['completed', '2026-11-21T00:00:00Z'],
    ]);
    await storePayout(db, { state: 'failed', amountMinor: 700, currency: 'CDF', requestedAt: '2026-11-20T08:00:00Z' }, [['failed', '2026-11-20T10:00:00Z']]);
    await storePayout(db, { state: 'rejected', amountMinor: 100, currency: 'EUR', requestedAt: '2026-11-20T08:00:00Z' }, [
      ['rejected', '2026-11-20T10:00:00Z'],
    ]);
    await storePayout(db, { state: 'expired', amountMinor: 200, currency: 'EUR', requestedAt: '2026-11-19T08:00:00Z' }, [['expired', '2026-11-20T08:00:00Z']]);
    await storePayout(db, { state: 'unknown', amountMinor: 300, currency: 'USD', requestedAt: '2026-11-20T08:00:00Z' }, [['unknown', '2026-11-20T11:00:00Z']]);
    const digest = await builder().build('2026-11-20');
    const byOutcome = Object.fromEntries(digest.payouts.map((outcome) => [outcome.outcome, outcome]));
    expect(byOutcome.sent).toEqual({ outcome: 'sent', count: 2, totals: [{ currency: 'USD', minor: 15250 }] });
    expect(byOutcome.failed).toEqual({ outcome: 'failed', count: 1, totals: [{ currency: 'CDF', minor: 700 }] });
    expect(byOutcome.rejected?.count).toBe(1);
    expect(byOutcome.expired?.totals).toEqual([{ currency: 'EUR', minor: 200 }]);
    expect(byOutcome.unknown).toEqual({ outcome: 'unknown', count: 1, totals: [{ currency: 'USD', minor: 300 }] });
    expect(digest.quiet).toBe(false);
  });

  it('lists pending requests waiting longer than half their time to live', async () => {
    await storePayout(db, { state: 'pending', amountMinor: 100, currency: 'USD', requestedAt: '2026-11-20T19:00:00Z', id: 'PR-OLDONE' });
    await storePayout(db, { state: 'pending', amountMinor: 100, currency: 'USD', requestedAt: '2026-11-20T21:00:00Z', id: 'PR-NEWONE' });
    const digest = await builder().build('2026-11-20');
    expect(digest.waiting.map((request) => request.id)).toEqual(['PR-OLDONE']);
    expect(digest.waitingAfterHours).toBe(12);
  });

  it('calls a day with no movement and no payout a quiet day', async () => {
    await storeEntries(db, [entry('2026-11-19T12:00:00.000Z', 5, 'USD')]);
    const digest = await builder().build('2026-11-20');
    expect(digest.quiet).toBe(true);
    expect(digest.entryCount).toBe(0);
  });
});

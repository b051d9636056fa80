import { describe, expect, it } from 'vitest';
import { advanceCursor, cursorAtNewest, EMPTY_CURSOR, entryKey, isNewEntry, MAX_CLOCK_SKEW_MS, MAX_KEYS } from '../../src/feed/cursor.js';
import { totalsByCurrency } from '../../src/feed/totals.js';
import { transaction } from '../support/feed-doubles.js';

const at = (ms: number) => new Date(Date.parse('2025-06-01T12:00:00.000Z') + ms);
/** The database's clock in these tests: a day after every entry. */
const NOW = at(24 * 60 * 60 * 1000).getTime();

describe('feed cursor', () => {
  it('tells apart entries that share a reference but differ in amount, date, currency or type', () => {
    const base = transaction(at(0), { reference: 'SAME' });
    const keys = [
      base,
      { ...base, amount: base.amount + 1 },
      { ...base, date: at(1).toISOString() },
      { ...base, currency: 'EUR' },
      { ...base, type: 'B2B_JIT_FUNDING' },
    ].map(entryKey);
    expect(new Set(keys).size).toBe(5);
  });

  it('counts an unseen entry in the newest posted millisecond as new, and a posted one as old', () => {
    const posted = transaction(at(10));
    const sibling = transaction(at(10));
    const cursor = advanceCursor(EMPTY_CURSOR, [posted], NOW);
    expect(isNewEntry(cursor, posted)).toBe(false);
    expect(isNewEntry(cursor, sibling)).toBe(true);
    expect(isNewEntry(cursor, transaction(at(11)))).toBe(true);
  });

  it('treats everything on the newest page as past when starting without backfill', () => {
    const page = [transaction(at(5)), transaction(at(4)), transaction(at(3))];
    const cursor = cursorAtNewest(page, true, NOW);
    expect(page.map((tx) => isNewEntry(cursor, tx))).toEqual([false, false, false]);
    expect(isNewEntry(cursor, transaction(at(2)))).toBe(false);
    expect(isNewEntry(cursor, transaction(at(6)))).toBe(true);
  });

  it('never moves its newest date past now plus the allowed skew, yet knows a future-dated entry it posted', () => {
    const ahead = transaction(new Date(NOW + 2 * 60 * 60 * 1000));
    const cursor = advanceCursor(advanceCursor(EMPTY_CURSOR, [transaction(at(10))], NOW), [ahead], NOW);
    expect(cursor.newestMs).toBeLessThanOrEqual(NOW + MAX_CLOCK_SKEW_MS);
    expect(isNewEntry(cursor, ahead)).toBe(false);
    // Entries dated after the last real one but before the future-dated one are still new.
    expect(isNewEntry(cursor, transaction(at(11)))).toBe(true);
    expect(isNewEntry(cursor, transaction(new Date(NOW)))).toBe(true);
  });

  it('does not start past now plus the allowed skew when the newest page holds a future-dated entry', () => {
    const page = [transaction(new Date(NOW + 60 * 60 * 1000)), transaction(at(5)), transaction(at(4))];
    const cursor = cursorAtNewest(page, true, NOW);
    expect(page.map((tx) => isNewEntry(cursor, tx))).toEqual([false, false, false]);
    expect(isNewEntry(cursor, transaction(at(6)))).toBe(true);
  });

  it('keeps at most MAX_KEYS keys when many future-dated entries were posted, forgetting the furthest ahead first', () => {
    const posted = Array.from({ length: 50 }, (_, i) => transaction(at(i)));
    const ahead = Array.from({ length: MAX_KEYS }, (_, i) => transaction(new Date(NOW + 60 * 60 * 1000 + i)));
    const cursor = advanceCursor(advanceCursor(EMPTY_CURSOR, posted, NOW), ahead, NOW);
    expect(cursor.keys.size).toBeLessThanOrEqual(MAX_KEYS);
    expect(isNewEntry(cursor, ahead[0]!)).toBe(false);
    expect(posted.every((tx) => cursor.keys.has(entryKey(tx)))).toBe(true);
  });

  it('keeps at most MAX_KEYS keys, yet never forgets the newest millisecond', () => {
    const older = Array.from({ length: MAX_KEYS }, (_, i) => transaction(at(i)));
    const newestMoment = Array.from({ length: 30 }, () => transaction(at(MAX_KEYS + 1)));
    const cursor = advanceCursor(advanceCursor(EMPTY_CURSOR, older, NOW), newestMoment, NOW);
    expect(cursor.keys.size).toBeLessThanOrEqual(MAX_KEYS);
    expect(newestMoment.every((tx) => !isNewEntry(cursor, tx))).toBe(true);
    expect(older.every((tx) => !isNewEntry(cursor, tx))).toBe(true);
  });
});

describe('batch totals', () => {
  it('adds credits and debits per currency in exact minor units', () => {
    const totals = totalsByCurrency([
      transaction(at(0), { amount: 0.1, currency: 'USD' }),
      transaction(at(1), { amount: 0.2, currency: 'USD' }),
      transaction(at(2), { amount: -1.05, currency: 'USD' }),
      transaction(at(3), { amount: 1500, currency: 'CDF' }),
    ]);
    expect(totals).toEqual([
      { currency: 'USD', creditCount: 2, creditMinor: 30, debitCount: 1, debitMinor: -105, netMinor: -75 },
      { currency: 'CDF', creditCount: 1, creditMinor: 150_000, debitCount: 0, debitMinor: 0, netMinor: 150_000 },
    ]);
  });
});

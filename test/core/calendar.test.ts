import { describe, expect, it } from 'vitest';
import {
  addMonths,
  dayBounds,
  dayIn,
  formatWallTime,
  isCalendarDay,
  nextDay,
  parseWallTime,
  previousDay,
  startOfDay,
  zonedTime,
} from '../../src/core/calendar.js';
import { occurrenceDay } from '../../src/payouts/schedule/dates.js';
import { parseTransactionQuery } from '../../src/ledger/query-text.js';
import { payoutDay } from '../../src/payouts/day-totals.js';

describe('one calendar for the ledger, the digest and the payouts', () => {
  it('takes a real YYYY-MM-DD day from 1970 to 9999 as a calendar day, and nothing else', () => {
    for (const day of ['1970-01-01', '2024-02-29', '2026-11-30', '9999-12-31']) expect(isCalendarDay(day)).toBe(true);
    for (const text of [
      '1969-12-31',
      '0050-01-01',
      '2026-02-29',
      '2026-02-30',
      '2026-13-01',
      '2026-00-10',
      '2026-11-00',
      '2026-1-5',
      '15/11/2026',
      ' 2026-11-15',
    ])
      expect(isCalendarDay(text)).toBe(false);
  });

  it('refuses in /fleet tx the same days the calendar refuses', () => {
    expect(parseTransactionQuery('since:1969-12-31').ok).toBe(false);
    expect(parseTransactionQuery('since:1970-01-01').ok).toBe(true);
  });

  it('steps from day to day across months, years and leap days', () => {
    expect(nextDay('2026-11-30')).toBe('2026-12-01');
    expect(nextDay('2024-02-28')).toBe('2024-02-29');
    expect(previousDay('2026-01-01')).toBe('2025-12-31');
    expect(previousDay('2024-03-01')).toBe('2024-02-29');
  });

  it('moves a day by months on its own date, on the last day of a shorter month', () => {
    expect(addMonths('2026-01-31', 1)).toBe('2026-02-28');
    expect(addMonths('2026-01-31', 2)).toBe('2026-03-31');
    expect(addMonths('2024-01-31', 1)).toBe('2024-02-29');
    expect(addMonths('2026-11-15', 2)).toBe('2027-01-15');
    expect(addMonths('2026-03-31', -1)).toBe('2026-02-28');
    expect(addMonths('2026-11-30', 0)).toBe('2026-11-30');
  });

  it("repeats a monthly schedule on the first day's date through the same month arithmetic", () => {
    const rule = { firstDay: '2026-01-31', repeat: 'monthly' as const };
    expect([0, 1, 2, 3].map((n) => occurrenceDay(rule, n))).toEqual(['2026-01-31', '2026-02-28', '2026-03-31', '2026-04-30']);
    expect(occurrenceDay({ firstDay: '2026-12-25', repeat: 'biweekly' }, 1)).toBe('2027-01-08');
  });

  it('reads and writes a wall time as HH:MM on a 24-hour clock, for the digest and schedules alike', () => {
    expect(parseWallTime('08:05')).toEqual({ hour: 8, minute: 5 });
    expect(parseWallTime(' 23:59 ')).toEqual({ hour: 23, minute: 59 });
    for (const text of ['24:00', '12:60', '8:05', '08:5', '0805', '']) expect(parseWallTime(text)).toBeUndefined();
    expect(formatWallTime({ hour: 8, minute: 5 })).toBe('08:05');
    expect(parseWallTime(formatWallTime({ hour: 0, minute: 0 }))).toEqual({ hour: 0, minute: 0 });
  });

  it("names the day an instant falls on in a zone, and bounds that day at the zone's midnights", () => {
    const instant = new Date('2026-11-20T23:30:00Z');
    expect(dayIn(instant, 'UTC')).toBe('2026-11-20');
    expect(dayIn(instant, 'Africa/Kinshasa')).toBe('2026-11-21');
    const { start, end } = dayBounds('2026-10-25', 'Europe/Paris');
    expect(start).toEqual(startOfDay('2026-10-25', 'Europe/Paris'));
    expect((end.getTime() - start.getTime()) / 3_600_000).toBe(25);
    expect(zonedTime('2026-03-29', { hour: 2, minute: 30 }, 'Europe/Paris').toISOString()).toBe('2026-03-29T01:00:00.000Z');
  });

  it('counts a payout in the UTC calendar day of its request, from the same calendar', () => {
    for (const at of ['2025-03-14T00:00:00.000Z', '2025-03-14T23:59:59.999Z', '2024-02-29T12:00:00Z', '2026-12-31T23:00:00Z']) {
      const instant = new Date(at);
      expect(payoutDay(instant)).toEqual(dayBounds(dayIn(instant, 'UTC'), 'UTC'));
    }
    expect(payoutDay(new Date('2026-12-31T23:00:00Z'))).toEqual({ start: new Date('2026-12-31T00:00:00Z'), end: new Date('2027-01-01T00:00:00Z') });
  });

  it("counts a payout in the team zone's calendar day when one is given, a 23-hour day on a DST change", () => {
    const day = payoutDay(new Date('2026-03-28T23:30:00Z'), 'Europe/Paris');
    expect(day).toEqual({ start: new Date('2026-03-28T23:00:00Z'), end: new Date('2026-03-29T22:00:00Z') });
    expect(payoutDay(new Date('2026-03-28T22:59:59Z'), 'Europe/Paris').end).toEqual(new Date('2026-03-28T23:00:00Z'));
  });
});

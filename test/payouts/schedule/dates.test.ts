import { describe, expect, it } from 'vitest';
import { checkSchedule, occurrenceDay, occurrenceTimes } from '../../../src/payouts/schedule/dates.js';

const iso = (dates: Date[]) => dates.map((date) => date.toISOString());

describe('when a scheduled payout falls', () => {
  it('sends at the end of the gap when 02:30 does not exist (spring forward) and at the first 02:30 when it happens twice', () => {
    const spring = occurrenceTimes({ firstDay: '2026-03-29', time: { hour: 2, minute: 30 }, timeZone: 'Europe/Paris', repeat: 'once' });
    expect(iso(spring)).toEqual(['2026-03-29T01:00:00.000Z']);
    const autumn = occurrenceTimes({ firstDay: '2026-10-25', time: { hour: 2, minute: 30 }, timeZone: 'Europe/Paris', repeat: 'once' });
    // 02:30 CEST (UTC+2) comes first; 02:30 CET an hour later is the same wall time.
    expect(iso(autumn)).toEqual(['2026-10-25T00:30:00.000Z']);
  });

  it('keeps a weekly series on the team clock across a DST change', () => {
    const times = occurrenceTimes({ firstDay: '2026-03-22', time: { hour: 9, minute: 0 }, timeZone: 'Europe/Paris', repeat: 'weekly', count: 2 });
    expect(iso(times)).toEqual(['2026-03-22T08:00:00.000Z', '2026-03-29T07:00:00.000Z']);
  });

  it("clamps a monthly series on the 31st to each month's last day and comes back to the 31st", () => {
    const rule = { firstDay: '2027-01-31', repeat: 'monthly' as const };
    expect([0, 1, 2, 3].map((n) => occurrenceDay(rule, n))).toEqual(['2027-01-31', '2027-02-28', '2027-03-31', '2027-04-30']);
  });

  it('lands on the leap day in a leap year and on 28 February otherwise', () => {
    expect([0, 1, 12, 13].map((n) => occurrenceDay({ firstDay: '2028-01-29', repeat: 'monthly' }, n))).toEqual([
      '2028-01-29',
      '2028-02-29',
      '2029-01-29',
      '2029-02-28',
    ]);
    expect(occurrenceDay({ firstDay: '2028-02-29', repeat: 'monthly' }, 12)).toBe('2029-02-28');
    expect([0, 1].map((n) => occurrenceDay({ firstDay: '2028-02-22', repeat: 'weekly' }, n))).toEqual(['2028-02-22', '2028-02-29']);
  });

  it('runs every two weeks until an end day, inclusive', () => {
    const times = occurrenceTimes({ firstDay: '2026-12-01', time: { hour: 8, minute: 0 }, timeZone: 'UTC', repeat: 'biweekly', endsOn: '2026-12-29' });
    expect(iso(times)).toEqual(['2026-12-01T08:00:00.000Z', '2026-12-15T08:00:00.000Z', '2026-12-29T08:00:00.000Z']);
  });

  it('refuses a first time in the past, more than 366 days ahead, a series without an end, and more than 52 payouts', () => {
    const now = new Date('2026-11-26T10:00:00Z');
    const base = { time: { hour: 9, minute: 0 }, timeZone: 'UTC' };
    expect(checkSchedule({ ...base, firstDay: '2026-11-26', repeat: 'once' }, now)).toEqual([{ field: 'send_on', code: 'schedule_past' }]);
    expect(checkSchedule({ ...base, firstDay: '2026-11-27', repeat: 'once' }, now)).toEqual([]);
    expect(checkSchedule({ ...base, firstDay: '2027-11-27', repeat: 'once' }, now)).toEqual([]);
    expect(checkSchedule({ ...base, firstDay: '2027-11-28', repeat: 'once' }, now)).toEqual([{ field: 'send_on', code: 'schedule_too_far', maxDays: 366 }]);
    expect(checkSchedule({ ...base, firstDay: '2026-11-27', repeat: 'weekly' }, now)).toEqual([{ field: 'repeat_end', code: 'schedule_end_missing' }]);
    expect(checkSchedule({ ...base, firstDay: '2026-11-27', repeat: 'weekly', count: 53 }, now)).toEqual([
      { field: 'repeat_end', code: 'schedule_count_invalid', max: 52 },
    ]);
    expect(checkSchedule({ ...base, firstDay: '2026-11-27', repeat: 'weekly', endsOn: '2027-12-31' }, now)).toEqual([
      { field: 'repeat_end', code: 'schedule_too_many', max: 52 },
    ]);
    expect(checkSchedule({ ...base, firstDay: '2026-11-27', repeat: 'weekly', count: 52 }, now)).toEqual([]);
    expect(checkSchedule({ ...base, firstDay: '2026-02-30', repeat: 'once' }, now)).toEqual([{ field: 'send_on', code: 'schedule_day_invalid' }]);
  });
});

/**
 * When a scheduled payout's occurrences fall: a first day and a time of day on the team's clock,
 * repeated weekly, every two weeks or monthly (on the first day's date, clamped to the month's last
 * day: 31 → 28 February → 31 March), ending after a number of payouts or on a day; at most 52.
 * Pure, on the one calendar (`calendar.ts`): a time the clock skips on a DST day is the end of the
 * gap, a time it shows twice is the first.
 */
import { addDays, addMonths, dayIn, isCalendarDay, zonedTime, type WallTime } from '../../core/calendar.js';

export const SCHEDULE_REPEATS = ['once', 'weekly', 'biweekly', 'monthly'] as const;
export type ScheduleRepeat = (typeof SCHEDULE_REPEATS)[number];

/** The most occurrences one schedule holds. */
export const MAX_OCCURRENCES = 52;
/** How far ahead the first payout may be. */
export const MAX_DAYS_AHEAD = 366;

export interface ScheduleRule {
  /** `YYYY-MM-DD` on the team's calendar. */
  firstDay: string;
  time: WallTime;
  timeZone: string;
  repeat: ScheduleRepeat;
  /** How many payouts in all (a series); `ends` and `count` are exclusive, one of them for a series. */
  count?: number | undefined;
  /** The last day a payout may fall on (inclusive). */
  endsOn?: string | undefined;
}

/** What is wrong with a schedule, for the form's fields. */
export type ScheduleProblem =
  | { field: 'send_on'; code: 'schedule_day_invalid' | 'schedule_past' | 'schedule_too_far'; maxDays?: number }
  | { field: 'repeat_end'; code: 'schedule_end_missing' | 'schedule_end_before_start' | 'schedule_too_many' | 'schedule_count_invalid'; max?: number };

/** The `n`th (0-based) day of the rule, on the calendar alone. */
export function occurrenceDay(rule: Pick<ScheduleRule, 'firstDay' | 'repeat'>, n: number): string {
  if (rule.repeat === 'monthly') return addMonths(rule.firstDay, n);
  return addDays(rule.firstDay, (rule.repeat === 'biweekly' ? 14 : 7) * n);
}

/** The instants of every occurrence, in order; at most `MAX_OCCURRENCES + 1` so a caller can tell "too many". */
export function occurrenceTimes(rule: ScheduleRule): Date[] {
  if (rule.repeat === 'once') return [zonedTime(rule.firstDay, rule.time, rule.timeZone)];
  const times: Date[] = [];
  for (let n = 0; n <= MAX_OCCURRENCES; n += 1) {
    if (rule.count !== undefined && n >= rule.count) break;
    const day = occurrenceDay(rule, n);
    if (rule.endsOn !== undefined && day > rule.endsOn) break;
    times.push(zonedTime(day, rule.time, rule.timeZone));
  }
  return times;
}

/** Checks a rule against `now`: a first time not past and at most 366 days ahead, an end, at most 52 payouts. */
export function checkSchedule(rule: ScheduleRule, now: Date): ScheduleProblem[] {
  if (!isCalendarDay(rule.firstDay)) return [{ field: 'send_on', code: 'schedule_day_invalid' }];
  const problems: ScheduleProblem[] = [];
  const first = zonedTime(rule.firstDay, rule.time, rule.timeZone);
  if (first.getTime() <= now.getTime()) problems.push({ field: 'send_on', code: 'schedule_past' });
  const lastAllowed = new Date(now.getTime() + MAX_DAYS_AHEAD * 86_400_000);
  if (dayIn(first, rule.timeZone) > dayIn(lastAllowed, rule.timeZone)) problems.push({ field: 'send_on', code: 'schedule_too_far', maxDays: MAX_DAYS_AHEAD });
  if (rule.repeat === 'once') return problems;
  if (rule.count === undefined && rule.endsOn === undefined) problems.push({ field: 'repeat_end', code: 'schedule_end_missing' });
  else if (rule.count !== undefined && (!Number.isInteger(rule.count) || rule.count < 2 || rule.count > MAX_OCCURRENCES)) {
    problems.push({ field: 'repeat_end', code: 'schedule_count_invalid', max: MAX_OCCURRENCES });
  } else if (rule.endsOn !== undefined && (!isCalendarDay(rule.endsOn) || rule.endsOn < rule.firstDay)) {
    problems.push({ field: 'repeat_end', code: 'schedule_end_before_start' });
  } else if (occurrenceTimes(rule).length > MAX_OCCURRENCES) {
    problems.push({ field: 'repeat_end', code: 'schedule_too_many', max: MAX_OCCURRENCES });
  }
  return problems;
}

/**
 * Calendar days and times of day in an IANA time zone, through Intl alone: where a day starts and
 * ends, and when a given day's digest falls due. Correct on daylight-saving days (a 23- or 25-hour
 * day) because every boundary is searched for on the zone's own clock, never computed from an offset.
 */
import { dayIn, nextDay, startOfDay } from '../ledger/query-text.js';
import type { TimeOfDay } from './settings.js';

export { dayIn, nextDay, startOfDay };

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** True for a real calendar day written `YYYY-MM-DD` (so `2026-02-30` is not one). */
export function isCalendarDay(text: string): boolean {
  const match = DAY.exec(text);
  if (!match) return false;
  const date = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
  return date.toISOString().slice(0, 10) === text;
}

/** `2026-12-01` → `2026-11-30`, on the calendar alone. */
export function previousDay(day: string): string {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(year, month - 1, date - 1)).toISOString().slice(0, 10);
}

/** The instants a calendar day covers in `timeZone`: from `start` (included) to `end` (excluded). */
export function dayBounds(day: string, timeZone: string): { start: Date; end: Date } {
  return { start: startOfDay(day, timeZone), end: startOfDay(nextDay(day), timeZone) };
}

const minuteFormats = new Map<string, Intl.DateTimeFormat>();

/** `YYYY-MM-DD HH:MM` of an instant on the zone's wall clock; sorts as text in time order within a day. */
function wallClock(instant: number, timeZone: string): string {
  let format = minuteFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23',
    });
    minuteFormats.set(timeZone, format);
  }
  const parts = Object.fromEntries(format.formatToParts(instant).map((part) => [part.type, part.value]));
  return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}`;
}

/**
 * The first instant at which the zone's clock shows `time` on `day` or later: on a day that skips
 * that time (spring forward) it is the end of the gap, on a day that shows it twice the first one.
 */
export function zonedTime(day: string, time: TimeOfDay, timeZone: string): Date {
  const target = `${day} ${String(time.hour).padStart(2, '0')}:${String(time.minute).padStart(2, '0')}`;
  const start = startOfDay(day, timeZone).getTime() / 1000;
  // A calendar day lasts at most 25 hours; search its seconds for the first that reads `target` or later.
  let low = start - 1;
  let high = start + 26 * 3600;
  while (high - low > 1) {
    const middle = Math.floor((low + high) / 2);
    if (wallClock(middle * 1000, timeZone) >= target) high = middle;
    else low = middle;
  }
  return new Date(high * 1000);
}

/** When the digest about `day` falls due: `time` on the next calendar day. */
export function digestDueAt(day: string, time: TimeOfDay, timeZone: string): Date {
  return zonedTime(nextDay(day), time, timeZone);
}

/** The newest day whose digest is due at `now`: yesterday once today's `time` has passed, else the day before. */
export function latestDueDay(now: Date, time: TimeOfDay, timeZone: string): string {
  const today = dayIn(now, timeZone);
  const yesterday = previousDay(today);
  return now.getTime() >= digestDueAt(yesterday, time, timeZone).getTime() ? yesterday : previousDay(yesterday);
}

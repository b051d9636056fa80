/**
 * Calendar days and times of day in an IANA time zone, through Intl alone: what a calendar day is,
 * where it starts and ends, and when a zone's clock shows a given time. The ledger's filters, the
 * digest's days and schedule, and the payouts' day all take their boundaries from here. Correct on
 * daylight-saving days (a 23- or 25-hour day) because every boundary is searched for on the zone's
 * own clock, never computed from an offset.
 */

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** An hour and minute on a wall clock (`{ hour: 8, minute: 0 }` is 08:00). */
export interface WallTime {
  hour: number;
  minute: number;
}

/** `08:05` → `{ hour: 8, minute: 5 }`; undefined unless `HH:MM` on a 24-hour clock. */
export function parseWallTime(text: string): WallTime | undefined {
  const match = /^([01]\d|2[0-3]):([0-5]\d)$/.exec(text.trim());
  if (!match) return undefined;
  return { hour: Number(match[1]), minute: Number(match[2]) };
}

/** `{ hour: 8, minute: 5 }` → `08:05`. */
export function formatWallTime(time: WallTime): string {
  return `${String(time.hour).padStart(2, '0')}:${String(time.minute).padStart(2, '0')}`;
}

/** True for a real calendar day written `YYYY-MM-DD` between the years 1970 and 9999 (so `2026-02-30` is not one). */
export function isCalendarDay(text: string): boolean {
  const match = DAY.exec(text);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (year < 1970 || month < 1 || month > 12 || day < 1) return false;
  return day <= new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** `2026-11-30` → `2026-12-01`, on the calendar alone. */
export function nextDay(day: string): string {
  return shiftDay(day, 1);
}

/** `2026-12-01` → `2026-11-30`, on the calendar alone. */
export function previousDay(day: string): string {
  return shiftDay(day, -1);
}

/** `2026-11-30` moved by `by` days (`addDays('2026-11-30', 3)` → `2026-12-03`), on the calendar alone. */
export function addDays(day: string, by: number): string {
  return shiftDay(day, by);
}

/**
 * `day` moved by `by` calendar months on its own date, clamped to the last day of a shorter month:
 * `addMonths('2026-01-31', 1)` → `2026-02-28`, `addMonths('2026-01-31', 2)` → `2026-03-31`.
 */
export function addMonths(day: string, by: number): string {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  const lastDate = new Date(Date.UTC(year, month + by, 0)).getUTCDate();
  return new Date(Date.UTC(year, month - 1 + by, Math.min(date, lastDate))).toISOString().slice(0, 10);
}

function shiftDay(day: string, by: number): string {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(year, month - 1, date + by)).toISOString().slice(0, 10);
}

const dayFormats = new Map<string, Intl.DateTimeFormat>();

/** The calendar day an instant falls on in `timeZone`, as `YYYY-MM-DD`. */
export function dayIn(instant: Date | number, timeZone: string): string {
  let format = dayFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
    dayFormats.set(timeZone, format);
  }
  const parts = Object.fromEntries(format.formatToParts(instant).map((part) => [part.type, part.value]));
  return `${parts.year}-${parts.month}-${parts.day}`;
}

/**
 * The first instant of a calendar day in `timeZone`. Found by halving a 30-hour window around the
 * day's UTC midnight to the second, so that it holds on DST days and where midnight itself is
 * skipped (the day then starts at 01:00).
 */
export function startOfDay(day: string, timeZone: string): Date {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  const utcMidnight = Date.UTC(year, month - 1, date) / 1000;
  // Offsets run from −12 h to +14 h: the day's start lies in this window.
  let low = utcMidnight - 15 * 3600;
  let high = utcMidnight + 15 * 3600;
  while (high - low > 1) {
    const middle = Math.floor((low + high) / 2);
    if (dayIn(middle * 1000, timeZone) >= day) high = middle;
    else low = middle;
  }
  return new Date(high * 1000);
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
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
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
export function zonedTime(day: string, time: WallTime, timeZone: string): Date {
  const target = `${day} ${formatWallTime(time)}`;
  const start = startOfDay(day, timeZone).getTime() / 1000;
  // A calendar day lasts at most 25 hours; search its seconds for the first that reads `target` or later.
  let low = start - 1;
  let high = start + 26 * 3600;
  while (high - low > 1) {
    const middle = Math.floor((low + high) / 2);
    if (wallClock(middle * 1000, timeZone) >= target) high = middle;
    else low = middle;
  }
  // The search may land on the second showing of a time the clock shows twice (fall back): the
  // first one is a DST shift (an hour, or half an hour) earlier.
  for (const shift of [3600, 1800]) {
    const earlier = high - shift;
    if (earlier >= start && wallClock(earlier * 1000, timeZone) === target) return new Date(earlier * 1000);
  }
  return new Date(high * 1000);
}

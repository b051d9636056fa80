/**
 * Dates as an import profile says the file writes them: the day in the profile's format (never
 * guessed, so `03/04/2026` is the 3rd of April or the 4th of March as the profile says), then an
 * optional time (`14:05`, `14:05:09`, with an offset such as `Z` or `+01:00`). A time without an
 * offset is on the file's clock (the profile's zone); the record's day is the day the instant falls
 * on in LEDGER_TIMEZONE. A day alone stays the day written.
 */
import { dayIn, isCalendarDay, zonedTime } from '../core/calendar.js';
import type { DateFormat } from './profile.js';

const DAY_PATTERNS: Record<DateFormat, { pattern: string; order: ['y' | 'm' | 'd', 'y' | 'm' | 'd', 'y' | 'm' | 'd'] }> = {
  'YYYY-MM-DD': { pattern: '(\\d{4})-(\\d{2})-(\\d{2})', order: ['y', 'm', 'd'] },
  'DD/MM/YYYY': { pattern: '(\\d{1,2})/(\\d{1,2})/(\\d{4})', order: ['d', 'm', 'y'] },
  'MM/DD/YYYY': { pattern: '(\\d{1,2})/(\\d{1,2})/(\\d{4})', order: ['m', 'd', 'y'] },
  'DD.MM.YYYY': { pattern: '(\\d{1,2})\\.(\\d{1,2})\\.(\\d{4})', order: ['d', 'm', 'y'] },
  'DD-MM-YYYY': { pattern: '(\\d{1,2})-(\\d{1,2})-(\\d{4})', order: ['d', 'm', 'y'] },
  'DD-MMM-YYYY': { pattern: '(\\d{1,2})[- ]([\\p{L}]{3,5})\\.?[- ](\\d{4})', order: ['d', 'm', 'y'] },
};

// Short month names in English and French, as exports write them (`05-Nov-2026`, `05-nov.-2026`, `05-févr-2026`).
const MONTHS: ReadonlyMap<string, number> = new Map(
  Object.entries({
    ...{ jan: 1, feb: 2, mar: 3, apr: 4, may: 5, jun: 6, jul: 7, aug: 8, sep: 9, oct: 10, nov: 11, dec: 12 },
    ...{ janv: 1, févr: 2, fevr: 2, mars: 3, avr: 4, mai: 5, juin: 6, juil: 7, août: 8, aout: 8, sept: 9, déc: 12 },
  }),
);

const TIME = '(?:[T ](\\d{1,2}):(\\d{2})(?::(\\d{2})(?:\\.(\\d{1,3})\\d*)?)?\\s*(Z|[+-]\\d{2}:?\\d{2})?)?';
const patterns = new Map<DateFormat, RegExp>();

export interface ReadDate {
  day: string;
  at: number | undefined;
  dateText: string;
}

/** The record's day (and instant, when a time is written), or undefined when `text` is not a date in `format`. */
export function readProfileDate(text: string, format: DateFormat, fileZone: string, ledgerZone: string): ReadDate | undefined {
  const { pattern, order } = DAY_PATTERNS[format];
  let regex = patterns.get(format);
  if (!regex) {
    regex = new RegExp(`^${pattern}${TIME}$`, 'iu');
    patterns.set(format, regex);
  }
  const match = regex.exec(text);
  if (!match) return undefined;
  const parts: Record<'y' | 'm' | 'd', string> = { y: '', m: '', d: '' };
  order.forEach((part, index) => (parts[part] = match[index + 1] ?? ''));
  const month = /^\d+$/.test(parts.m) ? Number(parts.m) : MONTHS.get(parts.m.toLowerCase().normalize('NFC'));
  if (month === undefined) return undefined;
  const day = `${parts.y}-${String(month).padStart(2, '0')}-${parts.d.padStart(2, '0')}`;
  if (!isCalendarDay(day)) return undefined;
  if (match[4] === undefined) return { day, at: undefined, dateText: text };
  const [hour, minute, second] = [Number(match[4]), Number(match[5]), Number(match[6] ?? 0)];
  if (hour > 23 || minute > 59 || second > 59) return undefined;
  const millis = Number((match[7] ?? '0').padEnd(3, '0'));
  const offset = match[8];
  let at: number;
  if (offset === undefined) {
    at = zonedTime(day, { hour, minute }, fileZone).getTime() + second * 1000 + millis;
  } else {
    const utc = Date.UTC(Number(parts.y), month - 1, Number(parts.d), hour, minute, second, millis);
    const sign = offset.startsWith('-') ? -1 : 1;
    const [, offsetHours = '0', offsetMinutes = '0'] = /^[+-](\d{2}):?(\d{2})$/.exec(offset) ?? [];
    at = offset.toUpperCase() === 'Z' ? utc : utc - sign * (Number(offsetHours) * 60 + Number(offsetMinutes)) * 60_000;
  }
  return { day: dayIn(at, ledgerZone), at, dateText: text };
}

/**
 * The one way a date or a time is written for a person, always with its zone (docs/using.md, "Dates
 * and times"): an instant is a Slack date token, which each reader sees on their own clock and in
 * their Slack language, its fallback on the team's clock with the zone named; a time of the team's
 * calendar (a schedule's) is on the team's clock, 24-hour, the zone named; a calendar day (counted
 * in the team's zone by whoever computed it) is written without a time or a zone.
 */
import { textsFor, type Locale } from '../../i18n/index.js';
import { escapeMrkdwn, escapeWithin } from './text.js';

/** Who reads a date: their language, and the team's zone (TEAM_TIMEZONE; UTC when unset). */
export interface DateReader {
  locale: Locale;
  timeZone?: string | undefined;
}

const readerOf = (reader: Locale | DateReader): DateReader => (typeof reader === 'string' ? { locale: reader } : reader);

/** The language of a reader given as a locale or as a `DateReader`. */
export const localeOf = (reader: Locale | DateReader): Locale => readerOf(reader).locale;

/**
 * An instant as a `<!date^…>` token: Slack shows each reader the time in their own time zone and
 * language. The fallback after `|`, for clients that cannot render the token (notifications, old
 * clients), is on the team's clock with the zone named, written the reader's way
 * (`2026-11-21 11:00:00 Africa/Kinshasa`, `21/11/2026 11:00:00 Africa/Kinshasa`).
 */
export function slackDate(date: Date | string, format = '{date_short_pretty} {time_secs}', reader: Locale | DateReader = 'en'): string {
  const when = typeof date === 'string' ? new Date(date) : date;
  if (Number.isNaN(when.getTime())) return escapeMrkdwn(String(date));
  const { locale, timeZone = 'UTC' } = readerOf(reader);
  const seconds = Math.floor(when.getTime() / 1000);
  return `<!date^${seconds}^${format}|${fallbackClock(when, locale, timeZone)} ${escapeFallback(timeZone)}>`;
}

/** A zone name is config, not a person's text; still, nothing in it may close the token. */
const escapeFallback = (zone: string) => zone.replace(/[<>|&]/g, '');

/** The one language tag per language for every date written here: `en-US` for English, `fr-FR` for French. */
const languageTag = (locale: Locale): string => (locale === 'fr' ? 'fr-FR' : 'en-US');

const formats = new Map<string, Intl.DateTimeFormat>();

function cached(key: string, make: () => Intl.DateTimeFormat): Intl.DateTimeFormat {
  let format = formats.get(key);
  if (!format) {
    format = make();
    formats.set(key, format);
  }
  return format;
}

function fallbackClock(when: Date, locale: Locale, timeZone: string): string {
  if (locale === 'fr') {
    return cached(`fallback/fr/${timeZone}`, () => new Intl.DateTimeFormat(languageTag('fr'), { timeZone, dateStyle: 'short', timeStyle: 'medium' })).format(
      when,
    );
  }
  // English keeps an ISO-like form: `2026-11-21 10:00:00`.
  const parts = Object.fromEntries(
    cached(
      `fallback/en/${timeZone}`,
      () =>
        new Intl.DateTimeFormat(languageTag('en'), {
          timeZone,
          year: 'numeric',
          month: '2-digit',
          day: '2-digit',
          hour: '2-digit',
          minute: '2-digit',
          second: '2-digit',
          hourCycle: 'h23',
        }),
    )
      .formatToParts(when)
      .map((part) => [part.type, part.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}:${parts.second}`;
}

/**
 * A time of the team's calendar, on the team's clock, 24-hour, in the reader's language, the zone
 * named: `Tue, Dec 1, 2026, 09:00 (Africa/Kinshasa)` (`mar. 1 déc. 2026, 09:00 (Africa/Kinshasa)`).
 * `zone: false` leaves the zone to a line that names it once (a series' dates).
 */
export function teamTime(at: Date, timeZone: string, locale: Locale, options: { zone?: boolean } = {}): string {
  const clock = cached(
    `team:${locale}:${timeZone}`,
    () =>
      new Intl.DateTimeFormat(languageTag(locale), {
        timeZone,
        weekday: 'short',
        day: 'numeric',
        month: 'short',
        year: 'numeric',
        hour: '2-digit',
        minute: '2-digit',
        hourCycle: 'h23',
      }),
  ).format(at);
  return options.zone === false ? clock : textsFor(locale)('common.teamTime', { clock, zone: escapeWithin(timeZone, 60, { oneLine: true }) });
}

/**
 * A calendar day (`YYYY-MM-DD`, already counted in its zone), without a time or a zone:
 * `Nov 20, 2026` / `20 nov. 2026`, or in `full` `Friday, November 20, 2026` / `vendredi 20 novembre 2026`.
 */
export function formatDay(day: string, locale: Locale, style: 'short' | 'full' = 'short'): string {
  const date = new Date(`${day}T00:00:00.000Z`);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day) || Number.isNaN(date.getTime())) return escapeWithin(day, 20);
  const options: Intl.DateTimeFormatOptions =
    style === 'full' ? { dateStyle: 'full', timeZone: 'UTC' } : { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' };
  return cached(`day:${locale}:${style}`, () => new Intl.DateTimeFormat(languageTag(locale), options)).format(date);
}

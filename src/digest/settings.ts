/** What the daily digest needs from the configuration; `config.ts` maps the environment onto it. */

/** A time of day, as `DIGEST_TIME=08:00` gives it. */
export interface TimeOfDay {
  hour: number;
  minute: number;
}

export interface DigestSettings {
  /** Where the digest is posted; unset: no digest is posted (`/fleet digest` still answers). */
  channelId: string | undefined;
  /** When, in `timeZone`, the digest about the previous day is posted. */
  time: TimeOfDay;
  /** IANA time zone whose calendar days the digest covers. */
  timeZone: string;
  /** How many days missed entirely before the latest one are still posted when the app is back. */
  catchUpDays: number;
}

/** `08:00` → `{ hour: 8, minute: 0 }`; undefined unless HH:MM on a 24-hour clock. */
export function parseTimeOfDay(text: string): TimeOfDay | undefined {
  const match = /^([01]\d|2[0-3]):([0-5]\d)$/.exec(text.trim());
  if (!match) return undefined;
  return { hour: Number(match[1]), minute: Number(match[2]) };
}

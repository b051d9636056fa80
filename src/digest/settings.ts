/** What the daily digest needs from the configuration; `config.ts` maps the environment onto it. */
import type { WallTime } from '../core/calendar.js';

export interface DigestSettings {
  /** Where the digest is posted; unset: no digest is posted (`/fleet digest` still answers). */
  channelId: string | undefined;
  /** When, in `timeZone`, the digest about the previous day is posted. */
  time: WallTime;
  /** IANA time zone whose calendar days the digest covers. */
  timeZone: string;
  /** How many days missed entirely before the latest one are still posted when the app is back. */
  catchUpDays: number;
}

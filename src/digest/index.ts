/** The daily digest's front door: computing a day's digest, and posting it once per day. */
export { DigestBuilder, LARGEST_MOVEMENTS, WAITING_LISTED, type DigestBuilderOptions } from './build.js';
// The calendar the digest's days are read with (`/fleet digest YYYY-MM-DD`).
export { dayIn, isCalendarDay, previousDay } from '../calendar.js';
export { DigestScheduler, digestDueAt, latestDueDay, type DigestRunReport, type DigestSchedulerOptions } from './scheduler.js';
export { DEFAULT_DIGEST_SETTINGS, parseTimeOfDay, type DigestSettings, type TimeOfDay } from './settings.js';
export {
  PAYOUT_OUTCOMES, type ClosingBalance, type ClosingBalanceGap, type ClosingCorrection, type CurrencyDay, type DailyDigest, type DigestDelivery, type DigestMovement,
  type DigestPublisher, type PayoutOutcome, type PayoutOutcomeTotal, type WaitingRequest,
} from './types.js';

/** The daily digest's front door: computing a day's digest, and posting it once per day. */
export { DigestBuilder, LARGEST_MOVEMENTS } from './build.js';
// The calendar the digest's days are read with (`/fleet digest YYYY-MM-DD`).
export { dayIn, isCalendarDay, previousDay } from '../core/calendar.js';
export { DigestScheduler, digestDueAt, latestDueDay } from './scheduler.js';
export type { DigestSettings } from './settings.js';
export {
  PAYOUT_OUTCOMES,
  type ClosingBalance,
  type ClosingBalanceGap,
  type CurrencyDay,
  type DailyDigest,
  type DigestDelivery,
  type DigestMovement,
  type DigestFollowUp,
  type DigestPublisher,
  type PayoutOutcome,
  type PayoutOutcomeTotal,
  type WaitingRequest,
} from './types.js';

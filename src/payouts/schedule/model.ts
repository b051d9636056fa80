/** Scheduled payouts as the rest of the app reads them: a schedule, its occurrences and why one is held. */
import type { WallTime } from '../../core/calendar.js';
import type { ScheduleRepeat } from './dates.js';

export const OCCURRENCE_STATES = ['scheduled', 'released', 'held', 'missed', 'skipped', 'cancelled'] as const;
export type OccurrenceState = (typeof OCCURRENCE_STATES)[number];

/**
 * Why an occurrence was not released at its time: the requester may no longer request, an approver
 * who approved is no longer one (and too few are left), the roles could not be read, the day's limit
 * is reached, the saved recipient was removed or changed since approval, or its reference is taken.
 */
export const OCCURRENCE_HOLDS = [
  'requester_not_allowed',
  'approver_removed',
  'roles_unavailable',
  'over_daily_limit',
  'recipient_removed',
  'recipient_changed',
  'reference_used',
] as const;
export type OccurrenceHold = (typeof OCCURRENCE_HOLDS)[number];

export interface Occurrence {
  requestId: string;
  /** 1-based, in date order. */
  number: number;
  dueAt: Date;
  state: OccurrenceState;
  hold: OccurrenceHold | undefined;
  /** The payout request it became once released. */
  payoutId: string | undefined;
  version: number;
}

/** A scheduled request's schedule, attached to the request as `PayoutRequest.schedule`. */
export interface PayoutSchedule {
  requestId: string;
  timeZone: string;
  firstDay: string;
  time: WallTime;
  repeat: ScheduleRepeat;
  endsOn: string | undefined;
  cancelledBy: string | undefined;
  cancelledAt: Date | undefined;
  occurrences: Occurrence[];
}

/**
 * A one-off (one occurrence) is sent as the scheduled request itself, with the reference typed for
 * it: its occurrence names the request as its payout from the start. One stored before that (its
 * occurrence naming no payout while it waits) is released as a request of its own, numbered `-1`.
 */
export function sendsItself(schedule: Pick<PayoutSchedule, 'requestId' | 'occurrences'>): boolean {
  return schedule.occurrences.length === 1 && schedule.occurrences[0]?.payoutId === schedule.requestId;
}

/**
 * One payout, not a series: a one-off, or a series whose end left a single occurrence, sent as the
 * request itself. Nothing next to skip; cancelling it cancels the payout.
 */
export function isSinglePayout(schedule: Pick<PayoutSchedule, 'requestId' | 'occurrences' | 'repeat'>): boolean {
  return schedule.repeat === 'once' || sendsItself(schedule);
}

/** On a payout that an occurrence became: which schedule and which occurrence. */
export interface ScheduledFrom {
  requestId: string;
  number: number;
  of: number;
}

/** The saved recipient as the approvers saw it: it must be the same at release. */
export interface SavedRecipientSnapshot {
  name: string;
  operator: string | null;
}

export const SCHEDULE_EVENTS = ['scheduled', 'released', 'held', 'retried', 'missed', 'skipped', 'cancelled', 'noticed', 'send_now'] as const;
export type ScheduleEventName = (typeof SCHEDULE_EVENTS)[number];

export interface ScheduleEvent {
  requestId: string;
  number: number | undefined;
  event: ScheduleEventName;
  userId: string | undefined;
  at: Date;
  details: Record<string, unknown>;
}

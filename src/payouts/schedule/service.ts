/**
 * Scheduled payouts' front door: requesting one (through the payout intake, approved ahead like any
 * request), and what people do with its occurrences: Retry a held one, Send now or Skip a missed
 * one, Skip the next one, Cancel the series; each written to the schedule's audit history.
 */
import type { Clock } from '../../core/clock.js';
import type { Db } from '../../store/db.js';
import { type PayoutActionResult, type PayoutDraft, type PayoutRequest } from '../model.js';
import { recipientIdentity, type RecipientIdentity } from '../recipients.js';
import { findRequest } from '../repository.js';
import { railOf } from '../rails/index.js';
import type { PayoutRoles } from '../roles.js';
import { findSavedRecipient } from '../saved-recipients.js';
import type { PayoutService } from '../service.js';
import { LIMITS } from '../validation.js';
import { checkSchedule, occurrenceTimes, type ScheduleProblem, type ScheduleRule } from './dates.js';
import type { Occurrence, ScheduleEvent } from './model.js';
import { draftOf, type ScheduleReleaser } from './release.js';
import { withSchedule } from './attach.js';
import type { PayoutScheduleSettings } from './settings.js';
import {
  appendScheduleEvent,
  cancelSchedule,
  findOccurrence,
  findSchedule,
  insertSchedule,
  listScheduleEvents,
  listUpcoming,
  moveOccurrence,
} from './store.js';

export interface PayoutSchedulesOptions {
  db: Db;
  clock: Clock;
  roles: PayoutRoles;
  payouts: PayoutService;
  releaser: ScheduleReleaser;
  settings: PayoutScheduleSettings;
}

/** The rule as the form gives it: the zone is always the team's. */
export type ScheduleInput = Omit<ScheduleRule, 'timeZone'>;

/** What an action on an occurrence did: the occurrence as it stands, or why nothing changed. */
export type OccurrenceResult =
  | { ok: true; occurrence: Occurrence; request: PayoutRequest; payout?: PayoutActionResult }
  | { ok: false; code: 'not_found' | 'not_allowed' | 'moved_on' | 'nothing_next'; occurrence?: Occurrence };

export class PayoutSchedules {
  constructor(private readonly options: PayoutSchedulesOptions) {}

  get timeZone(): string {
    return this.options.settings.timeZone;
  }

  /** What is wrong with a schedule now, for the form's fields (empty when it is fine). */
  check(input: ScheduleInput): ScheduleProblem[] {
    return checkSchedule({ ...input, timeZone: this.timeZone }, this.options.clock.now());
  }

  /** Every occurrence's time (at most 52). */
  times(input: ScheduleInput): Date[] {
    return occurrenceTimes({ ...input, timeZone: this.timeZone });
  }

  /**
   * Stores a scheduled request: the same intake, policy and new-recipient rule as every payout, each
   * occurrence checked against its own day's limit and totals. Approved as any request, then released
   * at its time(s). `filledFrom` and `resubmitOf` (the rejected request it corrects) as for any request (see `PayoutIntake.submit`).
   */
  async request(
    userId: string,
    draft: PayoutDraft,
    input: ScheduleInput,
    options: { filledFrom?: RecipientIdentity | undefined; resubmitOf?: string | undefined } = {},
  ): Promise<PayoutActionResult | { ok: false; code: 'schedule_invalid'; problems: ScheduleProblem[] }> {
    const problems = this.check(input);
    if (problems.length > 0) return { ok: false, code: 'schedule_invalid', problems };
    const rule = { ...input, timeZone: this.timeZone };
    const times = occurrenceTimes(rule);
    return this.options.payouts.submit(userId, draft, {
      filledFrom: options.filledFrom,
      resubmitOf: options.resubmitOf,
      schedule: {
        at: times,
        save: async (tx, request, now) => {
          const saved = await findSavedRecipient(tx, recipientIdentity(request));
          await insertSchedule(
            tx,
            {
              requestId: request.id,
              timeZone: rule.timeZone,
              firstDay: rule.firstDay,
              time: rule.time,
              repeat: rule.repeat,
              endsOn: rule.endsOn,
              times,
              savedRecipient: saved ? { name: saved.recipient.name, operator: railOf(saved.kind).operatorOf(saved) } : undefined,
            },
            now,
          );
          await appendScheduleEvent(tx, { requestId: request.id, number: undefined, event: 'scheduled', userId, at: now, details: { count: times.length } });
        },
      },
    });
  }

  /** Retry on a held occurrence: released now if every check passes, held again (with the reason) otherwise. */
  async retry(requestId: string, number: number, userId: string): Promise<OccurrenceResult> {
    const found = await this.allowed(requestId, number, userId);
    if (!found.ok) return found;
    if (found.occurrence.state !== 'held') return { ok: false, code: 'moved_on', occurrence: found.occurrence };
    await appendScheduleEvent(this.options.db, { requestId, number, event: 'retried', userId, at: this.options.clock.now() });
    await this.options.releaser.release(found.occurrence, { from: 'held', userId });
    return this.asItStands(requestId, number);
  }

  /** Skip on one waiting, held or missed occurrence. */
  async skip(requestId: string, number: number, userId: string): Promise<OccurrenceResult> {
    const found = await this.allowed(requestId, number, userId);
    if (!found.ok) return found;
    return this.move(found.occurrence, userId, 'skipped');
  }

  /** Skip next: the soonest occurrence still waiting. */
  async skipNext(requestId: string, userId: string): Promise<OccurrenceResult> {
    const schedule = await findSchedule(this.options.db, requestId);
    const next = schedule?.occurrences.find((occurrence) => occurrence.state === 'scheduled');
    if (!schedule) return { ok: false, code: 'not_found' };
    if (!next) return { ok: false, code: 'nothing_next' };
    return this.skip(requestId, next.number, userId);
  }

  /**
   * Cancel series: every occurrence still waiting, held or missed is cancelled, and the payout request
   * of one released but still waiting for approval with it; released ones approved or sent are not touched.
   */
  async cancel(requestId: string, userId: string): Promise<OccurrenceResult> {
    const found = await this.allowed(requestId, undefined, userId);
    if (!found.ok) return found;
    const { db, clock, payouts } = this.options;
    const now = clock.now();
    const cancelled = await db.transaction(async (tx) => {
      const moved = await cancelSchedule(tx, requestId, userId, now);
      if (moved)
        await appendScheduleEvent(tx, {
          requestId,
          number: undefined,
          event: 'cancelled',
          userId,
          at: now,
          details: { occurrences: moved.map((o) => o.number) },
        });
      return moved ?? [];
    });
    const request = found.request;
    const released = (await findSchedule(db, request.id))?.occurrences.filter((occurrence) => occurrence.state === 'released' && occurrence.payoutId) ?? [];
    const withdrawn: string[] = [];
    for (const occurrence of released) {
      if (await payouts.cancelWithSeries(occurrence.payoutId as string, userId, request.id)) withdrawn.push(occurrence.payoutId as string);
    }
    const first = cancelled[0];
    if (first) await this.options.releaser.tell(request, first, 'cancelled', userId);
    if (first || withdrawn.length > 0) return { ok: true, occurrence: first ?? found.occurrence, request };
    return { ok: false, code: 'moved_on', occurrence: found.occurrence };
  }

  /**
   * Send now on a missed occurrence: a new request of the same payout (reference numbered as the
   * occurrence's), which goes through approval again like any other.
   */
  async sendNow(requestId: string, number: number, userId: string): Promise<OccurrenceResult> {
    const found = await this.allowed(requestId, number, userId);
    if (!found.ok) return found;
    const { occurrence, request } = found;
    if (occurrence.state !== 'missed' || request.requestedBy !== userId)
      return { ok: false, code: occurrence.state !== 'missed' ? 'moved_on' : 'not_allowed', occurrence };
    if (occurrence.payoutId === request.id) return this.sendItselfNow(occurrence, userId);
    const suffix = `-${number}`;
    const draft = { ...draftOf(request), reference: `${request.reference.slice(0, LIMITS.reference.max - suffix.length)}${suffix}` };
    const payout = await this.options.payouts.submit(userId, draft, { occurrence: { requestId: request.id, number } });
    if (!payout.ok) return { ok: true, occurrence, request, payout };
    const now = this.options.clock.now();
    const moved = await this.options.db.transaction(async (tx) => {
      const changed = await moveOccurrence(tx, { requestId, number, from: ['missed'] }, { state: 'released', payoutId: payout.request.id }, now);
      if (changed) await appendScheduleEvent(tx, { requestId, number, event: 'send_now', userId, at: now, details: { payoutId: payout.request.id } });
      return changed;
    });
    return { ok: true, occurrence: moved ?? occurrence, request, payout };
  }

  /** Send now on a missed one-off sent as itself: the request waits for an approval again, its reference unchanged. */
  private async sendItselfNow(occurrence: Occurrence, userId: string): Promise<OccurrenceResult> {
    const released = await this.options.releaser.release(occurrence, { from: 'missed', userId });
    const stands = await this.asItStands(occurrence.requestId, occurrence.number);
    if (released.kind !== 'waiting_approval' || !stands.ok) return stands.ok ? { ok: false, code: 'moved_on', occurrence: stands.occurrence } : stands;
    const details = { payoutId: released.request.id };
    await appendScheduleEvent(this.options.db, {
      requestId: occurrence.requestId,
      number: occurrence.number,
      event: 'send_now',
      userId,
      at: this.options.clock.now(),
      details,
    });
    return { ...stands, payout: { ok: true, request: released.request } };
  }

  /** Upcoming occurrences (waiting, held or missed) of active schedules, soonest first, with their requests. */
  async upcoming(options: { limit: number; requestedBy?: string }): Promise<{ occurrence: Occurrence; request: PayoutRequest }[]> {
    const occurrences = await listUpcoming(this.options.db, { limit: options.limit, ...(options.requestedBy ? { requestedBy: options.requestedBy } : {}) });
    const requests = new Map<string, PayoutRequest>();
    const result: { occurrence: Occurrence; request: PayoutRequest }[] = [];
    for (const occurrence of occurrences) {
      const request = requests.get(occurrence.requestId) ?? (await withSchedule(this.options.db, await findRequest(this.options.db, occurrence.requestId)));
      if (!request) continue;
      requests.set(request.id, request);
      result.push({ occurrence, request });
    }
    return result;
  }

  async history(requestId: string): Promise<ScheduleEvent[]> {
    return listScheduleEvents(this.options.db, requestId);
  }

  /** The requester or an approver (asked now) may act; anyone else is refused. */
  private async allowed(
    requestId: string,
    number: number | undefined,
    userId: string,
  ): Promise<{ ok: true; request: PayoutRequest; occurrence: Occurrence } | { ok: false; code: 'not_found' | 'not_allowed' }> {
    const { db, roles } = this.options;
    const request = await findRequest(db, requestId.trim().toUpperCase());
    const schedule = request ? await findSchedule(db, request.id) : undefined;
    if (!request || !schedule) return { ok: false, code: 'not_found' };
    const occurrence = number === undefined ? schedule.occurrences[0] : await findOccurrence(db, request.id, number);
    if (!occurrence) return { ok: false, code: 'not_found' };
    if (request.requestedBy !== userId && !(await roles.canApprove(userId))) return { ok: false, code: 'not_allowed' };
    return { ok: true, request, occurrence };
  }

  private async move(occurrence: Occurrence, userId: string, state: 'skipped'): Promise<OccurrenceResult> {
    const { db, clock } = this.options;
    const now = clock.now();
    const moved = await db.transaction(async (tx) => {
      const changed = await moveOccurrence(
        tx,
        { requestId: occurrence.requestId, number: occurrence.number, from: ['scheduled', 'held', 'missed'] },
        { state },
        now,
      );
      if (changed) await appendScheduleEvent(tx, { requestId: occurrence.requestId, number: occurrence.number, event: state, userId, at: now });
      return changed;
    });
    const request = await findRequest(db, occurrence.requestId);
    if (!moved || !request) return { ok: false, code: 'moved_on', occurrence };
    await this.options.releaser.tell(request, moved, state, userId);
    return { ok: true, occurrence: moved, request };
  }

  private async asItStands(requestId: string, number: number): Promise<OccurrenceResult> {
    const occurrence = await findOccurrence(this.options.db, requestId, number);
    const request = await findRequest(this.options.db, requestId);
    return occurrence && request ? { ok: true, occurrence, request } : { ok: false, code: 'not_found' };
  }
}

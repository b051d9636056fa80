/**
 * Releasing scheduled payouts, each occurrence exactly once. Whether one is due (or past the
 * catch-up window) comes from the database's clock, as does which replica looks (a lease,
 * `store/leases.ts`), so replicas whose own clocks disagree agree on both; and
 * each occurrence is moved out of `scheduled` by one conditional UPDATE under its row lock, in the
 * transaction that makes its payout request: a second replica, or the same one after a crash, finds
 * it released. The request is then sent by the single payout's settlement (approved → executing,
 * one winner; the reference is the Fleet API's idempotency key), so a SIGKILL leaves at worst an
 * `approved` request that recovery sends, or an `executing` one that reconciliation settles.
 *
 * At release the rules are checked again: the requester's and the approvers' roles (fresh), the
 * release day's limit and totals, and the saved recipient as it was at approval. A failed check
 * holds the occurrence; a day that now needs another approver makes it a pending request that the
 * approvers are asked to approve, with the approvals it already has.
 */
import type { Clock } from '../../core/clock.js';
import type { Logger } from '../../core/logger.js';
import type { Db, Queryable } from '../../store/db.js';
import { databaseNow, tryAcquireLease } from '../../store/leases.js';
import { insertApproval } from '../approval-store.js';
import { dailyLimitDecision, lockPayoutDays, measureDayApprovals, payoutDay } from '../day-totals.js';
import { newPayoutId } from '../identifiers.js';
import type { DualApprovalReason, PayoutDraft, PayoutRequest } from '../model.js';
import { countingApprovers } from '../policy.js';
import { recipientIdentity } from '../recipients.js';
import { findRequest, insertWithFreshId } from '../repository.js';
import { changeRequest, lockRequest, recordEvent } from '../transitions.js';
import type { SendingPath } from '../gate.js';
import type { PayoutRoles } from '../roles.js';
import { findSavedRecipient } from '../saved-recipients.js';
import { railOf } from '../rails/index.js';
import type { PayoutSettings } from '../settings.js';
import { LIMITS } from '../validation.js';
import type { Occurrence, OccurrenceHold, OccurrenceState, ScheduleEventName } from './model.js';
import type { PayoutScheduleSettings } from './settings.js';
import { anyOccurrenceDueWithin, appendScheduleEvent, findOccurrence, moveOccurrence, savedRecipientAtApproval, takeDue, takeNoticesDue } from './store.js';

/** Who hears of an occurrence's change: the requester's DM and the approval message (the Slack layer). */
export interface ScheduleNotifier {
  occurrence(request: PayoutRequest, occurrence: Occurrence, event: ScheduleEventName, userId?: string): Promise<void>;
}

/** What the releaser needs of the payout service: sending an approved request once, and telling the notifiers of a new one. */
export interface ReleasePorts {
  sendApproved(request: PayoutRequest, via: SendingPath): Promise<unknown>;
  announce(request: PayoutRequest, event: 'requested' | 'held'): Promise<void>;
}

/** Where an occurrence is released from: its time, a Retry of a held one, Send now of a missed one-off. */
type ReleasedFrom = 'scheduled' | 'held' | 'missed';

export interface ScheduleReleaserOptions {
  db: Db;
  clock: Clock;
  roles: PayoutRoles;
  logger: Logger;
  payoutSettings: PayoutSettings;
  settings: PayoutScheduleSettings;
  payouts: ReleasePorts;
  notifiers: readonly ScheduleNotifier[];
  /** This replica's name for the lease. */
  holder: string;
  /** How long the lease lasts without renewal (default 60 s). */
  leaseMs?: number;
  newId?: () => string;
  /** The database's clock, which decides what is due (default: its `clock_timestamp()`); tests with a hand-moved clock pass that one. */
  databaseNow?: ((q: Queryable) => Promise<Date>) | undefined;
  /** Tests only: runs after an occurrence became an approved request and before it is sent. */
  beforeSend?: (request: PayoutRequest) => Promise<void>;
}

export const SCHEDULE_LEASE = 'payout-schedule';

type Released =
  | { kind: 'released'; request: PayoutRequest; occurrence: Occurrence; template: PayoutRequest }
  | { kind: 'waiting_approval'; request: PayoutRequest; occurrence: Occurrence; template: PayoutRequest }
  | { kind: 'held' | 'missed' | 'cancelled'; occurrence: Occurrence; template: PayoutRequest; hold?: OccurrenceHold }
  | { kind: 'none' };

/** Fresh answers about the roles that decide a release, or undefined when they could not be read. */
interface FreshRoles {
  requesterMayRequest: boolean;
  approvers: string[];
}

export class ScheduleReleaser {
  constructor(private readonly options: ScheduleReleaserOptions) {}

  /** One round: when this replica holds the lease, releases what is due and sends the notices due. */
  async tick(): Promise<number> {
    const { db, holder, leaseMs, settings } = this.options;
    // Most rounds find nothing due: one read, before the lease is written.
    const now = this.options.databaseNow ? await this.options.databaseNow(db) : undefined;
    if (!(await anyOccurrenceDueWithin(db, settings.noticeMinutes, now))) return 0;
    if (!(await tryAcquireLease(db, SCHEDULE_LEASE, holder, leaseMs ?? 60_000))) return 0;
    const released = await this.releaseDue();
    await this.sendNotices();
    return released;
  }

  /** Releases every due occurrence (or marks it missed when older than the catch-up window); how many were looked at. */
  async releaseDue(limit = 50): Promise<number> {
    const { db, settings } = this.options;
    const now = await this.databaseNow();
    const due = await db.transaction((tx) => takeDue(tx, now, limit, new Date(now.getTime() - settings.catchUpMinutes * 60_000)));
    for (const occurrence of due) await this.release(occurrence);
    return due.length;
  }

  /**
   * Releases one occurrence if it is still waiting (or held, on Retry; or missed, on Send now of a
   * one-off sent as itself, which then waits for an approval again): its outcome.
   */
  async release(occurrence: Occurrence, options: { from?: ReleasedFrom; userId?: string } = {}): Promise<Released> {
    const { db, clock, logger } = this.options;
    const template = await findRequest(db, occurrence.requestId);
    if (!template) return { kind: 'none' };
    const roles = await this.freshRoles(template);
    const dueNow = await this.databaseNow();
    const outcome = await db.transaction((tx) => this.decide(tx, template, occurrence.number, roles, options.from ?? 'scheduled', clock.now(), dueNow));
    if (outcome.kind === 'none') return outcome;
    if (outcome.kind !== 'released') await this.tell(outcome.template, outcome.occurrence, eventOf(outcome), options.userId);
    if (outcome.kind === 'waiting_approval')
      await this.options.payouts.announce(outcome.request, outcome.request.id === outcome.template.id ? 'held' : 'requested');
    if (outcome.kind === 'released') {
      try {
        await this.options.beforeSend?.(outcome.request);
        await this.options.payouts.sendApproved(outcome.request, options.from === 'held' ? 'schedule_retry' : 'schedule');
      } catch (error) {
        // The request stays approved: recovery sends it (once) after its stale time.
        logger.error({ err: error, payoutId: outcome.request.id }, 'a released scheduled payout was not sent; recovery will send it');
      }
      await this.tell(outcome.template, outcome.occurrence, 'released');
    }
    return outcome;
  }

  private async freshRoles(template: PayoutRequest): Promise<FreshRoles | undefined> {
    const { roles, logger } = this.options;
    const approvers = countingApprovers(template);
    try {
      const [requesterMayRequest, ...answers] = await Promise.all([
        roles.canRequest(template.requestedBy, { fresh: true }),
        ...approvers.map((approver) => roles.canApprove(approver, { fresh: true })),
      ]);
      return { requesterMayRequest, approvers: approvers.filter((_, index) => answers[index] === true) };
    } catch (error) {
      logger.warn({ err: error, payoutId: template.id }, 'could not look up roles before releasing a scheduled payout; it is held');
      return undefined;
    }
  }

  /** The one transaction of a release: the day locks, the occurrence's lock, the checks, then the move. */
  private async decide(
    tx: Queryable,
    found: PayoutRequest,
    number: number,
    roles: FreshRoles | undefined,
    from: ReleasedFrom,
    now: Date,
    dueNow: Date,
  ): Promise<Released> {
    const { payoutSettings, settings } = this.options;
    await lockPayoutDays(tx, { requestedBy: found.requestedBy, payouts: [{ draft: found, newRecipient: false }] });
    const occurrence = await findOccurrence(tx, found.id, number, true);
    const template = await findRequest(tx, found.id);
    if (!occurrence || !template || occurrence.state !== from) return { kind: 'none' };
    const key = { requestId: template.id, number, from: [from] as const };
    const itself = occurrence.payoutId === template.id;
    if (from === 'missed') return itself ? this.approveAgain(tx, template, occurrence, now) : { kind: 'none' };
    const late = dueNow.getTime() - occurrence.dueAt.getTime() > settings.catchUpMinutes * 60_000;
    if (template.state !== 'approved') {
      if (template.state === 'pending' && !late) return { kind: 'none' };
      const state = template.state === 'pending' ? 'missed' : 'cancelled';
      const moved = await moveOccurrence(tx, key, { state }, now);
      if (!moved) return { kind: 'none' };
      await appendScheduleEvent(tx, { requestId: template.id, number, event: state === 'missed' ? 'missed' : 'cancelled', userId: undefined, at: now });
      return { kind: state, occurrence: moved, template };
    }
    if (from === 'scheduled' && late) {
      const moved = await moveOccurrence(tx, key, { state: 'missed' }, now);
      if (!moved) return { kind: 'none' };
      await appendScheduleEvent(tx, {
        requestId: template.id,
        number,
        event: 'missed',
        userId: undefined,
        at: now,
        details: { dueAt: occurrence.dueAt.toISOString() },
      });
      return { kind: 'missed', occurrence: moved, template };
    }
    const hold = async (reason: OccurrenceHold): Promise<Released> => {
      const moved = await moveOccurrence(tx, key, { state: 'held', hold: reason }, now);
      if (!moved) return { kind: 'none' };
      await appendScheduleEvent(tx, { requestId: template.id, number, event: 'held', userId: undefined, at: now, details: { reason } });
      return { kind: 'held', occurrence: moved, template, hold: reason };
    };
    if (!roles) return hold('roles_unavailable');
    if (!roles.requesterMayRequest) return hold('requester_not_allowed');
    if (roles.approvers.length < template.requiredApprovals) return hold('approver_removed');
    const saved = await savedRecipientAtApproval(tx, template.id);
    if (saved) {
      const current = await findSavedRecipient(tx, recipientIdentity(template));
      if (!current) return hold('recipient_removed');
      const operator = railOf(current.kind).operatorOf(current);
      if (current.recipient.name !== saved.name || operator !== saved.operator) return hold('recipient_changed');
    }
    if (itself) return this.releaseItself(tx, template, occurrence, key, hold, now);
    // The occurrence is among its own day's totals while it waits; released on another day, it is added to that one.
    const day = payoutDay(now, payoutSettings.timeZone);
    const counted = occurrence.dueAt >= day.start && occurrence.dueAt < day.end;
    const limit = await dailyLimitDecision(tx, template, now, payoutSettings, counted);
    if (!limit.ok) return hold('over_daily_limit');
    const measured = await measureDayApprovals(
      tx,
      {
        requestedBy: template.requestedBy,
        requestedAt: now,
        payouts: [{ draft: template, newRecipient: template.newRecipient }],
        counted,
      },
      payoutSettings,
    );
    const required = Math.max(template.requiredApprovals, measured.required);
    // The reason that holds at release; the series' own while the release day needs fewer than the series was approved with.
    const reason = measured.required >= template.requiredApprovals ? measured.reason : template.dualApproval;
    const request = await this.insertPayout(tx, template, number, roles.approvers, { required, reason }, now);
    if (!request) return hold('reference_used');
    const moved = await moveOccurrence(tx, key, { state: 'released', hold: null, payoutId: request.id }, now);
    if (!moved) throw new Error(`occurrence ${template.id}#${number} moved under its own lock`);
    const waiting = request.state === 'pending';
    await appendScheduleEvent(tx, {
      requestId: template.id,
      number,
      event: 'released',
      userId: undefined,
      at: now,
      details: { payoutId: request.id, ...(waiting ? { needsApprovals: required } : {}) },
    });
    return { kind: waiting ? 'waiting_approval' : 'released', request, occurrence: moved, template };
  }

  /**
   * A one-off sent as the scheduled request itself, with its typed reference: it stays approved and
   * its occurrence is released, in this transaction under both row locks; the caller sends it through
   * the gate (`sendApproved`), which measures its day and its approvers again and holds it back to
   * pending when a control fails. It counts on its due day, before release and after.
   */
  private async releaseItself(
    tx: Queryable,
    template: PayoutRequest,
    occurrence: Occurrence,
    key: { requestId: string; number: number; from: readonly OccurrenceState[] },
    hold: (reason: OccurrenceHold) => Promise<Released>,
    now: Date,
  ): Promise<Released> {
    const limit = await dailyLimitDecision(tx, template, occurrence.dueAt, this.options.payoutSettings, true);
    if (!limit.ok) return hold('over_daily_limit');
    // Locks the request and marks it touched now: recovery sends it only once it has stood still as long as any.
    const request = await lockRequest(tx, template.id, { states: ['approved'] }, now);
    if (!request) return { kind: 'none' };
    const moved = await moveOccurrence(tx, key, { state: 'released', hold: null }, now);
    if (!moved) throw new Error(`occurrence ${template.id}#${occurrence.number} moved under its own lock`);
    await appendScheduleEvent(tx, {
      requestId: template.id,
      number: occurrence.number,
      event: 'released',
      userId: undefined,
      at: now,
      details: { payoutId: template.id },
    });
    return { kind: 'released', request, occurrence: moved, template };
  }

  /**
   * Send now on a missed one-off sent as itself: released, and the request waits for an approval again
   * (held as missed, for a full request TTL), as the gate holds a request approved too long ago.
   */
  private async approveAgain(tx: Queryable, template: PayoutRequest, occurrence: Occurrence, now: Date): Promise<Released> {
    const expiresAt = new Date(now.getTime() + this.options.payoutSettings.requestTtlHours * 3_600_000);
    const request = await changeRequest(tx, template.id, { states: ['approved', 'pending'] }, { state: 'pending', holdReason: 'missed', expiresAt }, now, {
      event: 'held',
      details: { reason: 'missed', via: 'schedule_retry' },
    });
    if (!request) return { kind: 'none' };
    const moved = await moveOccurrence(tx, { requestId: template.id, number: occurrence.number, from: ['missed'] }, { state: 'released', hold: null }, now);
    if (!moved) throw new Error(`occurrence ${template.id}#${occurrence.number} moved under its own lock`);
    await appendScheduleEvent(tx, {
      requestId: template.id,
      number: occurrence.number,
      event: 'released',
      userId: undefined,
      at: now,
      details: { payoutId: template.id, needsApprovals: request.requiredApprovals },
    });
    return { kind: 'waiting_approval', request, occurrence: moved, template };
  }

  /**
   * The occurrence's payout request: the scheduled request's draft with the reference numbered
   * (`INV-42-3`: the Fleet API takes each reference once), requested now, approved by the approvers
   * who approved the schedule and still are approvers; pending when the day now needs more.
   */
  private async insertPayout(
    tx: Queryable,
    template: PayoutRequest,
    number: number,
    approvers: string[],
    needs: { required: number; reason: DualApprovalReason | undefined },
    now: Date,
  ): Promise<PayoutRequest | undefined> {
    const { required, reason } = needs;
    const suffix = `-${number}`;
    const draft: PayoutDraft = { ...draftOf(template), reference: `${template.reference.slice(0, LIMITS.reference.max - suffix.length)}${suffix}` };
    const id = await insertWithFreshId(
      tx,
      {
        draft,
        requestedBy: template.requestedBy,
        requestedAt: now,
        expiresAt: new Date(now.getTime() + this.options.payoutSettings.requestTtlHours * 3_600_000),
        requiredApprovals: required,
        dualApproval: reason,
        newRecipient: template.newRecipient,
        previousRecipientName: template.previousRecipientName,
        changedDetails: template.changedDetails,
        referenceGenerated: false,
      },
      this.options.newId ?? newPayoutId,
    );
    if (!id) return undefined;
    // Each copy keeps when it was given and whether as a senior approver's (the gate checks that again before sending).
    const given = new Map(template.approvals.map((approval) => [approval.userId, approval]));
    for (const approver of approvers) await insertApproval(tx, id, approver, given.get(approver)?.at ?? now, given.get(approver)?.senior === true);
    await recordEvent(
      tx,
      id,
      { event: 'requested', userId: template.requestedBy, details: { scheduledFrom: template.id, occurrence: number, reference: draft.reference } },
      now,
    );
    if (approvers.length >= required) {
      await changeRequest(tx, id, { states: ['pending'] }, { state: 'approved' }, now, {
        event: 'approved',
        details: { scheduledFrom: template.id, approvers },
      });
    } else {
      await recordEvent(tx, id, { event: 'approvals_raised', details: { required, currency: template.currency, ...reason } }, now);
    }
    return findRequest(tx, id);
  }

  /** DMs the requester of each occurrence due within the notice time, once (one replica marks it told); at most `limit` a round. */
  async sendNotices(limit = 50): Promise<number> {
    const { db, settings } = this.options;
    if (settings.noticeMinutes <= 0) return 0;
    const now = await this.databaseNow();
    const due = await db.transaction((tx) => takeNoticesDue(tx, now, new Date(now.getTime() + settings.noticeMinutes * 60_000), limit));
    for (const occurrence of due) {
      const template = await findRequest(db, occurrence.requestId);
      if (template) await this.tell(template, occurrence, 'noticed');
    }
    return due.length;
  }

  private databaseNow(): Promise<Date> {
    return (this.options.databaseNow ?? databaseNow)(this.options.db);
  }

  async tell(template: PayoutRequest, occurrence: Occurrence, event: ScheduleEventName, userId?: string): Promise<void> {
    for (const notifier of this.options.notifiers) {
      try {
        await notifier.occurrence(template, occurrence, event, userId);
      } catch (error) {
        this.options.logger.error({ err: error, payoutId: template.id, event }, 'could not tell of a scheduled payout');
      }
    }
  }
}

function eventOf(outcome: Exclude<Released, { kind: 'none' }>): ScheduleEventName {
  return outcome.kind === 'waiting_approval' || outcome.kind === 'released' ? 'released' : outcome.kind;
}

/** The draft half of a stored request. */
export function draftOf(request: PayoutRequest): PayoutDraft {
  const common = { amountMinor: request.amountMinor, currency: request.currency, reference: request.reference, note: request.note };
  return { ...common, ...railOf(request.kind).recipientPart(request) };
}

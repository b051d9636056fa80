/**
 * Taking a payout request in: checking a form for the review screen, and storing a reviewed draft
 * once its fields, its reference and the requester's daily limit all still allow it, with the
 * number of approvers it needs decided under the same locks.
 */
import type { Clock } from '../core/clock.js';
import type { Locale } from '../i18n/locale.js';
import type { Db, Queryable } from '../store/db.js';
import { generateReference, GENERATED_REFERENCE_PATTERN, newPayoutId } from './identifiers.js';
import {
  refusal,
  type FieldProblem,
  type PayoutActionResult,
  type PayoutDraft,
  type PayoutKind,
  type PayoutRefusal,
  type PayoutRefusalCode,
  type PayoutRequest,
  type RefusalDetails,
  type RequestedThrough,
} from './model.js';
import { canRequest, type ApprovalRequirement, type PayoutActor, type PolicyDecision } from './policy.js';
import { dailyLimitDecision, lockPayoutDays, measureDayApprovals } from './day-totals.js';
import { findRequest, insertWithFreshId, referenceExists, type NewPayoutRow } from './repository.js';
import { reservedReference } from './reserved-references.js';
import type { PayoutSettings } from './settings.js';
import { checkOneRecipient, type RecipientCheck, type RecipientIdentity } from './recipients.js';
import type { ScheduleProblem, ScheduleRule } from './schedule/dates.js';
import type { TransitionRecorder } from './transitions.js';
import { LIMITS, revalidateDraft, validatePayoutForm, type PayoutFormFields, type PayoutValidation } from './validation.js';

export interface IntakeOptions {
  db: Db;
  clock: Clock;
  settings: PayoutSettings;
  recorder: TransitionRecorder;
  /** Request ids; defaults to `PR-XXXXXX`. */
  newId?: (() => string) | undefined;
  /** References for forms that left it empty; defaults to `PAY-YYYYMMDD-XXXXXX`. */
  newReference?: ((now: Date) => string) | undefined;
}

/** The approvers a payout needs, and what its approvers are told about its recipient. */
export interface PayoutRequirement extends ApprovalRequirement {
  recipient: RecipientCheck;
}

/**
 * A request approved ahead for later (see `schedule/`): it counts on the days of `at` (each checked
 * against the daily limit and measured for approvers), never on the day it is made; `save` stores
 * its schedule in the request's own transaction.
 */
export interface ScheduledIntake {
  at: readonly Date[];
  save: (tx: Queryable, request: PayoutRequest, now: Date) => Promise<void>;
}

/** How a request came in, beside its draft: see `PayoutIntake.submit`. */
export interface SubmitOptions {
  resubmitOf?: string | undefined;
  schedule?: ScheduledIntake | undefined;
  filledFrom?: RecipientIdentity | undefined;
  through?: RequestedThrough | undefined;
  /** Send now on a missed occurrence: the request takes the reference its series keeps for it. */
  occurrence?: { requestId: string; number: number } | undefined;
}

/** Where a reviewed draft with a schedule is stored: `PayoutSchedules.request`, which checks the schedule again. */
export interface ScheduledRequests {
  request(
    userId: string,
    draft: PayoutDraft,
    input: Omit<ScheduleRule, 'timeZone'>,
    options: { filledFrom?: RecipientIdentity | undefined; resubmitOf?: string | undefined },
  ): Promise<PayoutActionResult | ScheduleRefusal>;
}

/** A schedule that no longer holds (its time passed while the review was open). */
export interface ScheduleRefusal {
  ok: false;
  code: 'schedule_invalid';
  problems: ScheduleProblem[];
}

/** How a reviewed draft came: the rejected request it corrects, the saved recipient it was filled from, and its schedule if any. */
export interface ReviewedDraft {
  resubmitOf?: string | undefined;
  filledFrom?: RecipientIdentity | undefined;
  schedule?: { input: Omit<ScheduleRule, 'timeZone'>; schedules: ScheduledRequests } | undefined;
}

/** Raised inside a transaction to roll it back and hand a refusal to the caller. */
export class Refused extends Error {
  constructor(readonly refusal: PayoutRefusal) {
    super(refusal.code);
  }
}

export class PayoutIntake {
  constructor(private readonly options: IntakeOptions) {}

  /**
   * Checks a submitted form: field rules, a reference not used before, and (when `userId` is
   * given) the requester's daily limit, so the review screen is only shown for a request that can be stored.
   * `locale` is how the person writes amounts.
   */
  async validate(kind: PayoutKind, fields: PayoutFormFields, userId?: string, locale?: Locale): Promise<PayoutValidation> {
    const result = validatePayoutForm(kind, fields, { ...this.validationContext(), ...(locale ? { locale } : {}) });
    if (!result.ok) {
      // A used reference is said at the first Review with the other problems, not after they are fixed.
      const typed = (fields.reference ?? '').trim();
      if (result.errors.reference === undefined && typed !== '' && (await referenceExists(this.options.db, typed))) {
        return { ok: false, errors: { ...result.errors, reference: { code: 'reference_used' } } };
      }
      return result;
    }
    if (await referenceExists(this.options.db, result.draft.reference)) {
      return { ok: false, errors: { reference: { code: 'reference_used' } } };
    }
    const reservedFor = await reservedReference(this.options.db, result.draft.reference);
    if (reservedFor) return { ok: false, errors: { reference: { code: 'reference_reserved', reservedFor } } };
    if (userId !== undefined) {
      const limit = await this.dailyLimitDecision(this.options.db, userId, result.draft, this.options.clock.now());
      if (!limit.ok) return { ok: false, errors: { amount: refusedField(limit) } };
    }
    return result;
  }

  /**
   * Stores a pending request after checking the role, every field again, the reference and the daily
   * limit. `resubmitOf` (from the form, so only a claim) is linked only when the stored request it
   * names is this requester's own and rejected; the new request is measured as any other.
   * `filledFrom` (the form's, so only a claim too): the saved recipient the form was filled from, read
   * again and compared with the draft (`changedDetails`); other ways in have none.
   */
  async submit(actor: PayoutActor, draft: PayoutDraft, options: SubmitOptions = {}): Promise<PayoutActionResult> {
    const role = canRequest(actor);
    if (!role.ok) return refusal(role.code, { details: role.details });
    const checked = revalidateDraft(draft, this.validationContext());
    if (!checked.ok) {
      return refusal('invalid', { errors: checked.errors });
    }
    const valid = checked.draft;
    const { userId } = actor;
    const now = this.options.clock.now();
    const { settings, recorder } = this.options;
    const expiresAt = new Date(now.getTime() + settings.requestTtlHours * 3_600_000);
    try {
      const request = await this.options.db.transaction(async (tx) => {
        // Two submissions at once must not both squeeze under the daily limit or the dual-approval threshold.
        await this.lockDay(tx, { ...valid, requestedBy: userId });
        // Before the limit: a second submission of the same review is a used reference, which the
        // caller can recognise, even when the first one used up the day's allowance.
        if (await referenceExists(tx, valid.reference)) throw new Refused(duplicateReference());
        const reservedFor = await reservedReference(tx, valid.reference, options.occurrence);
        if (reservedFor)
          throw new Refused(refusal('duplicate_reference', { details: { reservedFor }, errors: { reference: { code: 'reference_reserved', reservedFor } } }));
        let measured: PayoutRequirement | undefined;
        // A scheduled request counts on each of its days instead of today; it needs what its busiest day needs.
        for (const at of options.schedule?.at ?? [now]) {
          const limit = await this.dailyLimitDecision(tx, userId, valid, at);
          if (!limit.ok) throw new Refused(refusal(limit.code, { details: limit.details, errors: { amount: refusedField(limit) } }));
          const day = await this.measure(tx, { ...valid, requestedBy: userId, requestedAt: at }, false, options.filledFrom);
          if (!measured || day.required > measured.required) measured = day;
        }
        const { required: requiredApprovals, reason, recipient } = measured!;
        // The draft's flag travelled through Slack: believed only for a reference in the generated shape.
        const referenceGenerated = draft.referenceGenerated === true && GENERATED_REFERENCE_PATTERN.test(valid.reference);
        const corrected = options.resubmitOf === undefined ? undefined : await findRequest(tx, options.resubmitOf.trim().toUpperCase());
        const resubmitOf = corrected && isResubmittable(corrected, userId) ? corrected.id : undefined;
        const id = await this.insertWithFreshId(tx, {
          draft: valid,
          requestedBy: userId,
          requestedAt: now,
          expiresAt,
          requiredApprovals,
          dualApproval: reason,
          referenceGenerated,
          newRecipient: recipient.newRecipient,
          previousRecipientName: recipient.previousName,
          changedDetails: recipient.changedDetails,
          resubmitOf,
          requestedThrough: options.through,
        });
        const stored = await findRequest(tx, id);
        if (!stored) throw new Error(`payout ${id} vanished right after insert`);
        await options.schedule?.save(tx, stored, now);
        await recorder.record(
          tx,
          stored,
          {
            event: 'requested',
            userId,
            details: {
              amountMinor: valid.amountMinor,
              currency: valid.currency,
              reference: valid.reference,
              requiredApprovals,
              ...(reason ? { dualApproval: reason } : {}),
              ...(recipient.newRecipient ? { newRecipient: true } : {}),
              ...(recipient.previousName !== undefined ? { previousRecipientName: recipient.previousName } : {}),
              ...(recipient.changedDetails
                ? { changedFrom: recipient.changedDetails.saved.identity, changedFields: recipient.changedDetails.changes.map((change) => change.field) }
                : {}),
              ...(resubmitOf ? { resubmitOf } : {}),
              ...(options.through ? { through: options.through } : {}),
            },
          },
          now,
        );
        return stored;
      });
      await recorder.announce(request, { event: 'requested', userId });
      return { ok: true, request };
    } catch (error) {
      if (error instanceof Refused) return error.refusal;
      throw error;
    }
  }

  /** Takes the requester's and the recipient's day locks for `payout`'s currency, in the one order every caller uses. */
  async lockDay(tx: Queryable, payout: PayoutDraft & { requestedBy: string }): Promise<void> {
    await lockPayoutDays(tx, { requestedBy: payout.requestedBy, payouts: [{ draft: payout, newRecipient: false }] });
  }

  /** What the review screen says about approvers and the recipient: the requirement if the draft were stored now. */
  async previewRequirement(userId: string, draft: PayoutDraft, filledFrom?: RecipientIdentity): Promise<PayoutRequirement> {
    return this.measure(this.options.db, { ...draft, requestedBy: userId, requestedAt: this.options.clock.now() }, false, filledFrom);
  }

  /**
   * How many approvers a payout needs (`measureDayApprovals`) and whether its recipient was ever
   * paid. `stored`: the payout is already among the totals (at approval), and a recipient it was
   * stored as new stays new, so that a payout completed meanwhile to the same recipient lowers
   * nothing; otherwise its amount is added (at submission). Callers that decide hold the day locks.
   * `filledFrom`: the saved recipient the form was filled from, for `changedDetails`.
   */
  async measure(
    q: Queryable,
    payout: PayoutDraft & { requestedBy: string; requestedAt: Date; newRecipient?: boolean },
    stored: boolean,
    filledFrom?: RecipientIdentity,
  ): Promise<PayoutRequirement> {
    const checked = await checkOneRecipient(q, payout, filledFrom);
    const recipient = { ...checked, newRecipient: checked.newRecipient || (stored && payout.newRecipient === true) };
    const requirement = await measureDayApprovals(
      q,
      {
        requestedBy: payout.requestedBy,
        requestedAt: payout.requestedAt,
        payouts: [{ draft: payout, newRecipient: recipient.newRecipient }],
        counted: stored,
      },
      this.options.settings,
    );
    return { ...requirement, recipient };
  }

  /**
   * The reference the form offers when `old` is corrected: none for a generated one (a new one is
   * generated), otherwise the typed one with the first free suffix (`INV-42-2`, then `INV-42-3` when
   * a correction is corrected), since references are unique. The person may change it.
   */
  async resubmitReference(old: PayoutRequest): Promise<string> {
    if (old.referenceGenerated) return '';
    const numbered = old.resubmitOf ? /^(.+)-(\d{1,4})$/.exec(old.reference) : null;
    const base = numbered?.[1] ?? old.reference;
    let next = numbered ? Number(numbered[2]) + 1 : 2;
    for (let tries = 0; tries < 50; tries += 1, next += 1) {
      const suffix = `-${next}`;
      const candidate = `${base.slice(0, LIMITS.reference.max - suffix.length)}${suffix}`;
      if (!(await referenceExists(this.options.db, candidate))) return candidate;
    }
    return '';
  }

  private validationContext() {
    return {
      settings: this.options.settings,
      now: this.options.clock.now(),
      newReference: this.options.newReference ?? ((now: Date) => generateReference(now)),
    };
  }

  private async dailyLimitDecision(q: Queryable, userId: string, draft: PayoutDraft, at: Date): Promise<PolicyDecision> {
    return dailyLimitDecision(q, { requestedBy: userId, currency: draft.currency, amountMinor: draft.amountMinor }, at, this.options.settings);
  }

  private async insertWithFreshId(tx: Queryable, row: Omit<NewPayoutRow, 'id'>): Promise<string> {
    const id = await insertWithFreshId(tx, row, this.options.newId ?? newPayoutId);
    if (id === undefined) throw new Refused(duplicateReference());
    return id;
  }
}

/** Only the requester's own rejected request can be corrected by a new one; it stays rejected. */
export function isResubmittable(request: PayoutRequest, userId: string): boolean {
  return request.requestedBy === userId && request.state === 'rejected';
}

/** A policy refusal shown under a field: the Slack layer words it as it words that refusal. */
function refusedField(decision: { code: PayoutRefusalCode; details: RefusalDetails }): FieldProblem {
  return { code: 'refused', refusal: { code: decision.code, details: decision.details } };
}

function duplicateReference(): PayoutRefusal {
  return refusal('duplicate_reference', { errors: { reference: { code: 'reference_used' } } });
}

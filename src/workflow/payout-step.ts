/**
 * The Workflow Builder step "Request a payout": takes a function execution's inputs through the
 * payout intake, asks the named requester to confirm, requests the payout as the modal does, and
 * completes the step once, after the payout's final outcome, while the step's function token is still
 * valid (see docs/workflow-step.md, "Which token completes the step"). Every move is claimed in the store
 * first, so that a redelivered event, a double click, a restart or a second replica changes nothing twice.
 */
import type { Clock } from '../core/clock.js';
import type { Logger } from '../core/logger.js';
import type { FieldProblem, PayoutActionResult, PayoutDraft, PayoutFieldName, PayoutNotifier, PayoutRequest, PayoutService } from '../payouts/index.js';
import { requestMatchesDraft } from '../payouts/index.js';
import type { Db } from '../store/db.js';
import { FUNCTION_TOKEN_LIFETIME_MS, type PayoutStep, type StepCompleter, type StepOutcome, type StepState, type StepToken } from './model.js';
import { inputOfField, readStepInputs } from './step-inputs.js';
import {
  askRequester,
  awaitPayout,
  claimCompletion,
  claimSubmission,
  findStep,
  findStepByPayout,
  finishStep,
  insertStep,
  lapseStep,
  openSteps,
  releaseCompletion,
} from './store.js';

export interface PayoutStepsOptions {
  db: Db;
  clock: Clock;
  payouts: Pick<PayoutService, 'mayRequest' | 'validate' | 'submit' | 'get' | 'getByReference'>;
  completer: StepCompleter;
  logger: Logger;
  /** How long before the step's token expires a step still open is completed with what is known (default 3 minutes). */
  completeBeforeExpiryMs?: number;
  /** A submission or completion claimed this long ago belongs to a stopped process (default 1 minute). */
  staleClaimMs?: number;
}

/** What the Slack layer does after a `function_executed`. */
export type StepStart = { kind: 'ask'; step: PayoutStep } | { kind: 'redelivered'; step: PayoutStep } | { kind: 'completed'; outcome: StepOutcome };

/** What the requester's click did; `completesBy`: when the step goes on without the payout's outcome. */
export type StepAnswer =
  | { kind: 'requested'; request: PayoutRequest; completesBy: Date }
  | { kind: 'declined' }
  | { kind: 'refused'; outcome: StepOutcome }
  | { kind: 'not_requester' }
  | { kind: 'gone'; step: PayoutStep | undefined };

const OPEN_FOR_ANSWER: readonly StepState[] = ['received', 'asking'];

export class PayoutSteps implements PayoutNotifier {
  private readonly completeBeforeExpiryMs: number;
  private readonly staleClaimMs: number;
  private readonly settling = new Set<Promise<void>>();

  constructor(private readonly options: PayoutStepsOptions) {
    this.completeBeforeExpiryMs = options.completeBeforeExpiryMs ?? 3 * 60_000;
    this.staleClaimMs = options.staleClaimMs ?? 60_000;
  }

  private now(): Date {
    return this.options.clock.now();
  }

  private staleBefore(now: Date): Date {
    return new Date(now.getTime() - this.staleClaimMs);
  }

  /** When a step still open is completed with what is known: shortly before the event's token expires. */
  completesBy(step: Pick<PayoutStep, 'tokenValidUntil'>): Date {
    return new Date(step.tokenValidUntil.getTime() - this.completeBeforeExpiryMs);
  }

  async get(executionId: string): Promise<PayoutStep | undefined> {
    return findStep(this.options.db, executionId);
  }

  /**
   * A `function_executed`: stored once (a redelivery finds it and does nothing), its inputs checked as
   * the modal checks a form (role, fields, reference, daily limit); a bad input completes the step with
   * an error naming it. Otherwise the requester is to be asked.
   */
  async start(event: {
    executionId: string;
    workflowExecutionId?: string | undefined;
    inputs: Record<string, unknown>;
    token: StepToken;
    payoutsConfigured: boolean;
  }): Promise<StepStart> {
    const { db } = this.options;
    const now = this.now();
    const read = readStepInputs(event.inputs);
    const inserted = await insertStep(db, {
      executionId: event.executionId,
      workflowExecutionId: event.workflowExecutionId,
      requester: read.requester,
      sealedToken: event.token.sealed,
      tokenValidUntil: validUntil(event.token),
      now,
    });
    if (!inserted) {
      const step = await findStep(db, event.executionId);
      if (!step) throw new Error(`workflow step ${event.executionId} vanished after its insert conflicted`);
      return { kind: 'redelivered', step };
    }
    const checked = await this.checkInputs(read, event.payoutsConfigured);
    if (!checked.ok) {
      await this.complete(event.executionId, checked.outcome, ['received']);
      return { kind: 'completed', outcome: checked.outcome };
    }
    const step = await askRequester(db, event.executionId, checked.draft);
    return step ? { kind: 'ask', step } : { kind: 'redelivered', step: (await findStep(db, event.executionId)) ?? inserted };
  }

  private async checkInputs(
    read: ReturnType<typeof readStepInputs>,
    payoutsConfigured: boolean,
  ): Promise<{ ok: true; draft: PayoutDraft } | { ok: false; outcome: StepOutcome }> {
    if (!read.ok) return { ok: false, outcome: { error: 'invalid_inputs', problems: read.problems } };
    if (!payoutsConfigured) return { ok: false, outcome: { error: 'not_configured' } };
    const { payouts } = this.options;
    const role = await payouts.mayRequest(read.requester);
    if (!role.ok) return { ok: false, outcome: { error: 'refused', refusal: { code: role.code, details: role.details } } };
    const validation = await payouts.validate(read.kind, read.fields, read.requester, 'en');
    if (!validation.ok) {
      const problems = (Object.entries(validation.errors) as Array<[PayoutFieldName, FieldProblem]>).map(([field, problem]) => ({
        input: inputOfField(field),
        field,
        problem,
      }));
      return { ok: false, outcome: { error: 'invalid_inputs', problems } };
    }
    return { ok: true, draft: validation.draft };
  }

  /**
   * The named requester confirms: the payout is requested in their name, through the same intake as
   * the modal (role, fields, reference and limit checked again), and the step waits for its outcome.
   */
  async confirm(executionId: string, userId: string): Promise<StepAnswer> {
    const step = await this.answerable(executionId, userId);
    if (!step.ok) return step.answer;
    const now = this.now();
    const claimed = await claimSubmission(this.options.db, executionId, now, this.staleBefore(now));
    if (!claimed) return { kind: 'gone', step: await this.get(executionId) };
    return this.submit(claimed);
  }

  /** The named requester declines: the step fails, and nothing is requested. */
  async decline(executionId: string, userId: string): Promise<StepAnswer> {
    const step = await this.answerable(executionId, userId);
    if (!step.ok) return step.answer;
    const done = await this.complete(executionId, { error: 'declined' }, OPEN_FOR_ANSWER);
    return done ? { kind: 'declined' } : { kind: 'gone', step: await this.get(executionId) };
  }

  private async answerable(executionId: string, userId: string): Promise<{ ok: true } | { ok: false; answer: StepAnswer }> {
    const step = await this.get(executionId);
    if (!step) return { ok: false, answer: { kind: 'gone', step } };
    // The DM goes to the requester alone; the store decides, not the click.
    if (step.requester !== userId) return { ok: false, answer: { kind: 'not_requester' } };
    return { ok: true };
  }

  private async submit(step: PayoutStep): Promise<StepAnswer> {
    const { payouts, db } = this.options;
    if (!step.draft) throw new Error(`workflow step ${step.executionId} has no draft to submit`);
    const result: PayoutActionResult = await payouts.submit(step.requester, step.draft, { through: 'workflow' });
    let request = result.ok ? result.request : undefined;
    if (!result.ok && result.code === 'duplicate_reference') {
      // A submission taken over from a stopped process: the request it stored holds the step's reference,
      // asks for exactly the step's draft, and no other step (another run that used the same reference)
      // owns it. A request the same person made otherwise with that reference is theirs, not the step's.
      const stored = await payouts.getByReference(step.draft.reference);
      const owner = stored && (await findStepByPayout(db, stored.id));
      if (stored && stored.requestedBy === step.requester && requestMatchesDraft(stored, step.draft) && !owner) request = stored;
    }
    if (!request) {
      const refused: StepOutcome = { error: 'refused', refusal: result.ok ? { code: 'duplicate_reference' } : { code: result.code, details: result.details } };
      await this.complete(step.executionId, refused, ['submitting']);
      return { kind: 'refused', outcome: refused };
    }
    await awaitPayout(db, step.executionId, request.id);
    // The payout may have ended already (a very fast decision, another replica).
    await this.settle(request);
    return { kind: 'requested', request, completesBy: this.completesBy(step) };
  }

  /**
   * The payout notifier's hook: a step waiting for this request is completed at its final outcome.
   * Not waited for, so that Slack's answer never holds up the change (the sweep catches a failure).
   */
  async changed(request: PayoutRequest): Promise<void> {
    if (!outcomeOf(request)) return;
    const settling = this.settle(request)
      .catch((error: unknown) => this.options.logger.error({ err: error, payoutId: request.id }, "could not complete a workflow step at its payout's outcome"))
      .finally(() => this.settling.delete(settling));
    this.settling.add(settling);
  }

  /** Resolves once every completion started by `changed` has ended (when stopping, and in tests). */
  async idle(): Promise<void> {
    while (this.settling.size > 0) await Promise.all([...this.settling]);
  }

  private async settle(request: PayoutRequest): Promise<void> {
    const outcome = outcomeOf(request);
    if (!outcome) return;
    const step = await findStepByPayout(this.options.db, request.id);
    if (step?.state === 'waiting') await this.complete(step.executionId, outcome, ['waiting']);
  }

  /**
   * What the timer does (every replica, every 30 s or so): completes steps whose payout ended, and
   * steps whose token is about to expire with what is known (`unknown` and the request id, or not
   * confirmed); takes over submissions and completions of stopped processes; lapses steps whose token
   * expired before anything could complete them.
   */
  async sweep(): Promise<void> {
    const now = this.now();
    for (const step of await openSteps(this.options.db)) {
      try {
        await this.sweepOne(step, now);
      } catch (error) {
        this.options.logger.error({ err: error, executionId: step.executionId }, 'could not look after a workflow step');
      }
    }
  }

  private async sweepOne(step: PayoutStep, now: Date): Promise<void> {
    const { db, payouts, logger } = this.options;
    if (step.tokenValidUntil.getTime() <= now.getTime()) {
      if (await lapseStep(db, step.executionId, now)) {
        logger.warn(
          { executionId: step.executionId, payoutId: step.payoutId, state: step.state },
          'a workflow step lapsed: its token expired before it could be completed',
        );
      }
      return;
    }
    const due = now.getTime() >= this.completesBy(step).getTime();
    const stale = this.staleBefore(now);
    if (step.state === 'completing' && (!step.claimedAt || step.claimedAt < stale)) {
      await this.complete(step.executionId, undefined, []);
    } else if (step.state === 'submitting' && step.claimedAt && step.claimedAt < stale) {
      const claimed = await claimSubmission(db, step.executionId, now, stale);
      if (claimed) await this.submit(claimed);
    } else if (step.state === 'waiting' && step.payoutId) {
      const request = await payouts.get(step.payoutId);
      if (request && outcomeOf(request)) await this.settle(request);
      else if (due) await this.complete(step.executionId, { status: 'unknown', requestId: step.payoutId }, ['waiting']);
    } else if (OPEN_FOR_ANSWER.includes(step.state) && due) {
      await this.complete(step.executionId, { error: 'not_confirmed' }, OPEN_FOR_ANSWER);
    }
  }

  /**
   * Claims the step's completion, then completes it in Slack with its stored token. `outcome`
   * undefined takes over a completion already claimed with its own. True when this call claimed it.
   */
  private async complete(executionId: string, outcome: StepOutcome | undefined, from: readonly StepState[]): Promise<boolean> {
    const { db, completer, logger } = this.options;
    const now = this.now();
    const claimed = await claimCompletion(db, executionId, outcome, from, now, this.staleBefore(now));
    if (!claimed?.outcome) return false;
    if (!claimed.sealedToken || claimed.tokenValidUntil.getTime() <= now.getTime()) {
      await finishStep(db, executionId, 'lapsed', now);
      logger.warn({ executionId, payoutId: claimed.payoutId }, 'a workflow step lapsed: its token expired before it could be completed');
      return true;
    }
    const answer = await completer
      .complete({ executionId, requester: claimed.requester, sealedToken: claimed.sealedToken }, claimed.outcome)
      .catch((error: unknown) => {
        logger.warn({ err: error, executionId }, 'could not complete a workflow step; trying again later');
        return 'retry' as const;
      });
    if (answer === 'done') await finishStep(db, executionId, 'completed', this.now());
    else await releaseCompletion(db, executionId);
    return true;
  }
}

/** Until when the step's token may be used: Slack's lifetime from the `function_executed` event; a click does not renew it. */
function validUntil(token: StepToken): Date {
  return new Date(token.issuedAt.getTime() + FUNCTION_TOKEN_LIFETIME_MS);
}

/** The step's outcome for a payout that ended; undefined while it may still change (pending, approved, sending, unknown). */
export function outcomeOf(request: PayoutRequest): StepOutcome | undefined {
  switch (request.state) {
    case 'completed':
      return { status: 'sent', requestId: request.id, transactionId: request.transactionId };
    case 'rejected':
    case 'expired':
    case 'cancelled':
    case 'failed':
      return { error: request.state, requestId: request.id };
    default:
      return undefined;
  }
}

/**
 * The Workflow Builder step "Request a payout" as the domain sees it: its inputs (the bulk file's
 * vocabulary), the states a step moves through, and what it is completed with.
 */
import type { FieldProblem, PayoutDraft, PayoutFieldName, PayoutRefusalCode, RefusalDetails } from '../payouts/index.js';

/** The step's callback id in the manifest (`functions.request_payout`). */
export const PAYOUT_STEP_CALLBACK_ID = 'request_payout';

/**
 * The step's inputs, as the manifest names them: the requester, the bulk file's columns, and who
 * started the workflow (Slack's event does not say; Workflow Builder maps "Person who used this workflow").
 */
export const STEP_INPUTS = ['requester', 'kind', 'number', 'provider', 'country', 'name', 'amount', 'currency', 'reference', 'note', 'started_by'] as const;
export type StepInput = (typeof STEP_INPUTS)[number];

/** Slack's lifetime of a function execution's token, from the `function_executed` event; clicks do not renew it. */
export const FUNCTION_TOKEN_LIFETIME_MS = 15 * 60_000;

export const STEP_STATES = ['received', 'asking', 'submitting', 'waiting', 'completing', 'completed', 'lapsed'] as const;
export type StepState = (typeof STEP_STATES)[number];

/** One input's problem: a payout field's (worded as the form words it) or one only the step can have. */
export type StepInputProblem =
  | { input: StepInput; field: PayoutFieldName; problem: FieldProblem }
  | { input: StepInput; problem: { code: 'requester_missing' } | { code: 'kind_unknown' } | { code: 'amount_format' } };

/** Why a payout request the step made did not end in a sent payout. */
export const PAYOUT_ENDINGS = ['rejected', 'expired', 'cancelled', 'failed'] as const;
export type PayoutEnding = (typeof PAYOUT_ENDINGS)[number];

/**
 * What the step is completed with: `sent` or `unknown` (the outcome was not known while a token was
 * valid; the request id lets the workflow's people follow it) succeed; everything else fails the step.
 */
export type StepOutcome =
  | { status: 'sent'; requestId: string; transactionId: string | undefined }
  | { status: 'unknown'; requestId: string }
  | { error: 'invalid_inputs'; problems: StepInputProblem[] }
  | { error: 'refused'; refusal: { code: PayoutRefusalCode; details?: RefusalDetails | undefined } }
  | { error: 'not_configured' }
  | { error: 'declined' }
  | { error: 'not_confirmed' }
  | { error: PayoutEnding; requestId: string };

/** A stored step. */
export interface PayoutStep {
  executionId: string;
  workflowExecutionId: string | undefined;
  requester: string;
  state: StepState;
  draft: PayoutDraft | undefined;
  payoutId: string | undefined;
  sealedToken: string | undefined;
  tokenValidUntil: Date;
  claimedAt: Date | undefined;
  outcome: StepOutcome | undefined;
  createdAt: Date;
  completedAt: Date | undefined;
}

/** A function token as the Slack layer hands it over: sealed, and when Slack issued it. */
export interface StepToken {
  sealed: string;
  issuedAt: Date;
}

/**
 * Completes a step in Slack (`functions.completeSuccess` / `functions.completeError`) with the stored
 * token. `done` when Slack took it, or says the execution can no longer be completed (completed
 * before, or its token already revoked): trying again would not help. `retry` for a passing failure.
 */
export interface StepCompleter {
  complete(step: { executionId: string; requester: string; sealedToken: string }, outcome: StepOutcome): Promise<'done' | 'retry'>;
}

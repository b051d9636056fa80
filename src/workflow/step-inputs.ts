/**
 * Reads the step's inputs (the bulk file's vocabulary: kind, number, provider, …) into the single
 * payout form's fields, with the bulk file's own rules for the kind and the amount's shape. Pure.
 */
import { cellsToForm } from '../payouts/batch/rows.js';
import type { PayoutFieldName, PayoutFormFields, PayoutKind } from '../payouts/index.js';
import { FIELD_COLUMN } from '../payouts/batch/rows.js';
import type { StepInput, StepInputProblem } from './model.js';

/** A Slack user id, as a `slack#/types/user_id` input carries it. */
const USER_ID = /^[UW][A-Z0-9]{2,}$/;

export type ReadInputs =
  { ok: true; requester: string; kind: PayoutKind; fields: PayoutFormFields } | { ok: false; requester: string; problems: StepInputProblem[] };

/** Who started the workflow, when the workflow says (the optional `started_by` input); undefined otherwise. */
export function startedByOf(inputs: Record<string, unknown>): string | undefined {
  const value = typeof inputs.started_by === 'string' ? inputs.started_by.trim() : '';
  return USER_ID.test(value) ? value : undefined;
}

/** Text of one input: Workflow Builder may hand a number for `amount`; anything else is not text. */
function inputText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return undefined;
}

export function readStepInputs(inputs: Record<string, unknown>): ReadInputs {
  const requester = (inputText(inputs.requester) ?? '').trim();
  const cells = {
    kind: inputText(inputs.kind),
    number: inputText(inputs.number),
    provider: inputText(inputs.provider),
    country: inputText(inputs.country),
    name: inputText(inputs.name),
    amount: inputText(inputs.amount),
    currency: inputText(inputs.currency),
    reference: inputText(inputs.reference),
    note: inputText(inputs.note),
  };
  const { kind, fields, amountShapeWrong } = cellsToForm(cells);
  const problems: StepInputProblem[] = [];
  if (!USER_ID.test(requester)) problems.push({ input: 'requester', problem: { code: 'requester_missing' } });
  if (!kind) problems.push({ input: 'kind', problem: { code: 'kind_unknown' } });
  if (amountShapeWrong) problems.push({ input: 'amount', problem: { code: 'amount_format' } });
  if (problems.length > 0 || !kind) return { ok: false, requester, problems };
  return { ok: true, requester, kind, fields };
}

/** The input that holds a payout form field. */
export function inputOfField(field: PayoutFieldName): StepInput {
  return FIELD_COLUMN[field];
}

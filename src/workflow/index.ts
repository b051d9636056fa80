/** The Workflow Builder step's domain, for the Slack layer and the wiring; nothing here knows Slack. */
export {
  FUNCTION_TOKEN_LIFETIME_MS,
  PAYOUT_ENDINGS,
  PAYOUT_STEP_CALLBACK_ID,
  STEP_INPUTS,
  STEP_STATES,
  type PayoutEnding,
  type PayoutStep,
  type StepCompleter,
  type StepInput,
  type StepInputProblem,
  type StepOutcome,
  type StepState,
  type StepToken,
} from './model.js';
export { startedByOf } from './step-inputs.js';
export { outcomeOf, PayoutSteps, type PayoutStepsOptions, type StepAnswer, type StepStart } from './payout-step.js';

/**
 * Why a "Request a payout" step failed, in words: what `functions.completeError` hands Slack, which
 * shows it to the people of the workflow. Plain text with user mentions; every input named as the
 * manifest names it.
 */
import { textsFor, type Locale } from '../../i18n/index.js';
import type { PayoutRequest } from '../../payouts/index.js';
import type { StepInputProblem, StepOutcome } from '../../workflow/index.js';
import { failureWords } from '../views/payout-details.js';
import { mentionUser } from '../views/text.js';
import { describeFieldProblem } from './payout-field-problems.js';
import { refusalMessage } from './payout-refusals.js';

/** Slack cuts long errors; ours stay well under a message section. */
const ERROR_MAX = 2000;

function problemWords(locale: Locale, entry: StepInputProblem): string {
  const t = textsFor(locale);
  const { problem } = entry;
  let words: string;
  if ('field' in entry) words = describeFieldProblem(locale, entry.field, entry.problem, (refusal) => refusalMessage(refusal, locale));
  else if (problem.code === 'requester_missing') words = t('workflowStep.error.requesterMissing');
  else if (problem.code === 'kind_unknown') words = t('workflowStep.error.kindUnknown');
  else words = t('workflowStep.error.amountFormat');
  return t('workflowStep.error.input', { input: entry.input, problem: words });
}

/** The error of a failed step; `request` is the payout request it names, read fresh, when there is one. */
export function stepErrorText(locale: Locale, outcome: Extract<StepOutcome, { error: string }>, request?: PayoutRequest): string {
  const t = textsFor(locale);
  let text: string;
  switch (outcome.error) {
    case 'invalid_inputs':
      text = t('workflowStep.error.inputs', { problems: outcome.problems.map((entry) => problemWords(locale, entry)).join(t('workflowStep.error.separator')) });
      break;
    case 'refused':
      text = t('workflowStep.error.refused', { reason: refusalMessage(outcome.refusal, locale) });
      break;
    case 'not_configured':
      text = t('workflowStep.error.notConfigured');
      break;
    case 'declined':
      text = t('workflowStep.error.declined');
      break;
    case 'not_confirmed':
      text = t('workflowStep.error.notConfirmed');
      break;
    case 'rejected':
      text = t('workflowStep.error.rejected', {
        id: outcome.requestId,
        by: request?.rejectedBy ? mentionUser(request.rejectedBy) : t('workflowStep.anApprover'),
        reason: request?.rejectReason ?? t('payoutApproval.noReason'),
      });
      break;
    case 'expired':
      text = t('workflowStep.error.expired', { id: outcome.requestId });
      break;
    case 'cancelled':
      text = t('workflowStep.error.cancelled', { id: outcome.requestId });
      break;
    case 'failed':
      text = t('workflowStep.error.failed', { id: outcome.requestId, reason: failureWords(request?.failureReason, locale) });
      break;
  }
  return text.length <= ERROR_MAX ? text : `${text.slice(0, ERROR_MAX - 1)}…`;
}

/**
 * The payout step's completions over Slack: `functions.completeSuccess` with the step's outputs, or
 * `functions.completeError` with why it failed (in the requester's language), each called with the
 * step's own stored function token (see docs/workflow-step.md). The token is opened here, used for
 * this one call and never logged.
 */
import type { WebClient } from '@slack/web-api';
import type { Logger } from '../../core/logger.js';
import type { PayoutRequest } from '../../payouts/index.js';
import type { StepCompleter, StepOutcome } from '../../workflow/index.js';
import type { PersonLocales } from '../locales.js';
import { stepErrorText } from '../refusals/workflow-step-errors.js';
import type { TokenBox } from '../trust/token-box.js';

export interface SlackStepCompleterOptions {
  client: WebClient;
  tokens: TokenBox;
  locales: PersonLocales;
  /** The payout request an error names, read fresh for its reason. */
  payout: (id: string) => Promise<PayoutRequest | undefined>;
  logger: Logger;
}

// Slack's answers that say the step can no longer be completed by anyone: trying again would not help.
const FINAL_ERRORS = new Set([
  'execution_not_in_running_state',
  'function_execution_not_found',
  'token_revoked',
  'token_expired',
  'invalid_auth',
  'not_authed',
  'account_inactive',
  'parameter_validation_failed',
  'invalid_arguments',
  'access_denied',
]);

export class SlackStepCompleter implements StepCompleter {
  constructor(private readonly options: SlackStepCompleterOptions) {}

  async complete(step: { executionId: string; requester: string; sealedToken: string }, outcome: StepOutcome): Promise<'done' | 'retry'> {
    const { client, tokens, logger } = this.options;
    const token = tokens.open(step.sealedToken);
    if (!token) {
      logger.error({ executionId: step.executionId }, 'a workflow step token could not be opened (was the bot token changed?); the step cannot be completed');
      return 'done';
    }
    try {
      if ('status' in outcome) {
        const outputs: Record<string, string> = { status: outcome.status, payout_request_id: outcome.requestId };
        if (outcome.status === 'sent' && outcome.transactionId) outputs.transaction_id = outcome.transactionId;
        await client.functions.completeSuccess({ token, function_execution_id: step.executionId, outputs });
      } else {
        const request = 'requestId' in outcome ? await this.options.payout(outcome.requestId) : undefined;
        const locale = await this.options.locales.forPerson(step.requester);
        await client.functions.completeError({ token, function_execution_id: step.executionId, error: stepErrorText(locale, outcome, request) });
      }
      logger.info({ executionId: step.executionId, outcome: 'status' in outcome ? outcome.status : outcome.error }, 'workflow step completed');
      return 'done';
    } catch (error) {
      const code = (error as { data?: { error?: unknown } }).data?.error;
      if (typeof code === 'string' && FINAL_ERRORS.has(code)) {
        logger.warn({ executionId: step.executionId, slackError: code }, "Slack would not take the workflow step's completion; it cannot be completed");
        return 'done';
      }
      // Only the error's code: a request error can carry the request itself, and with it the token.
      logger.warn(
        { executionId: step.executionId, errorCode: (error as { code?: unknown }).code, slackError: code },
        'could not complete a workflow step; trying again later',
      );
      return 'retry';
    }
  }
}

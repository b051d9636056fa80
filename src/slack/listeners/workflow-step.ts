/**
 * The Workflow Builder step "Request a payout" (`functions.request_payout`): a `function_executed`
 * is handed to the domain, which checks its inputs as the modal's and completes the step when they
 * are wrong; otherwise the named requester gets a direct message, posted with the step's function
 * token so that their click carries the step's context, to confirm or decline. The step's deadline
 * comes from the event's token alone (15 minutes from `function_executed`): a click does not renew it.
 * Later messages about the step are sent with the app's own token, which outlives the step.
 */
import type { BlockAction, ButtonAction, Context } from '@slack/bolt';
import type { WebClient } from '@slack/web-api';
import { textsFor } from '../../i18n/index.js';
import { PAYOUT_STEP_CALLBACK_ID, startedByOf, type StepAnswer, type StepToken } from '../../workflow/index.js';
import type { SlackContext } from '../context.js';
import type { ListenerRouter } from '../transport/listener-router.js';
import { WORKFLOW_STEP_ACTIONS } from '../ids.js';
import { surfaceFor } from '../locales.js';
import { refusalMessage } from '../refusals/payout-refusals.js';
import { stepErrorText } from '../refusals/workflow-step-errors.js';
import type { TokenBox } from '../trust/token-box.js';
import { notice } from '../views/notice.js';
import { escapeMrkdwn } from '../views/text.js';
import { buildStepQuestion } from '../views/workflow-step.js';

/** The event's function token, sealed for the store; never logged. */
function tokenOf(context: Context, tokens: TokenBox, issuedAt: Date): StepToken | undefined {
  const token = context.functionBotAccessToken;
  return typeof token === 'string' && token !== '' ? { sealed: tokens.seal(token), issuedAt } : undefined;
}

/** Slack's `event_ts` says when the token was issued; a redelivery keeps the first one's. */
function issuedAt(eventTs: string | undefined, now: Date): Date {
  const seconds = Number(eventTs);
  return Number.isFinite(seconds) && seconds > 0 && seconds * 1000 < now.getTime() ? new Date(seconds * 1000) : now;
}

/** `appClient` speaks with the app's own token, where Bolt's `client` has the step's. */
export function registerWorkflowStepListeners(router: ListenerRouter, ctx: SlackContext, appClient: WebClient): void {
  const { workflowSteps: steps, tokens, logger } = ctx;
  if (!steps || !tokens) return;

  router.function(PAYOUT_STEP_CALLBACK_ID, async ({ event, client, context }) => {
    const now = ctx.clock.now();
    const token = tokenOf(context, tokens, issuedAt(event.event_ts, now));
    if (!token) {
      logger.error({ executionId: event.function_execution_id }, 'a function_executed event came without a function token; the step cannot be completed');
      return;
    }
    const started = await steps.start({
      executionId: event.function_execution_id,
      workflowExecutionId: event.workflow_execution_id,
      inputs: event.inputs ?? {},
      token,
      payoutsConfigured: ctx.payoutSettings.approvalChannelId !== undefined,
    });
    if (started.kind !== 'ask' || !started.step.draft) return;
    const { step } = started;
    const { draft } = started.step;
    const surface = await surfaceFor(ctx, step.requester);
    const minutes = Math.max(1, Math.floor((steps.completesBy(step).getTime() - now.getTime()) / 60_000));
    const question = buildStepQuestion(surface, {
      requester: step.requester,
      startedBy: startedByOf(event.inputs ?? {}),
      draft,
      executionId: step.executionId,
      minutesToAnswer: minutes,
    });
    try {
      // With the function's token (Bolt's client here): the requester's click then carries the step's context.
      await client.chat.postMessage({ channel: step.requester, text: question.text, blocks: question.blocks, unfurl_links: false });
    } catch (error) {
      // Unanswered, the step fails when its token is about to expire (see PayoutSteps.sweep).
      logger.error(
        { executionId: step.executionId, slackError: (error as { data?: { error?: unknown } }).data?.error },
        'could not ask the requester to confirm a workflow payout',
      );
    }
  });

  for (const [actionId, answer] of [
    [WORKFLOW_STEP_ACTIONS.confirm, 'confirm'],
    [WORKFLOW_STEP_ACTIONS.decline, 'decline'],
  ] as const) {
    router.action<BlockAction<ButtonAction>>(actionId, async ({ ack, body }) => {
      await ack();
      const executionId = body.actions[0]?.value ?? '';
      const userId = body.user.id;
      const surface = await surfaceFor(ctx, userId);
      try {
        const result = answer === 'confirm' ? await steps.confirm(executionId, userId) : await steps.decline(executionId, userId);
        const reply = notice(surface, answerText(surface.locale, result, ctx.clock.now()));
        // The app's own client: the step may be completed by now, and its tokens with it.
        const where = body.container.type === 'message' ? { channel: body.container.channel_id as string, ts: body.container.message_ts as string } : undefined;
        if (where && result.kind !== 'not_requester') await appClient.chat.update({ ...where, text: reply.text, blocks: reply.blocks });
        else await appClient.chat.postEphemeral({ channel: body.channel?.id ?? userId, user: userId, text: reply.text, blocks: reply.blocks });
      } catch (error) {
        logger.error(
          { executionId, slackError: (error as { data?: { error?: unknown } }).data?.error, err: error instanceof Error ? error.message : undefined },
          'could not answer a workflow payout',
        );
      }
    });
  }
}

function answerText(locale: Parameters<typeof textsFor>[0], result: StepAnswer, now: Date): string {
  const t = textsFor(locale);
  switch (result.kind) {
    case 'requested': {
      // What happens next: the workflow waits for the approvers until the step's token is about to expire, then goes on.
      const minutes = Math.max(1, Math.floor((result.completesBy.getTime() - now.getTime()) / 60_000));
      return t('workflowStep.confirmed', { id: `\`${result.request.id}\``, minutes });
    }
    case 'declined':
      return t('workflowStep.declined');
    case 'refused':
      return 'error' in result.outcome
        ? t('workflowStep.refused', {
            reason: escapeMrkdwn(result.outcome.error === 'refused' ? refusalMessage(result.outcome.refusal, locale) : stepErrorText(locale, result.outcome)),
          })
        : t('workflowStep.gone');
    case 'not_requester':
      return t('workflowStep.notRequester');
    case 'gone':
      return t('workflowStep.gone');
  }
}

/** The direct message that asks the requester a workflow named to confirm the payout it asks for in their name. */
import type { KnownBlock } from '@slack/types';
import { textsFor } from '../../i18n/index.js';
import type { PayoutDraft } from '../../payouts/index.js';
import { WORKFLOW_STEP_ACTIONS } from '../ids.js';
import type { Reply } from './notice.js';
import { detailBlocks, plainSummary } from './payout-details.js';
import { cutMrkdwn, mentionUser, plainText, sandboxFooter, type Surface } from './text.js';

export interface StepQuestion {
  requester: string;
  /** Who started the workflow, when it says; the requester reads their name, "you", or that Slack did not say. */
  startedBy: string | undefined;
  draft: PayoutDraft;
  /** Names the step in both buttons; who may answer and what is requested are read from the store. */
  executionId: string;
  minutesToAnswer: number;
}

export function buildStepQuestion(surface: Surface, question: StepQuestion): Reply {
  const { locale } = surface;
  const t = textsFor(locale);
  const { draft, executionId, minutesToAnswer, startedBy } = question;
  const heading =
    startedBy === undefined
      ? t('workflowStep.ask.headingUnknown')
      : startedBy === question.requester
        ? t('workflowStep.ask.headingYours')
        : t('workflowStep.ask.heading', { starter: mentionUser(startedBy) });
  const blocks: KnownBlock[] = [
    { type: 'section', text: { type: 'mrkdwn', text: heading } },
    ...detailBlocks(draft, locale),
    { type: 'context', elements: [{ type: 'mrkdwn', text: t('workflowStep.ask.deadline', { minutes: minutesToAnswer }) }] },
    {
      type: 'actions',
      elements: [
        { type: 'button', action_id: WORKFLOW_STEP_ACTIONS.confirm, style: 'primary', text: plainText(t('workflowStep.ask.confirm'), 75), value: executionId },
        { type: 'button', action_id: WORKFLOW_STEP_ACTIONS.decline, style: 'danger', text: plainText(t('workflowStep.ask.decline'), 75), value: executionId },
      ],
    },
    ...sandboxFooter(surface),
  ];
  return { text: cutMrkdwn(t('workflowStep.ask.text', { summary: plainSummary(draft, locale) }), 3000), blocks };
}

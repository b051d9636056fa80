/**
 * Acting out the Workflow Builder step "Request a payout" in the local workspace: a workflow runs
 * the step with typed inputs, the requester answers the direct message, and the run's completion is
 * read as Workflow Builder shows it.
 */
import type { SlackMessage, WorkflowRun } from '@fleet-treasury-bot/local-slack';
import { WORKFLOW_STEP_ACTIONS } from '../../src/slack/ids.js';
import { PAYOUT_STEP_CALLBACK_ID } from '../../src/workflow/index.js';
import { blockText, PEOPLE, type Harness } from './bot-harness.js';
import { dmWith } from './payout-flow.js';

let references = 0;

/** A mobile money payout in the bulk file's words, with a reference of its own. */
export function stepInputs(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  references += 1;
  return {
    requester: PEOPLE.requester,
    kind: 'mobile',
    number: '243812345678',
    provider: 'VODACOM_MPESA',
    country: 'CD',
    name: 'Amani Kabila',
    // Each run its own amount, so that no run is a possible duplicate of an earlier one (approving one asks for a tick).
    amount: String(150 + references),
    currency: 'USD',
    reference: `WF-${process.pid}-${references}`,
    note: 'Fuel for the Goma run',
    ...overrides,
  };
}

export async function runStep(h: Harness, inputs: Record<string, unknown>): Promise<string> {
  const { executionId, ack } = await h.slack.runWorkflowStep({ callbackId: PAYOUT_STEP_CALLBACK_ID, inputs });
  if (ack.status !== 200) throw new Error(`function_executed was answered with HTTP ${ack.status}`);
  return executionId;
}

/** The requester's direct message that asks them to confirm this run's payout. */
export function waitForQuestion(h: Harness, executionId: string, userId: string = PEOPLE.requester): Promise<SlackMessage> {
  return h.slack.waitFor(() => h.slack.messages(dmWith(userId)).find((message) => JSON.stringify(message.blocks).includes(`"value":"${executionId}"`)), {
    message: `${userId}'s direct message asking to confirm ${executionId}`,
  });
}

export async function answer(h: Harness, executionId: string, choice: 'confirm' | 'decline', userId: string = PEOPLE.requester): Promise<SlackMessage> {
  const question = await waitForQuestion(h, executionId, userId);
  const ack = await h.slack.clickButton({ userId, actionId: WORKFLOW_STEP_ACTIONS[choice], channelId: question.channel, messageTs: question.ts });
  if (ack.status !== 200) throw new Error(`the ${choice} click was answered with HTTP ${ack.status}`);
  return h.slack.waitFor(
    () => {
      const shown = h.slack.message(question.channel, question.ts);
      return shown && !JSON.stringify(shown.blocks).includes(WORKFLOW_STEP_ACTIONS.confirm) ? shown : undefined;
    },
    { message: `the direct message after ${choice}` },
  );
}

/** Waits until the run ended (completed or failed), as Workflow Builder would show it. */
export function waitForRunEnd(h: Harness, executionId: string, timeoutMs = 10_000): Promise<WorkflowRun> {
  return h.slack.waitFor(
    () => {
      const run = h.slack.workflowRun(executionId);
      return run && run.state !== 'running' ? run : undefined;
    },
    { message: `the end of workflow run ${executionId}`, timeoutMs },
  );
}

/** How many times the app called Slack to complete a step (successfully or not). */
export function completionCalls(h: Harness): number {
  return h.slack.apiCalls.filter((call) => call.method === 'functions.completeSuccess' || call.method === 'functions.completeError').length;
}

export const messageText = (message: SlackMessage) => `${message.text}\n${blockText(message)}`;

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHANNELS, PEOPLE, startHarness, type Harness } from '../../support/bot-harness.js';
import {
  approveAs,
  dmTexts,
  MOBILE_PATH,
  openApproveModal,
  PAYOUT_ENV,
  payoutPosts,
  submitApproval,
  viewText,
  waitForApprovalMessage,
} from '../../support/payout-flow.js';
import { answer, completionCalls, messageText, runStep, stepInputs, waitForQuestion, waitForRunEnd } from '../../support/workflow-flow.js';

describe('the Workflow Builder step "Request a payout"', () => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness({ env: { ...PAYOUT_ENV, FLEET_REQUESTERS: `${PEOPLE.requester},${PEOPLE.newcomer}` } });
  });
  afterAll(async () => {
    await h?.close();
  });

  it('asks the named requester, requests the payout once they confirm, and completes with sent after approval', async () => {
    const executionId = await runStep(h, stepInputs({ amount: 150 }));
    const question = await waitForQuestion(h, executionId);
    expect(messageText(question)).toContain('Requested in your name by a workflow');
    expect(messageText(question)).toContain('Amani Kabila');
    // Nothing waits for approvers before the requester's click.
    expect(h.slack.messages(CHANNELS.approvals)).toHaveLength(0);
    expect(h.slack.workflowRun(executionId)?.state).toBe('running');

    const confirmed = await answer(h, executionId, 'confirm');
    const id = /PR-[A-Z0-9]{6}/.exec(messageText(confirmed))?.[0] ?? '';
    expect(id).not.toBe('');
    // Approvers are told where the request came from, on the message and in the approve window.
    const through = `Requested by a workflow in <@${PEOPLE.requester}>'s name; they confirmed it`;
    await waitForApprovalMessage(h, id, through);
    // The step stays open while approvers decide.
    expect(h.slack.workflowRun(executionId)?.state).toBe('running');

    const modal = await openApproveModal(h, PEOPLE.approver, id);
    expect(viewText(modal)).toContain(through);
    await submitApproval(h, PEOPLE.approver, modal.id);
    const run = await waitForRunEnd(h, executionId);
    const request = await h.bot.payouts.get(id);
    expect(request?.state).toBe('completed');
    expect(run.state).toBe('completed');
    expect(run.outputs).toEqual({ status: 'sent', transaction_id: request?.transactionId, payout_request_id: id });
    expect(payoutPosts(h)).toBe(1);
    expect(completionCalls(h)).toBe(1);
    expect(h.slack.limitViolations).toEqual([]);
    // No function token reaches the log.
    expect(h.logs.join('\n')).not.toMatch(/xwfp-/);
  });

  it('fails the step naming each bad input, and asks nobody', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ kind: 'cash' }, 'kind: write mobile or bank'],
      [{ amount: '1,500' }, 'amount: write the amount with digits'],
      [{ number: '' }, 'number:'],
      [{ currency: 'XYZ' }, 'currency:'],
      [{ requester: '' }, 'requester: name the Slack user'],
      [{ country: 'Congo' }, 'country:'],
      // As a spreadsheet groups thousands: refused, never read as 75.00 CDF or 1.50 USD.
      [{ amount: '75.000', currency: 'CDF' }, 'amount: 75.000 CDF: 75,000? CDF has 2 decimals.'],
      [{ amount: '1.500' }, 'amount: 1.500 USD: 1,500? USD has 2 decimals.'],
    ];
    for (const [overrides, words] of cases) {
      const inputs = stepInputs(overrides);
      const executionId = await runStep(h, inputs);
      const run = await waitForRunEnd(h, executionId);
      expect(run.state, JSON.stringify(overrides)).toBe('failed');
      expect(run.error, JSON.stringify(overrides)).toContain(words);
      expect(await h.bot.payouts.getByReference(String(inputs.reference)), JSON.stringify(overrides)).toBeUndefined();
    }
    expect(dmTexts(h, PEOPLE.requester).filter((text) => text.includes('Requested in your name') && /1,500|75\.00 CDF|1\.50 USD/.test(text))).toEqual([]);
  });

  it('tells the requester who started the workflow: another person, themself, or that Slack did not say', async () => {
    const started = [
      { startedBy: PEOPLE.approver, says: `Requested in your name by a workflow <@${PEOPLE.approver}> started` },
      { startedBy: PEOPLE.requester, says: 'Requested in your name by a workflow you started' },
      { startedBy: undefined, says: 'Slack did not say who started it' },
    ];
    for (const { startedBy, says } of started) {
      const executionId = await runStep(h, stepInputs(startedBy ? { started_by: startedBy } : {}));
      const question = await waitForQuestion(h, executionId);
      expect(messageText(question)).toContain(says);
      await answer(h, executionId, 'decline');
      await waitForRunEnd(h, executionId);
    }
  });

  it('fails the step when the named person may not request payouts', async () => {
    const executionId = await runStep(h, stepInputs({ requester: PEOPLE.approver2 }));
    const run = await waitForRunEnd(h, executionId);
    expect(run.error).toMatch(/could not be requested/);
    expect(dmTexts(h, PEOPLE.approver2).some((text) => text.includes('Requested in your name'))).toBe(false);
  });

  it('fails the step, requesting nothing, when the requester declines', async () => {
    const inputs = stepInputs();
    const executionId = await runStep(h, inputs);
    const declined = await answer(h, executionId, 'decline');
    expect(messageText(declined)).toContain('You declined');
    const run = await waitForRunEnd(h, executionId);
    expect(run).toMatchObject({ state: 'failed', error: 'The requester declined the payout this workflow asked for in their name.' });
    expect(await h.bot.payouts.getByReference(String(inputs.reference))).toBeUndefined();
  });

  it('fails the step with the approver and the reason when the payout is rejected, and when it is cancelled', async () => {
    const rejected = await runStep(h, stepInputs());
    const id = /PR-[A-Z0-9]{6}/.exec(messageText(await answer(h, rejected, 'confirm')))?.[0] ?? '';
    expect((await h.bot.payouts.reject(id, PEOPLE.approver, 'Wrong recipient')).ok).toBe(true);
    expect((await waitForRunEnd(h, rejected)).error).toBe(`Payout request ${id} was rejected by <@${PEOPLE.approver}>: Wrong recipient`);

    const cancelled = await runStep(h, stepInputs());
    const other = /PR-[A-Z0-9]{6}/.exec(messageText(await answer(h, cancelled, 'confirm')))?.[0] ?? '';
    expect((await h.bot.payouts.cancel(other, PEOPLE.requester)).ok).toBe(true);
    expect((await waitForRunEnd(h, cancelled)).error).toBe(`Payout request ${other} was cancelled by its requester.`);
  });

  it("fails the step with the Fleet API's reason when the payout fails", async () => {
    const executionId = await runStep(h, stepInputs());
    const id = /PR-[A-Z0-9]{6}/.exec(messageText(await answer(h, executionId, 'confirm')))?.[0] ?? '';
    h.sandbox.setFault({ match: { method: 'POST', path: MOBILE_PATH }, status: 400, times: 1 });
    await approveAs(h, PEOPLE.approver, id);
    const run = await waitForRunEnd(h, executionId);
    expect(run.state).toBe('failed');
    expect(run.error).toContain(`Payout request ${id} failed`);
  });

  it('makes no second request when Slack delivers function_executed again, before or after the confirmation', async () => {
    const inputs = stepInputs();
    const executionId = await runStep(h, inputs);
    await waitForQuestion(h, executionId);
    await h.slack.redeliverWorkflowStep(executionId);
    const id = /PR-[A-Z0-9]{6}/.exec(messageText(await answer(h, executionId, 'confirm')))?.[0] ?? '';
    await h.slack.redeliverWorkflowStep(executionId);
    await h.bot.payouts.reject(id, PEOPLE.approver, 'Not this week');
    await waitForRunEnd(h, executionId);
    const questions = h.slack.messages(`D${PEOPLE.requester.slice(1)}`).filter((message) => message.functionExecutionId === executionId);
    expect(questions).toHaveLength(1);
    expect((await h.bot.payouts.listRecent({ limit: 100 })).filter((request) => request.reference === inputs.reference)).toHaveLength(1);
  });

  it('lets only the named requester answer, and a second click changes nothing', async () => {
    const executionId = await runStep(h, stepInputs());
    const question = await waitForQuestion(h, executionId);
    const before = (await h.bot.payouts.listRecent({ limit: 100 })).length;
    await h.slack.clickButton({ userId: PEOPLE.requester, actionId: 'workflow_payout_confirm', channelId: question.channel, messageTs: question.ts });
    await h.slack
      .clickButton({ userId: PEOPLE.requester, actionId: 'workflow_payout_confirm', channelId: question.channel, messageTs: question.ts })
      .catch(() => undefined);
    await h.slack.waitFor(() => messageText(h.slack.message(question.channel, question.ts)!).includes('You confirmed'));
    expect((await h.bot.payouts.listRecent({ limit: 100 })).length).toBe(before + 1);
    expect(h.slack.workflowRun(executionId)?.state).toBe('running');
  });
});

describe('the payout step over Socket Mode', () => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness({ env: { ...PAYOUT_ENV }, socketMode: true });
  });
  afterAll(async () => {
    await h?.close();
  });

  it("receives function_executed as an events_api envelope, and completes the step at the payout's end", async () => {
    const executionId = await runStep(h, stepInputs());
    const id = /PR-[A-Z0-9]{6}/.exec(messageText(await answer(h, executionId, 'confirm')))?.[0] ?? '';
    await approveAs(h, PEOPLE.approver, id);
    const run = await waitForRunEnd(h, executionId);
    expect(run.outputs).toMatchObject({ status: 'sent', payout_request_id: id });
    expect(completionCalls(h)).toBe(1);
  });
});

/** The Workflow Builder step "Request a payout": run for Rita, confirmed in her DM, sent by an approver. */
import { expect, it } from 'vitest';
import { DEMO_CHANNELS, DEMO_PEOPLE, type DemoPerson } from '../../../src/demo/people.js';
import type { BrowserSession } from './session.js';

export function workflowStepSteps(session: BrowserSession): void {
  const { sandbox, screenshot, showLogsOnFailure, message, modal, eventually, scrollTo, become } = session;

  it('runs the Workflow Builder step "Request a payout" for whoever runs it: Rita confirms in her DM, an approver sends it, and the run completes with sent', async () => {
    showLogsOnFailure();
    const { page } = session;
    const form = page.locator('form.workflow-step');
    const openWorkflowsAs = async (person: DemoPerson) => {
      await become(person, { channelId: DEMO_CHANNELS.treasury.id });
      await page.locator('[data-conversation="workflows"]').click();
      await eventually(() => form.locator('h2').innerText()).toBe('Run workflow · Request a payout');
    };
    const requester = form.getByLabel('requester');
    const chosenRequester = () =>
      requester.evaluate((select) => (select as unknown as { selectedOptions: Array<{ textContent: string }> }).selectedOptions[0]?.textContent ?? '');
    // Whoever runs the workflow is its requester until they pick another: first Abel, then Rita.
    await openWorkflowsAs(DEMO_PEOPLE.abel);
    expect(await chosenRequester()).toBe('Abel Approver');
    await openWorkflowsAs(DEMO_PEOPLE.rita);
    expect(await chosenRequester()).toBe('Rita Requester');
    expect(await form.getByLabel('started_by').inputValue()).toContain('Rita Requester');
    await form.getByLabel('number').fill('243812345670');
    await form.getByLabel('amount').fill('42.50');
    await form.getByLabel('reference').fill('WF-BROWSER-1');
    await screenshot('workflow-inputs', 'workflow-form');
    await form.getByRole('button', { name: 'Run workflow' }).click();
    const run = page.locator('li.workflow-run').first();
    await eventually(() => run.innerText()).toContain('running: waiting for Rita Requester to confirm the payout in their direct messages');
    await screenshot('workflow-running', 'workflow-running');

    await become(DEMO_PEOPLE.rita, 'direct messages');
    const question = message('Requested in your name by a workflow');
    await eventually(() => question.innerText()).toContain('42.50 USD');
    expect(await question.innerText()).toContain('Requested in your name by a workflow you started');
    await scrollTo(question);
    await screenshot('workflow-confirm', 'workflow-confirm');
    await question.getByRole('button', { name: 'Confirm and request' }).click();
    // The question becomes the answer, in place.
    const confirmed = message('You confirmed the payout a workflow asked for');
    await eventually(() => confirmed.count()).toBe(1);
    expect(await question.count()).toBe(0);
    const requestId = /PR-[A-Z0-9]{6}/.exec(await confirmed.innerText())?.[0] ?? '';
    expect(requestId).not.toBe('');

    // One approver, or two for a recipient never paid (when this test runs alone).
    const before = sandbox().payouts().length;
    for (const approver of [DEMO_PEOPLE.abel, DEMO_PEOPLE.ada]) {
      await become(approver, { channelId: DEMO_CHANNELS.approvals.id });
      const approval = message(requestId);
      await eventually(() => approval.innerText()).toContain('Rita Requester');
      expect(await approval.innerText()).toContain('Requested by a workflow');
      await approval.getByRole('button', { name: 'Approve' }).click();
      await eventually(() => modal().locator('.modal-title').innerText()).toBe(`Approve ${requestId}`);
      await modal()
        .getByRole('button', { name: /^Approve( and send)?$/ })
        .click();
      await eventually(() => modal().innerText()).toMatch(/Sent\.|One more approver/);
      const sent = (await modal().innerText()).includes('Sent.');
      await modal().locator('.modal-footer').getByRole('button', { name: 'Close' }).click();
      if (sent) break;
    }
    expect(sandbox().payouts().length - before).toBe(1);
    const transactionId = sandbox().payouts().at(-1)!.transactionId;

    await page.locator('[data-conversation="workflows"]').click();
    const ended = page.locator('li.workflow-run.completed');
    await eventually(() => ended.count()).toBe(1);
    const outcome = await ended.innerText();
    for (const detail of ['for Rita Requester', 'status = sent', `transaction_id = ${transactionId}`, `payout_request_id = ${requestId}`])
      expect(outcome).toContain(detail);
    await screenshot('workflow-completed', 'workflow-completed');
  });
}

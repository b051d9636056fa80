/** The duplicate flow: a possible duplicate warned of at review and approval, sent once ticked as checked. */
import { expect, it } from 'vitest';
import { DEMO_CHANNELS, DEMO_PEOPLE } from '../../../src/demo/people.js';
import type { BrowserSession } from './session.js';

export function duplicateSteps(session: BrowserSession): void {
  const {
    sandbox,
    screenshot,
    showLogsOnFailure,
    message,
    modal,
    eventually,
    scrollTo,
    become,
    ritaRequestsMobilePayout,
    ritaReviewsMobilePayout,
    submitReviewedPayout,
  } = session;

  it('warns Rita and Abel of a possible duplicate, and lets Abel approve it only once he ticks that he checked', async () => {
    showLogsOnFailure();
    const fields = { phone: '243812345670', name: 'Amani Kabila', operator: 'VODACOM_MPESA', amount: '31', currency: 'USD' };
    const first = await ritaRequestsMobilePayout(fields);
    await ritaReviewsMobilePayout(fields);
    expect(await modal().innerText()).toContain(`Possible duplicate: the same recipient, amount and currency as ${first}`);
    await screenshot('duplicate-review', 'duplicate-review');
    const second = await submitReviewedPayout();

    await become(DEMO_PEOPLE.abel, { channelId: DEMO_CHANNELS.approvals.id });
    const approval = message(second);
    await eventually(() => approval.innerText()).toContain('Possible duplicate');
    expect(await approval.innerText()).toContain(`/fleet payouts ${first}`);
    expect(await approval.innerText()).toContain('Rita Requester');
    await approval.getByRole('button', { name: 'Approve' }).click();
    await eventually(() => modal().locator('.modal-title').innerText()).toBe(`Approve ${second}`);
    expect(await modal().innerText()).toContain('Possible duplicate');
    await screenshot('possible-duplicate', 'duplicate-approve');
    const before = sandbox().payouts().length;
    await modal().getByRole('button', { name: 'Approve and send' }).click();
    // Without the tick, Slack's client does not submit: nothing is sent.
    expect(await modal().locator('.modal-title').innerText()).toBe(`Approve ${second}`);
    expect(sandbox().payouts()).toHaveLength(before);
    await modal().getByLabel('I checked this is not a duplicate').check();
    await modal().getByRole('button', { name: 'Approve and send' }).click();
    await eventually(() => modal().innerText()).toContain('Sent.');
    await modal().locator('.modal-footer').getByRole('button', { name: 'Close' }).click();
    expect(sandbox().payouts()).toHaveLength(before + 1);
    // The message tells the channel who approved it and what became of it.
    const transactionId = sandbox().payouts().at(-1)!.transactionId;
    await eventually(() => approval.innerText()).toContain(transactionId);
    expect(await approval.innerText()).toMatch(/Approved by @?Abel Approver/);
    await scrollTo(approval);
    await screenshot('duplicate-sent', 'duplicate-sent');
  });
}

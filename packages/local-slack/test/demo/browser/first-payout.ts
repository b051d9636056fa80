/**
 * The first payout, end to end: Rita requests it through the form, Abel and Ada approve it, the feed
 * shows it and Rita is told it was sent.
 */
import { expect, it } from 'vitest';
import { DEMO_CHANNELS, DEMO_PEOPLE } from '../../../src/demo/people.js';
import type { BrowserSession } from './session.js';

export function firstPayoutSteps(session: BrowserSession): void {
  const { sandbox, screenshot, showLogsOnFailure, message, modal, eventually, run, become } = session;

  let requestId = '';

  it('lets Rita request a mobile money payout, correct the field the app refused, review and submit it', async () => {
    showLogsOnFailure();
    await run('/fleet payout');
    await eventually(() => modal().locator('.modal-title').innerText()).toBe('New payout');
    await modal().getByRole('button', { name: 'Mobile money' }).click();
    await eventually(() => modal().locator('.modal-title').innerText()).toBe('Mobile money payout');

    await modal().getByLabel('Phone number').fill('24381234567O');
    await modal().getByLabel('Recipient name').fill('Amani Kabila');
    await modal().getByLabel('Country').fill('CD');
    await modal().getByLabel('Mobile money operator').selectOption('VODACOM_MPESA');
    await modal().getByLabel('Amount').fill('150');
    await modal().getByLabel('Currency', { exact: true }).selectOption('USD');
    await screenshot('payout-form');
    await modal().getByRole('button', { name: 'Review' }).click();

    const phoneError = modal().locator('.block.input', { hasText: 'Phone number' }).locator('.field-error');
    await eventually(() => phoneError.innerText()).toContain('digits only');
    expect(await modal().locator('.field-error').count()).toBe(1);
    await screenshot('payout-form-error');

    await modal().getByLabel('Phone number').fill('243812345670');
    await modal().getByRole('button', { name: 'Review' }).click();
    await eventually(() => modal().locator('.modal-title').innerText()).toBe('Check the payout');
    const review = await modal().innerText();
    for (const detail of ['243812345670', 'Amani Kabila', 'Vodacom M-Pesa', '150.00 USD']) expect(review).toContain(detail);
    await screenshot('payout-review');

    await modal().getByRole('button', { name: 'Submit for approval' }).click();
    await eventually(() => modal().locator('.modal-title').innerText()).toBe('Payout requested');
    requestId = /PR-[A-Z0-9]+/.exec(await modal().innerText())?.[0] ?? '';
    expect(requestId).not.toBe('');
    await screenshot('payout-requested');
    await modal().locator('.modal-footer').getByRole('button', { name: 'Close' }).click();
    await eventually(() => modal().count()).toBe(0);
    expect(sandbox().payouts()).toHaveLength(0);
  });

  it('lets Abel approve it in the modal and Ada send it (a new recipient needs two), after which the approval message ends with the transaction id', async () => {
    showLogsOnFailure();
    await become(DEMO_PEOPLE.abel, { channelId: DEMO_CHANNELS.approvals.id });
    const approval = message(requestId);
    await eventually(() => approval.innerText()).toContain('Waiting for approval');
    expect(await approval.innerText()).toContain('New recipient');
    await screenshot('approval-waiting');

    await approval.getByRole('button', { name: 'Approve' }).click();
    await eventually(() => modal().locator('.modal-title').innerText()).toBe(`Approve ${requestId}`);
    await screenshot('approval-modal');
    await modal().getByRole('button', { name: 'Approve', exact: true }).click();
    await eventually(() => modal().innerText()).toContain('One more approver must approve');
    await modal().locator('.modal-footer').getByRole('button', { name: 'Close' }).click();
    expect(sandbox().payouts()).toHaveLength(0);

    await become(DEMO_PEOPLE.ada, { channelId: DEMO_CHANNELS.approvals.id });
    await message(requestId).getByRole('button', { name: 'Approve' }).click();
    await eventually(() => modal().locator('.modal-title').innerText()).toBe(`Approve ${requestId}`);
    await modal().getByRole('button', { name: 'Approve and send' }).click();
    await eventually(() => modal().innerText()).toContain('Sent.');
    await modal().locator('.modal-footer').getByRole('button', { name: 'Close' }).click();

    const [payout] = sandbox().payouts();
    expect(payout?.body).toMatchObject({ amount: 150, currency: 'USD', operator: 'VODACOM_MPESA' });
    const transactionId = payout!.transactionId;
    const status = approval.locator('.section-text', { hasText: 'Status' });
    await eventually(() => status.innerText()).toMatch(new RegExp(`Transaction ${transactionId}\\.?$`));
    expect(await approval.innerText()).toContain('(edited)');
    expect(await approval.getByRole('button', { name: 'Approve' }).count()).toBe(0);
    await screenshot('approval-sent');
  });

  it('shows the sent payout in the feed channel once the feed polls the Fleet API', async () => {
    showLogsOnFailure();
    await become(DEMO_PEOPLE.abel, { channelId: DEMO_CHANNELS.feed.id });
    const payout = sandbox().payouts()[0]!;
    // The feed polls every 5 seconds.
    const post = message(payout.transactionId);
    await expect.poll(() => post.count(), { timeout: 15_000 }).toBe(1);
    const text = await post.innerText();
    expect(text).toContain('150.00 USD');
    expect(text).toContain((payout.body as { reference: string }).reference);
    await screenshot('feed');
  });

  it('tells Rita in her direct messages with the bot that her payout was sent', async () => {
    showLogsOnFailure();
    await become(DEMO_PEOPLE.rita, 'direct messages');
    const transactionId = sandbox().payouts()[0]!.transactionId;
    const sent = message('was sent');
    await eventually(() => sent.count()).toBe(1);
    expect(await sent.innerText()).toContain(requestId);
    expect(await sent.innerText()).toContain(transactionId);
    await screenshot('requester-told');
  });
}

/** A saved recipient picked in the payout form, and approvals from the Home tab. */
import { expect, it } from 'vitest';
import { DEMO_CHANNELS, DEMO_PEOPLE } from '../../../src/demo/people.js';
import type { BrowserSession } from './session.js';

export function savedRecipientAndHomeSteps(session: BrowserSession): void {
  const { sandbox, screenshot, showLogsOnFailure, modal, eventually, run, become, ritaRequestsMobilePayout } = session;

  it('lets Rita pick a saved recipient in the payout form as she types, which fills in the recipient and keeps the amount', async () => {
    showLogsOnFailure();
    await become(DEMO_PEOPLE.rita, { channelId: DEMO_CHANNELS.treasury.id });
    await run('/fleet payout mobile');
    await eventually(() => modal().locator('.modal-title').innerText()).toBe('Mobile money payout');
    await modal().getByLabel('Amount').fill('42');
    await modal().getByPlaceholder('Name or number').fill('kabila');
    const option = modal().getByRole('option', { name: /Amani Kabila/ });
    await eventually(() => option.count()).toBe(1);
    await option.click();
    await eventually(() => modal().getByLabel('Phone number').inputValue()).toBe('243812345670');
    expect(await modal().getByLabel('Recipient name').inputValue()).toBe('Amani Kabila');
    expect(await modal().getByLabel('Amount').inputValue()).toBe('42');
    await screenshot('saved-recipient');
    await modal().locator('.modal-footer').getByRole('button', { name: 'Cancel' }).click();
    await eventually(() => modal().count()).toBe(0);
  });

  it("lets Abel, then Ada, approve Rita's pending payout to a new recipient from their Home tabs, which then no longer list it", async () => {
    showLogsOnFailure();
    const { page } = session;
    const id = await ritaRequestsMobilePayout({ phone: '243812345672', name: 'Grace Ilunga', operator: 'AIRTEL_MONEY', amount: '75', currency: 'USD' });

    const home = page.locator('#home');
    const waiting = home.locator(`[data-block-id="home_waiting_${id}"]`);
    const openHomeOf = async (person: (typeof DEMO_PEOPLE)[keyof typeof DEMO_PEOPLE]) => {
      await page.locator('#person').selectOption(person.id);
      await eventually(() => page.locator('#role').innerText()).toBe(person.role);
      await page.locator(`[data-conversation="home"]`).click();
      await eventually(() => waiting.count()).toBe(1);
    };
    await openHomeOf(DEMO_PEOPLE.abel);
    expect(await home.innerText()).toContain('Waiting for you');
    expect(await home.innerText()).toContain('Grace Ilunga');
    await screenshot('home-waiting');

    // A first payout to Grace's wallet: Abel's approval is one of the two it needs.
    await waiting.getByRole('button', { name: 'Approve' }).click();
    await eventually(() => modal().locator('.modal-title').innerText()).toBe(`Approve ${id}`);
    const before = sandbox().payouts().length;
    await modal().getByRole('button', { name: 'Approve', exact: true }).click();
    await eventually(() => modal().innerText()).toContain('One more approver must approve');
    await modal().locator('.modal-footer').getByRole('button', { name: 'Close' }).click();
    expect(sandbox().payouts()).toHaveLength(before);
    // His home is published again (within the throttle's 2 seconds) without the request he approved.
    await eventually(() => waiting.count()).toBe(0);

    await openHomeOf(DEMO_PEOPLE.ada);
    await waiting.getByRole('button', { name: 'Approve' }).click();
    await eventually(() => modal().locator('.modal-title').innerText()).toBe(`Approve ${id}`);
    await modal().getByRole('button', { name: 'Approve and send' }).click();
    await eventually(() => modal().innerText()).toContain('Sent.');
    await modal().locator('.modal-footer').getByRole('button', { name: 'Close' }).click();
    expect(sandbox().payouts()).toHaveLength(before + 1);
    expect(sandbox().payouts().at(-1)?.body).toMatchObject({ amount: 75, currency: 'USD', operator: 'AIRTEL_MONEY' });
    await eventually(() => waiting.count()).toBe(0);
    await screenshot('home-after-approval');
  });
}

/** A bulk payout from a file: checked, approved by two approvers, every row sent once. */
import { expect, it } from 'vitest';
import { DEMO_CHANNELS, DEMO_PEOPLE } from '../../../src/demo/people.js';
import type { BrowserSession } from './session.js';

export function bulkSteps(session: BrowserSession): void {
  const { sandbox, screenshot, showLogsOnFailure, message, modal, eventually, run, become } = session;

  it('lets Rita send a 20-row bulk payout from a file, which two approvers approve for its new recipients, and sends every row once', async () => {
    showLogsOnFailure();
    const { page } = session;
    await become(DEMO_PEOPLE.rita, { channelId: DEMO_CHANNELS.treasury.id });
    const rows = Array.from(
      { length: 20 },
      (_, index) => `mobile,2439900${String(index).padStart(5, '0')},ORANGE_MONEY,Driver ${index + 1},CD,${index + 1}.50,USD,,November`,
    );
    const file = `kind,number,provider,name,country,amount,currency,reference,note\r\n${rows.join('\r\n')}\r\n`;
    await run('/fleet payout bulk');
    await eventually(() => modal().locator('.modal-title').innerText()).toBe('Bulk payouts');
    await modal()
      .locator('input[type=file]')
      .setInputFiles({ name: 'drivers.csv', mimeType: 'text/csv', buffer: Buffer.from(file) });
    await eventually(() => modal().innerText()).toContain('drivers.csv uploaded');
    await screenshot('bulk-form');
    await modal().getByRole('button', { name: 'Check' }).click();
    await eventually(() => modal().innerText()).toContain('Every row can be sent');
    const summary = await modal().innerText();
    for (const detail of ['20 rows', '220.00 USD', '20 new recipients']) expect(summary).toContain(detail);
    await screenshot('bulk-checked');
    await modal().getByRole('button', { name: 'Ask for approval' }).click();
    await eventually(() => modal().innerText()).toContain('waiting for approval');
    const batchId = /PB-[A-Z0-9]{6}/.exec(await modal().innerText())?.[0] ?? '';
    await modal().locator('.modal-footer').getByRole('button', { name: 'Close' }).click();

    const before = sandbox().payouts().length;
    for (const approver of [DEMO_PEOPLE.abel, DEMO_PEOPLE.ada]) {
      await become(approver, { channelId: DEMO_CHANNELS.approvals.id });
      const approval = message(batchId).first();
      await approval.getByRole('button', { name: 'Approve and send all' }).click();
      await page.locator('.confirm-overlay').getByRole('button', { name: 'Yes' }).click();
      if (approver === DEMO_PEOPLE.abel) await eventually(() => approval.innerText()).toContain('1 of 2');
    }
    await screenshot('bulk-approved');
    await expect.poll(() => sandbox().payouts().length - before, { timeout: 40_000 }).toBe(20);
    const references = sandbox()
      .payouts()
      .slice(before)
      .map((payout) => (payout.body as { reference: string }).reference);
    expect(new Set(references).size).toBe(20);
    await become(DEMO_PEOPLE.rita, 'direct messages');
    await expect.poll(() => message(`${batchId} is finished`).count(), { timeout: 20_000 }).toBe(1);
    expect(await message(`${batchId} is finished`).innerText()).toContain('20 sent, 0 failed, 0 unknown, 0 not sent');
    await screenshot('bulk-results');
  }, 90_000);
}

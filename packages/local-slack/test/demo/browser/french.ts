/**
 * Fabrice, whose Slack runs in French: the balance and an approval in French, amounts written the
 * French way.
 */
import { expect, it } from 'vitest';
import { DEMO_CHANNELS, DEMO_PEOPLE } from '../../../src/demo/people.js';
import { formatAmount } from '../../../../../src/core/money.js';
import type { BrowserSession } from './session.js';

export function frenchSteps(session: BrowserSession): void {
  const { sandbox, screenshot, showLogsOnFailure, message, modal, eventually, run, become, ritaRequestsMobilePayout } = session;

  it('answers Fabrice, whose Slack runs in French, in French: /fleet solde with amounts written the French way', async () => {
    showLogsOnFailure();
    await become(DEMO_PEOPLE.fabrice, { channelId: DEMO_CHANNELS.treasury.id });
    await run('/fleet solde');
    const reply = message('Solde du compte de flotte');
    await eventually(() => reply.count()).toBe(1);
    for (const [currency, amount] of Object.entries(sandbox().balances())) {
      expect(await reply.innerText()).toContain(formatAmount(amount, currency, { locale: 'fr' }));
    }
    expect(await reply.getByRole('button', { name: 'Actualiser' }).count()).toBe(1);
    await screenshot('solde-in-french');
  });

  it('lets Fabrice approve a payout in French, the amount written the French way in the approval modal', async () => {
    showLogsOnFailure();
    // Rita's first payout went to this wallet, so it is no new recipient; and the amount is below CDF's
    // dual-approval threshold: Fabrice's approval alone sends it.
    const id = await ritaRequestsMobilePayout({ phone: '243812345670', name: 'Amani Kabila', operator: 'VODACOM_MPESA', amount: '150000', currency: 'CDF' });

    await become(DEMO_PEOPLE.fabrice, { channelId: DEMO_CHANNELS.approvals.id });
    const approval = message(id);
    await eventually(() => approval.count()).toBe(1);
    // The channel's message is in the channel's language; the modal is in Fabrice's.
    await approval.getByRole('button', { name: 'Approve' }).click();
    await eventually(() => modal().locator('.modal-title').innerText()).toBe(`Approuver ${id}`);
    expect(await modal().innerText()).toContain('150\u202f000,00 CDF');
    expect(await modal().innerText()).not.toContain('150,000.00');
    await screenshot('approval-modal-in-french');
    const before = sandbox().payouts().length;
    await modal().getByRole('button', { name: 'Approuver et envoyer' }).click();
    await eventually(() => modal().innerText()).toContain('Envoyé.');
    await modal().locator('.modal-footer').getByRole('button').first().click();
    expect(sandbox().payouts()).toHaveLength(before + 1);
    expect(sandbox().payouts().at(-1)?.body).toMatchObject({ amount: 150000, currency: 'CDF', operator: 'VODACOM_MPESA' });
  });
}

/** The reading steps: Rita's balance, the transactions paged with Next, and narrowed with the Filter modal. */
import { expect, it } from 'vitest';
import { formatAmount } from '../../../../../src/core/money.js';
import type { BrowserSession } from './session.js';

export function readingSteps(session: BrowserSession): void {
  const { sandbox, screenshot, showLogsOnFailure, message, modal, eventually, run } = session;

  it('shows Rita the balance in every currency, only to her', async () => {
    showLogsOnFailure();
    await run('/fleet balance');
    const reply = message('Fleet account balance');
    await eventually(() => reply.count()).toBe(1);
    await eventually(() => reply.innerText()).toContain('Only visible to you');
    for (const [currency, amount] of Object.entries(sandbox().balances())) {
      expect(await reply.innerText()).toContain(formatAmount(amount, currency, { locale: 'en' }));
    }
    await screenshot('balance');
  });

  it('pages Rita through the transactions with Next, updating the message in place', async () => {
    showLogsOnFailure();
    const newest = sandbox()
      .transactions()
      .slice(0, 20)
      .map((tx) => tx.reference);
    await run('/fleet transactions');
    const list = message('Fleet account transactions');
    // "Showing 1–10" while the ledger's first walk runs, "320 transactions, showing 1–10" once it is done.
    await eventually(() => list.innerText()).toMatch(/showing 1–10/i);
    for (const reference of newest.slice(0, 10)) expect(await list.innerText()).toContain(reference);
    await screenshot('transactions-page-1');

    await list.getByRole('button', { name: 'Next' }).click();
    await eventually(() => list.innerText()).toMatch(/showing 11–20/i);
    expect(await list.count()).toBe(1);
    const second = await list.innerText();
    for (const reference of newest.slice(10, 20)) expect(second).toContain(reference);
    expect(second).not.toContain(newest[0]);
    await screenshot('transactions-page-2');
  });

  it('lets Rita narrow the transactions with the Filter modal, its selects and date picker, into the same message', async () => {
    showLogsOnFailure();
    const { page, demo } = session;
    const reader = demo.bot.ledger!.reader;
    for (let wait = 0; wait < 600 && !(await reader.status()).historyComplete; wait += 1) await new Promise((resolve) => setTimeout(resolve, 50));
    const all = sandbox().transactions();
    const since = all[40]!.date.slice(0, 10);
    const expected = all.filter((tx) => tx.currency === 'USD' && tx.amount < 0 && Math.abs(tx.amount) >= 10 && tx.date.slice(0, 10) >= since);
    expect(expected.length).toBeGreaterThan(0);

    const list = message('Fleet account transactions');
    await list.getByRole('button', { name: 'Filter' }).click();
    await eventually(() => modal().locator('.modal-title').innerText()).toBe('Filter transactions');
    await modal().getByLabel('Currency').selectOption('USD');
    await modal().getByLabel('Direction').selectOption('out');
    await modal().getByLabel('From (day included)').fill(since);
    await modal().getByLabel('Smallest amount').fill('10');
    await screenshot('transactions-filter');
    await modal().getByRole('button', { name: 'Search' }).click();

    const count = `${expected.length.toLocaleString('en-US')} ${expected.length === 1 ? 'match' : 'matches'}`;
    await eventually(() => list.innerText()).toContain(count);
    expect(await list.count()).toBe(1);
    const shown = await list.innerText();
    expect(shown).toContain('in USD · money out · from');
    expect(shown).toContain('amount at least 10');
    expect(shown).toContain(expected[0]!.reference);
    // Picking in selects that share an action_id (each input is `value`) reached the right field, with no error shown.
    expect(await page.locator('#toasts .toast').allInnerTexts()).toEqual([]);
    await screenshot('transactions-filtered');
  });
}

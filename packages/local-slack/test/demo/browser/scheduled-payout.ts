/** The scheduled payout flow: requested two minutes ahead, approved now, released once at its time. */
import { expect, it } from 'vitest';
import { DEMO_CHANNELS, DEMO_PEOPLE } from '../../../src/demo/people.js';
import type { BrowserSession } from './session.js';

export function scheduledPayoutSteps(session: BrowserSession): void {
  const { sandbox, screenshot, showLogsOnFailure, message, modal, eventually, scrollTo, run, become } = session;

  it("lets Rita schedule a payout two minutes ahead on the team's clock, which Abel approves now and the app sends once at its time", async () => {
    showLogsOnFailure();
    const { page } = session;
    // Two minutes ahead, to the minute, on the demo team's clock (Kinshasa).
    const at = new Date(Date.now() + session.clockAheadMs + 2 * 60_000);
    const parts = Object.fromEntries(
      new Intl.DateTimeFormat('en-GB', {
        timeZone: 'Africa/Kinshasa',
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
        hour: '2-digit',
        minute: '2-digit',
        hourCycle: 'h23',
      })
        .formatToParts(at)
        .map((part) => [part.type, part.value]),
    );
    await become(DEMO_PEOPLE.rita, { channelId: DEMO_CHANNELS.treasury.id });
    await run('/fleet payout mobile');
    await eventually(() => modal().locator('.modal-title').innerText()).toBe('Mobile money payout');
    await modal().getByLabel('Phone number').fill('243812345670');
    await modal().getByLabel('Recipient name').fill('Amani Kabila');
    await modal().getByLabel('Country').fill('CD');
    await modal().getByLabel('Mobile money operator').selectOption('VODACOM_MPESA');
    await modal().getByLabel('Amount').fill('12');
    await modal().getByLabel('Currency', { exact: true }).selectOption('USD');
    await modal()
      .getByLabel(/^Send on/)
      .fill(`${parts.year}-${parts.month}-${parts.day}`);
    await modal().getByLabel(/^At\b/).fill(`${parts.hour}:${parts.minute}`);
    await screenshot('scheduled-payout-form');
    await modal().getByRole('button', { name: 'Review' }).click();
    await eventually(() => modal().locator('.modal-title').innerText()).toBe('Check the payout');
    // The time Rita chose, in 24-hour or 12-hour writing, whatever words surround it.
    const hour = Number(parts.hour);
    const sendTime = new RegExp(`\\b(${parts.hour}:${parts.minute}|${hour % 12 || 12}:${parts.minute}\\s?[AP]M)\\b`, 'i');
    expect(await modal().innerText()).toMatch(sendTime);
    await screenshot('scheduled-payout-review', 'scheduled-review');
    await modal().getByRole('button', { name: 'Submit for approval' }).click();
    await eventually(() => modal().locator('.modal-title').innerText()).toBe('Payout requested');
    const id = /PR-[A-Z0-9]+/.exec(await modal().innerText())?.[0] ?? '';
    await modal().locator('.modal-footer').getByRole('button', { name: 'Close' }).click();

    await become(DEMO_PEOPLE.abel, { channelId: DEMO_CHANNELS.approvals.id });
    const approval = message(id);
    await eventually(() => approval.innerText()).toContain('Scheduled:');
    expect(await approval.innerText()).toContain('Rita Requester');
    expect(await approval.innerText()).toMatch(sendTime);
    await approval.getByRole('button', { name: 'Approve' }).click();
    await eventually(() => modal().locator('.modal-title').innerText()).toBe(`Approve ${id}`);
    // The approver sees when the payout will be sent before approving it ahead.
    expect(await modal().innerText()).toMatch(sendTime);
    await modal()
      .getByRole('button', { name: /^Approve/ })
      .click();
    await eventually(() => modal().innerText()).toContain('Approved ahead');
    await modal().locator('.modal-footer').getByRole('button', { name: 'Close' }).click();
    await eventually(() => approval.innerText()).toContain('Approved ahead');
    const ours = () =>
      sandbox()
        .payouts()
        .filter((payout) => (payout.body as { amount?: number }).amount === 12);
    expect(ours()).toHaveLength(0);
    expect(await approval.innerText()).toMatch(/Approved by @?Abel Approver/);
    await scrollTo(approval);
    await screenshot('scheduled-payout-approved', 'scheduled-approved');
    // Rita's list says it waits for its time: nothing is moving yet.
    await become(DEMO_PEOPLE.rita, { channelId: DEMO_CHANNELS.treasury.id });
    await run('/fleet payouts');
    const listed = page.locator('article.message', { hasText: id }).last();
    await eventually(() => listed.count()).toBe(1);
    const line = (await listed.innerText()).split('\n').find((text) => text.includes(id)) ?? '';
    expect(line).toMatch(/scheduled/i);
    expect(line).not.toMatch(/sending/i);
    await become(DEMO_PEOPLE.abel, { channelId: DEMO_CHANNELS.approvals.id });

    // The app's clock reaches the payout's time (the bot reads it from the clock it was given).
    session.clockAheadMs += 3 * 60_000;
    await eventually(() => approval.innerText()).toContain('Sent.');
    await eventually(() => ours().length).toBe(1);
    // Sent as the request itself, with the reference the review showed, not a numbered copy.
    expect((ours()[0]!.body as { reference: string }).reference).toMatch(/^PAY-\d{8}-[A-Z0-9]{6}$/);
    expect(await approval.innerText()).not.toContain('Approved ahead');
    await scrollTo(approval);
    await screenshot('scheduled-payout-sent', 'scheduled-sent');
    await become(DEMO_PEOPLE.rita, 'direct messages');
    await eventually(() => page.locator('article.message', { hasText: id }).filter({ hasText: 'was sent' }).count()).toBe(1);
    expect(ours()).toHaveLength(1);
  });
}

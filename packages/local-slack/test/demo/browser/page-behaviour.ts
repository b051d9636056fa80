/**
 * How the page behaves as Slack's client does: an unknown command, an over-long one, Escape on a modal,
 * and a phone-wide window.
 */
import { expect, it } from 'vitest';
import { DEMO_CHANNELS, DEMO_PEOPLE } from '../../../src/demo/people.js';
import type { BrowserSession } from './session.js';

export function pageBehaviourSteps(session: BrowserSession): void {
  const { screenshot, showLogsOnFailure, message, modal, eventually, run, become } = session;

  const toasts = () => session.page.locator('.toast').allInnerTexts();

  it('says at once that /feet is not a valid command, as Slack does, instead of waiting for a timeout', async () => {
    showLogsOnFailure();
    await become(DEMO_PEOPLE.rita, { channelId: DEMO_CHANNELS.treasury.id });
    await run('/feet balance');
    await eventually(toasts).toContainEqual(expect.stringContaining('/feet is not a valid command'));
    expect((await toasts()).join(' ')).not.toContain('did not answer in 3 seconds');
  });

  it('refuses a 5,000-character command with a sentence saying how long it may be, and keeps it in the composer', async () => {
    showLogsOnFailure();
    const { page } = session;
    const long = `/fleet tx ${'x'.repeat(4990)}`;
    await run(long);
    await eventually(toasts).toContainEqual(expect.stringContaining('This command is 5,000 characters long; this workspace sends at most 4,000'));
    expect((await toasts()).join(' ')).not.toMatch(/invalid input|Too big/i);
    expect(await page.getByLabel('Slash command').inputValue()).toBe(long);
    await page.getByLabel('Slash command').fill('');
  });

  it('closes a modal with Escape, as Slack does', async () => {
    showLogsOnFailure();
    const { page, demo } = session;
    await run('/fleet tx');
    const list = message(/Previous|Next|Filter/);
    await eventually(() => list.count()).toBeGreaterThan(0);
    await list.last().getByRole('button', { name: 'Filter' }).click();
    await eventually(() => modal().count()).toBe(1);
    await page.keyboard.press('Escape');
    await eventually(() => modal().count()).toBe(0);
    expect(demo.slack.views(DEMO_PEOPLE.rita.id)).toEqual([]);
  });

  it('stays readable in a phone-wide window: no sideways scrolling, the conversation and the composer in view', async () => {
    showLogsOnFailure();
    const { page } = session;
    await page.setViewportSize({ width: 390, height: 844 });
    try {
      await run('/fleet balance');
      await eventually(() => message('Fleet account balance').count()).toBeGreaterThan(0);
      expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
      expect((await page.locator('#messages').boundingBox())?.width).toBeGreaterThanOrEqual(360);
      expect((await page.getByLabel('Slash command').boundingBox())?.width).toBeGreaterThanOrEqual(250);
      expect(await page.getByLabel('Slash command').isVisible()).toBe(true);
      await screenshot('phone-width');
    } finally {
      await page.setViewportSize({ width: 1280, height: 860 });
    }
  });
}

/** Who sees what: a newcomer refused, and the person switcher kept when a late answer arrives. */
import { expect, it } from 'vitest';
import { DEMO_CHANNELS, DEMO_PEOPLE } from '../../../src/demo/people.js';
import { NO_ACCESS_MESSAGE } from '../../../../../src/slack/viewers.js';
import type { BrowserSession } from './session.js';

export function accessSteps(session: BrowserSession): void {
  const { screenshot, showLogsOnFailure, message, eventually, run, become } = session;

  it('tells Nico the newcomer that he has no access', async () => {
    showLogsOnFailure();
    const { page } = session;
    await become(DEMO_PEOPLE.nico, { channelId: DEMO_CHANNELS.treasury.id });
    await run('/fleet balance');
    const refusal = NO_ACCESS_MESSAGE.replace(':lock: ', '').split('.')[0]!;
    await eventually(() => message(refusal).count()).toBe(1);
    expect(await page.locator('article.message', { hasText: 'Fleet account balance' }).count()).toBe(0);
    await screenshot('newcomer-refused');
  });

  it('keeps the person chosen in the switcher when an answer for the previous person arrives late', async () => {
    showLogsOnFailure();
    const { page, demo } = session;
    await become(DEMO_PEOPLE.nico, { channelId: DEMO_CHANNELS.treasury.id });
    let arrived!: () => void;
    let release!: () => void;
    const nicoAsked = new Promise<void>((resolve) => (arrived = resolve));
    const released = new Promise<void>((resolve) => (release = resolve));
    const nicoState = `**/workspace/state?as=${DEMO_PEOPLE.nico.id}`;
    await page.route(nicoState, async (route) => {
      arrived();
      await released;
      await route.continue();
    });
    try {
      // Anything new in the workspace makes the page ask for Nico's state again; that answer is held back.
      // The bot posts in #treasury once invited there, as in Slack.
      demo.slack.invite(DEMO_CHANNELS.treasury.id);
      await demo.bot.app.client.chat.postMessage({ channel: DEMO_CHANNELS.treasury.id, text: 'Treasury stand-up at 10:00' });
      await nicoAsked;
      await page.locator('#person').selectOption(DEMO_PEOPLE.abel.id);
      release();
      await eventually(() => page.locator('#role').innerText()).toBe(DEMO_PEOPLE.abel.role);
      expect(await page.locator('#person').inputValue()).toBe(DEMO_PEOPLE.abel.id);
      await eventually(() => page.locator('#dms a').getAttribute('data-conversation')).toBe(`D${DEMO_PEOPLE.abel.id.slice(1)}`);
    } finally {
      release();
      await page.unroute(nicoState);
    }
  });
}

/**
 * Block Kit limits: nothing the run sent breaks one; then a block the page does not know and a
 * violation, shown as Slack's client would not. Runs last.
 */
import { expect, it } from 'vitest';
import { DEMO_CHANNELS, DEMO_PEOPLE } from '../../../src/demo/people.js';
import { checkMessage, checkView } from '../../../src/workspace/index.js';
import type { BrowserSession } from './session.js';

export function limitSteps(session: BrowserSession): void {
  const { screenshot, showLogsOnFailure, message, eventually, become } = session;

  it('sent nothing during the run that breaks a Block Kit limit', () => {
    const { demo } = session;
    const checked = { messages: 0, views: 0 };
    for (const call of demo.slack.apiCalls) {
      if (call.error) continue;
      if (call.method.startsWith('chat.') && call.method !== 'chat.delete') {
        checked.messages += 1;
        expect(checkMessage(call.args.blocks ?? [], typeof call.args.text === 'string' ? call.args.text : undefined), call.method).toEqual([]);
      }
      if (call.method.startsWith('views.')) {
        checked.views += 1;
        expect(checkView(call.args.view as Record<string, unknown>), call.method).toEqual([]);
      }
    }
    // Replies through response URLs and view_submission answers are checked by the workspace as they arrive.
    expect(demo.slack.limitViolations).toEqual([]);
    expect(checked.messages).toBeGreaterThanOrEqual(2);
    expect(checked.views).toBeGreaterThanOrEqual(3);
  });

  // Runs last: it makes the bot send what real Slack would refuse.
  it('shows a block it does not know as a placeholder naming its type, and a limit violation as a banner', async () => {
    showLogsOnFailure();
    const { page, demo } = session;
    await become(DEMO_PEOPLE.rita, { channelId: DEMO_CHANNELS.treasury.id });
    demo.slack.invite(DEMO_CHANNELS.treasury.id);
    await demo.bot.app.client.chat.postMessage({
      channel: DEMO_CHANNELS.treasury.id,
      text: 'A message the page cannot fully show',
      blocks: [
        { type: 'header', text: { type: 'plain_text', text: 'H'.repeat(151) } },
        { type: 'rich_text', elements: [] },
        { type: 'actions', elements: [{ type: 'workflow_button', text: { type: 'plain_text', text: 'Run' } }] },
      ] as never,
    });
    const posted = message('HHHH');
    await eventually(() => posted.locator('.unknown').allInnerTexts()).toEqual(['Unsupported block: rich_text', 'Unsupported element: workflow_button']);
    const banner = page.locator('#violations');
    await eventually(() => banner.isVisible()).toBe(true);
    expect(await banner.innerText()).toContain('151 chars (limit 150)');
    await screenshot('placeholder-and-violation');
  });
}

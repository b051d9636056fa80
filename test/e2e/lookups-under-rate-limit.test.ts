import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHANNELS, PEOPLE, startHarness, type Harness } from '../support/bot-harness.js';
import { MOBILE_FIELDS, openApproveModal, PAYOUT_ENV, requestPayout } from '../support/payout-flow.js';

describe('lookups before a modal while Slack rate-limits background posting', () => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness({ env: { ...PAYOUT_ENV } });
  });
  afterAll(async () => h?.close());

  it('opens the approve modal at once while background posts wait out their 429s, and delivers every post after', async () => {
    const id = await requestPayout(h, 'mobile', { ...MOBILE_FIELDS, amount: '163' });
    const background = (text: string) => text.startsWith('background post');
    // A storm on chat.postMessage: the app's shared client pauses its whole queue for each Retry-After.
    h.slack.failNext('chat.postMessage', { retryAfterSeconds: 3 }, 2);
    const posts = Array.from({ length: 5 }, (_, i) => h.bot.app.client.chat.postMessage({ channel: CHANNELS.approvals, text: `background post ${i + 1}` }));
    await h.slack.waitFor(() => h.slack.apiCalls.some((call) => call.method === 'chat.postMessage' && call.error === 'http_429'));

    // The second approver has not been seen yet: their users.info (their language) is read before the modal.
    const callsBefore = h.slack.apiCalls.length;
    const clicked = performance.now();
    await openApproveModal(h, PEOPLE.approver2, id);
    const elapsedMs = performance.now() - clicked;
    const lookups = h.slack.apiCalls.slice(callsBefore).filter((call) => call.method === 'users.info' && call.args.user === PEOPLE.approver2);
    expect(lookups.length).toBeGreaterThan(0);
    expect(elapsedMs).toBeLessThan(1500);
    expect(h.slack.messages(CHANNELS.approvals).filter((message) => background(message.text)).length).toBeLessThan(5);

    await Promise.all(posts);
    expect(
      h.slack
        .messages(CHANNELS.approvals)
        .filter((message) => background(message.text))
        .map((message) => message.text)
        .sort(),
    ).toEqual([1, 2, 3, 4, 5].map((i) => `background post ${i}`));
  });
});

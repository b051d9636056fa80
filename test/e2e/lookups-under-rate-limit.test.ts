import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHANNELS, PEOPLE, startHarness, type Harness } from '../support/bot-harness.js';
import { approvalMessage, MOBILE_FIELDS, openApproveModal, openPayoutForm, PAYOUT_ENV, requestPayout, submitForm, viewText } from '../support/payout-flow.js';

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

  it('posts an approval message through a long run of 429s, once, where a person-facing call would have given up', async () => {
    // Four refusals in a row: three retries, as a person's answer has, would lose the post.
    h.slack.failNext('chat.postMessage', { retryAfterSeconds: 1 }, 4);
    const form = await openPayoutForm(h, PEOPLE.requester, 'payout mobile');
    const review = await submitForm(h, PEOPLE.requester, form.id, { ...MOBILE_FIELDS, amount: '171' });
    await h.slack.submitView({ userId: PEOPLE.requester, viewId: review.id });
    const id = /PR-[A-Z0-9]{6}/.exec(viewText(h.slack.view(review.id)!))![0];
    // Retry-After waited out four times, with a backoff between: about 12 s; the upkeep's own post again comes later.
    await h.slack.waitFor(() => approvalMessage(h, id), { timeoutMs: 18_000, message: 'the approval message, after the 429s' });
    const refused = h.slack.apiCalls.filter((call) => call.method === 'chat.postMessage' && call.error === 'http_429');
    expect(refused.length).toBeGreaterThanOrEqual(4);
    expect(h.slack.messages(CHANNELS.approvals).filter((message) => message.text.includes(id))).toHaveLength(1);
  }, 40_000);
});

import { beforeEach, describe, expect, it } from 'vitest';
import { blockText, CHANNELS, PEOPLE, type Harness } from '../../support/bot-harness.js';
import { HOUR, ManualClock, MINUTE } from '../../support/payout-doubles.js';
import {
  approvalMessage,
  approveAs,
  buttonsOf,
  clickOnApproval,
  dmTexts,
  MOBILE_FIELDS,
  MOBILE_PATH,
  PAYOUT_ACTIONS,
  payoutPosts,
  privateNotes,
  requestPayout,
  useUnknownOutcomeHarness,
  waitForApprovalMessage,
} from '../../support/payout-flow.js';

const postsTo = (h: Harness, path: string) => h.sandbox.requests.filter((request) => request.method === 'POST' && request.path === path);

describe('payout outcomes that are not a plain success', () => {
  const clock = new ManualClock(new Date());
  const harness = useUnknownOutcomeHarness(clock);
  let h: Harness;
  beforeEach(() => {
    h = harness();
  });

  it('settles a payout whose answer never came by finding it in the transactions, without sending it twice', async () => {
    const id = await requestPayout(h, 'mobile', { ...MOBILE_FIELDS, amount: '21' });
    const before = payoutPosts(h);
    h.sandbox.setFault({ match: { method: 'POST', path: MOBILE_PATH }, afterProcessing: true, hang: true, times: 1 });
    await approveAs(h, PEOPLE.approver, id);
    const [payout] = h.sandbox.payouts().slice(-1);
    const done = await waitForApprovalMessage(h, id, payout!.transactionId);
    expect(blockText(done)).toContain('*Sent.*');
    expect(payoutPosts(h) - before).toBe(1);
    const history = (await h.bot.payouts.history(id)).map((event) => event.event);
    expect(history).toEqual(['requested', 'approved', 'executing', 'unknown', 'reconciled']);
    await h.slack.waitFor(() => dmTexts(h, PEOPLE.requester).find((text) => text.includes(id) && text.includes(payout!.transactionId)));
  });

  it('keeps a 503 payout unknown until its transaction appears, then shows it completed', async () => {
    const id = await requestPayout(h, 'mobile', { ...MOBILE_FIELDS, amount: '22' });
    const before = payoutPosts(h);
    h.sandbox.setFault({ match: { method: 'POST', path: MOBILE_PATH }, status: 503, times: 1 });
    expect(await approveAs(h, PEOPLE.approver, id)).toContain('Outcome unknown');
    const unknown = await waitForApprovalMessage(h, id, 'Outcome unknown');
    expect(buttonsOf(unknown)).toEqual([]);
    const request = await h.bot.payouts.get(id);
    await h.slack.waitFor(() => dmTexts(h, PEOPLE.requester).find((text) => text.includes(id) && text.includes('gave no clear answer')));

    // The Fleet API did act after all: its transaction shows up in the list.
    const appeared = h.sandbox.addTransaction({
      type: 'PAYMENT',
      amount: 22,
      currency: 'USD',
      status: 'Completed',
      description: `Mobile money payout ${request!.reference} to 243812345678`,
    });
    clock.advance(2000);
    const done = await waitForApprovalMessage(h, id, appeared.reference);
    expect(blockText(done)).toContain(`*Sent.* Transaction \`${appeared.reference}\``);
    expect(payoutPosts(h) - before).toBe(1);
    await h.slack.waitFor(() =>
      dmTexts(h, PEOPLE.requester).find((text) => text.includes(id) && text.includes('was sent') && text.includes(appeared.reference)),
    );
  });

  it('asks for review when the payout is not found in time, and lets another approver retry with the same reference', async () => {
    const id = await requestPayout(h, 'mobile', { ...MOBILE_FIELDS, amount: '23' });
    const before = postsTo(h, MOBILE_PATH).length;
    h.sandbox.setFault({ match: { method: 'POST', path: MOBILE_PATH }, status: 503, times: 1 });
    await approveAs(h, PEOPLE.approver, id);
    await waitForApprovalMessage(h, id, 'Outcome unknown');

    clock.advance(11 * MINUTE);
    const review = await waitForApprovalMessage(h, id, 'Needs review');
    expect(buttonsOf(review)).toEqual([PAYOUT_ACTIONS.retry]);
    expect(JSON.stringify(review.blocks)).toContain('"confirm":{"title":{"type":"plain_text","text":"Send this payout again?"');
    await h.slack.waitFor(() => dmTexts(h, PEOPLE.requester).find((text) => text.includes(id) && text.includes('was not found')));

    await clickOnApproval(h, PEOPLE.newcomer, id, PAYOUT_ACTIONS.retry);
    await h.slack.waitFor(() => privateNotes(h, PEOPLE.newcomer).find((text) => text.includes('Only approvers can send a payout again')));
    expect(postsTo(h, MOBILE_PATH).length - before).toBe(1);

    await clickOnApproval(h, PEOPLE.approver2, id, PAYOUT_ACTIONS.retry);
    const transactionId = await h.slack.waitFor(() => h.sandbox.payouts().find((payout) => JSON.stringify(payout.body).includes('"amount":23'))?.transactionId);
    const done = await waitForApprovalMessage(h, id, transactionId);
    expect(blockText(done)).toContain('sent 2 times with the same reference');
    const posts = postsTo(h, MOBILE_PATH).slice(before);
    expect(posts).toHaveLength(2);
    expect(posts[1]!.body).toEqual(posts[0]!.body);
    const history = (await h.bot.payouts.history(id)).map((event) => event.event);
    expect(history).toEqual(['requested', 'approved', 'executing', 'unknown', 'needs_review', 'retry_approved', 'retried', 'completed']);
  });

  it('posts the approval message again when Slack refused it the first time', async () => {
    h.slack.failNext('chat.postMessage', { error: 'not_in_channel' });
    const id = await requestPayout(h, 'mobile', { ...MOBILE_FIELDS, amount: '25' });
    expect(h.slack.apiCalls.filter((call) => call.method === 'chat.postMessage' && call.error === 'not_in_channel')).toHaveLength(1);
    expect(h.slack.messages(CHANNELS.approvals).filter((message) => message.text.includes(id))).toHaveLength(1);
    expect(buttonsOf(approvalMessage(h, id)!)).toContain(PAYOUT_ACTIONS.approve);
  });

  it('expires a request nobody approved in time, telling the channel and the requester', async () => {
    const id = await requestPayout(h, 'mobile', { ...MOBILE_FIELDS, amount: '24' });
    expect(buttonsOf(approvalMessage(h, id)!)).toContain(PAYOUT_ACTIONS.approve);
    clock.advance(25 * HOUR);
    const expired = await waitForApprovalMessage(h, id, 'Expired');
    expect(buttonsOf(expired)).toEqual([]);
    expect(expired.text).toContain('expired');
    await h.slack.waitFor(() => dmTexts(h, PEOPLE.requester).find((text) => text.includes(id) && text.includes('expired without enough approvals')));
    expect((await h.bot.payouts.get(id))?.state).toBe('expired');
  });
});

import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FRESH_READ_REUSE_MS } from '../../../src/slack/access.js';
import { blockText, PEOPLE, startHarness, type Harness } from '../../support/bot-harness.js';
import { ManualClock } from '../../support/payout-doubles.js';
import {
  approveAs,
  buttonsOf,
  dmTexts,
  MOBILE_FIELDS,
  openApproveModal,
  openPayoutForm,
  PAYOUT_ACTIONS,
  PAYOUT_ENV,
  PAYOUT_VIEWS,
  payoutPosts,
  requestPayout,
  submitApproval,
  submitForm,
  viewText,
  waitForApprovalMessage,
} from '../../support/payout-flow.js';

const REQUESTERS_GROUP = 'S0REQUESTERS';
const APPROVERS_GROUP = 'S0APPROVERS';

// Each test pays in its own currency or to its own phone, so that the day totals of one do not
// decide the approvals of another (they share the database and the requester). The bot caches group
// members for a minute and a fresh lookup refreshes that cache, so a person removed in one test stays
// removed for the bot in the next ones: each test removes someone the later tests do not need. A
// fresh read stands for FRESH_READ_REUSE_MS: each change of a group lets that pass on the bot's clock.
const clock = new ManualClock(new Date());
function setMembers(h: Harness, group: string, members: string[]): void {
  h.slack.setUsergroupMembers(group, members);
  clock.advance(FRESH_READ_REUSE_MS);
}
const APPROVERS = [PEOPLE.approver, PEOPLE.approver2, PEOPLE.newcomer];
describe('payout approval rules, as approvers see them', () => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness({
      env: { ...PAYOUT_ENV, FLEET_REQUESTERS: REQUESTERS_GROUP, FLEET_APPROVERS: APPROVERS_GROUP },
      slack: { usergroups: { [REQUESTERS_GROUP]: [PEOPLE.requester], [APPROVERS_GROUP]: APPROVERS } },
      bot: { clock },
    });
  });
  afterAll(async () => h?.close());
  beforeEach(() => {
    setMembers(h, REQUESTERS_GROUP, [PEOPLE.requester]);
    setMembers(h, APPROVERS_GROUP, APPROVERS);
  });
  afterEach(() => {
    expect(h.slack.limitViolations).toEqual([]);
  });

  it("needs two approvers once the requester's USD total for the day is above the threshold, and says so on the review and the approval message", async () => {
    const wallet = { ...MOBILE_FIELDS, phone: '243810000001', amount: '600', currency: 'USD' };
    const first = await requestPayout(h, 'mobile', wallet);
    expect(await approveAs(h, PEOPLE.approver, first)).toContain('Sent');
    const posts = payoutPosts(h);

    const form = await openPayoutForm(h, PEOPLE.requester, 'payout mobile');
    const review = await submitForm(h, PEOPLE.requester, form.id, wallet);
    expect(review.view.callback_id).toBe(PAYOUT_VIEWS.review);
    const reason = "the requester's USD total for the team’s day, 1,200.00 USD, is above 1,000.00 USD";
    expect(viewText(review)).toContain(`Needs 2 approvers: ${reason}`);
    await h.slack.submitView({ userId: PEOPLE.requester, viewId: review.id });
    const second = /PR-[A-Z0-9]{6}/.exec(viewText(h.slack.view(review.id)!))![0];
    await h.slack.closeView({ userId: PEOPLE.requester, viewId: review.id });

    const message = await waitForApprovalMessage(h, second, reason);
    expect(blockText(message)).toContain('(0 of 2');
    // The same wallet and amount again: a possible duplicate, approved with the tick.
    expect(await approveAs(h, PEOPLE.approver, second, { tick: true })).toContain('One more approver must approve');
    expect(payoutPosts(h)).toBe(posts);
  });

  it("does not let an approver just removed from the approvers' group release a payout, although the group was read moments before", async () => {
    const id = await requestPayout(h, 'mobile', { ...MOBILE_FIELDS, phone: '243810000002', amount: '10', currency: 'EUR' });
    const posts = payoutPosts(h);
    // Opening the modal read the group (the cache is warm); the approver is removed before pressing Approve and send.
    const modal = await openApproveModal(h, PEOPLE.newcomer, id);
    setMembers(h, APPROVERS_GROUP, [PEOPLE.approver, PEOPLE.approver2]);
    const outcome = await submitApproval(h, PEOPLE.newcomer, modal.id);
    expect(outcome).toContain('You are not on the list of people who may approve payouts');
    expect(payoutPosts(h)).toBe(posts);
    const message = await waitForApprovalMessage(h, id, 'Waiting for approval');
    expect(blockText(message)).toContain('(0 of 1');
  });

  it('shows that an earlier approval no longer counts once its giver is removed, and waits for another approver', async () => {
    const id = await requestPayout(h, 'mobile', { ...MOBILE_FIELDS, phone: '243810000003', amount: '3000000', currency: 'CDF' });
    const posts = payoutPosts(h);
    expect(await approveAs(h, PEOPLE.approver, id)).toContain('One more approver must approve');
    setMembers(h, APPROVERS_GROUP, [PEOPLE.approver2]);

    const outcome = await approveAs(h, PEOPLE.approver2, id);
    expect(outcome).toContain('One more approver must approve');
    expect(payoutPosts(h)).toBe(posts);
    const message = await waitForApprovalMessage(h, id, `<@${PEOPLE.approver}>'s approval no longer counts: no longer an approver`);
    expect(blockText(message)).toContain('(1 of 2');
    expect(blockText(message)).toContain('Waiting for approval');
    expect(buttonsOf(message)).toEqual([PAYOUT_ACTIONS.approve, PAYOUT_ACTIONS.reject]);
  });

  it('does not send the pending request of a requester removed from the requesters, and tells approvers and the requester why', async () => {
    const id = await requestPayout(h, 'mobile', { ...MOBILE_FIELDS, phone: '243810000004', amount: '10', currency: 'EUR' });
    const posts = payoutPosts(h);
    setMembers(h, REQUESTERS_GROUP, []);

    const outcome = await approveAs(h, PEOPLE.approver2, id);
    expect(outcome).toContain('nothing was sent');
    expect(payoutPosts(h)).toBe(posts);
    await waitForApprovalMessage(h, id, `Not sent: <@${PEOPLE.requester}> may no longer request payouts`);
    await h.slack.waitFor(() => dmTexts(h, PEOPLE.requester).find((text) => text.includes(id) && text.includes('was not sent')));
  });
});

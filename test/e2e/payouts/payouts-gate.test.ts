import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { blockText, PEOPLE, startHarness, type Harness } from '../../support/bot-harness.js';
import { ManualClock } from '../../support/payout-doubles.js';
import {
  approveAs,
  dmTexts,
  formValues,
  MOBILE_FIELDS,
  openPayoutForm,
  PAYOUT_ENV,
  PAYOUT_VIEWS,
  payoutPosts,
  viewText,
  waitForApprovalMessage,
} from '../../support/payout-flow.js';
import { FRESH_READ_REUSE_MS } from '../../../src/slack/access.js';
import { PAYOUT_SCHEDULE } from '../../../src/slack/ids.js';

const SENIORS_GROUP = 'S0SENIORS';
const clock = new ManualClock(new Date('2026-11-26T08:00:00Z'));

describe('the gate before sending, through the whole bot', () => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness({
      env: {
        ...PAYOUT_ENV,
        FLEET_APPROVERS: `${PEOPLE.approver},${PEOPLE.approver2},${PEOPLE.newcomer}`,
        PAYOUT_SENIOR_APPROVAL_ABOVE: 'USD:2000,EUR:2000,CDF:5000000',
        PAYOUT_SENIOR_APPROVERS: SENIORS_GROUP,
      },
      slack: { usergroups: { [SENIORS_GROUP]: [PEOPLE.approver2] } },
      bot: { clock, payoutTimers: { scheduleEveryMs: 50 } },
    });
  });
  afterAll(async () => h?.close());
  afterEach(() => {
    expect(h.slack.limitViolations).toEqual([]);
  });

  it('holds a scheduled payout above the senior tier whose senior approver left the group before its time, says why, and sends it once a senior approves', async () => {
    const form = await openPayoutForm(h, PEOPLE.requester, 'payout mobile');
    const when = { [PAYOUT_SCHEDULE.sendOnBlock]: { value: '2026-11-26' }, [PAYOUT_SCHEDULE.sendAtBlock]: { value: '10:00' } };
    await h.slack.submitView({ userId: PEOPLE.requester, viewId: form.id, values: { ...formValues({ ...MOBILE_FIELDS, amount: '2500' }), ...when } });
    const review = h.slack.view(form.id)!;
    expect(review.view.callback_id, JSON.stringify(review.errors)).toBe(PAYOUT_VIEWS.review);
    await h.slack.submitView({ userId: PEOPLE.requester, viewId: review.id });
    const id = /PR-[A-Z0-9]{6}/.exec(viewText(h.slack.view(review.id)!))![0];
    await h.slack.closeView({ userId: PEOPLE.requester, viewId: review.id });
    await waitForApprovalMessage(h, id, 'needs one of');
    await approveAs(h, PEOPLE.approver, id);
    expect(await approveAs(h, PEOPLE.approver2, id)).toContain('Approved ahead');

    h.slack.setUsergroupMembers(SENIORS_GROUP, []);
    clock.set(new Date('2026-11-26T10:00:00Z'));
    // A one-off is sent as the request itself: the request is what the gate holds.
    const payoutId = id;
    const held = blockText(await waitForApprovalMessage(h, payoutId, 'senior approver who still is one'));
    expect(held).toContain('Not sent');
    expect(payoutPosts(h)).toBe(0);
    await h.slack.waitFor(() => dmTexts(h, PEOPLE.requester).find((text) => text.includes(payoutId) && text.includes('was not sent yet')), {
      message: 'the requester told',
    });

    h.slack.setUsergroupMembers(SENIORS_GROUP, [PEOPLE.approver2]);
    // The release's fresh read of the group stands for a few seconds.
    clock.advance(FRESH_READ_REUSE_MS);
    expect(await approveAs(h, PEOPLE.approver2, payoutId)).toContain('Sent');
    expect(payoutPosts(h)).toBe(1);
  });
});

import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { batchMessage, batchRow, submitBatch } from '../../support/batch-flow.js';
import { blockText, CHANNELS, PEOPLE, startHarness, type Harness } from '../../support/bot-harness.js';
import { MOBILE_FIELDS, PAYOUT_ENV, requestPayout, waitForApprovalMessage } from '../../support/payout-flow.js';

const APPROVERS_GROUP = 'S0APPROVERS';

// A new recipient needs 2 approvers, but the approvers' user group has one member: nobody can be
// refused this at start, since the group's members are known only to Slack.
describe('a rule that needs more approvers than a user group holds', () => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness({
      env: { ...PAYOUT_ENV, FLEET_APPROVERS: APPROVERS_GROUP, PAYOUT_NEW_RECIPIENT_APPROVALS: '2' },
      slack: { usergroups: { [APPROVERS_GROUP]: [PEOPLE.approver] } },
    });
  });
  afterAll(async () => h?.close());
  afterEach(() => {
    expect(h.slack.limitViolations).toEqual([]);
  });

  it('says on the approval message that not enough people can approve the request', async () => {
    const id = await requestPayout(h, 'mobile', { ...MOBILE_FIELDS, phone: '243810000091', amount: '10' });
    const message = await waitForApprovalMessage(h, id, 'besides the requester can approve');
    expect(blockText(message)).toContain('Only 1 person besides the requester can approve (`FLEET_APPROVERS`), and this request needs 2');
  });

  it("says it on a bulk payout's approval message too", async () => {
    const id = await submitBatch(h, [batchRow(92)]);
    const { ts } = await batchMessage(h, id);
    const shown = await h.slack.waitFor(() => {
      const text = blockText(h.slack.message(CHANNELS.approvals, ts)!);
      return text.includes('besides the requester can approve') ? text : undefined;
    });
    expect(shown).toContain('Only 1 person besides the requester can approve (`FLEET_APPROVERS`), and this request needs 2');
  });
});

// Two approvers are named, enough to start; but Ada also requests, and nobody approves their own request.
describe('a requester who is one of too few approvers', () => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness({ env: { ...PAYOUT_ENV, FLEET_REQUESTERS: `${PEOPLE.requester},${PEOPLE.approver2}` } });
  });
  afterAll(async () => h?.close());
  afterEach(() => {
    expect(h.slack.limitViolations).toEqual([]);
  });

  it('is told on the approval message of their payout that needs two approvers', async () => {
    const id = await requestPayout(h, 'mobile', { ...MOBILE_FIELDS, phone: '243810000094', amount: '1500' }, PEOPLE.approver2);
    const message = await waitForApprovalMessage(h, id, 'besides the requester can approve');
    expect(blockText(message)).toContain('Only 1 person besides the requester can approve (`FLEET_APPROVERS`), and this request needs 2');
  });

  it('says nothing on a payout that one approver can approve', async () => {
    // In EUR: her USD total for the day is already over the threshold.
    const id = await requestPayout(h, 'mobile', { ...MOBILE_FIELDS, phone: '243810000095', amount: '10', currency: 'EUR' }, PEOPLE.approver2);
    const message = await waitForApprovalMessage(h, id, '(0 of 1)');
    expect(blockText(message)).not.toContain('besides the requester');
  });
});

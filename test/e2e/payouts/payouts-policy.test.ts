import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_USERS } from '@fleet-treasury-bot/local-slack';
import { blockText, CHANNELS, PEOPLE, startHarness, type Harness } from '../../support/bot-harness.js';
import {
  approvalMessage,
  approveAs,
  BANK_FIELDS,
  buttonsOf,
  clickOnApproval,
  dmTexts,
  fieldErrors,
  MOBILE_FIELDS,
  openApproveModal,
  openPayoutForm,
  PAYOUT_ACTIONS,
  PAYOUT_BLOCKS,
  PAYOUT_ENV,
  PAYOUT_VIEWS,
  payoutPosts,
  privateNotes,
  requestPayout,
  submitApproval,
  submitForm,
  viewText,
  waitForApprovalMessage,
  waitForView,
} from '../../support/payout-flow.js';

const CROWD = Array.from({ length: 20 }, (_, index) => `U0CROWD${String(index + 1).padStart(2, '0')}`);

describe('payout rules, enforced through Slack', () => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness({
      // The requester may also approve: their own approval must still never count.
      env: { ...PAYOUT_ENV, FLEET_APPROVERS: [PEOPLE.approver, PEOPLE.approver2, PEOPLE.requester, ...CROWD].join(',') },
      slack: { users: [...DEFAULT_USERS, ...CROWD.map((id) => ({ id, name: id.toLowerCase() }))] },
    });
  });
  afterAll(async () => h?.close());
  afterEach(() => {
    expect(h.slack.limitViolations).toEqual([]);
  });

  async function errorsFor(kind: 'mobile' | 'bank', fields: Record<string, string>) {
    const form = await openPayoutForm(h, PEOPLE.requester, `payout ${kind}`);
    const view = await submitForm(h, PEOPLE.requester, form.id, { ...(kind === 'mobile' ? MOBILE_FIELDS : BANK_FIELDS), ...fields });
    return { view, errors: fieldErrors(view) };
  }

  it('shows each problem with the form under its own field and nowhere else', async () => {
    const cases: Array<[kind: 'mobile' | 'bank', fields: Record<string, string>, field: string, words: RegExp]> = [
      ['mobile', { phone: '24381234ABCD' }, 'phone', /letters/],
      ['mobile', { countryCode: 'Congo' }, 'countryCode', /two-letter country code/],
      ['mobile', { phone: '0812345678' }, 'phone', /starts with the country prefix 243, without a plus/],
      ['bank', { bankCode: 'BCDCCDK' }, 'bankCode', /8 or 11 characters/],
      ['mobile', { amount: '1,500' }, 'amount', /1,500\.00 USD or 1\.50 USD/],
      ['mobile', { amount: '1.000,00' }, 'amount', /as a number/],
      ['mobile', { amount: '10.505' }, 'amount', /^10\.505 USD: 10,505\? USD has 2 decimals\.$/],
      ['mobile', { amount: '10.5050' }, 'amount', /^USD has 2 decimals at most\.$/],
      ['bank', { amount: '5000.01' }, 'amount', /at most 5,000\.00 EUR/],
      ['mobile', { amount: '0' }, 'amount', /more than zero/],
    ];
    for (const [kind, fields, field, words] of cases) {
      const { view, errors } = await errorsFor(kind, fields);
      expect(view.view.callback_id, JSON.stringify(fields)).toBe(PAYOUT_VIEWS.form);
      expect(Object.keys(errors), JSON.stringify(fields)).toEqual([field]);
      expect(errors[field as keyof typeof errors]).toMatch(words);
      await h.slack.closeView({ userId: PEOPLE.requester, viewId: view.id });
    }
    expect(payoutPosts(h)).toBe(0);
  });

  it('cleans a phone typed as +243 812 345 678 instead of refusing it', async () => {
    const { view, errors } = await errorsFor('mobile', { phone: '+243 812 345 678' });
    expect(errors).toEqual({});
    expect(view.view.callback_id).toBe(PAYOUT_VIEWS.review);
    expect(viewText(view)).toContain('`243812345678`');
    await h.slack.closeView({ userId: PEOPLE.requester, viewId: view.id });
  });

  it('refuses a reference that was already used, under the reference field', async () => {
    await requestPayout(h, 'mobile', { ...MOBILE_FIELDS, amount: '5', reference: 'DUP-REF-0001' });
    const { view, errors } = await errorsFor('mobile', { reference: 'DUP-REF-0001' });
    expect(Object.keys(errors)).toEqual(['reference']);
    expect(errors.reference).toMatch(/already used/);
    await h.slack.closeView({ userId: PEOPLE.requester, viewId: view.id });
  });

  it("never counts the requester's approval of their own request, although they are an approver", async () => {
    const id = await requestPayout(h, 'mobile', { ...MOBILE_FIELDS, amount: '12' });
    await clickOnApproval(h, PEOPLE.requester, id, PAYOUT_ACTIONS.approve);
    await h.slack.waitFor(() => privateNotes(h, PEOPLE.requester).find((text) => text.includes('You requested this payout, so your approval cannot count')));
    expect(h.slack.views(PEOPLE.requester)).toEqual([]);
    expect(blockText(approvalMessage(h, id)!)).toContain('Waiting for approval');
    expect(privateNotes(h, PEOPLE.approver)).toEqual([]);
    expect(payoutPosts(h)).toBe(0);
  });

  it('refuses a non-approver privately and changes nothing', async () => {
    const id = await requestPayout(h, 'mobile', { ...MOBILE_FIELDS, amount: '13' });
    const before = approvalMessage(h, id)!;
    await clickOnApproval(h, PEOPLE.newcomer, id, PAYOUT_ACTIONS.approve);
    await clickOnApproval(h, PEOPLE.newcomer, id, PAYOUT_ACTIONS.reject);
    await h.slack.waitFor(() => privateNotes(h, PEOPLE.newcomer).length === 2);
    expect(privateNotes(h, PEOPLE.newcomer)).toEqual([
      ':no_entry: You are not on the list of people who may approve payouts.',
      ':no_entry: Only approvers can reject a payout.',
    ]);
    expect(h.slack.views(PEOPLE.newcomer)).toEqual([]);
    expect(approvalMessage(h, id)).toEqual(before);
    expect(payoutPosts(h)).toBe(0);
  });

  it('needs two different approvers above the dual-approval threshold', async () => {
    const id = await requestPayout(h, 'mobile', { ...MOBILE_FIELDS, amount: '1500' });
    const posted = await waitForApprovalMessage(h, id, 'Needs 2 approvers: the amount is above 1,000.00 USD.');
    expect(blockText(posted)).toContain('(0 of 2');

    expect(await approveAs(h, PEOPLE.approver, id)).toContain('One more approver must approve');
    const half = await waitForApprovalMessage(h, id, `Approved by <@${PEOPLE.approver}>`);
    expect(blockText(half)).toContain('(1 of 2');
    expect(buttonsOf(half)).toEqual([PAYOUT_ACTIONS.approve, PAYOUT_ACTIONS.reject]);
    expect(payoutPosts(h)).toBe(0);
    await h.slack.waitFor(() => dmTexts(h, PEOPLE.requester).find((text) => text.includes(id) && text.includes('One more approver')));

    await clickOnApproval(h, PEOPLE.approver, id, PAYOUT_ACTIONS.approve);
    await h.slack.waitFor(() => privateNotes(h, PEOPLE.approver).find((text) => text.includes('already approved')));
    await clickOnApproval(h, PEOPLE.requester, id, PAYOUT_ACTIONS.approve);
    await h.slack.waitFor(() => privateNotes(h, PEOPLE.requester).filter((text) => text.includes('your approval cannot count')).length === 2);
    expect(payoutPosts(h)).toBe(0);

    expect(await approveAs(h, PEOPLE.approver2, id)).toContain('Sent');
    expect(payoutPosts(h)).toBe(1);
    const done = await waitForApprovalMessage(h, id, h.sandbox.payouts()[0]!.transactionId);
    expect(blockText(done)).toContain(`Approved by <@${PEOPLE.approver2}>`);
  });

  it('makes exactly one payout call when 20 approvers submit at the same moment', async () => {
    // In CDF: the requester's USD total for the day is above the threshold by now, which would need two approvers.
    const id = await requestPayout(h, 'mobile', { ...MOBILE_FIELDS, phone: '243830000020', amount: '14', currency: 'CDF' });
    const before = payoutPosts(h);
    const modals: Array<{ id: string }> = [];
    for (const approver of CROWD) modals.push(await openApproveModal(h, approver, id));
    const outcomes = await Promise.all(CROWD.map((approver, index) => submitApproval(h, approver, modals[index]!.id)));
    expect(payoutPosts(h) - before).toBe(1);
    expect(outcomes.filter((text) => text.includes('*Sent.*'))).toHaveLength(1);
    expect(
      outcomes.filter((text) => text.includes(':no_entry:') && text.includes('Nothing was changed')),
      outcomes.join('\n'),
    ).toHaveLength(19);
    const done = await waitForApprovalMessage(h, id, '*Sent.*');
    expect(blockText(done).match(/Approved by/g)).toHaveLength(1);
  });

  it('needs a reason to reject, and sends it to the requester, escaped', async () => {
    const id = await requestPayout(h, 'bank', { ...BANK_FIELDS, amount: '40' });
    const before = payoutPosts(h);
    await clickOnApproval(h, PEOPLE.approver2, id, PAYOUT_ACTIONS.reject);
    const modal = await waitForView(h, PEOPLE.approver2, (view) => view.view.callback_id === PAYOUT_VIEWS.reject, 'the reject modal');
    await h.slack.submitView({ userId: PEOPLE.approver2, viewId: modal.id, values: { [PAYOUT_BLOCKS.rejectReason]: { [PAYOUT_ACTIONS.input]: 'no' } } });
    expect(h.slack.view(modal.id)!.errors?.[PAYOUT_BLOCKS.rejectReason]).toMatch(/at least 3 characters/);
    expect(blockText(approvalMessage(h, id)!)).toContain('Waiting for approval');

    const reason = 'Wrong account <!channel>';
    await h.slack.submitView({ userId: PEOPLE.approver2, viewId: modal.id, values: { [PAYOUT_BLOCKS.rejectReason]: { [PAYOUT_ACTIONS.input]: reason } } });
    const rejected = await waitForApprovalMessage(h, id, 'Rejected');
    expect(blockText(rejected)).toContain(`*Rejected* by <@${PEOPLE.approver2}>: Wrong account &lt;!channel&gt;`);
    expect(buttonsOf(rejected)).toEqual([]);
    await h.slack.waitFor(() => dmTexts(h, PEOPLE.requester).find((text) => text.includes(id) && text.includes('Wrong account &lt;!channel&gt;')));

    expect(payoutPosts(h)).toBe(before);
  });

  it('tells an approver whose rejection arrived twice that it is rejected, not that nothing changed', async () => {
    const id = await requestPayout(h, 'mobile', { ...MOBILE_FIELDS, amount: '41' });
    await clickOnApproval(h, PEOPLE.approver, id, PAYOUT_ACTIONS.reject);
    const modal = await waitForView(h, PEOPLE.approver, (view) => view.view.callback_id === PAYOUT_VIEWS.reject, 'the reject modal');
    const values = { [PAYOUT_BLOCKS.rejectReason]: { [PAYOUT_ACTIONS.input]: 'Paid by cheque already' } };
    const acks = await Promise.all([1, 2].map(() => h.slack.submitView({ userId: PEOPLE.approver, viewId: modal.id, values })));
    for (const ack of acks) {
      expect(JSON.stringify(ack.body)).toContain('Rejected. The requester has been sent your reason.');
      expect(JSON.stringify(ack.body)).not.toContain('Nothing was changed');
    }
    await waitForApprovalMessage(h, id, 'Rejected');
    expect((await h.bot.payouts.history(id)).filter((event) => event.event === 'rejected')).toHaveLength(1);
  });
});

describe('payouts without an approval channel', () => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness({ env: { FLEET_REQUESTERS: PEOPLE.requester, FLEET_APPROVERS: PEOPLE.approver } });
  });
  afterAll(async () => h?.close());

  it('says payouts are not configured instead of opening the form', async () => {
    await h.slack.runCommand({ userId: PEOPLE.requester, channelId: CHANNELS.treasury, text: 'payout mobile' });
    const reply = await h.waitForMessage(PEOPLE.requester, 'Payouts are not configured');
    expect(reply.text).toContain('APPROVAL_CHANNEL_ID');
    expect(h.slack.views(PEOPLE.requester)).toEqual([]);
  });
});

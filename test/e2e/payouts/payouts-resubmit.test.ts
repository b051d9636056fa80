import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { SlackMessage } from '@fleet-treasury-bot/local-slack';
import { blockText, CHANNELS, PEOPLE, startHarness, type Harness } from '../../support/bot-harness.js';
import {
  approvalMessage,
  approveAs,
  callbackIs,
  clickOnApproval,
  dmWith,
  formValues,
  MOBILE_FIELDS,
  openPayoutForm,
  PAYOUT_ACTIONS,
  PAYOUT_BLOCKS,
  PAYOUT_ENV,
  PAYOUT_VIEWS,
  requestPayout,
  submitEditedFromSaved,
  submitForm,
  viewText,
  waitForApprovalMessage,
  waitForView,
} from '../../support/payout-flow.js';
import { PAYOUT_SCHEDULE } from '../../../src/slack/ids.js';

describe('correcting a rejected request with Edit and resubmit', () => {
  let h: Harness;

  beforeAll(async () => {
    // Abel may request too, so that one requester can try to resubmit another's request.
    h = await startHarness({ env: { ...PAYOUT_ENV, FLEET_REQUESTERS: `${PEOPLE.requester},${PEOPLE.approver}` } });
  });
  afterAll(async () => h?.close());
  afterEach(() => {
    expect(h.slack.limitViolations).toEqual([]);
  });

  async function reject(id: string, by: string, reason: string): Promise<void> {
    await clickOnApproval(h, by, id, PAYOUT_ACTIONS.reject);
    const modal = await waitForView(h, by, (view) => view.view.callback_id === PAYOUT_VIEWS.reject && view.view.private_metadata === id, 'the reject modal');
    await h.slack.submitView({ userId: by, viewId: modal.id, values: { [PAYOUT_BLOCKS.rejectReason]: { [PAYOUT_ACTIONS.input]: reason } } });
    await waitForApprovalMessage(h, id, 'Rejected');
  }

  /** The requester's rejection DM for `id`, once it has arrived. */
  const rejectionDm = (userId: string, id: string): Promise<SlackMessage> =>
    h.slack.waitFor(
      () => h.slack.messages(dmWith(userId)).find((message) => message.text.includes(id) && blockText(message).includes('rejected your payout')),
      { message: `the rejection DM of ${id}` },
    );

  it('opens the form with the old values and a suffixed reference, and the new request names the old one in its approval message and history', async () => {
    const old = await requestPayout(h, 'mobile', { ...MOBILE_FIELDS, amount: '150', reference: 'INV-2025-0042', note: 'March stipend' });
    await reject(old, PEOPLE.approver, 'Wrong amount: 175');
    const dm = await rejectionDm(PEOPLE.requester, old);
    expect(JSON.stringify(dm.blocks)).toContain(`"action_id":"${PAYOUT_ACTIONS.resubmit}"`);
    expect(JSON.stringify(dm.blocks)).toContain('Edit and resubmit');

    await h.slack.clickButton({ userId: PEOPLE.requester, channelId: dmWith(PEOPLE.requester), messageTs: dm.ts, actionId: PAYOUT_ACTIONS.resubmit });
    const form = await waitForView(h, PEOPLE.requester, callbackIs(PAYOUT_VIEWS.form), 'the form again');
    const shown = viewText(form);
    for (const value of [
      '"initial_value":"243812345678"',
      '"initial_value":"Amani Kabila"',
      '"initial_value":"CD"',
      'VODACOM_MPESA',
      '"initial_value":"150.00"',
      '"initial_value":"INV-2025-0042-2"',
      '"initial_value":"March stipend"',
    ]) {
      expect(shown).toContain(value);
    }
    expect(shown).toContain(old);

    const review = await submitForm(h, PEOPLE.requester, form.id, { amount: '175' });
    expect(review.view.callback_id, JSON.stringify(review.errors)).toBe(PAYOUT_VIEWS.review);
    await h.slack.submitView({ userId: PEOPLE.requester, viewId: review.id });
    const id = /PR-[A-Z0-9]{6}/.exec(viewText(h.slack.view(review.id)!))![0];
    expect(id).not.toBe(old);

    const message = await waitForApprovalMessage(h, id, old);
    expect(blockText(message)).toContain('175.00 USD');
    expect(blockText(message)).toContain(`\`/fleet payouts ${old}\``);
    const stored = await h.bot.payouts.get(id);
    expect(stored).toMatchObject({ state: 'pending', reference: 'INV-2025-0042-2', amountMinor: 17_500, resubmitOf: old });
    expect((await h.bot.payouts.get(old))?.state).toBe('rejected');

    await h.slack.runCommand({ userId: PEOPLE.requester, channelId: CHANNELS.treasury, text: `payouts ${id}` });
    const history = await h.slack.waitFor(() => h.visibleTo(PEOPLE.requester).find((entry) => entry.text.includes(id) && blockText(entry).includes('History')));
    expect(blockText(history)).toContain(`correcting the rejected request \`${old}\``);
  });

  it('keeps a request edited from a saved recipient filled from it: its correction says what changed too', async () => {
    expect(
      await approveAs(h, PEOPLE.approver, await requestPayout(h, 'mobile', { ...MOBILE_FIELDS, phone: '243820000030', amount: '40', name: 'Jeanne Kalala' })),
    ).toContain('Sent');
    const form = await openPayoutForm(h, PEOPLE.requester, 'payout mobile');
    const review = await submitEditedFromSaved(
      h,
      PEOPLE.requester,
      form.id,
      { search: 'kalala', identity: 'mobile:243820000030:VODACOM_MPESA' },
      { phone: '243820000031', amount: '41', currency: 'USD' },
    );
    await h.slack.submitView({ userId: PEOPLE.requester, viewId: review.id });
    const old = /PR-[A-Z0-9]{6}/.exec(viewText(h.slack.view(review.id)!))![0];
    await h.slack.closeView({ userId: PEOPLE.requester, viewId: review.id });
    await reject(old, PEOPLE.approver, 'Check the number');

    const dm = await rejectionDm(PEOPLE.requester, old);
    await h.slack.clickButton({ userId: PEOPLE.requester, channelId: dmWith(PEOPLE.requester), messageTs: dm.ts, actionId: PAYOUT_ACTIONS.resubmit });
    const again = await waitForView(
      h,
      PEOPLE.requester,
      (view) => view.view.callback_id === PAYOUT_VIEWS.form && viewText(view).includes(old),
      'the form again',
    );
    const corrected = await submitForm(h, PEOPLE.requester, again.id, { amount: '42' });
    expect(viewText(corrected)).toContain(
      '*Changed details:* filled from the saved recipient Jeanne Kalala, then edited: the number (`243820000030` → `243820000031`).',
    );
    await h.slack.closeView({ userId: PEOPLE.requester, viewId: corrected.id });
  });

  it('keeps the link to the rejected request when its correction is scheduled for later', async () => {
    const old = await requestPayout(h, 'mobile', { ...MOBILE_FIELDS, amount: '90', reference: 'INV-2025-0090' });
    await reject(old, PEOPLE.approver, 'Send it tomorrow');
    const dm = await rejectionDm(PEOPLE.requester, old);
    await h.slack.clickButton({ userId: PEOPLE.requester, channelId: dmWith(PEOPLE.requester), messageTs: dm.ts, actionId: PAYOUT_ACTIONS.resubmit });
    const form = await waitForView(
      h,
      PEOPLE.requester,
      (view) => view.view.callback_id === PAYOUT_VIEWS.form && viewText(view).includes(old),
      'the form again',
    );
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    const when = { [PAYOUT_SCHEDULE.sendOnBlock]: { value: tomorrow }, [PAYOUT_SCHEDULE.sendAtBlock]: { value: '10:00' } };
    await h.slack.submitView({ userId: PEOPLE.requester, viewId: form.id, values: { ...formValues({ amount: '95' }), ...when } });
    const review = h.slack.view(form.id)!;
    expect(review.view.callback_id, JSON.stringify(review.errors)).toBe(PAYOUT_VIEWS.review);
    await h.slack.submitView({ userId: PEOPLE.requester, viewId: review.id });
    const id = /PR-[A-Z0-9]{6}/.exec(viewText(h.slack.view(review.id)!))![0];
    await h.slack.closeView({ userId: PEOPLE.requester, viewId: review.id });

    const stored = await h.bot.payouts.get(id);
    expect(stored).toMatchObject({ state: 'pending', reference: 'INV-2025-0090-2', amountMinor: 9_500, resubmitOf: old });
    expect(stored?.schedule).toBeDefined();
    expect(blockText(await waitForApprovalMessage(h, id, old))).toContain(`\`/fleet payouts ${old}\``);
  });

  it('generates a new reference for a request whose reference was generated', async () => {
    const old = await requestPayout(h, 'mobile', { ...MOBILE_FIELDS, amount: '60' });
    const generated = (await h.bot.payouts.get(old))!.reference;
    await reject(old, PEOPLE.approver2, 'Not this week');
    const dm = await rejectionDm(PEOPLE.requester, old);
    await h.slack.clickButton({ userId: PEOPLE.requester, channelId: dmWith(PEOPLE.requester), messageTs: dm.ts, actionId: PAYOUT_ACTIONS.resubmit });
    const form = await waitForView(
      h,
      PEOPLE.requester,
      (view) => view.view.callback_id === PAYOUT_VIEWS.form && viewText(view).includes(old),
      'the form again',
    );
    expect(viewText(form)).not.toContain(generated);
    const review = await submitForm(h, PEOPLE.requester, form.id, {});
    expect(review.view.callback_id).toBe(PAYOUT_VIEWS.review);
    expect(viewText(review)).toMatch(/PAY-\d{8}-[A-Z0-9]{6}/);
    expect(viewText(review)).not.toContain(generated);
    await h.slack.closeView({ userId: PEOPLE.requester, viewId: review.id });
  });

  it('lets only the original requester resubmit, whatever the button says', async () => {
    const theirs = await requestPayout(h, 'mobile', { ...MOBILE_FIELDS, amount: '70' }, PEOPLE.approver);
    await reject(theirs, PEOPLE.approver2, 'Duplicate of last week');
    const mine = await requestPayout(h, 'mobile', { ...MOBILE_FIELDS, amount: '80' });
    await reject(mine, PEOPLE.approver2, 'Ask again tomorrow');
    const dm = await rejectionDm(PEOPLE.requester, mine);
    const viewsBefore = h.slack.views(PEOPLE.requester).length;
    // A tampered client sends Abel's request id on Rita's button.
    await h.slack.clickButton({
      userId: PEOPLE.requester,
      channelId: dmWith(PEOPLE.requester),
      messageTs: dm.ts,
      actionId: PAYOUT_ACTIONS.resubmit,
      value: theirs,
    });
    const refusal = await h.slack.waitFor(
      () => {
        const view = h.slack.views(PEOPLE.requester).at(-1);
        return h.slack.views(PEOPLE.requester).length > viewsBefore && view && viewText(view).includes('Only the person who requested') ? view : undefined;
      },
      { message: 'the refusal' },
    );
    expect(refusal.view.callback_id).not.toBe(PAYOUT_VIEWS.form);
    expect(approvalMessage(h, theirs)).toBeDefined();
    expect((await h.bot.payouts.get(theirs))?.state).toBe('rejected');
  });
});

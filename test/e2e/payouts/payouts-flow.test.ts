import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { payoutChooserAction } from '../../../src/slack/ids.js';
import { blockText, CHANNELS, PEOPLE, startHarness, type Harness } from '../../support/bot-harness.js';
import {
  approvalMessage,
  approveAs,
  BANK_FIELDS,
  BANK_PATH,
  buttonsOf,
  callbackIs,
  clickOnApproval,
  dmTexts,
  dmWith,
  MOBILE_FIELDS,
  MOBILE_PATH,
  openPayoutForm,
  PAYOUT_ACTIONS,
  PAYOUT_ENV,
  PAYOUT_VIEWS,
  payoutPosts,
  requestPayout,
  submitForm,
  viewText,
  waitForApprovalMessage,
  waitForView,
} from '../../support/payout-flow.js';

describe('payouts from request to money moved, through the real receiver', () => {
  let h: Harness;

  beforeAll(async () => {
    // A small CDF allowance lets one request use up the day (the other tests pay in USD and EUR).
    h = await startHarness({ env: { ...PAYOUT_ENV, PAYOUT_DAILY_LIMIT: 'USD:100000,EUR:100000,CDF:5000' } });
  });
  afterAll(async () => h?.close());
  afterEach(() => {
    expect(h.slack.limitViolations).toEqual([]);
  });

  it('moves a mobile money payout once, prefilled from the command, and ends the approval message with the transaction id', async () => {
    const form = await openPayoutForm(h, PEOPLE.requester, 'payout mobile 243812345678 150 USD');
    const prefilled = viewText(form);
    expect(prefilled).toContain('"initial_value":"243812345678"');
    expect(prefilled).toContain('"initial_value":"150"');
    expect(prefilled).toMatch(/"initial_option":\{"text":\{[^}]*"text":"USD"/);

    const review = await submitForm(h, PEOPLE.requester, form.id, {
      name: 'Amani <Kabila>',
      countryCode: 'cd',
      operator: 'VODACOM_MPESA',
      reference: 'INV-2025-0042',
    });
    expect(review.view.callback_id).toBe(PAYOUT_VIEWS.review);
    const shown = viewText(review);
    for (const detail of ['150.00 USD', '243812345678', 'VODACOM_MPESA', 'INV-2025-0042', 'Amani &lt;Kabila&gt;', 'amount `150`'])
      expect(shown).toContain(detail);
    expect(payoutPosts(h)).toBe(0);

    await h.slack.submitView({ userId: PEOPLE.requester, viewId: review.id });
    const receipt = viewText(h.slack.view(review.id)!);
    const id = /PR-[A-Z0-9]{6}/.exec(receipt)![0];
    expect(receipt).toContain('waiting for approval');

    const message = await waitForApprovalMessage(h, id, 'Waiting for approval');
    expect(buttonsOf(message)).toEqual([PAYOUT_ACTIONS.approve, PAYOUT_ACTIONS.reject, PAYOUT_ACTIONS.cancel]);
    expect(blockText(message)).toContain(`<@${PEOPLE.requester}> asks to send *150.00 USD* by mobile money`);
    await h.slack.waitFor(() => dmTexts(h, PEOPLE.requester).find((text) => text.includes(id) && text.includes('waiting for approval')));

    const outcome = await approveAs(h, PEOPLE.approver, id);
    const [payout] = h.sandbox.payouts();
    expect(h.sandbox.payouts()).toHaveLength(1);
    expect(payout!.body).toEqual({
      recipient: { phone: '243812345678', name: 'Amani <Kabila>', countryCode: 'CD' },
      amount: 150,
      currency: 'USD',
      reference: 'INV-2025-0042',
      operator: 'VODACOM_MPESA',
    });
    expect(outcome).toContain(payout!.transactionId);

    const done = await waitForApprovalMessage(h, id, payout!.transactionId);
    expect(buttonsOf(done)).toEqual([]);
    expect(blockText(done)).toContain(`Approved by <@${PEOPLE.approver}>`);
    expect(blockText(done)).toMatch(new RegExp(`\\*Sent\\.\\* Transaction \`${payout!.transactionId}\`\\.$`, 'm'));
    await h.slack.waitFor(() =>
      dmTexts(h, PEOPLE.requester).find((text) => text.includes(id) && text.includes('was sent') && text.includes(payout!.transactionId)),
    );
    expect(h.sandbox.requests.filter((request) => request.method === 'POST' && request.path === MOBILE_PATH)).toHaveLength(1);
  });

  it('moves a bank payout once, reached through the chooser', async () => {
    await h.slack.runCommand({ userId: PEOPLE.requester, channelId: CHANNELS.treasury, text: 'payout' });
    const chooser = await waitForView(h, PEOPLE.requester, callbackIs(PAYOUT_VIEWS.chooser), 'the chooser');
    await h.slack.clickButton({ userId: PEOPLE.requester, viewId: chooser.id, actionId: payoutChooserAction('bank_account') });
    const form = await waitForView(
      h,
      PEOPLE.requester,
      (view) => view.view.callback_id === PAYOUT_VIEWS.form && viewText(view).includes('Bank code'),
      'the bank form',
    );
    expect(form.id).toBe(chooser.id);

    const review = await submitForm(h, PEOPLE.requester, form.id, BANK_FIELDS);
    expect(review.view.callback_id).toBe(PAYOUT_VIEWS.review);
    const reference = /PAY-\d{8}-[A-Z0-9]{6}/.exec(viewText(review))?.[0];
    expect(reference, 'a generated reference is shown on the review').toBeDefined();
    await h.slack.submitView({ userId: PEOPLE.requester, viewId: review.id });
    const id = /PR-[A-Z0-9]{6}/.exec(viewText(h.slack.view(review.id)!))![0];

    const before = payoutPosts(h);
    await approveAs(h, PEOPLE.approver2, id);
    const bankPosts = h.sandbox.requests.filter((request) => request.method === 'POST' && request.path === BANK_PATH);
    expect(bankPosts).toHaveLength(1);
    expect(payoutPosts(h) - before).toBe(1);
    expect(bankPosts[0]!.body).toEqual({
      recipient: { accountNumber: '000123456789', bankCode: 'BCDCCDKI', name: 'Ndaya Logistics SARL', countryCode: 'CD' },
      amount: 750.5,
      currency: 'EUR',
      reference,
    });
    const transactionId = h.sandbox.payouts().at(-1)!.transactionId;
    await waitForApprovalMessage(h, id, transactionId);
  });

  it('goes Back from the review to the form with every value kept', async () => {
    const form = await openPayoutForm(h, PEOPLE.requester, 'payout mobile');
    const review = await submitForm(h, PEOPLE.requester, form.id, { ...MOBILE_FIELDS, phone: '+243 812 345 678', note: 'March stipend' });
    expect(review.view.callback_id).toBe(PAYOUT_VIEWS.review);
    await h.slack.clickButton({ userId: PEOPLE.requester, viewId: review.id, actionId: PAYOUT_ACTIONS.backToForm });
    const back = await waitForView(h, PEOPLE.requester, callbackIs(PAYOUT_VIEWS.form), 'the form again');
    const text = viewText(back);
    for (const value of ['243812345678', 'Amani Kabila', 'VODACOM_MPESA', '"initial_value":"150.00"', 'March stipend']) expect(text).toContain(value);
    // Submitting again reaches the same review, with the same reference.
    const again = await submitForm(h, PEOPLE.requester, back.id, {});
    expect(again.view.callback_id).toBe(PAYOUT_VIEWS.review);
    const reference = (view: typeof review) => /PAY-\d{8}-[A-Z0-9]{6}/.exec(viewText(view))?.[0];
    expect(reference(again)).toBe(reference(review));
    await h.slack.closeView({ userId: PEOPLE.requester, viewId: back.id });
  });

  it('stores one request when the review is submitted twice at once, and shows both submissions its id', async () => {
    const form = await openPayoutForm(h, PEOPLE.requester, 'payout mobile');
    const review = await submitForm(h, PEOPLE.requester, form.id, { ...MOBILE_FIELDS, amount: '17', reference: 'TWICE-0001' });
    const acks = await Promise.all([1, 2].map(() => h.slack.submitView({ userId: PEOPLE.requester, viewId: review.id })));
    const ids = acks.map((ack) => /PR-[A-Z0-9]{6}/.exec(JSON.stringify(ack.body))?.[0]);
    expect(ids[0]).toBeDefined();
    expect(ids[1]).toBe(ids[0]);
    const stored = (await h.bot.payouts.listRecent({ limit: 100 })).filter((request) => request.reference === 'TWICE-0001');
    expect(stored.map((request) => request.id)).toEqual([ids[0]]);
    await waitForApprovalMessage(h, ids[0]!, 'Waiting for approval');
    expect(h.slack.messages(CHANNELS.approvals).filter((message) => message.text.includes(ids[0]!))).toHaveLength(1);
  });

  it("shows both submissions of a review the stored id when that request used up the day's allowance", async () => {
    const form = await openPayoutForm(h, PEOPLE.requester, 'payout mobile');
    const review = await submitForm(h, PEOPLE.requester, form.id, { ...MOBILE_FIELDS, amount: '5000', currency: 'CDF', reference: 'WHOLE-DAY-01' });
    expect(review.view.callback_id, JSON.stringify(review.errors)).toBe(PAYOUT_VIEWS.review);
    const acks = await Promise.all([1, 2].map(() => h.slack.submitView({ userId: PEOPLE.requester, viewId: review.id })));
    const answers = acks.map((ack) => JSON.stringify(ack.body));
    const id = /PR-[A-Z0-9]{6}/.exec(answers[0]!)?.[0];
    expect(id, answers[0]).toBeDefined();
    for (const answer of answers) {
      expect(answer).toContain(id);
      expect(answer).not.toContain('daily limit');
    }
    await waitForApprovalMessage(h, id!, 'Waiting for approval');
  });

  it('lets the requester cancel while nothing is approved, and then nobody can approve it', async () => {
    const id = await requestPayout(h, 'mobile', { ...MOBILE_FIELDS, amount: '20' });
    await clickOnApproval(h, PEOPLE.approver, id, PAYOUT_ACTIONS.cancel);
    await h.slack.waitFor(() =>
      h.slack
        .messages(CHANNELS.approvals, { visibleTo: PEOPLE.approver })
        .find((m) => m.ephemeralTo === PEOPLE.approver && m.text.includes('Only the person who requested')),
    );
    expect(buttonsOf(approvalMessage(h, id)!)).toContain(PAYOUT_ACTIONS.cancel);

    await clickOnApproval(h, PEOPLE.requester, id, PAYOUT_ACTIONS.cancel);
    const cancelled = await waitForApprovalMessage(h, id, 'Cancelled');
    expect(buttonsOf(cancelled)).toEqual([]);
    await h.slack.waitFor(() => dmTexts(h, PEOPLE.requester).find((text) => text.includes(id) && text.includes('is cancelled')));
  });

  it("lists recent payouts and shows one request's history to requesters and approvers only", async () => {
    const id = await requestPayout(h, 'mobile', { ...MOBILE_FIELDS, amount: '30' });
    await approveAs(h, PEOPLE.approver, id);
    await waitForApprovalMessage(h, id, '*Sent.*');

    await h.slack.runCommand({ userId: PEOPLE.approver2, channelId: CHANNELS.treasury, text: 'payouts' });
    const list = await h.waitForMessage(PEOPLE.approver2, 'Recent payouts');
    expect(list.ephemeralTo).toBe(PEOPLE.approver2);
    expect(list.text).toContain(`${id} sent`);

    await h.slack.runCommand({ userId: PEOPLE.requester, channelId: CHANNELS.treasury, text: `payouts ${id.toLowerCase()}` });
    const history = await h.waitForMessage(PEOPLE.requester, `Payout ${id}`);
    const lines = blockText(history);
    for (const line of [
      `Requested by <@${PEOPLE.requester}>`,
      `Approved by <@${PEOPLE.approver}> (1 of 1)`,
      'Sent to the Fleet API (attempt 1)',
      'Completed: transaction `PO-',
    ]) {
      expect(lines).toContain(line);
    }

    await h.slack.runCommand({ userId: PEOPLE.newcomer, channelId: CHANNELS.treasury, text: `payouts ${id}` });
    const refused = await h.waitForMessage(PEOPLE.newcomer, 'Only the people who may request or approve');
    expect(blockText(refused)).not.toContain(id);
  });

  it('finds payout requests by words in their reference, recipient name or phone, each line showing its reference', async () => {
    const id = await requestPayout(h, 'mobile', { ...MOBILE_FIELDS, name: 'Zawadi Search Test', amount: '31' });
    const request = await h.bot.payouts.get(id);
    const reference = request!.reference;

    await h.slack.runCommand({ userId: PEOPLE.approver2, channelId: CHANNELS.treasury, text: 'payouts zawadi search' });
    const byName = await h.waitForMessage(PEOPLE.approver2, 'Payouts found');
    expect(blockText(byName)).toContain('1 request holds `zawadi` `search`.');
    expect(byName.text).toContain(id);
    expect(blockText(byName)).toContain(`\`${id}\` · \`${reference}\` · `);

    await h.slack.runCommand({ userId: PEOPLE.approver2, channelId: CHANNELS.treasury, text: `paiements ${reference.toLowerCase()}` });
    await h.slack.waitFor(
      () => h.visibleTo(PEOPLE.approver2).filter((m) => m.text.startsWith('Payouts found') && m.text.includes(id)).length >= 2 || undefined,
    );

    await h.slack.runCommand({ userId: PEOPLE.approver2, channelId: CHANNELS.treasury, text: 'payouts nobody-by-this-name' });
    const none = await h.waitForMessage(PEOPLE.approver2, 'Payouts found: none');
    expect(blockText(none)).toContain('No payout request holds `nobody-by-this-name`');

    // A search shows nothing to someone who may not see payouts.
    await h.slack.runCommand({ userId: PEOPLE.newcomer, channelId: CHANNELS.treasury, text: 'payouts zawadi' });
    const refused = await h.waitForMessage(PEOPLE.newcomer, 'Only the people who may request or approve');
    expect(blockText(refused)).not.toContain(id);
  });

  it('lists payout and payouts in /fleet help to a requester', async () => {
    await h.slack.runCommand({ userId: PEOPLE.requester, channelId: CHANNELS.treasury, text: 'help' });
    const help = await h.waitForMessage(PEOPLE.requester, 'Here is what I can do');
    expect(help.text).toContain('/fleet payout [mobile|bank]');
    expect(help.text).toContain('/fleet payouts [id | words]');
  });

  it('tells someone who may not request payouts so privately, as every other command does, opens no modal and stores nothing', async () => {
    const before = (await h.bot.payouts.listRecent({ limit: 100 })).length;
    const opened = () => h.slack.apiCalls.filter((call) => call.method === 'views.open').length;
    const openedBefore = opened();
    await h.slack.runCommand({ userId: PEOPLE.newcomer, channelId: CHANNELS.treasury, text: 'payout mobile 243812345678 10 USD' });
    const refused = await h.waitForMessage(PEOPLE.newcomer, 'not on the list of people who may request');
    expect(refused.ephemeralTo).toBe(PEOPLE.newcomer);
    expect(h.slack.views(PEOPLE.newcomer)).toEqual([]);
    expect(opened()).toBe(openedBefore);
    expect(h.slack.messages(dmWith(PEOPLE.newcomer))).toEqual([]);
    expect((await h.bot.payouts.listRecent({ limit: 100 })).length).toBe(before);
  });
});

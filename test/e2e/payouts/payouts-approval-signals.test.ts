import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { blockText, CHANNELS, PEOPLE, startHarness, type Harness } from '../../support/bot-harness.js';
import {
  approvalMessage,
  approveAs,
  callbackIs,
  clickOnApproval,
  MOBILE_FIELDS,
  PAYOUT_ACTIONS,
  privateNotes,
  openApproveModal,
  openPayoutForm,
  PAYOUT_BLOCKS,
  PAYOUT_ENV,
  PAYOUT_VIEWS,
  payoutPosts,
  requestPayout,
  submitApproval,
  submitEditedFromSaved,
  submitForm,
  tickNotDuplicate,
  viewText,
  waitForApprovalMessage,
  waitForView,
} from '../../support/payout-flow.js';

// Each test pays its own phone, so that one's payouts are never another's earlier ones.
describe('what the approver sees: possible duplicates, unusual amounts, the day totals', () => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness({ env: { ...PAYOUT_ENV } });
  });
  afterAll(async () => h?.close());
  afterEach(() => {
    expect(h.slack.limitViolations).toEqual([]);
  });

  it('warns of a possible duplicate on the review, the message and the modal, and approves it only with the tick, recorded in the history', async () => {
    const wallet = { ...MOBILE_FIELDS, phone: '243820000001', amount: '25' };
    const first = await requestPayout(h, 'mobile', wallet);

    const form = await openPayoutForm(h, PEOPLE.requester, 'payout mobile');
    const review = await submitForm(h, PEOPLE.requester, form.id, wallet);
    expect(viewText(review)).toContain(`*Possible duplicate:* the same recipient, amount and currency as ${first} (waiting for approval)`);
    expect(viewText(review)).toContain('Approvers will be asked to tick');
    await h.slack.submitView({ userId: PEOPLE.requester, viewId: review.id });
    const second = /PR-[A-Z0-9]{6}/.exec(viewText(h.slack.view(review.id)!))![0];
    await h.slack.closeView({ userId: PEOPLE.requester, viewId: review.id });

    const message = await waitForApprovalMessage(h, second, 'Possible duplicate');
    expect(blockText(message)).toContain(`/fleet payouts ${first}`);
    // The first request is not a duplicate of the later one.
    expect(blockText(approvalMessage(h, first)!)).not.toContain('Possible duplicate');

    const posts = payoutPosts(h);
    const modal = await openApproveModal(h, PEOPLE.approver, second);
    expect(viewText(modal)).toContain('Possible duplicate');
    expect(viewText(modal)).toContain('I checked this is not a duplicate');
    // The tick is a required input: Slack's client does not submit without it (the service refuses such a submission too).
    const unticked = await h.slack.submitView({ userId: PEOPLE.approver, viewId: modal.id });
    expect(unticked.status).toBe(0);
    expect(h.slack.view(modal.id)?.errors?.[PAYOUT_BLOCKS.duplicateCheck]).toBeDefined();
    expect(payoutPosts(h)).toBe(posts);

    await tickNotDuplicate(h, PEOPLE.approver, modal.id);
    expect(await submitApproval(h, PEOPLE.approver, modal.id)).toContain('Sent');
    expect(payoutPosts(h)).toBe(posts + 1);

    await h.slack.runCommand({ userId: PEOPLE.approver, channelId: CHANNELS.treasury, text: `payouts ${second}` });
    const history = await h.slack.waitFor(
      () =>
        h.slack.messages(CHANNELS.treasury, { visibleTo: PEOPLE.approver }).find((reply) => blockText(reply).includes('after checking it is not a duplicate')),
      { message: 'the history with the tick' },
    );
    expect(blockText(history)).toContain(`<@${PEOPLE.approver}>`);
  });

  it('shows an ordinary payout to a known recipient with the day totals only, and an unusual amount as times the usual one', async () => {
    const wallet = { ...MOBILE_FIELDS, phone: '243820000002' };
    for (const amount of ['90', '100', '110']) {
      const id = await requestPayout(h, 'mobile', { ...wallet, amount });
      expect(await approveAs(h, PEOPLE.approver, id)).toContain('Sent');
    }
    const ordinary = await requestPayout(h, 'mobile', { ...wallet, amount: '120' });
    const quiet = blockText(await waitForApprovalMessage(h, ordinary, 'Today in USD'));
    expect(quiet).toMatch(new RegExp(`Today in USD: requested by <@${PEOPLE.requester}>, [0-9.,]+ USD; to this recipient, 420\\.00 USD`));
    for (const warning of ['Possible duplicate', 'Unusual amount', 'New recipient', 'senior']) expect(quiet).not.toContain(warning);

    const large = await requestPayout(h, 'mobile', { ...wallet, amount: '450' });
    const flagged = blockText(await waitForApprovalMessage(h, large, 'Unusual amount'));
    expect(flagged).toContain('*Unusual amount:* 4.5 times this recipient’s usual amount (100.00 USD, the median of their 3 completed payouts in USD');
    const modal = await openApproveModal(h, PEOPLE.approver, large);
    expect(viewText(modal)).toContain('4.5 times');
    expect(modal.view.callback_id).toBe(PAYOUT_VIEWS.approve);
  });

  it('says what changed from a saved recipient picked in the form and then edited: on the review, the approval message, and the approve window opened from the Home, in French too', async () => {
    const saved = { ...MOBILE_FIELDS, phone: '243820000020', amount: '30', name: 'Grace Mbuyi' };
    expect(await approveAs(h, PEOPLE.approver, await requestPayout(h, 'mobile', saved))).toContain('Sent');

    const form = await openPayoutForm(h, PEOPLE.requester, 'payout mobile');
    // The number edited; the amount and currency typed (a pick keeps what was typed there, and this form had none yet).
    const review = await submitEditedFromSaved(
      h,
      PEOPLE.requester,
      form.id,
      { search: 'mbuyi', identity: 'mobile:243820000020:VODACOM_MPESA' },
      { phone: '243820000021', amount: '31', currency: 'USD' },
    );
    const changed = '*Changed details:* filled from the saved recipient Grace Mbuyi, then edited: the number (`243820000020` → `243820000021`).';
    expect(viewText(review)).toContain(changed);
    expect(viewText(review)).toContain('*New recipient:*');
    await h.slack.submitView({ userId: PEOPLE.requester, viewId: review.id });
    const id = /PR-[A-Z0-9]{6}/.exec(viewText(h.slack.view(review.id)!))![0];
    await h.slack.closeView({ userId: PEOPLE.requester, viewId: review.id });

    const message = blockText(await waitForApprovalMessage(h, id, 'Changed details'));
    expect(message).toContain(changed);
    expect(message).toContain('*New recipient:*');
    const modal = await openApproveModal(h, PEOPLE.approver, id);
    expect(viewText(modal)).toContain(changed);
    await h.slack.closeView({ userId: PEOPLE.approver, viewId: modal.id });

    const french = PEOPLE.approver2;
    await h.slack.runCommand({ userId: french, channelId: CHANNELS.treasury, text: 'language fr' });
    await h.slack.waitFor(() => h.visibleTo(french).at(-1), { message: 'the answer to /fleet language fr' });
    await h.slack.openHome({ userId: french });
    const home = await h.slack.waitFor(
      () => {
        const view = h.slack.home(french);
        return view && viewText(view).includes(id) ? view : undefined;
      },
      { message: "the request on the French approver's Home" },
    );
    await h.slack.clickButton({ userId: french, viewId: home.id, actionId: PAYOUT_ACTIONS.approve, blockId: `home_waiting_${id}` });
    const fromHome = await waitForView(
      h,
      french,
      (view) => callbackIs(PAYOUT_VIEWS.approve)(view) && view.view.private_metadata === id,
      'the approve window from the Home',
    );
    expect(viewText(fromHome)).toContain(
      '*Coordonnées modifiées :* remplies depuis le bénéficiaire enregistré Grace Mbuyi, puis modifiées : le numéro (`243820000020` → `243820000021`).',
    );
    expect(viewText(fromHome)).toContain('*Nouveau bénéficiaire :*');
    await h.slack.closeView({ userId: french, viewId: fromHome.id });
  });
});

describe('approval tiers, through the whole bot', () => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness({
      env: {
        ...PAYOUT_ENV,
        FLEET_APPROVERS: `${PEOPLE.approver},${PEOPLE.approver2},${PEOPLE.newcomer}`,
        PAYOUT_SENIOR_APPROVAL_ABOVE: 'USD:2000,EUR:2000,CDF:5000000',
        PAYOUT_SENIOR_APPROVERS: PEOPLE.approver2,
      },
    });
  });
  afterAll(async () => h?.close());
  afterEach(() => {
    expect(h.slack.limitViolations).toEqual([]);
  });

  it('says which senior approvers a payout above the tier needs, refuses the last approval from anyone else, and sends it with a senior one', async () => {
    const id = await requestPayout(h, 'mobile', { ...MOBILE_FIELDS, phone: '243820000010', amount: '2500' });
    const card = blockText(await waitForApprovalMessage(h, id, 'needs one of'));
    expect(card).toContain(`*Above 2,000.00 USD:* one approval must come from a senior approver; needs one of: <@${PEOPLE.approver2}>`);
    expect(await approveAs(h, PEOPLE.approver, id)).toContain('One more approver must approve');
    const posts = payoutPosts(h);

    await clickOnApproval(h, PEOPLE.newcomer, id, PAYOUT_ACTIONS.approve);
    await h.slack.waitFor(() => privateNotes(h, PEOPLE.newcomer).find((note) => note.includes('senior approval amount')), { message: 'the refusal' });
    expect(payoutPosts(h)).toBe(posts);

    expect(await approveAs(h, PEOPLE.approver2, id)).toContain('Sent');
    expect(payoutPosts(h)).toBe(posts + 1);
  });

  it('needs no senior approver at the tier amount', async () => {
    // In EUR: the requester's USD total for the day is above the tier already (the test above), and the tier counts it.
    const id = await requestPayout(h, 'mobile', { ...MOBILE_FIELDS, phone: '243820000011', amount: '2000', currency: 'EUR' });
    const card = blockText(await waitForApprovalMessage(h, id, 'Today in EUR'));
    expect(card).not.toContain('senior');
    expect(await approveAs(h, PEOPLE.approver, id)).toContain('One more approver must approve');
    expect(await approveAs(h, PEOPLE.newcomer, id)).toContain('Sent');
  });
});

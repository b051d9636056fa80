import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Db } from '../../src/store/db.js';
import { RECIPIENT_ACTIONS } from '../../src/slack/ids.js';
import { FRESH_READ_REUSE_MS } from '../../src/slack/access.js';
import { blockText, CHANNELS, PEOPLE, startHarness, type Harness } from '../support/bot-harness.js';
import { ManualClock } from '../support/payout-doubles.js';
import { testDatabases } from '../support/databases.js';
import {
  approveAs,
  callbackIs,
  formValues,
  MOBILE_FIELDS,
  openApproveModal,
  openPayoutForm,
  PAYOUT_ENV,
  PAYOUT_VIEWS,
  payoutPosts,
  requestPayout,
  submitForm,
  viewText,
  waitForApprovalMessage,
  waitForView,
} from '../support/payout-flow.js';

const REQUESTERS_GROUP = 'S0REQUESTERS';
const FRENCH = 'U0FABRICE';
// A fresh read of a group stands for FRESH_READ_REUSE_MS: each change of the group lets that pass on the bot's clock.
const clock = new ManualClock(new Date());
function setRequesters(h: Harness, members: string[]): void {
  h.slack.setUsergroupMembers(REQUESTERS_GROUP, members);
  clock.advance(FRESH_READ_REUSE_MS);
}

// Each test pays its own phone numbers, so that what one test paid does not make another's recipient known.
describe('saved recipients and the new-recipient rule, as people see them', () => {
  let h: Harness;
  let db: Db;

  beforeAll(async () => {
    db = await testDatabases()[0]!.open();
    h = await startHarness({
      existingDb: db,
      env: { ...PAYOUT_ENV, PAYOUT_NEW_RECIPIENT_APPROVALS: '2', FLEET_REQUESTERS: REQUESTERS_GROUP },
      slack: { usergroups: { [REQUESTERS_GROUP]: [PEOPLE.requester, FRENCH] } },
      bot: { clock },
    });
  });
  afterAll(async () => {
    await h?.close();
    await db?.close();
  });
  beforeEach(() => setRequesters(h, [PEOPLE.requester, FRENCH]));
  afterEach(async () => {
    expect(h.slack.limitViolations).toEqual([]);
    for (const userId of [PEOPLE.requester, PEOPLE.approver, PEOPLE.approver2]) {
      const root = h.slack.views(userId)[0];
      if (root) await h.slack.closeView({ userId, viewId: root.id });
    }
  });

  /** A payout to `fields` approved by two approvers until it is sent. */
  async function paid(fields: Record<string, string>): Promise<string> {
    const id = await requestPayout(h, 'mobile', fields);
    await approveAs(h, PEOPLE.approver, id);
    expect(await approveAs(h, PEOPLE.approver2, id)).toContain('Sent');
    return id;
  }

  async function recipientsReply(userId: string, text = 'recipients'): Promise<string> {
    const before = h.visibleTo(userId).length;
    await h.slack.runCommand({ userId, channelId: CHANNELS.treasury, text });
    const reply = await h.slack.waitFor(() => h.visibleTo(userId)[before], { message: `the answer to /fleet ${text}` });
    return blockText(reply);
  }

  it('needs two different approvers for a small payout to a new recipient, says why on all three screens, and sends once', async () => {
    const wallet = { ...MOBILE_FIELDS, phone: '243820000001', amount: '10' };
    const form = await openPayoutForm(h, PEOPLE.requester, 'payout mobile');
    const review = await submitForm(h, PEOPLE.requester, form.id, wallet);
    expect(review.view.callback_id).toBe(PAYOUT_VIEWS.review);
    expect(viewText(review)).toContain('*New recipient:* no payout to this phone number with this operator has been completed before.');
    expect(viewText(review)).toContain('Needs 2 different approvers: no payout has been completed to this recipient before.');
    await h.slack.submitView({ userId: PEOPLE.requester, viewId: review.id });
    const id = /PR-[A-Z0-9]{6}/.exec(viewText(h.slack.view(review.id)!))![0];
    await h.slack.closeView({ userId: PEOPLE.requester, viewId: review.id });

    const message = await waitForApprovalMessage(h, id, 'New recipient');
    expect(blockText(message)).toContain('(0 of 2');
    const modal = await openApproveModal(h, PEOPLE.approver, id);
    expect(viewText(modal)).toContain('*New recipient:*');
    await h.slack.closeView({ userId: PEOPLE.approver, viewId: modal.id });
    const posts = payoutPosts(h);
    expect(await approveAs(h, PEOPLE.approver, id)).toContain('One more approver must approve');
    expect(payoutPosts(h)).toBe(posts);
    expect(await approveAs(h, PEOPLE.approver2, id)).toContain('Sent');
    expect(payoutPosts(h)).toBe(posts + 1);

    // Paid once, the same number and operator is known: one approver sends the next payout (another amount: not a possible duplicate).
    const again = await requestPayout(h, 'mobile', { ...wallet, amount: '11' });
    expect(blockText(await waitForApprovalMessage(h, again, '(0 of 1'))).not.toContain('New recipient');
    expect(await approveAs(h, PEOPLE.approver, again)).toContain('Sent');
    expect(payoutPosts(h)).toBe(posts + 2);
  });

  it('flags a known number requested under another name with the name it was last paid under', async () => {
    await paid({ ...MOBILE_FIELDS, phone: '243820000002', amount: '10', name: 'Bora Ilunga' });
    const form = await openPayoutForm(h, PEOPLE.requester, 'payout mobile');
    const review = await submitForm(h, PEOPLE.requester, form.id, { ...MOBILE_FIELDS, phone: '243820000002', amount: '10', name: 'Someone Else' });
    expect(viewText(review)).toContain('*Another name:* this number was last paid under the name Bora Ilunga.');
    expect(viewText(review)).not.toContain('New recipient');
    await h.slack.submitView({ userId: PEOPLE.requester, viewId: review.id });
    const id = /PR-[A-Z0-9]{6}/.exec(viewText(h.slack.view(review.id)!))![0];
    await h.slack.closeView({ userId: PEOPLE.requester, viewId: review.id });
    await waitForApprovalMessage(h, id, 'last paid under the name Bora Ilunga');
    const modal = await openApproveModal(h, PEOPLE.approver, id);
    expect(viewText(modal)).toContain('last paid under the name Bora Ilunga');
    await h.slack.closeView({ userId: PEOPLE.approver, viewId: modal.id });
  });

  it('offers saved recipients as the person types, escapes nothing away, and fills the form with the one picked, keeping the amount typed', async () => {
    await paid({ ...MOBILE_FIELDS, phone: '243820000003', amount: '10', name: 'Chantal <Mwamba> & Co' });
    const form = await openPayoutForm(h, PEOPLE.requester, 'payout bank');
    h.slack.enterValues({ userId: PEOPLE.requester, viewId: form.id, values: formValues({ amount: '25', currency: 'USD', reference: 'INV-SAVED-1' }) });
    // Only what the app offered last can be picked, as in Slack's client.
    expect(
      (await h.slack.suggestOptions({ userId: PEOPLE.requester, viewId: form.id, actionId: RECIPIENT_ACTIONS.pick, value: 'nobody here' })).options,
    ).toEqual([]);
    const suggested = await h.slack.suggestOptions({ userId: PEOPLE.requester, viewId: form.id, actionId: RECIPIENT_ACTIONS.pick, value: 'mwamba' });
    expect(suggested.options).toHaveLength(1);
    expect(suggested.options[0]).toMatchObject({
      text: { type: 'plain_text', text: 'Chantal <Mwamba> & Co · 243820000003 · Vodacom M-Pesa' },
      value: 'mobile:243820000003:VODACOM_MPESA',
    });

    await h.slack.selectOption({ userId: PEOPLE.requester, viewId: form.id, actionId: RECIPIENT_ACTIONS.pick, value: 'mobile:243820000003:VODACOM_MPESA' });
    const filled = await waitForView(
      h,
      PEOPLE.requester,
      (view) => callbackIs(PAYOUT_VIEWS.form)(view) && viewText(view).includes('243820000003'),
      'the form filled in',
    );
    expect((filled.view.title as { text: string }).text).toBe('Mobile money payout');
    const review = await h.slack.submitView({ userId: PEOPLE.requester, viewId: filled.id });
    expect(review.status).toBe(200);
    const shown = viewText(h.slack.view(filled.id)!);
    for (const detail of ['243820000003', 'Chantal &lt;Mwamba&gt; &amp; Co', '25.00 USD', 'INV-SAVED-1']) expect(shown).toContain(detail);
    expect(shown).not.toContain('New recipient');
  });

  it('lists and searches saved recipients for requesters and approvers, in French too, and only after a payout completed', async () => {
    await paid({ ...MOBILE_FIELDS, phone: '243820000004', amount: '10', name: 'Dieudonné Kasongo' });
    const rejected = await requestPayout(h, 'mobile', { ...MOBILE_FIELDS, phone: '243820000005', amount: '10', name: 'Never Paid' });
    await h.slack.clickButton({
      userId: PEOPLE.approver,
      channelId: CHANNELS.approvals,
      messageTs: (await waitForApprovalMessage(h, rejected, rejected)).ts,
      actionId: 'payout_reject',
    });

    const found = await recipientsReply(PEOPLE.approver, 'recipients kasongo');
    expect(found).toContain('1 saved recipient holds `kasongo`.');
    expect(found).toContain('*Dieudonné Kasongo*');
    expect(found).not.toContain('Remove');
    expect(await recipientsReply(PEOPLE.approver, 'recipients never paid')).toContain('No saved recipient holds `never` `paid`.');
    const french = await recipientsReply(FRENCH, 'bénéficiaires kasongo');
    expect(french).toContain('Bénéficiaires enregistrés');
    expect(french).toContain('Dernier paiement');
    expect(french).toContain('Retirer');
    expect(await recipientsReply(PEOPLE.newcomer)).toContain('Only people who request or approve payouts can see the saved recipients.');
  });

  it('lets a requester remove a saved recipient after confirming, records it, and refuses someone no longer a requester', async () => {
    await paid({ ...MOBILE_FIELDS, phone: '243820000006', amount: '10', name: 'Esther Lukusa' });
    expect(await recipientsReply(PEOPLE.requester, 'recipients lukusa')).toContain('*Esther Lukusa*');
    const list = h.visibleTo(PEOPLE.requester).at(-1)!;

    setRequesters(h, [FRENCH]);
    await h.slack.clickButton({ userId: PEOPLE.requester, channelId: CHANNELS.treasury, messageTs: list.ts, actionId: RECIPIENT_ACTIONS.remove });
    await h.waitForMessage(PEOPLE.requester, 'Only people who request payouts can remove a saved recipient');
    expect((await db.query('SELECT 1 FROM saved_recipient_events')).rowCount).toBe(0);

    setRequesters(h, [PEOPLE.requester, FRENCH]);
    await h.slack.clickButton({ userId: PEOPLE.requester, channelId: CHANNELS.treasury, messageTs: list.ts, actionId: RECIPIENT_ACTIONS.remove });
    const replaced = await h.slack.waitFor(
      () => {
        const message = h.slack.messages(CHANNELS.treasury, { visibleTo: PEOPLE.requester }).find((each) => each.ts === list.ts);
        return message && blockText(message).includes('You removed') ? message : undefined;
      },
      { message: 'the list replaced after the removal' },
    );
    expect(blockText(replaced)).toContain('You removed Esther Lukusa (243820000006 · Vodacom M-Pesa) from the saved recipients.');
    expect(await recipientsReply(PEOPLE.requester, 'recipients lukusa')).toContain('No saved recipient holds `lukusa`.');
    const { rows } = await db.query<{ user_id: string; identity: string; details: { recipient: { name: string } } }>(
      'SELECT user_id, identity, details FROM saved_recipient_events',
    );
    expect(rows).toMatchObject([
      { user_id: PEOPLE.requester, identity: 'mobile:243820000006:VODACOM_MPESA', details: { recipient: { name: 'Esther Lukusa' } } },
    ]);
  });
});

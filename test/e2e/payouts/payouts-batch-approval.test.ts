import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { PAYOUT_BATCH, PAYOUT_BATCH_ACTIONS } from '../../../src/slack/ids.js';
import { blockText, CHANNELS, PEOPLE, startHarness, type Harness } from '../../support/bot-harness.js';
import { callbackIs, dmWith, PAYOUT_ENV, payoutPosts, viewText, waitForView } from '../../support/payout-flow.js';

const HEADER = 'kind,number,provider,name,country,amount,currency,reference,note';
const row = (index: number, amount = '10', currency = 'USD') =>
  `mobile,2438123${String(index).padStart(5, '0')},VODACOM_MPESA,Person ${index},CD,${amount},${currency},,`;

describe('asking one approval for a bulk payout', () => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness({ env: { ...PAYOUT_ENV, PAYOUT_NEW_RECIPIENT_APPROVALS: '2', PAYOUT_DAILY_LIMIT: 'USD:100000,EUR:100000,CDF:5000' } });
  });
  afterAll(async () => h?.close());
  afterEach(() => {
    expect(h.slack.limitViolations).toEqual([]);
  });

  /** Checks `rows` through the form and returns the view showing the result. */
  async function check(rows: string[]) {
    await h.slack.runCommand({ userId: PEOPLE.requester, channelId: CHANNELS.treasury, text: 'payout bulk' });
    const form = await waitForView(h, PEOPLE.requester, callbackIs(PAYOUT_BATCH.uploadView), 'the bulk form');
    const fileId = h.slack.uploadFileAs({ userId: PEOPLE.requester, name: 'rows.csv', bytes: `${HEADER}\n${rows.join('\n')}\n` });
    await h.slack.submitView({ userId: PEOPLE.requester, viewId: form.id, values: { [PAYOUT_BATCH.fileBlock]: { [PAYOUT_BATCH.input]: [fileId] } } });
    return waitForView(h, PEOPLE.requester, (view) => view.id === form.id && view.view.callback_id !== PAYOUT_BATCH.checkingView, 'the check');
  }

  async function submit(rows: string[]) {
    const ready = await check(rows);
    expect(ready.view.callback_id).toBe(PAYOUT_BATCH.readyView);
    await h.slack.submitView({ userId: PEOPLE.requester, viewId: ready.id });
    const receipt = viewText(h.slack.view(ready.id)!);
    const id = /PB-[A-Z0-9]{6}/.exec(receipt)?.[0];
    expect(receipt).toContain('waiting for approval');
    return id!;
  }

  const approvalMessage = (id: string) =>
    h.slack.waitFor(() => h.slack.messages(CHANNELS.approvals).find((message) => message.text.includes(id) && !message.threadTs));

  it('posts one approval message with count, totals, largest row and new recipients, and the rows as a CSV in its thread', async () => {
    const id = await submit([row(1, '10'), row(2, '250.50'), row(3, '5', 'EUR')]);
    const message = await approvalMessage(id);
    const shown = blockText(message);
    expect(shown).toContain('*3* payouts');
    expect(shown).toContain('260.50 USD');
    expect(shown).toContain('row 3, 250.50 USD to Person 2');
    expect(shown).toContain('3 rows go to recipients never paid before');
    expect(shown).toContain('0 of 2');
    const thread = await h.slack.waitFor(() => h.slack.messages(CHANNELS.approvals).find((reply) => reply.threadTs === message.ts && reply.files?.length));
    const csv = h.slack.file(thread.files![0]!.id)!.bytes!.toString('utf8');
    expect(csv).toContain(`3,mobile,243812300002,VODACOM_MPESA,Person 2,CD,250.50,USD,${id}-3,,yes`);
    expect(payoutPosts(h)).toBe(0);
  });

  it('needs two different approvers for new recipients, refuses the requester, and releases the batch on the second approval', async () => {
    const id = await submit([row(11), row(12)]);
    const message = await approvalMessage(id);
    await h.slack.clickButton({ userId: PEOPLE.requester, actionId: PAYOUT_BATCH_ACTIONS.approve, channelId: CHANNELS.approvals, messageTs: message.ts });
    await h.slack.clickButton({ userId: PEOPLE.approver, actionId: PAYOUT_BATCH_ACTIONS.approve, channelId: CHANNELS.approvals, messageTs: message.ts });
    await h.slack.waitFor(() => blockText(h.slack.message(CHANNELS.approvals, message.ts)!).includes('1 of 2'));
    await h.waitForMessage(PEOPLE.requester, 'Only approvers may do this', CHANNELS.approvals);
    await h.slack.clickButton({ userId: PEOPLE.approver, actionId: PAYOUT_BATCH_ACTIONS.approve, channelId: CHANNELS.approvals, messageTs: message.ts });
    await h.waitForMessage(PEOPLE.approver, 'already approved', CHANNELS.approvals);
    await h.slack.clickButton({ userId: PEOPLE.approver2, actionId: PAYOUT_BATCH_ACTIONS.approve, channelId: CHANNELS.approvals, messageTs: message.ts });
    const released = await h.slack.waitFor(() => {
      const text = blockText(h.slack.message(CHANNELS.approvals, message.ts)!);
      return /Approved by|Done/.test(text) ? text : undefined;
    });
    expect(released).toMatch(/Approved by|Done/);
    await h.waitForMessage(PEOPLE.requester, `${id}* was approved`, dmWith(PEOPLE.requester));
  });

  it('refuses a batch over the daily limit of a currency, and asks before the same rows go again', async () => {
    const over = await check([row(21, '3000', 'CDF'), row(22, '3000', 'CDF')]);
    await h.slack.submitView({ userId: PEOPLE.requester, viewId: over.id });
    expect(viewText(h.slack.view(over.id)!)).toContain('over your daily limit');

    const rows = [row(31, '1'), row(32, '2')];
    const first = await submit(rows);
    const again = await check(rows);
    expect(viewText(again)).toContain(`row 2 repeats ${first} row 2, row 3 repeats ${first} row 3`);
    // The tick box is required: Slack's client does not even send the form without it.
    const refused = await h.slack.submitView({ userId: PEOPLE.requester, viewId: again.id });
    expect(refused.status).toBe(0);
    await h.slack.submitView({
      userId: PEOPLE.requester,
      viewId: again.id,
      values: { [PAYOUT_BATCH_ACTIONS.confirmSameBlock]: { [PAYOUT_BATCH.input]: ['same'] } },
    });
    expect(viewText(h.slack.view(again.id)!)).toContain('waiting for approval');
  });

  it('asks before the same two rows go again in reverse order, listing which earlier rows each repeats', async () => {
    const first = await submit([row(61, '3'), row(62, '4')]);
    const reversed = await check([row(62, '4'), row(61, '3')]);
    expect(viewText(reversed)).toContain(`2 rows may pay someone twice`);
    expect(viewText(reversed)).toContain(`row 2 repeats ${first} row 3, row 3 repeats ${first} row 2`);
    const refused = await h.slack.submitView({ userId: PEOPLE.requester, viewId: reversed.id });
    expect(refused.status).toBe(0);
    expect(viewText(h.slack.view(reversed.id)!)).not.toContain('waiting for approval');
    await h.slack.submitView({
      userId: PEOPLE.requester,
      viewId: reversed.id,
      values: { [PAYOUT_BATCH_ACTIONS.confirmSameBlock]: { [PAYOUT_BATCH.input]: ['same'] } },
    });
    expect(viewText(h.slack.view(reversed.id)!)).toContain('waiting for approval');
  });

  it('says so, without sending anything to approval, when a repeat lands between the check and the submission', async () => {
    const waiting = await check([row(71, '5')]);
    expect(viewText(waiting)).not.toContain('may pay someone twice');
    // Meanwhile the same payout is requested on its own (say, from another window).
    const single = await h.bot.payouts.validate('mobile_money', {
      phone: '243812300071',
      name: 'Person 71',
      countryCode: 'CD',
      operator: 'VODACOM_MPESA',
      amount: '5',
      currency: 'USD',
      reference: '',
      note: '',
    });
    expect(single.ok && (await h.bot.payouts.submit(PEOPLE.requester, single.draft)).ok).toBe(true);
    await h.slack.submitView({ userId: PEOPLE.requester, viewId: waiting.id });
    const answer = viewText(h.slack.view(waiting.id)!);
    expect(answer).toContain('Since the check, 1 row repeats a recent payout or another row');
    expect(answer).not.toContain('waiting for approval');
  });

  it('lets an approver reject a bulk payout with a reason typed in a modal, which the requester reads, and nothing is sent', async () => {
    const id = await submit([row(41, '12'), row(42, '3', 'EUR')]);
    const message = await approvalMessage(id);
    await h.slack.clickButton({ userId: PEOPLE.approver, actionId: PAYOUT_BATCH_ACTIONS.reject, channelId: CHANNELS.approvals, messageTs: message.ts });
    const modal = await waitForView(h, PEOPLE.approver, callbackIs(PAYOUT_BATCH.rejectView), 'the reject modal');
    expect(viewText(modal)).toContain(`None of the 2 payouts of ${id} will be sent (3.00 EUR · 12.00 USD).`);
    const typed = (reason: string) => ({ [PAYOUT_BATCH.rejectReasonBlock]: { [PAYOUT_BATCH.input]: reason } });
    const tooShort = await h.slack.submitView({ userId: PEOPLE.approver, viewId: modal.id, values: typed('  no ') });
    expect(JSON.stringify(tooShort.body)).toContain('Give a reason for the rejection');
    expect(h.slack.view(modal.id)).toBeDefined();
    await h.slack.submitView({ userId: PEOPLE.approver, viewId: modal.id, values: typed('Row 42 is a test payee <!channel>') });
    expect(viewText(h.slack.view(modal.id)!)).toContain('Rejected. The requester has been sent your reason.');
    await h.slack.waitFor(() =>
      blockText(h.slack.message(CHANNELS.approvals, message.ts)!).includes(`Rejected by <@${PEOPLE.approver}>: Row 42 is a test payee`),
    );
    const dm = await h.waitForMessage(PEOPLE.requester, `${id}* was rejected`, dmWith(PEOPLE.requester));
    expect(dm.text).toContain('Row 42 is a test payee &lt;!channel&gt;');
    expect(h.sandbox.requests.filter((request) => JSON.stringify(request.body ?? '').includes(id))).toEqual([]);
  });

  it("lists a pending bulk payout in /fleet payouts and finds it by a row's reference, its recipient's name or number, and its id", async () => {
    const id = await submit([row(81, '7'), 'mobile,+243 812 399 001,VODACOM_MPESA,Kalala Bulkfind,CD,8,USD,INV-BULK-61,']);
    await h.slack.runCommand({ userId: PEOPLE.approver2, channelId: CHANNELS.treasury, text: 'payouts' });
    const list = await h.slack.waitFor(() =>
      h.visibleTo(PEOPLE.approver2).find((message) => message.text.startsWith('Recent payouts') && message.text.includes(id)),
    );
    expect(list.text).toContain(`${id} waiting for approval`);
    expect(blockText(list)).toContain(`\`${id}\` · bulk payout of *2* payouts: 15.00 USD · \`rows.csv\` · *waiting for approval*`);
    for (const words of ['inv-bulk-61', 'kalala bulkfind', '812399001', id.toLowerCase()]) {
      await h.slack.runCommand({ userId: PEOPLE.approver2, channelId: CHANNELS.treasury, text: `payouts ${words}` });
      const found = await h.slack.waitFor(() =>
        h.visibleTo(PEOPLE.approver2).find((message) => message.text.startsWith('Payouts found') && blockText(message).includes(`\`${words.split(' ')[0]}\``)),
      );
      expect(found.text, words).toContain(`${id} waiting for approval`);
      expect(blockText(found)).toContain('1 bulk payout holds');
    }
  });

  it('tells an approver, not only the log, when a bulk payout button fails', async () => {
    const id = await submit([row(51)]);
    const message = await approvalMessage(id);
    const approve = h.bot.batches.approve.bind(h.bot.batches);
    h.bot.batches.approve = () => Promise.reject(new Error('database connection lost'));
    try {
      await h.slack.clickButton({ userId: PEOPLE.approver, actionId: PAYOUT_BATCH_ACTIONS.approve, channelId: CHANNELS.approvals, messageTs: message.ts });
      const told = await h.waitForMessage(
        PEOPLE.approver,
        'Could not record your approval of the bulk payout: something went wrong on our side',
        CHANNELS.approvals,
      );
      expect(told.ephemeralTo).toBe(PEOPLE.approver);
      expect(told.text).not.toContain('database connection lost');
    } finally {
      h.bot.batches.approve = approve;
    }
  });
});

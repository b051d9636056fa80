/**
 * The App Home tab through the real bot: what each role sees when they open it, homes kept current as
 * payouts change, Approve and Reject from the home taking the approval message's path and rules (for
 * single requests and bulk payouts), and
 * the last known balances during a Fleet API outage.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { OpenView } from '@fleet-treasury-bot/local-slack';
import { formatAmount } from '../../src/core/money.js';
import { HOME, PAYOUT_ACTIONS, PAYOUT_BATCH, PAYOUT_BATCH_ACTIONS, PAYOUT_VIEWS } from '../../src/slack/ids.js';
import { blockText, CHANNELS, PEOPLE, startHarness, type Harness } from '../support/bot-harness.js';
import { batchRow, checkBatch, submitBatch } from '../support/batch-flow.js';
import { dmTexts, MOBILE_FIELDS, PAYOUT_ENV, requestPayout, submitApproval, viewText, waitForView } from '../support/payout-flow.js';

const { requester: RITA, approver: ABEL, approver2: ADA, newcomer: NICO } = PEOPLE;

describe('the App Home tab', () => {
  let h: Harness;
  beforeAll(async () => {
    // Ada both requests and approves: her own requests must never wait for her.
    h = await startHarness({ env: { ...PAYOUT_ENV, FLEET_REQUESTERS: `${RITA},${ADA}` }, bot: { homeTimers: { throttleMs: 0 } } });
  });
  afterAll(async () => h?.close());
  afterEach(() => {
    h.sandbox.setFault(null);
    expect(h.slack.limitViolations).toEqual([]);
  });

  const home = (userId: string) => h.slack.home(userId);
  /** Waits until the person's home satisfies `test` (published after the change under test). */
  const homeWhere = (userId: string, test: (text: string) => boolean, what: string) =>
    h.slack.waitFor(
      () => {
        const view = home(userId);
        return view && test(viewText(view)) ? view : undefined;
      },
      { message: `${userId}'s home: ${what}` },
    );
  async function open(userId: string): Promise<OpenView> {
    const before = home(userId)?.hash;
    const ack = await h.slack.openHome({ userId });
    expect(ack.status).toBe(200);
    return h.slack.waitFor(() => (home(userId)?.hash !== before ? home(userId) : undefined), { message: `${userId}'s home published` });
  }

  it('shows someone without access only the access message, and calls the Fleet API for nothing', async () => {
    const calls = h.sandbox.requests.length;
    const view = await open(NICO);
    expect(viewText(view)).toContain("You don't have access to the fleet account's data");
    expect(view.view.blocks).toHaveLength(1);
    await h.bot.home.idle();
    expect(h.sandbox.requests.length).toBe(calls);
  });

  it('shows an approver the balances with their reading time, the status line, the buttons and what waits for them', async () => {
    const text = viewText(await open(ABEL));
    for (const [currency, amount] of Object.entries(h.sandbox.balances())) expect(text).toContain(formatAmount(amount, currency, { locale: 'en' }));
    expect(text).toContain('Read <!date^');
    expect(text).toContain('Feed: off · History: off.');
    expect(text).toContain('No payout request waits for your approval.');
    for (const actionId of [HOME.refresh, HOME.transactions]) expect(text).toContain(`"action_id":"${actionId}"`);
    // Abel may not request payouts, and the ledger (so the export) is off here.
    expect(text).not.toContain(HOME.newPayout);
    expect(text).not.toContain(HOME.export);
    expect(text).not.toContain('Your requests');
  });

  let ritaRequest = '';

  it("republishes the requester's and the approvers' homes when a payout changes, never showing the requester their own as waiting", async () => {
    await open(RITA);
    await open(ADA);
    ritaRequest = await requestPayout(h, 'mobile', MOBILE_FIELDS);
    const adasOwn = await requestPayout(h, 'mobile', { ...MOBILE_FIELDS, phone: '243812345679' }, ADA);
    const abel = await homeWhere(ABEL, (text) => text.includes(ritaRequest) && text.includes(adasOwn), 'both requests waiting');
    expect(viewText(abel)).toContain(`home_waiting_${ritaRequest}`);
    const ada = await homeWhere(
      ADA,
      (text) => text.includes(`home_waiting_${ritaRequest}`) && text.includes(adasOwn),
      "Rita's request waiting, her own listed",
    );
    expect(viewText(ada)).not.toContain(`home_waiting_${adasOwn}`);
    expect(viewText(ada)).toContain('Your requests');
    const rita = await homeWhere(RITA, (text) => text.includes(ritaRequest), 'her request');
    expect(viewText(rita)).toContain('· waiting for approval ·');
    expect(viewText(rita)).toContain(HOME.newPayout);
    expect(viewText(rita)).not.toContain('Waiting for you');
  });

  it("refuses, on the server, an approval of her own request crafted from Ada's home", async () => {
    const adasOwn = /PR-[A-Z0-9]{6}/.exec(viewText(home(ADA)!).split('Your requests')[1] ?? '')?.[0];
    expect(adasOwn).toBeDefined();
    const ack = await h.slack.clickButton({ userId: ADA, viewId: home(ADA)!.id, actionId: PAYOUT_ACTIONS.approve, value: adasOwn! });
    expect(ack.status).toBe(200);
    await h.slack.waitFor(() => dmTexts(h, ADA).some((text) => text.includes('You requested this payout')), { message: "the refusal in Ada's DM" });
    expect(h.slack.views(ADA)).toEqual([]);
  });

  it("approves from the home through the approval message's own modal, then shows everyone the new state", async () => {
    const ack = await h.slack.clickButton({ userId: ABEL, viewId: home(ABEL)!.id, actionId: PAYOUT_ACTIONS.approve, blockId: `home_waiting_${ritaRequest}` });
    expect(ack.status).toBe(200);
    const modal = await waitForView(
      h,
      ABEL,
      (view) => view.view.callback_id === PAYOUT_VIEWS.approve && view.view.private_metadata === ritaRequest,
      'the approve modal',
    );
    expect(await submitApproval(h, ABEL, modal.id)).toContain('Sent.');
    await homeWhere(ABEL, (text) => !text.includes(`home_waiting_${ritaRequest}`), 'the request gone from Waiting for you');
    await homeWhere(RITA, (text) => text.includes(`*${ritaRequest}*`) && text.includes('· sent ·'), 'her request sent');
  });

  it("lists a pending bulk payout under Waiting for you and among its requester's requests, its buttons acting by the approval message's rules", async () => {
    const id = await submitBatch(h, [batchRow(901, '12'), batchRow(902, '13')]);
    const abel = viewText(await homeWhere(ABEL, (text) => text.includes(`home_waiting_${id}`), 'the bulk payout waiting'));
    expect(abel).toContain(`*${id}* · bulk payout of *2* payouts: 25.00 USD · \`rows.csv\``);
    expect(abel).toContain(`"action_id":"${PAYOUT_BATCH_ACTIONS.approve}"`);
    expect(abel).toContain(`Approving ${id} sends 2 payouts in all: 25.00 USD.`);
    await homeWhere(ADA, (text) => text.includes(`home_waiting_${id}`), 'the bulk payout waiting for Ada too');
    await homeWhere(RITA, (text) => text.includes(`*${id}* · bulk payout of *2* payouts`) && text.includes('· waiting for approval ·'), 'her bulk payout');
    expect(viewText(home(RITA)!)).not.toContain(`home_waiting_${id}`);

    // Ada's own bulk payout never waits for her, and a click crafted from her home to approve it is refused on the server, in her DMs.
    const ready = await checkBatch(h, [batchRow(903, '14')], ADA);
    await h.slack.submitView({ userId: ADA, viewId: ready.id });
    const adasOwn = /PB-[A-Z0-9]{6}/.exec(viewText(h.slack.view(ready.id)!))![0];
    await homeWhere(ADA, (text) => text.includes(`*${adasOwn}*`), 'her own bulk payout among her requests');
    expect(viewText(home(ADA)!)).not.toContain(`home_waiting_${adasOwn}`);
    await h.slack.clickButton({ userId: ADA, viewId: home(ADA)!.id, actionId: PAYOUT_BATCH_ACTIONS.approve, blockId: `home_waiting_${id}`, value: adasOwn });
    await h.slack.waitFor(() => dmTexts(h, ADA).some((text) => text.includes('You asked for this bulk payout')), { message: "the refusal in Ada's DM" });
    expect((await h.bot.batches.get(adasOwn))?.state).toBe('pending');

    // Reject from the home opens the same modal as on the message, asking the reason.
    await h.slack.clickButton({ userId: ADA, viewId: home(ADA)!.id, actionId: PAYOUT_BATCH_ACTIONS.reject, blockId: `home_waiting_${id}` });
    const rejecting = await waitForView(
      h,
      ADA,
      (view) => view.view.callback_id === PAYOUT_BATCH.rejectView && view.view.private_metadata === id,
      'the reject modal',
    );
    await h.slack.closeView({ userId: ADA, viewId: rejecting.id });

    await h.slack.clickButton({ userId: ABEL, viewId: home(ABEL)!.id, actionId: PAYOUT_BATCH_ACTIONS.approve, blockId: `home_waiting_${id}` });
    await h.slack.waitFor(
      () => blockText(h.slack.messages(CHANNELS.approvals).find((message) => message.text.includes(id) && !message.threadTs)!).includes(`<@${ABEL}>`),
      { message: 'the bulk payout approved by Abel' },
    );
    await homeWhere(ABEL, (text) => !text.includes(`home_waiting_${id}`), 'the bulk payout gone from Waiting for you');
  });

  it('shows the last known balances and their age when the Fleet API fails during a refresh', async () => {
    const shown = (view: OpenView) => /\*USD\*\\n([^"]+)"/.exec(viewText(view))?.[1];
    const lastRead = shown(await open(ABEL));
    expect(lastRead).toMatch(/USD$/);
    h.sandbox.setFault({ match: { path: '/api/v1/b2b/account/balance' }, status: 503 });
    await h.slack.clickButton({ userId: ABEL, viewId: home(ABEL)!.id, actionId: HOME.refresh });
    // Wait for the refresh's own home: the earlier test's bulk payout may still republish homes meanwhile.
    const outage = /These are the last known balances, read <!date\^\d+\^[^>]+> \(\d+ s ago\)/;
    const view = await h.slack.waitFor(
      () => {
        const current = home(ABEL);
        return current && outage.test(viewText(current)) ? current : undefined;
      },
      { message: 'the refreshed home with the last known balances', timeoutMs: 15_000 },
    );
    expect(shown(view)).toBe(lastRead);
  });
});

describe("an approver's Home opened before a request, with the production throttle", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ env: PAYOUT_ENV });
  });
  afterAll(async () => h?.close());

  it("shows Rita's newest request to Abel, with its recipient and Approve, within 15 seconds, even behind 20 older ones", async () => {
    // A day's work leaves requests waiting: the home shows 20 of them, and the new one must be among them.
    for (let index = 0; index < 20; index += 1) {
      await requestPayout(h, 'mobile', { ...MOBILE_FIELDS, amount: '10', phone: `2438123400${String(index).padStart(2, '0')}`, name: `Earlier ${index}` });
    }
    const ack = await h.slack.openHome({ userId: ABEL });
    expect(ack.status).toBe(200);
    await h.slack.waitFor(() => h.slack.home(ABEL), { message: "Abel's first home" });
    await h.bot.home.idle();
    const id = await requestPayout(h, 'mobile', { ...MOBILE_FIELDS, name: 'Newest Recipient' });
    const view = await h.slack.waitFor(
      () => {
        const shown = h.slack.home(ABEL);
        return shown && viewText(shown).includes(`home_waiting_${id}`) ? shown : undefined;
      },
      { message: "Abel's home showing Rita's newest request", timeoutMs: 15_000 },
    );
    const text = viewText(view);
    expect(text).toContain('Newest Recipient');
    expect(text).toContain(
      `{"type":"button","action_id":"${PAYOUT_ACTIONS.approve}","text":{"type":"plain_text","text":"Approve","emoji":true},"value":"${id}"`,
    );
    expect(text).toContain('… and 1 more waiting for you');
  });
});

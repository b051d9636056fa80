import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { PAYOUT_BATCH, PAYOUT_BATCH_ACTIONS } from '../../../src/slack/ids.js';
import { batchMessage, checkBatch, clickOnBatch } from '../../support/batch-flow.js';
import { blockText, CHANNELS, PEOPLE, startHarness, type Harness } from '../../support/bot-harness.js';
import { approveAs, MOBILE_FIELDS, PAYOUT_ENV, payoutPosts, requestPayout, viewText } from '../../support/payout-flow.js';

// Rita (the requester) and Fabrice (here the newcomer) request; Abel (the approver) approves. Dual approval above 1,000 USD.
const RITA = PEOPLE.requester;
const FABRICE = PEOPLE.newcomer;
const ABEL = PEOPLE.approver;
const WALLET = '243812399999';

describe('day totals across a single request and a bulk payout', () => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness({ env: { ...PAYOUT_ENV, FLEET_REQUESTERS: `${RITA},${FABRICE}` } });
  });
  afterAll(async () => h?.close());
  afterEach(() => {
    expect(h.slack.limitViolations).toEqual([]);
  });

  it('asks two approvers for a bulk row that takes a wallet already paid 900 USD that day to 1,800 USD, and says why', async () => {
    const single = await requestPayout(h, 'mobile', { ...MOBILE_FIELDS, phone: WALLET, amount: '900' }, RITA);
    expect(await approveAs(h, ABEL, single)).toContain('*Sent.*');
    expect(payoutPosts(h)).toBe(1);

    const ready = await checkBatch(h, [`mobile,${WALLET},VODACOM_MPESA,Amani Kabila,CD,900,USD,,`], FABRICE);
    expect(ready.view.callback_id).toBe(PAYOUT_BATCH.readyView);
    // The same wallet and amount as Rita's request is a possible duplicate as well: Fabrice ticks that it is meant.
    await h.slack.submitView({ userId: FABRICE, viewId: ready.id, values: { [PAYOUT_BATCH_ACTIONS.confirmSameBlock]: { [PAYOUT_BATCH.input]: ['same'] } } });
    const id = /PB-[A-Z0-9]{6}/.exec(viewText(h.slack.view(ready.id)!))![0];

    const message = await batchMessage(h, id);
    expect(blockText(message)).toContain('0 of 2');
    expect(blockText(message)).toContain("Needs 2 approvers: the recipient's USD total for the team’s day, 1,800.00 USD, is above 1,000.00 USD.");

    await clickOnBatch(h, ABEL, id, 'approve');
    await h.slack.waitFor(() => blockText(h.slack.message(CHANNELS.approvals, message.ts)!).includes('1 of 2'));
    expect(payoutPosts(h)).toBe(1);
  });
});

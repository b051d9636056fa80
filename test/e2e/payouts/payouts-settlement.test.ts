import { beforeEach, describe, expect, it } from 'vitest';
import { blockText, PEOPLE, type Harness } from '../../support/bot-harness.js';
import { ManualClock, MINUTE } from '../../support/payout-doubles.js';
import {
  approvalMessage,
  approveAs,
  buttonsOf,
  clickOnApproval,
  MOBILE_FIELDS,
  MOBILE_PATH,
  PAYOUT_ACTIONS,
  payoutPosts,
  privateNotes,
  requestPayout,
  useUnknownOutcomeHarness,
  waitForApprovalMessage,
} from '../../support/payout-flow.js';

describe('settling an unknown payout with approvers', () => {
  const clock = new ManualClock(new Date());
  const harness = useUnknownOutcomeHarness(clock);
  let h: Harness;
  beforeEach(() => {
    h = harness();
  });

  /**
   * Moves the clock on by 2 s at most every 250 ms until the approval message shows a likely match.
   * The first look (which pages the list) may still run when the payout shows as unknown, and it
   * schedules the next look from the clock as it is when it ends: one move could come too early.
   */
  function lookAgainUntilProposed(id: string) {
    let lastMove = 0;
    return h.slack.waitFor(
      () => {
        const message = approvalMessage(h, id);
        if (message && blockText(message).includes('Likely match')) return message;
        if (Date.now() - lastMove >= 250) {
          lastMove = Date.now();
          clock.advance(2000);
        }
        return undefined;
      },
      { timeoutMs: 15_000, message: `the approval message of ${id} to say "Likely match"` },
    );
  }

  it('shows a credit that only quotes a typed reference as a likely match, and settles it only when an approver confirms', async () => {
    const id = await requestPayout(h, 'mobile', { ...MOBILE_FIELDS, amount: '31', reference: 'INV-42' });
    const before = payoutPosts(h);
    // The provider refused to process it, but said so unclearly: nothing moved.
    h.sandbox.setFault({ match: { method: 'POST', path: MOBILE_PATH }, status: 503, times: 1 });
    await approveAs(h, PEOPLE.approver, id);
    await waitForApprovalMessage(h, id, 'Outcome unknown');

    const credit = h.sandbox.addTransaction({
      type: 'PAYMENT',
      amount: 31,
      currency: 'USD',
      status: 'Completed',
      description: 'Customer transfer for INV-42 <!channel> <http://evil.example|statement>',
    });
    const proposed = await lookAgainUntilProposed(id);
    const text = blockText(proposed);
    expect(text).toContain(credit.reference);
    expect(text).toContain('&lt;!channel&gt;');
    expect(text).not.toContain('<!channel>');
    expect(text).toContain('Outcome unknown');
    expect(buttonsOf(proposed)).toEqual([PAYOUT_ACTIONS.confirmMatch, PAYOUT_ACTIONS.rejectMatch]);
    expect((await h.bot.payouts.get(id))?.state).toBe('unknown');

    await clickOnApproval(h, PEOPLE.requester, id, PAYOUT_ACTIONS.confirmMatch);
    await h.slack.waitFor(() => privateNotes(h, PEOPLE.requester).find((text) => text.includes('Only approvers can say whether a transaction is this payout')));
    expect((await h.bot.payouts.get(id))?.state).toBe('unknown');

    await clickOnApproval(h, PEOPLE.approver2, id, PAYOUT_ACTIONS.confirmMatch);
    const done = await waitForApprovalMessage(h, id, '*Sent.*');
    expect(blockText(done)).toContain(credit.reference);
    expect(buttonsOf(done)).toEqual([]);
    expect(payoutPosts(h) - before).toBe(1);
    const history = await h.bot.payouts.history(id);
    expect(history.map((event) => event.event)).toEqual(['requested', 'approved', 'executing', 'unknown', 'likely_match', 'match_confirmed']);
    expect(history.at(-1)?.userId).toBe(PEOPLE.approver2);
  });

  it('drops a likely match on "Not this one" and does not propose it again', async () => {
    const id = await requestPayout(h, 'mobile', { ...MOBILE_FIELDS, amount: '32', reference: 'INV-43' });
    h.sandbox.setFault({ match: { method: 'POST', path: MOBILE_PATH }, status: 503, times: 1 });
    await approveAs(h, PEOPLE.approver, id);
    await waitForApprovalMessage(h, id, 'Outcome unknown');
    h.sandbox.addTransaction({ type: 'PAYMENT', amount: 32, currency: 'USD', status: 'Completed', description: 'Refund for INV-43' });
    await lookAgainUntilProposed(id);
    await clickOnApproval(h, PEOPLE.approver2, id, PAYOUT_ACTIONS.rejectMatch);
    await h.slack.waitFor(
      () => {
        const message = approvalMessage(h, id);
        return message && !blockText(message).includes('Likely match') ? message : undefined;
      },
      { message: 'the likely match to leave the approval message' },
    );
    expect((await h.bot.payouts.get(id))?.state).toBe('unknown');
    clock.advance(11 * MINUTE);
    const review = await waitForApprovalMessage(h, id, 'Needs review');
    expect(blockText(review)).not.toContain('Likely match');
    expect(buttonsOf(review)).toEqual([PAYOUT_ACTIONS.retry]);
    expect((await h.bot.payouts.history(id)).filter((event) => event.event === 'likely_match')).toHaveLength(1);
  });

  it('sends a payout that needed two approvers again only when two approvers agree', async () => {
    const id = await requestPayout(h, 'mobile', { ...MOBILE_FIELDS, amount: '1500' });
    const before = payoutPosts(h);
    h.sandbox.setFault({ match: { method: 'POST', path: MOBILE_PATH }, status: 503, times: 1 });
    await approveAs(h, PEOPLE.approver, id);
    await approveAs(h, PEOPLE.approver2, id);
    await waitForApprovalMessage(h, id, 'Outcome unknown');
    clock.advance(11 * MINUTE);
    await waitForApprovalMessage(h, id, 'Needs review');

    await clickOnApproval(h, PEOPLE.approver, id, PAYOUT_ACTIONS.retry);
    const waiting = await waitForApprovalMessage(h, id, 'one more approver needed');
    expect(blockText(waiting)).toContain(`Retry approved by <@${PEOPLE.approver}>; one more approver needed`);
    await h.slack.waitFor(() => privateNotes(h, PEOPLE.approver).find((text) => text.includes('nothing is sent until another approver agrees')));
    expect(payoutPosts(h) - before).toBe(1);

    await clickOnApproval(h, PEOPLE.approver, id, PAYOUT_ACTIONS.retry);
    await h.slack.waitFor(() => privateNotes(h, PEOPLE.approver).find((text) => text.includes('You have already agreed to send payout')));
    expect(payoutPosts(h) - before).toBe(1);

    await clickOnApproval(h, PEOPLE.approver2, id, PAYOUT_ACTIONS.retry);
    await waitForApprovalMessage(h, id, 'sent 2 times with the same reference');
    expect(payoutPosts(h) - before).toBe(2);
    const history = (await h.bot.payouts.history(id)).map((event) => event.event);
    expect(history.slice(-4)).toEqual(['retry_approved', 'retry_approved', 'retried', 'completed']);
  });
});

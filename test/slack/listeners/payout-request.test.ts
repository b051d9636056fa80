import { describe, expect, it, vi } from 'vitest';
import type { PayoutDraft, PayoutRequest } from '../../../src/payouts/index.js';
import { payoutRequestSubcommand, registerPayoutRequestListeners } from '../../../src/slack/listeners/payout-request.js';
import { PAYOUT_VIEWS } from '../../../src/slack/ids.js';
import { pendingRequest } from '../../support/payout-doubles.js';
import { fakeContext, FakeRouter, REQUESTER, runSubcommand, seen, STRANGER } from '../../support/fake-router.js';

const draft: PayoutDraft = {
  kind: 'mobile_money',
  recipient: { phone: '243812345678', name: 'Amani Kabila', countryCode: 'CD' },
  operator: 'VODACOM_MPESA',
  amountMinor: 15000,
  currency: 'USD',
  reference: 'PAY-20261120-7K3F9Q',
  note: '',
};
const refused = { ok: false as const, code: 'not_requester' as const, details: { action: 'request' as const } };

function setUp(payouts: Record<string, unknown>, env: Record<string, string> = {}) {
  const ctx = fakeContext({ payouts: payouts as never }, env);
  const fake = new FakeRouter(ctx);
  registerPayoutRequestListeners(fake.router, ctx);
  return { ctx, fake };
}

describe('/fleet payout', () => {
  it('opens the chooser for a requester before anything slow', async () => {
    const { ctx } = setUp({ mayRequest: async () => ({ ok: true }) });
    const { replies, of } = await runSubcommand(payoutRequestSubcommand(ctx), ctx, REQUESTER);
    expect(replies).toEqual([]);
    expect(of('views.open')).toEqual([expect.objectContaining({ trigger_id: 'T-1', view: expect.objectContaining({ callback_id: PAYOUT_VIEWS.chooser }) })]);
  });

  it('refuses someone who may not request with a private reply and no modal', async () => {
    const { ctx } = setUp({ mayRequest: async () => refused });
    const { replies, calls } = await runSubcommand(payoutRequestSubcommand(ctx), ctx, STRANGER, ['mobile']);
    expect(calls).toEqual([]);
    expect(replies).toHaveLength(1);
    expect(replies[0]).toMatchObject({ response_type: 'ephemeral' });
  });

  it('says payouts are not set up when no approval channel is', async () => {
    const mayRequest = vi.fn();
    const { ctx } = setUp({ mayRequest }, { APPROVAL_CHANNEL_ID: '' });
    const { replies, calls } = await runSubcommand(payoutRequestSubcommand(ctx), ctx, REQUESTER);
    expect(mayRequest).not.toHaveBeenCalled();
    expect(calls).toEqual([]);
    expect(seen(replies[0]).length).toBeGreaterThan(0);
  });
});

describe('the payout review', () => {
  const review = (metadata: unknown) => ({ callback_id: PAYOUT_VIEWS.review, private_metadata: JSON.stringify(metadata) });

  it('hands the reviewed draft to the service and shows the stored request', async () => {
    const stored: PayoutRequest = { ...pendingRequest(), ...draft, id: 'PR-7K3F9Q' };
    const submitReview = vi.fn(async () => ({ ok: true, request: stored }));
    const { fake } = setUp({ submitReview });
    const handled = await fake.submit(PAYOUT_VIEWS.review, REQUESTER, review({ draft, resubmits: 'PR-AAAAAA' }));
    expect(submitReview).toHaveBeenCalledWith(REQUESTER, draft, { resubmitOf: 'PR-AAAAAA', filledFrom: undefined, schedule: undefined });
    expect(handled.acks).toEqual([{ response_action: 'update', view: expect.objectContaining({ callback_id: PAYOUT_VIEWS.submitted }) }]);
    expect(seen(handled.acks)).toContain('PR-7K3F9Q');
  });

  it('says a review whose draft does not read back is out of date, and stores nothing', async () => {
    const submitReview = vi.fn();
    const { fake } = setUp({ submitReview });
    const handled = await fake.submit(PAYOUT_VIEWS.review, REQUESTER, review({ draft: { ...draft, amountMinor: -5 } }));
    expect(submitReview).not.toHaveBeenCalled();
    expect(handled.acks).toEqual([{ response_action: 'update', view: expect.objectContaining({ callback_id: PAYOUT_VIEWS.notice }) }]);
  });

  it("shows the form again when the review's fields no longer pass, and a refusal as a notice", async () => {
    const invalid = vi.fn(async () => ({ ok: false, code: 'invalid', errors: { amount: { code: 'check_value' } } }));
    const form = await setUp({ submitReview: invalid }).fake.submit(PAYOUT_VIEWS.review, REQUESTER, review({ draft }));
    expect(form.acks).toEqual([{ response_action: 'update', view: expect.objectContaining({ callback_id: PAYOUT_VIEWS.form }) }]);
    const notAllowed = await setUp({ submitReview: async () => refused }).fake.submit(PAYOUT_VIEWS.review, STRANGER, review({ draft }));
    expect(notAllowed.acks).toEqual([{ response_action: 'update', view: expect.objectContaining({ callback_id: PAYOUT_VIEWS.notice }) }]);
  });
});

import { describe, expect, it, vi } from 'vitest';
import { registerPayoutApprovalListeners } from '../../../src/slack/listeners/payout-approval.js';
import { PAYOUT_ACTIONS, PAYOUT_VIEWS } from '../../../src/slack/ids.js';
import { pendingRequest } from '../../support/payout-doubles.js';
import { APPROVER, fakeContext, FakeRouter, STRANGER } from '../../support/fake-router.js';

function setUp(mayReject: () => Promise<unknown>) {
  const request = pendingRequest({ id: 'PR-7K3F9Q' });
  const payouts = { get: vi.fn(async () => request), mayReject: vi.fn(mayReject) };
  const ctx = fakeContext({ payouts: payouts as never });
  const fake = new FakeRouter(ctx);
  registerPayoutApprovalListeners(fake.router, ctx);
  return { fake, payouts };
}

describe('Reject on an approval message', () => {
  it('opens the reject window for an approver the service allows', async () => {
    const { fake, payouts } = setUp(async () => ({ ok: true }));
    const handled = await fake.action(PAYOUT_ACTIONS.reject, APPROVER, { value: 'PR-7K3F9Q' });
    expect(payouts.get).toHaveBeenCalledWith('PR-7K3F9Q');
    expect(handled.of('views.open')).toEqual([expect.objectContaining({ view: expect.objectContaining({ callback_id: PAYOUT_VIEWS.reject }) })]);
  });

  it('tells someone the service refuses privately, and opens nothing', async () => {
    const { fake } = setUp(async () => ({ ok: false, code: 'not_approver' }));
    const handled = await fake.action(PAYOUT_ACTIONS.reject, STRANGER, { value: 'PR-7K3F9Q' }, { view: undefined });
    expect(handled.of('views.open')).toEqual([]);
    expect(handled.calls.map((call) => call.method)).toEqual(['chat.postMessage']);
    expect(handled.of('chat.postMessage')[0]).toMatchObject({ channel: STRANGER });
  });
});

import { describe, expect, it, vi } from 'vitest';
import { registerPayoutBatchApprovalListeners } from '../../../src/slack/listeners/payout-batch-approval.js';
import { PAYOUT_BATCH_ACTIONS } from '../../../src/slack/ids.js';
import { APPROVER, fakeContext, FakeRouter, seen } from '../../support/fake-router.js';

function setUp(batches: Record<string, unknown>) {
  const ctx = fakeContext({ batches: batches as never });
  const fake = new FakeRouter(ctx);
  registerPayoutBatchApprovalListeners(fake.router, ctx);
  return fake;
}

describe('the buttons on a bulk payout', () => {
  it('Approve hands the batch to the service and says nothing more when it is done', async () => {
    const approve = vi.fn(async () => ({ ok: true }));
    const handled = await setUp({ approve }).action(PAYOUT_BATCH_ACTIONS.approve, APPROVER, { value: 'PB-7K3F9Q' });
    expect(handled.acks).toHaveLength(1);
    expect(approve).toHaveBeenCalledWith('PB-7K3F9Q', APPROVER);
    expect(handled.calls).toEqual([]);
  });

  it('Reject opens no window for someone the service refuses, and tells them why privately', async () => {
    const mayReject = vi.fn(async () => ({ ok: false, code: 'not_approver' }));
    const handled = await setUp({ mayReject }).action(PAYOUT_BATCH_ACTIONS.reject, APPROVER, { value: 'PB-7K3F9Q' });
    expect(handled.of('views.open')).toEqual([]);
    expect(handled.of('chat.postMessage')).toHaveLength(1);
    expect(seen(handled.of('chat.postMessage'))).toContain(':no_entry:');
  });
});

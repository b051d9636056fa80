import { describe, expect, it, vi } from 'vitest';
import { payoutHistorySubcommand } from '../../../src/slack/listeners/payout-history.js';
import { fakeContext, REQUESTER, runSubcommand, seen, STRANGER } from '../../support/fake-router.js';

function setUp(canView: boolean) {
  const payouts = { canView: vi.fn(async () => canView), get: vi.fn(async () => undefined), search: vi.fn(), listRecent: vi.fn() };
  const ctx = fakeContext({ payouts: payouts as never });
  return { ctx, payouts };
}

describe('/fleet payouts', () => {
  it('refuses someone who may not see payouts, and reads none', async () => {
    const { ctx, payouts } = setUp(false);
    const { replies } = await runSubcommand(payoutHistorySubcommand(ctx), ctx, STRANGER, ['PR-7K3F9Q']);
    expect(payouts.get).not.toHaveBeenCalled();
    expect(replies).toHaveLength(1);
    expect(seen(replies[0]).length).toBeGreaterThan(0);
  });

  it('says a payout named by its id does not exist', async () => {
    const { ctx, payouts } = setUp(true);
    const { replies } = await runSubcommand(payoutHistorySubcommand(ctx), ctx, REQUESTER, ['PR-7K3F9Q']);
    expect(payouts.get).toHaveBeenCalledWith('PR-7K3F9Q');
    expect(seen(replies[0])).toContain('PR-7K3F9Q');
  });
});

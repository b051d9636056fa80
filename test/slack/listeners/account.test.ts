import { describe, expect, it, vi } from 'vitest';
import { registerAccountActions } from '../../../src/slack/listeners/account.js';
import { ACTIONS } from '../../../src/slack/ids.js';
import { fakeContext, FakeRouter, seen, STRANGER, VIEWER } from '../../support/fake-router.js';

function setUp() {
  const account = { balance: vi.fn(async () => ({ balances: { USD: 125_000 }, readAt: new Date('2026-11-20T09:59:00Z') })) };
  const ctx = fakeContext({ account: account as never });
  const fake = new FakeRouter(ctx);
  registerAccountActions(fake.router, ctx);
  return { fake, account, ctx };
}

describe('the balance buttons', () => {
  it('refresh reads the balance again and replaces the message with it', async () => {
    const { fake, account } = setUp();
    const handled = await fake.action(ACTIONS.balanceRefresh, VIEWER);
    expect(handled.acks).toHaveLength(1);
    expect(account.balance).toHaveBeenCalledWith(expect.objectContaining({ fresh: true }));
    expect(handled.replies[0]).toMatchObject({ response_type: 'ephemeral', replace_original: true });
    expect(seen(handled.replies[0])).toContain('125,000.00');
  });

  it('refuses refresh to someone who may not view, and reads nothing', async () => {
    const { fake, account } = setUp();
    const handled = await fake.action(ACTIONS.balanceRefresh, STRANGER);
    expect(account.balance).not.toHaveBeenCalled();
    expect(handled.replies).toHaveLength(1);
  });

  it('shares in the channel only figures the app sealed, and says a broken seal expired', async () => {
    const { fake, ctx } = setUp();
    const value = ctx.seal.seal({ balances: { USD: 99_900 }, readAt: '2026-11-20T09:00:00.000Z' })!;
    const shared = await fake.action(ACTIONS.balanceShare, VIEWER, { value });
    expect(shared.replies[0]).toMatchObject({ response_type: 'in_channel', replace_original: false });
    expect(seen(shared.replies[0])).toContain('99,900.00');
    const forged = await fake.action(ACTIONS.balanceShare, VIEWER, { value: `${value}x` });
    expect(forged.replies[0]).toMatchObject({ response_type: 'ephemeral', replace_original: false });
    expect(seen(forged.replies[0])).not.toContain('99,900.00');
  });
});

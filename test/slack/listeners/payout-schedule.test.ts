import { describe, expect, it, vi } from 'vitest';
import { registerPayoutScheduleListeners } from '../../../src/slack/listeners/payout-schedule.js';
import { PAYOUT_SCHEDULE } from '../../../src/slack/ids.js';
import { fakeContext, FakeRouter, REQUESTER, seen } from '../../support/fake-router.js';

function setUp(skip = vi.fn(async () => ({ ok: false, code: 'moved_on' }))) {
  const ctx = fakeContext({ schedules: { skip } as never });
  const fake = new FakeRouter(ctx);
  registerPayoutScheduleListeners(fake.router, ctx);
  return { fake, skip };
}

describe('the buttons on a scheduled payout', () => {
  it('act on the occurrence the button names, for the person who pressed it, and say the outcome privately', async () => {
    const { fake, skip } = setUp();
    const handled = await fake.action(PAYOUT_SCHEDULE.skip, REQUESTER, { value: 'PR-7K3F9Q:3' });
    expect(handled.acks).toHaveLength(1);
    expect(skip).toHaveBeenCalledWith('PR-7K3F9Q', 3, REQUESTER);
    expect(handled.replies).toEqual([expect.objectContaining({ response_type: 'ephemeral', replace_original: false })]);
  });

  it('touch nothing for a value that names no occurrence', async () => {
    const { fake, skip } = setUp();
    const handled = await fake.action(PAYOUT_SCHEDULE.skip, REQUESTER, { value: 'DROP TABLE:1' });
    expect(skip).not.toHaveBeenCalled();
    expect(seen(handled.replies[0]).length).toBeGreaterThan(0);
  });
});

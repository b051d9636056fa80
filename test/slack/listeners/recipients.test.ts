import { describe, expect, it, vi } from 'vitest';
import { recipientsSubcommand, registerRecipientListeners } from '../../../src/slack/listeners/recipients.js';
import { RECIPIENT_ACTIONS } from '../../../src/slack/ids.js';
import { fakeContext, FakeRouter, REQUESTER, runSubcommand, seen } from '../../support/fake-router.js';

function setUp(recipients: Record<string, unknown>) {
  const ctx = fakeContext({ recipients: recipients as never, payouts: { mayRequest: async () => ({ ok: true }) } as never });
  const fake = new FakeRouter(ctx);
  registerRecipientListeners(fake.router, ctx);
  return { ctx, fake };
}

describe('saved recipients in Slack', () => {
  it('/fleet recipients says the list is locked to someone the book refuses', async () => {
    const list = vi.fn(async () => ({ ok: false, code: 'not_allowed' }));
    const { ctx } = setUp({ list });
    const { replies } = await runSubcommand(recipientsSubcommand(ctx), ctx, REQUESTER, ['"Amani"']);
    expect(list).toHaveBeenCalledWith(REQUESTER, ['Amani'], 15);
    expect(replies[0]).toMatchObject({ response_type: 'ephemeral' });
    expect(seen(replies[0]).length).toBeGreaterThan(0);
  });

  it("answers the form's select with no options when the search fails", async () => {
    const { fake } = setUp({ suggest: async () => Promise.reject(new Error('db down')) });
    const handled = await fake.options(RECIPIENT_ACTIONS.pick, REQUESTER, 'ama');
    expect(handled.acks).toEqual([{ options: [] }]);
  });

  it('Remove says a recipient already gone is not found, leaving the list as it is', async () => {
    const remove = vi.fn(async () => ({ ok: false, code: 'not_found' }));
    const { fake } = setUp({ remove });
    const handled = await fake.action(RECIPIENT_ACTIONS.remove, REQUESTER, { value: 'mm:243812345678:VODACOM' });
    expect(remove).toHaveBeenCalledWith(REQUESTER, 'mm:243812345678:VODACOM');
    expect(handled.replies).toHaveLength(1);
    expect(handled.replies[0]).toMatchObject({ response_type: 'ephemeral', replace_original: false });
  });
});

import { describe, expect, it } from 'vitest';
import { openBatchForm, registerPayoutBatchListeners } from '../../../src/slack/listeners/payout-batch.js';
import { PAYOUT_BATCH } from '../../../src/slack/ids.js';
import { fakeClient, fakeContext, FakeRouter, REQUESTER, STRANGER } from '../../support/fake-router.js';

async function openAs(userId: string, mayRequest: () => Promise<unknown>) {
  const ctx = fakeContext({ payouts: { mayRequest } as never, batches: { maxRows: 500 } as never });
  const replies: unknown[] = [];
  const { client, of } = fakeClient();
  await openBatchForm(ctx)({
    command: { user_id: userId, trigger_id: 'T-1' } as never,
    args: [],
    client,
    respond: (async (reply: unknown) => {
      replies.push(reply);
    }) as never,
    readerSurface: async () => ctx.surface,
  });
  return { replies, of };
}

describe('bulk payouts in Slack', () => {
  it('/fleet payout bulk opens the upload window for a requester', async () => {
    const { replies, of } = await openAs(REQUESTER, async () => ({ ok: true }));
    expect(replies).toEqual([]);
    expect(of('views.open')).toEqual([expect.objectContaining({ view: expect.objectContaining({ callback_id: PAYOUT_BATCH.uploadView }) })]);
  });

  it('/fleet payout bulk refuses someone who may not request, with a private reply and no window', async () => {
    const { replies, of } = await openAs(STRANGER, async () => ({ ok: false, code: 'not_requester', details: { action: 'request' } }));
    expect(of('views.open')).toEqual([]);
    expect(replies).toEqual([expect.objectContaining({ response_type: 'ephemeral' })]);
  });

  it("answers the upload window's and the checked file's submissions", () => {
    const ctx = fakeContext();
    const fake = new FakeRouter(ctx);
    registerPayoutBatchListeners(fake.router, ctx);
    expect(fake.registered()).toEqual([`view:${PAYOUT_BATCH.readyView}`, `view:${PAYOUT_BATCH.uploadView}`].sort());
  });
});

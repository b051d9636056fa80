import { describe, expect, it, vi } from 'vitest';
import { recordsSubcommand } from '../../../src/slack/listeners/partner-records.js';
import { fakeContext, runSubcommand, seen, VIEWER } from '../../support/fake-router.js';

describe('/fleet reconcile', () => {
  it('says reconciling is unavailable without the ledger, privately', async () => {
    const ctx = fakeContext({ records: undefined });
    const { replies, calls } = await runSubcommand(recordsSubcommand(ctx), ctx, VIEWER);
    expect(calls).toEqual([]);
    expect(replies).toEqual([expect.objectContaining({ response_type: 'ephemeral', replace_original: false })]);
  });

  it('lists the runs kept for `history`', async () => {
    const history = vi.fn(async () => []);
    const ctx = fakeContext({ records: { history } as never });
    const { replies } = await runSubcommand(recordsSubcommand(ctx), ctx, VIEWER, ['history']);
    expect(history).toHaveBeenCalledTimes(1);
    expect(replies).toHaveLength(1);
    expect(seen(replies[0]).length).toBeGreaterThan(0);
  });
});

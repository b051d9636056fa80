import { describe, expect, it } from 'vitest';
import { transactionsSubcommand } from '../../../src/slack/listeners/transactions.js';
import { fakeContext, runSubcommand, seen, VIEWER } from '../../support/fake-router.js';

describe('/fleet transactions', () => {
  it('says the search cannot be run without the ledger, privately', async () => {
    const ctx = fakeContext({ ledger: undefined });
    const { replies } = await runSubcommand(transactionsSubcommand(ctx), ctx, VIEWER, ['last', 'week']);
    expect(replies).toHaveLength(1);
    expect(replies[0]).toMatchObject({ response_type: 'ephemeral', replace_original: false });
    expect(seen(replies[0]).length).toBeGreaterThan(0);
  });
});

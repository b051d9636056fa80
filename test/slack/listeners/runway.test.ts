import { describe, expect, it } from 'vitest';
import { runwaySubcommand } from '../../../src/slack/listeners/runway.js';
import { fakeContext, runSubcommand, seen, VIEWER } from '../../support/fake-router.js';

describe('/fleet runway', () => {
  it('says the runway could not be computed, privately, and sends no chart', async () => {
    const ctx = fakeContext({ runway: () => Promise.reject(new Error('fleet down')) });
    const { replies, calls } = await runSubcommand(runwaySubcommand(ctx), ctx, VIEWER);
    expect(replies).toHaveLength(1);
    expect(replies[0]).toMatchObject({ response_type: 'ephemeral' });
    expect(seen(replies[0])).not.toContain('fleet down');
    expect(calls).toEqual([]);
  });
});

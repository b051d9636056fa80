import { describe, expect, it } from 'vitest';
import { exportSubcommand } from '../../../src/slack/listeners/export.js';
import { fakeContext, runSubcommand, seen, VIEWER } from '../../support/fake-router.js';

describe('/fleet export', () => {
  it('says the export is unavailable without the ledger, and writes no file', async () => {
    const ctx = fakeContext({ exporter: undefined });
    const { replies, calls } = await runSubcommand(exportSubcommand(ctx), ctx, VIEWER);
    expect(calls).toEqual([]);
    expect(replies).toEqual([expect.objectContaining({ response_type: 'ephemeral' })]);
    expect(seen(replies[0])).toMatch(/export/i);
  });

  it('says another export is running for the person, and starts none', async () => {
    const ctx = fakeContext({ exporter: { begin: async () => undefined } as never });
    const { replies, calls } = await runSubcommand(exportSubcommand(ctx), ctx, VIEWER);
    expect(calls).toEqual([]);
    expect(replies).toHaveLength(1);
  });
});

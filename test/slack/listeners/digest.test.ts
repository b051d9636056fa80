import { describe, expect, it, vi } from 'vitest';
import { digestSubcommand } from '../../../src/slack/listeners/digest.js';
import { fakeContext, runSubcommand, seen, VIEWER } from '../../support/fake-router.js';

describe('/fleet digest', () => {
  it('answers a word that is not a day with its usage, and builds nothing', async () => {
    const build = vi.fn();
    const ctx = fakeContext({ digest: { timeZone: 'UTC', build } as never });
    const { replies } = await runSubcommand(digestSubcommand(ctx), ctx, VIEWER, ['yesterday']);
    expect(build).not.toHaveBeenCalled();
    expect(replies).toHaveLength(1);
    expect(seen(replies[0])).toContain('`yesterday`');
  });

  it("says it is building yesterday's digest at once, then says the digest failed without the cause's words", async () => {
    const build = vi.fn(async () => Promise.reject(new Error('ledger exploded')));
    const ctx = fakeContext({ digest: { timeZone: 'UTC', build } as never });
    const { replies } = await runSubcommand(digestSubcommand(ctx), ctx, VIEWER);
    expect(build).toHaveBeenCalledWith('2026-11-19');
    expect(replies).toHaveLength(2);
    expect(seen(replies[0])).toContain('2026');
    expect(seen(replies[1])).not.toContain('ledger exploded');
  });
});

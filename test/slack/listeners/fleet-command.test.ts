import { describe, expect, it, vi } from 'vitest';
import { registerFleetCommand } from '../../../src/slack/listeners/fleet-command.js';
import type { Subcommand } from '../../../src/slack/subcommands.js';
import { fakeContext, FakeRouter, seen, STRANGER, VIEWER } from '../../support/fake-router.js';

function setUp(
  run: Subcommand['run'] = async ({ respond }) => {
    await respond({ text: 'balance shown' });
  },
) {
  const ctx = fakeContext();
  const ran = vi.fn(run);
  const balance: Subcommand = {
    name: 'balance',
    localNames: { fr: 'solde' },
    audience: 'viewers',
    help: () => [{ usage: '/fleet balance', description: 'the balance' }],
    run: ran,
  };
  const fake = new FakeRouter(ctx);
  registerFleetCommand(fake.router, ctx, [balance]);
  return { fake, ran };
}

describe('the /fleet command', () => {
  it('acknowledges at once and hands the words after the subcommand to it', async () => {
    const { fake, ran } = setUp();
    const handled = await fake.command('/fleet', VIEWER, 'Balance fresh please');
    expect(handled.acks).toEqual([undefined]);
    expect(ran).toHaveBeenCalledWith(expect.objectContaining({ args: ['fresh', 'please'] }));
    expect(handled.replies).toEqual([{ text: 'balance shown' }]);
  });

  it("refuses someone outside the subcommand's audience before it runs", async () => {
    const { fake, ran } = setUp();
    const handled = await fake.command('/fleet', STRANGER, 'balance');
    expect(ran).not.toHaveBeenCalled();
    expect(handled.replies[0]).toMatchObject({ response_type: 'ephemeral', replace_original: false });
    expect(seen(handled.replies[0])).toMatch(/FLEET_VIEWERS|not.*view|viewer/i);
  });

  it('lists only what the person may use for a word no subcommand answers to', async () => {
    const { fake } = setUp();
    const stranger = await fake.command('/fleet', STRANGER, 'frobnicate');
    expect(seen(stranger.replies[0])).toContain('frobnicate');
    expect(seen(stranger.replies[0])).not.toContain('/fleet balance');
    const viewer = await fake.command('/fleet', VIEWER, 'help');
    expect(seen(viewer.replies[0])).toContain('/fleet balance');
  });

  it('says the subcommand failed, privately, when it throws', async () => {
    const { fake } = setUp(async () => {
      throw new Error('boom');
    });
    const handled = await fake.command('/fleet', VIEWER, 'balance');
    expect(handled.replies).toHaveLength(1);
    expect(handled.replies[0]).toMatchObject({ response_type: 'ephemeral' });
    expect(seen(handled.replies[0])).not.toContain('boom');
  });
});

import { describe, expect, it } from 'vitest';
import type { FeedStatus } from '../../../src/feed/index.js';
import { feedSubcommand } from '../../../src/slack/listeners/feed.js';
import { fakeContext, runSubcommand, seen, VIEWER } from '../../support/fake-router.js';

describe('/fleet feed', () => {
  it('says where the feed posts and whether it keeps up, privately', async () => {
    const status: FeedStatus = {
      channelId: 'CFEED',
      pollIntervalSeconds: 15,
      started: true,
      lastSuccessfulPollAt: new Date('2026-11-20T09:59:30Z'),
      newestPosted: undefined,
      behindMs: 0,
      pendingEntries: 0,
      lateEntries: 0,
      gapEntries: 0,
      futureDatedEntries: 0,
      unreadableEntries: 0,
      lastError: undefined,
    };
    const feed = { status: async () => status };
    const ctx = fakeContext({ feed: feed as never });
    const { replies } = await runSubcommand(feedSubcommand(ctx), ctx, VIEWER);
    expect(replies).toHaveLength(1);
    expect(replies[0]).toMatchObject({ response_type: 'ephemeral' });
    expect(seen(replies[0])).toContain('CFEED');
  });

  it("says it could not read the feed's state when that fails", async () => {
    const ctx = fakeContext({ feed: { status: async () => Promise.reject(new Error('db down')) } as never });
    const { replies } = await runSubcommand(feedSubcommand(ctx), ctx, VIEWER);
    expect(replies).toHaveLength(1);
    expect(seen(replies[0])).not.toContain('db down');
    expect(seen(replies[0]).length).toBeGreaterThan(0);
  });
});

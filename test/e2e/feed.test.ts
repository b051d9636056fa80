import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blockText, CHANNELS, PEOPLE, startHarness, type Harness } from '../support/bot-harness.js';

describe('the live feed in the running bot', () => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness({ env: { FEED_CHANNEL_ID: CHANNELS.feed, FEED_POLL_INTERVAL_SECONDS: '5' } });
    // The first poll only notes where the list stands: nothing from the past is posted.
    for (let tries = 0; !(await h.bot.feed!.status()).started; tries += 1) {
      if (tries > 150) throw new Error('the feed never made its first poll');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  });
  afterAll(async () => h?.close());

  it('posts each new sandbox transaction to the feed channel once, oldest first', async () => {
    expect(h.slack.messages(CHANNELS.feed)).toEqual([]);
    const added = h.sandbox.addTransactions(30);
    const expected = [...added].sort((a, b) => Date.parse(a.date) - Date.parse(b.date)).map((tx) => tx.reference);
    const feedText = () => h.slack.messages(CHANNELS.feed).map(blockText).join('\n');
    await h.slack.waitFor(() => expected.every((reference) => feedText().includes(reference)) || undefined, { timeoutMs: 20_000 });
    const text = feedText();
    const positions = expected.map((reference) => text.indexOf(reference));
    expect(positions.every((position, i) => i === 0 || position > positions[i - 1]!)).toBe(true);
    for (const reference of expected) expect(text.split(reference).length - 1).toBe(1);
    expect(h.slack.limitViolations).toEqual([]);
  });

  it('tells a viewer where the feed posts and when it last checked, and refuses a non-viewer', async () => {
    await h.slack.runCommand({ userId: PEOPLE.requester, channelId: CHANNELS.treasury, text: 'feed' });
    const status = await h.waitForMessage(PEOPLE.requester, 'Transaction feed');
    expect(blockText(status)).toContain(`<#${CHANNELS.feed}>`);
    expect(blockText(status)).toContain('Last successful check');
    await h.slack.runCommand({ userId: PEOPLE.newcomer, channelId: CHANNELS.treasury, text: 'feed' });
    await h.waitForMessage(PEOPLE.newcomer, "don't have access");
    expect(h.visibleTo(PEOPLE.newcomer).some((m) => m.text.includes('Transaction feed'))).toBe(false);
  });

  it('keeps posting around an entry the Fleet API sent malformed, and counts it in /fleet feed', async () => {
    const before = h.sandbox.addTransaction({ reference: 'BEFORE-DAMAGED' });
    h.sandbox.addMalformedTransaction({ currency: 42 });
    const after = h.sandbox.addTransaction({ reference: 'AFTER-DAMAGED' });
    const feedText = () => h.slack.messages(CHANNELS.feed).map(blockText).join('\n');
    await h.slack.waitFor(() => [before, after].every((tx) => feedText().includes(tx.reference)) || undefined, { timeoutMs: 20_000 });
    // The poll records its count just after its last message went out.
    for (let tries = 0; (await h.bot.feed!.status()).unreadableEntries === 0; tries += 1) {
      if (tries > 100) throw new Error('the feed never recorded the malformed entry');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await h.slack.runCommand({ userId: PEOPLE.approver2, channelId: CHANNELS.treasury, text: 'feed' });
    const status = await h.waitForMessage(PEOPLE.approver2, 'Transaction feed');
    expect(blockText(status)).toContain('*Unreadable entries:* 1 in the last check');
  });
});

describe('the live feed over the ledger in the running bot', () => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness({
      env: {
        FEED_CHANNEL_ID: CHANNELS.feed,
        FEED_POLL_INTERVAL_SECONDS: '5',
        LEDGER_ENABLED: 'true',
        LEDGER_POLL_SECONDS: '60',
        LEDGER_HISTORY_PAGE_DELAY_MS: '0',
        LEDGER_SWEEP_MINUTES: '0',
        LEDGER_REWALK_HOURS: '0',
      },
    });
    for (let tries = 0; !(await h.bot.feed!.status()).started; tries += 1) {
      if (tries > 150) throw new Error('the feed never made its first poll');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  });
  afterAll(async () => h?.close());

  it('posts a new transaction within the feed interval, not the ledger one, as one compact message', async () => {
    const added = h.sandbox.addTransaction();
    const posted = await h.slack.waitFor(() => h.slack.messages(CHANNELS.feed).find((message) => blockText(message).includes(added.reference)), {
      timeoutMs: 5_000 + 3_000,
    });

    expect(posted.blocks?.filter((block) => (block as { type?: string }).type === 'section')).toHaveLength(1);
    expect(h.slack.messages(CHANNELS.feed)).toHaveLength(1);
  });
});

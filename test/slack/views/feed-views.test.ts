import type { KnownBlock, SectionBlock } from '@slack/types';
import { describe, expect, it } from 'vitest';
import type { FeedStatus } from '../../../src/feed/types.js';
import { buildFeedStatusMessage } from '../../../src/slack/views/feed-status.js';
import { buildFeedMessage } from '../../../src/slack/views/feed.js';
import { transaction } from '../../support/feed-doubles.js';

const at = (ms: number) => new Date(Date.parse('2025-06-01T12:00:00.000Z') + ms);
const live = { sandbox: false, locale: 'en' as const };

function sectionTexts(blocks: KnownBlock[]): string[] {
  return blocks.filter((block): block is SectionBlock => block.type === 'section').map((block) => block.text?.text ?? '');
}

describe('feed message builder', () => {
  it('escapes descriptions so that <!channel> cannot ping anyone and links cannot be disguised', () => {
    const message = buildFeedMessage(live, {
      kind: 'transactions',
      entries: [transaction(at(0), { description: 'Refund <!channel> see <http://evil.example|bank> & co', reference: '<@U123>' })],
      notes: [],
    });
    const all = JSON.stringify(message);
    expect(all).not.toContain('<!channel>');
    expect(all).not.toContain('<http://evil');
    expect(all).not.toContain('<@U123>');
    expect(sectionTexts(message.blocks).join('\n')).toContain('Refund &lt;!channel&gt; see &lt;http://evil.example|bank&gt; &amp; co');
  });

  it('stays within 50 blocks and 3000 characters per section for 20 entries with the longest descriptions', () => {
    const entries = Array.from({ length: 20 }, (_, i) =>
      transaction(at(i), { description: '&<>'.repeat(2000), reference: `R${'x'.repeat(500)}`, type: 'T'.repeat(300), currency: `C${i % 10}X` }),
    );
    const message = buildFeedMessage({ sandbox: true, locale: 'en' as const }, { kind: 'transactions', entries, notes: [{ kind: 'caught_up', behindMs: 3_600_000 }, { kind: 'overflow', count: 5000, atLeast: true }] });
    expect(message.blocks.length).toBeLessThanOrEqual(50);
    for (const text of sectionTexts(message.blocks)) expect(text.length).toBeLessThanOrEqual(3000);
    // Slack refuses messages whose blocks are very large (about 13k characters).
    expect(JSON.stringify(message.blocks).length).toBeLessThan(13_000);
    const context = message.blocks.filter((block) => block.type === 'context');
    for (const block of context) expect(block.type === 'context' && block.elements.length).toBeLessThanOrEqual(10);
  });

  it('stays within Slack\'s limits when the Fleet API sends absurdly long currency codes', () => {
    // A message Slack refuses for its size would be retried at every poll, and the feed would stall on it.
    const entries = Array.from({ length: 20 }, (_, i) => transaction(at(i), { currency: `${String(i).padStart(2, '0')}${'<&'.repeat(1500)}` }));
    const message = buildFeedMessage(live, { kind: 'transactions', entries, notes: [] });
    for (const text of sectionTexts(message.blocks)) expect(text.length).toBeLessThanOrEqual(3000);
    for (const block of message.blocks) {
      if (block.type === 'context') for (const element of block.elements) expect('text' in element && element.text.length).toBeLessThanOrEqual(3000);
    }
    expect(JSON.stringify(message.blocks).length).toBeLessThan(13_000);
    expect(message.text.length).toBeLessThan(4_000);
  });

  it('shows credits and debits apart, with totals per currency', () => {
    const message = buildFeedMessage(live, {
      kind: 'transactions',
      entries: [
        transaction(at(0), { amount: 1234.5, currency: 'USD' }),
        transaction(at(1), { amount: -200, currency: 'USD' }),
        transaction(at(2), { amount: -15000, currency: 'CDF' }),
      ],
      notes: [],
    });
    const texts = sectionTexts(message.blocks);
    expect(texts[0]).toContain(':large_green_circle: 1 in');
    expect(texts[0]).toContain(':red_circle: 2 out');
    expect(texts[1]).toMatch(/^:large_green_circle: \*\+1,234\.50 USD\*/);
    expect(texts[2]).toMatch(/^:red_circle: \*-200\.00 USD\*/);
    const totals = JSON.stringify(message.blocks.find((block) => block.type === 'context'));
    expect(totals).toContain('*USD* · in +1,234.50 USD (1) · out -200.00 USD (1) · net +1,034.50 USD');
    expect(totals).toContain('*CDF* · out -15,000.00 CDF (1) · net -15,000.00 CDF');
  });

  it('points to /fleet transactions when earlier entries were left out', () => {
    const message = buildFeedMessage(live, { kind: 'transactions', entries: [transaction(at(0))], notes: [{ kind: 'overflow', count: 1234, atLeast: false }] });
    expect(sectionTexts(message.blocks)[0]).toContain('1,234 earlier transactions were not posted');
    expect(sectionTexts(message.blocks)[0]).toContain('/fleet transactions');
  });

  it('says above the entries when they showed up late or are dated in the future', () => {
    const late = buildFeedMessage(live, { kind: 'transactions', entries: [transaction(at(0))], notes: [{ kind: 'late', count: 1 }] });
    expect(sectionTexts(late.blocks)[0]).toContain('*1 transaction late*: dated before entries already posted');
    const ahead = buildFeedMessage(live, { kind: 'transactions', entries: [transaction(at(0)), transaction(at(1))], notes: [{ kind: 'future_dated', count: 2 }] });
    expect(sectionTexts(ahead.blocks)[0]).toContain('*2 transactions dated in the future*, more than 2 min ahead');
  });

  it('words a balance alert with the balance and its threshold', () => {
    const message = buildFeedMessage(live, { kind: 'balance_low', currency: 'USD', balanceMinor: 499_999, thresholdMinor: 500_000 });
    expect(sectionTexts(message.blocks)[0]).toContain('4,999.99 USD, below the alert threshold of 5,000.00 USD');
  });
});

describe('feed status builder', () => {
  const now = at(3_600_000);
  const status: FeedStatus = {
    channelId: 'C0FEED',
    pollIntervalSeconds: 15,
    started: true,
    lastSuccessfulPollAt: at(3_590_000),
    newestPosted: { reference: 'TX-9', date: at(3_500_000), postedAt: at(3_505_000) },
    behindMs: 0,
    pendingEntries: 0,
    lateEntries: 0,
    futureDatedEntries: 0,
    unreadableEntries: 0,
    lastError: undefined,
  };

  it('shows channel, interval, last check and newest entry posted', () => {
    const text = sectionTexts(buildFeedStatusMessage(live, status, now).blocks).join('\n');
    expect(text).toContain('<#C0FEED>');
    expect(text).toContain('every 15 s');
    expect(text).toContain('up to date');
    expect(text).toContain('`TX-9`');
    expect(text).toContain('(10 s ago)');
  });

  it('says how far behind the feed is and the last error, escaped', () => {
    const behind = { ...status, behindMs: 12 * 60_000, lastError: { message: 'Fleet API <!here> unavailable', at: at(3_599_000) } };
    const text = sectionTexts(buildFeedStatusMessage(live, behind, now).blocks).join('\n');
    expect(text).toContain('*12 min behind*');
    expect(text).toContain('Fleet API &lt;!here&gt; unavailable');
    expect(text).not.toContain('resolved since');
  });

  it('counts the entries posted late and those dated in the future, and says nothing of them when there were none', () => {
    const odd = { ...status, lateEntries: 3, futureDatedEntries: 1 };
    const text = sectionTexts(buildFeedStatusMessage(live, odd, now).blocks).join('\n');
    expect(text).toContain('*Posted late:* 3 entries');
    expect(text).toContain('*Dated in the future:* 1 entries');
    const plain = sectionTexts(buildFeedStatusMessage(live, status, now).blocks).join('\n');
    expect(plain).not.toContain('late');
    expect(plain).not.toContain('future');
  });

  it('marks an error followed by a successful check as resolved', () => {
    const recovered = { ...status, lastError: { message: 'Could not reach Slack', at: at(3_000_000) } };
    expect(sectionTexts(buildFeedStatusMessage(live, recovered, now).blocks).join('\n')).toContain('resolved since');
  });

  it('says the feed is off when no channel is set', () => {
    expect(buildFeedStatusMessage(live, undefined, now).text).toContain('FEED_CHANNEL_ID');
  });
});

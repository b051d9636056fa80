import type { KnownBlock, SectionBlock } from '@slack/types';
import { describe, expect, it } from 'vitest';
import type { FeedStatus } from '../../../src/feed/types.js';
import { buildFeedStatusMessage } from '../../../src/slack/views/feed-status.js';
import { buildFeedFallbackText, buildFeedMessage } from '../../../src/slack/views/feed.js';
import { checkMessage } from '@fleet-treasury-bot/local-slack';
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

  it.each(['en', 'fr'] as const)('stays within 50 blocks and 3000 characters per section for 20 entries with the longest descriptions (%s)', (locale) => {
    const entries = Array.from({ length: 20 }, (_, i) =>
      transaction(at(i), {
        description: '&<>'.repeat(2000),
        reference: `R${'x'.repeat(500)}`,
        type: 'T'.repeat(300),
        currency: `C${i % 10}X`,
        status: '<&'.repeat(300),
      }),
    );
    const notes = [
      { kind: 'caught_up', behindMs: 3_600_000 },
      { kind: 'overflow', count: 5000, atLeast: true },
      { kind: 'late', count: 20 },
      { kind: 'future_dated', count: 20 },
    ] as const;
    const message = buildFeedMessage({ sandbox: true, locale }, { kind: 'transactions', entries, notes: [...notes] });
    expect(checkMessage(message.blocks, message.text)).toEqual([]);
    expect(message.blocks.length).toBeLessThanOrEqual(50);
    for (const text of sectionTexts(message.blocks)) expect(text.length).toBeLessThanOrEqual(3000);
    // Slack refuses messages whose blocks are very large (about 13k characters).
    expect(JSON.stringify(message.blocks).length).toBeLessThan(13_000);
    const context = message.blocks.filter((block) => block.type === 'context');
    for (const block of context) expect(block.type === 'context' && block.elements.length).toBeLessThanOrEqual(10);
  });

  it.each(['en', 'fr'] as const)("stays within Slack's limits when the Fleet API sends absurdly long currency codes (%s)", (locale) => {
    // A message Slack refuses for its size would be retried at every poll, and the feed would stall on it.
    const entries = Array.from({ length: 20 }, (_, i) => transaction(at(i), { currency: `${String(i).padStart(2, '0')}${'<&'.repeat(1500)}` }));
    const message = buildFeedMessage({ sandbox: false, locale }, { kind: 'transactions', entries, notes: [] });
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

  it('posts a single new entry as one compact line, without headline, totals or footer', () => {
    for (const locale of ['en', 'fr'] as const) {
      const message = buildFeedMessage(
        { sandbox: false, locale },
        {
          kind: 'transactions',
          entries: [transaction(at(0), { amount: -150, currency: 'USD', reference: 'PAY-1', description: 'Mobile money payout\nto 243812345678' })],
          notes: [],
        },
      );
      expect(message.blocks).toHaveLength(1);
      const [line] = sectionTexts(message.blocks);
      expect(line).not.toContain('\n');
      expect(line).toMatch(
        locale === 'en' ? /^:red_circle: \*-150\.00 USD\* · PAYMENT · `PAY-1` · <!date\^/ : /^:red_circle: \*-150,00 USD\* · PAYMENT · `PAY-1` · <!date\^/,
      );
      expect(line).toContain('Mobile money payout to 243812345678');
      expect(message.text).toContain(locale === 'en' ? '-150.00 USD' : '-150,00 USD');
      expect(checkMessage(message.blocks, message.text)).toEqual([]);
    }
    // On the sandbox the line keeps its SANDBOX mark.
    const sandbox = buildFeedMessage({ sandbox: true, locale: 'en' }, { kind: 'transactions', entries: [transaction(at(0))], notes: [] });
    expect(JSON.stringify(sandbox.blocks)).toContain('SANDBOX');
    expect(sandbox.blocks).toHaveLength(2);
  });

  it('says an entry had not completed when it was posted, and says nothing of a completed one', () => {
    const single = buildFeedMessage(live, { kind: 'transactions', entries: [transaction(at(0), { status: 'Pending', reference: 'PAY-1' })], notes: [] });
    expect(sectionTexts(single.blocks)[0]).toMatch(/^:large_green_circle: \*\+[\d,.]+ [A-Z]+\* · PAYMENT · _Pending_ · `PAY-1` · <!date\^/);
    const several = buildFeedMessage(live, {
      kind: 'transactions',
      entries: [transaction(at(0), { status: 'Completed' }), transaction(at(1), { status: 'Pending' })],
      notes: [],
    });
    const [, completed, pending] = sectionTexts(several.blocks);
    expect(completed).not.toContain('Completed');
    expect(pending).toContain('  ·  _Pending_  ·  ');
  });

  it('points to /fleet transactions when earlier entries were left out', () => {
    const message = buildFeedMessage(live, { kind: 'transactions', entries: [transaction(at(0))], notes: [{ kind: 'overflow', count: 1234, atLeast: false }] });
    expect(sectionTexts(message.blocks)[0]).toContain('1,234 earlier transactions were not posted');
    expect(sectionTexts(message.blocks)[0]).toContain('/fleet transactions');
  });

  it('says above the entries when they showed up late or are dated in the future', () => {
    const late = buildFeedMessage(live, { kind: 'transactions', entries: [transaction(at(0))], notes: [{ kind: 'late', count: 1 }] });
    expect(sectionTexts(late.blocks)[0]).toContain('*1 transaction late*: dated before entries already posted');
    const ahead = buildFeedMessage(live, {
      kind: 'transactions',
      entries: [transaction(at(0)), transaction(at(1))],
      notes: [{ kind: 'future_dated', count: 2 }],
    });
    expect(sectionTexts(ahead.blocks)[0]).toContain('*2 transactions dated in the future*, more than 2 min ahead');
  });

  it('words a balance alert with the balance and its threshold', () => {
    const message = buildFeedMessage(live, { kind: 'balance_low', currency: 'USD', balanceMinor: 499_999, thresholdMinor: 500_000 });
    expect(sectionTexts(message.blocks)[0]).toContain('4,999.99 USD, below the alert threshold of 5,000.00 USD');
  });

  it('writes the feed lines in French, amounts the French way, for a French channel', () => {
    const french = { sandbox: false, locale: 'fr' as const };
    const message = buildFeedMessage(french, {
      kind: 'transactions',
      entries: [transaction(at(0), { amount: 125430.57, currency: 'USD' }), transaction(at(1), { amount: -200, currency: 'USD' })],
      notes: [
        { kind: 'caught_up', behindMs: 2 * 86_400_000 + 3 * 3_600_000 },
        { kind: 'late', count: 2 },
      ],
    });
    const texts = sectionTexts(message.blocks);
    expect(texts[0]).toContain('Le flux avait *2 j 3 h de retard*');
    expect(texts[1]).toContain('*2 transactions en retard* : datées d’avant des opérations déjà publiées');
    expect(texts[2]).toBe('*2 nouvelles transactions de la flotte*  ·  :large_green_circle: 1 en entrée  ·  :red_circle: 1 en sortie');
    expect(texts[3]).toMatch(/^:large_green_circle: \*\+125\u202F430,57 USD\*/);
    const totals = JSON.stringify(message.blocks.find((block) => block.type === 'context'));
    expect(totals).toContain('Totaux : *USD* · entrées +125\u202F430,57 USD (1) · sorties -200,00 USD (1) · net +125\u202F230,57 USD');
    expect(message.text).toBe('2 nouvelles transactions de la flotte : net +125\u202F230,57 USD');
    expect(message.text).not.toMatch(/new|transactions late/);
    const fallback = buildFeedFallbackText(french, {
      kind: 'transactions',
      entries: [transaction(at(0), { amount: 125430.57, currency: 'USD' })],
      notes: [{ kind: 'overflow', count: 3, atLeast: true }],
    });
    expect(fallback).toContain('*au moins 3 transactions antérieures n’ont pas été publiées*');
    expect(fallback).toContain('*1 nouvelle transaction de la flotte : net +125\u202F430,57 USD*');
    expect(fallback).toContain('|01/06/2025 12:00:00 UTC>');
  });

  it('words balance alerts in French for a French channel', () => {
    const french = { sandbox: true, locale: 'fr' as const };
    const low = buildFeedMessage(french, { kind: 'balance_low', currency: 'CDF', balanceMinor: 123_456_789, thresholdMinor: 200_000_000 });
    expect(sectionTexts(low.blocks)[0]).toBe(':warning: *Solde CDF bas* : 1\u202F234\u202F567,89 CDF, sous le seuil d’alerte de 2\u202F000\u202F000,00 CDF.');
    expect(low.text).toBe('Solde CDF bas : 1\u202F234\u202F567,89 CDF (SANDBOX)');
    const recovered = buildFeedMessage(french, { kind: 'balance_recovered', currency: 'CDF', balanceMinor: 250_000_000, thresholdMinor: 200_000_000 });
    expect(sectionTexts(recovered.blocks)[0]).toContain('*Solde CDF rétabli* : 2\u202F500\u202F000,00 CDF');
    expect(JSON.stringify(recovered.blocks)).toContain('données de démonstration');
    expect(checkMessage(recovered.blocks, recovered.text)).toEqual([]);
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
    gapEntries: 0,
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
    const behind = { ...status, behindMs: 12 * 60_000, lastError: { code: 'fleet:unavailable', at: at(3_599_000) } };
    const text = sectionTexts(buildFeedStatusMessage(live, behind, now).blocks).join('\n');
    expect(text).toContain('*12 min behind*');
    expect(text).toContain('*Last error:* The Fleet API is unavailable right now. Try again in a few minutes.');
    expect(text).not.toContain('resolved since');
  });

  it('shows a last error stored as text by an older version escaped, and a Slack refusal by its code', () => {
    const old = { ...status, lastError: { code: 'Fleet API <!here> unavailable', at: at(3_599_000) } };
    expect(sectionTexts(buildFeedStatusMessage(live, old, now).blocks).join('\n')).toContain('Fleet API &lt;!here&gt; unavailable');
    const refused = { ...status, lastError: { code: 'slack:not_in_channel', at: at(3_599_000) } };
    expect(sectionTexts(buildFeedStatusMessage(live, refused, now).blocks).join('\n')).toContain('Slack refused the feed message (`not_in_channel`).');
  });

  it('answers in French, durations and the last error included, for a French reader', () => {
    const french = { sandbox: false, locale: 'fr' as const };
    const behind = { ...status, behindMs: 3 * 3_600_000 + 5 * 60_000, pendingEntries: 1234, lastError: { code: 'fleet:unavailable', at: at(3_599_000) } };
    const reply = buildFeedStatusMessage(french, behind, now);
    const text = sectionTexts(reply.blocks).join('\n');
    expect(text).toContain('toutes les 15 s environ');
    expect(text).toContain('*État :* :warning: *3 h 5 min de retard*');
    expect(text).toContain('(il y a 10 s)');
    expect(text).toContain('*En attente de publication :* 1\u202F234 opérations');
    expect(text).toContain('*Dernière erreur :* L’API Fleet est indisponible pour le moment.');
    expect(reply.text).toBe('Flux des transactions : 3 h 5 min de retard');
    expect(buildFeedStatusMessage(french, undefined, now).text).toContain('Le flux des transactions est désactivé');
  });

  it.each(['en', 'fr'] as const)("stays within Slack's limits with every line shown (%s)", (locale) => {
    const busy: FeedStatus = {
      ...status,
      started: true,
      behindMs: 90 * 86_400_000,
      pendingEntries: 1_000_000,
      lateEntries: 1_000_000,
      futureDatedEntries: 1_000_000,
      unreadableEntries: 1_000_000,
      newestPosted: { reference: 'R'.repeat(5000), date: at(0), postedAt: at(0) },
      lastError: { code: '<&'.repeat(3000), at: at(0) },
    };
    const reply = buildFeedStatusMessage({ sandbox: true, locale }, busy, now);
    expect(checkMessage(reply.blocks, reply.text)).toEqual([]);
  });

  it('counts the entries posted late and those dated in the future, and says nothing of them when there were none', () => {
    const odd = { ...status, lateEntries: 3, futureDatedEntries: 1 };
    const text = sectionTexts(buildFeedStatusMessage(live, odd, now).blocks).join('\n');
    expect(text).toContain('*Posted late:* 3 entries');
    expect(text).toContain('*Dated in the future:* 1 entry');
    const plain = sectionTexts(buildFeedStatusMessage(live, status, now).blocks).join('\n');
    expect(plain).not.toContain('late');
    expect(plain).not.toContain('future');
  });

  it('marks an error followed by a successful check as resolved', () => {
    const recovered = { ...status, lastError: { code: 'slack:request_error', at: at(3_000_000) } };
    expect(sectionTexts(buildFeedStatusMessage(live, recovered, now).blocks).join('\n')).toContain('resolved since');
  });

  it('says the feed is off when no channel is set', () => {
    expect(buildFeedStatusMessage(live, undefined, now).text).toContain('FEED_CHANNEL_ID');
  });
});

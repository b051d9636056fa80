import { describe, expect, it } from 'vitest';
import { cutMrkdwn, formatDuration } from '../../../src/slack/views/text.js';

describe('formatDuration', () => {
  it('writes seconds, minutes, hours and days at a glance in English', () => {
    expect(formatDuration(45_000, 'en')).toBe('45 s');
    expect(formatDuration(3 * 60_000, 'en')).toBe('3 min');
    expect(formatDuration(2 * 3_600_000 + 5 * 60_000, 'en')).toBe('2 h 5 min');
    expect(formatDuration(3 * 86_400_000 + 4 * 3_600_000, 'en')).toBe('3 d 4 h');
  });

  it('writes days as j in French, the other units as they are', () => {
    expect(formatDuration(45_000, 'fr')).toBe('45 s');
    expect(formatDuration(2 * 3_600_000 + 5 * 60_000, 'fr')).toBe('2 h 5 min');
    expect(formatDuration(3 * 86_400_000 + 4 * 3_600_000, 'fr')).toBe('3 j 4 h');
  });
});

describe('cutting mrkdwn to a limit', () => {
  const cases: Array<[string, string]> = [
    ['an entity', 'Paid to Mama &amp; Sons'],
    ['a user mention', 'Approved by <@U0APPROVER2> today'],
    ['a localised date', 'Sent <!date^1764320400^{date_short_pretty} {time}|2025-11-28 09:00 UTC> by the bot'],
    ['a channel mention', 'Waiting in <#C0APPROVALS> for approval'],
    ['a link', 'See <https://fleet.example/payouts/PR-7K3F9Q|the payout> for details'],
  ];

  it.each(cases)('never splits %s, at any limit', (_what, mrkdwn) => {
    const tokens = mrkdwn.match(/<[^<>]*>|&[#\w]+;/g) ?? [];
    for (let max = 1; max <= mrkdwn.length + 1; max += 1) {
      const cut = cutMrkdwn(mrkdwn, max);
      expect(cut.length).toBeLessThanOrEqual(max);
      const kept = cut.endsWith('…') ? cut.slice(0, -1) : cut;
      expect(mrkdwn.startsWith(kept)).toBe(true);
      // Each token is whole or absent: no `<` without its `>`, no `&` without its `;`.
      for (const token of tokens) {
        const at = mrkdwn.indexOf(token);
        if (kept.length > at) expect(kept.slice(at, at + token.length)).toBe(token);
      }
    }
  });

  it('keeps a text within the limit as it is, and cuts after the last whole token otherwise', () => {
    expect(cutMrkdwn('<@U0APPROVER> ok', 16)).toBe('<@U0APPROVER> ok');
    expect(cutMrkdwn('Hi <@U0APPROVER> ok', 10)).toBe('Hi …');
    expect(cutMrkdwn('A &amp; B', 5)).toBe('A …');
    expect(cutMrkdwn('😀😀', 2)).toBe('…');
  });
});

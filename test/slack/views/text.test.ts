import { describe, expect, it } from 'vitest';
import { formatDuration, slackDate } from '../../../src/slack/views/text.js';

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

describe('slackDate', () => {
  const at = new Date('2026-11-21T10:00:00.000Z');

  it('lets Slack show the date, with a UTC fallback written the reader\'s way', () => {
    expect(slackDate(at)).toBe('<!date^1795255200^{date_short_pretty} {time_secs}|2026-11-21 10:00:00 UTC>');
    expect(slackDate(at, undefined, 'fr')).toBe('<!date^1795255200^{date_short_pretty} {time_secs}|21/11/2026 10:00:00 UTC>');
    expect(slackDate(at, '{date_num}', 'fr')).toBe('<!date^1795255200^{date_num}|21/11/2026 10:00:00 UTC>');
  });

  it('escapes a date it cannot read instead of building a token from it', () => {
    expect(slackDate('<!here>', undefined, 'fr')).toBe('&lt;!here&gt;');
  });
});

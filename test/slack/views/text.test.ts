import { describe, expect, it } from 'vitest';
import { formatDuration } from '../../../src/slack/views/text.js';

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

import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/config.js';
import { minimal, problemsOf } from '../support/config-env.js';

describe('digest configuration', () => {
  it('is off without a channel, at 08:00 UTC with three catch-up days by default', () => {
    expect(loadConfig(minimal).digest).toEqual({ channelId: undefined, time: { hour: 8, minute: 0 }, timeZone: 'UTC', catchUpDays: 3 });
  });

  it('reads the channel, the time, the zone and the catch-up days', () => {
    const config = loadConfig({
      ...minimal,
      DIGEST_CHANNEL_ID: 'C0DIGEST',
      DIGEST_TIME: '07:45',
      DIGEST_TIMEZONE: 'Africa/Kinshasa',
      DIGEST_CATCH_UP_DAYS: '0',
    });
    expect(config.digest).toEqual({ channelId: 'C0DIGEST', time: { hour: 7, minute: 45 }, timeZone: 'Africa/Kinshasa', catchUpDays: 0 });
  });

  it('refuses to start on a bad time, zone or catch-up count, naming each variable and what it expects', () => {
    expect(
      problemsOf({ ...minimal, DIGEST_TIME: '8h', DIGEST_TIMEZONE: 'Europe/Atlantis', DIGEST_CATCH_UP_DAYS: '-1', DIGEST_CHANNEL_ID: '#treasury' }),
    ).toEqual([
      'DIGEST_CHANNEL_ID: expected a Slack channel ID such as C0123456789',
      'DIGEST_TIME: expected a time of day as HH:MM on a 24-hour clock, such as 08:00',
      'DIGEST_TIMEZONE: expected an IANA time zone name such as UTC or Africa/Kinshasa',
      'DIGEST_CATCH_UP_DAYS: expected a whole number from 0 to 31',
    ]);
    expect(problemsOf({ ...minimal, DIGEST_TIME: '24:00' })).toEqual(['DIGEST_TIME: expected a time of day as HH:MM on a 24-hour clock, such as 08:00']);
  });
});

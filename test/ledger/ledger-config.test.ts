import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/config.js';
import { minimal, problemsOf } from '../support/config-env.js';
import { DEFAULT_LEDGER_SETTINGS } from '../../src/ledger/settings.js';

describe('ledger configuration', () => {
  it('is on by default, polling every 15 seconds, in UTC', () => {
    expect(loadConfig(minimal).ledger).toEqual(DEFAULT_LEDGER_SETTINGS);
  });

  it('reads every LEDGER_ variable', () => {
    const config = loadConfig({
      ...minimal,
      LEDGER_ENABLED: 'false',
      LEDGER_POLL_SECONDS: '30',
      LEDGER_HISTORY_PAGE_DELAY_MS: '0',
      LEDGER_SWEEP_MINUTES: '5',
      LEDGER_REWALK_HOURS: '0',
      LEDGER_TIMEZONE: 'Africa/Kinshasa',
    });
    expect(config.ledger).toEqual({
      enabled: false,
      pollIntervalSeconds: 30,
      historyPageDelayMs: 0,
      sweepMinutes: 5,
      rewalkHours: 0,
      timeZone: 'Africa/Kinshasa',
    });
  });

  it('refuses to start on a bad time zone or switch, naming the variable', () => {
    expect(problemsOf({ ...minimal, LEDGER_TIMEZONE: 'Mars/Olympus', LEDGER_ENABLED: 'maybe', LEDGER_POLL_SECONDS: '1' })).toEqual([
      'LEDGER_ENABLED: expected true or false',
      'LEDGER_POLL_SECONDS: expected a whole number from 5 to 3600',
      'LEDGER_TIMEZONE: expected an IANA time zone name such as UTC or Africa/Kinshasa',
    ]);
  });
});

import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config/config.js';

const minimal = { SLACK_BOT_TOKEN: 'xoxb-123-456-abc', SLACK_SIGNING_SECRET: 'a1b2c3d4e5f6a7b8c9d0', FLEET_API_URL: 'sandbox' };

describe('export configuration', () => {
  it('refuses exports above 500,000 rows by default, and reads EXPORT_MAX_ROWS', () => {
    expect(loadConfig(minimal).ledgerExport).toEqual({ maxRows: 500_000 });
    expect(loadConfig({ ...minimal, EXPORT_MAX_ROWS: '2000' }).ledgerExport).toEqual({ maxRows: 2000 });
  });

  it('fails at start naming EXPORT_MAX_ROWS when it is not a whole number from 1', () => {
    for (const value of ['0', '-5', '1.5', 'lots']) {
      const refused = (() => {
        try {
          loadConfig({ ...minimal, EXPORT_MAX_ROWS: value });
        } catch (error) {
          return error instanceof ConfigError ? error.problems : [];
        }
        return [];
      })();
      expect(
        refused.some((line) => line.startsWith('EXPORT_MAX_ROWS:')),
        value,
      ).toBe(true);
    }
  });
});

import { describe, expect, it } from 'vitest';
import type { LedgerStatus } from '../../../src/ledger/types.js';
import { exportFileName, lastFullMonth } from '../../../src/ledger/exporter.js';
import { buildExportProgressMessage, buildExportStartedMessage, buildExportTooManyMessage, exportFileComment } from '../../../src/slack/views/export.js';
import type { Surface } from '../../../src/slack/views/text.js';

const EN: Surface = { sandbox: false, locale: 'en' };
const FR: Surface = { sandbox: false, locale: 'fr' };
const loading: LedgerStatus = { loaded: 12_300, historyComplete: false, estimatedTotal: 40_000, upToDateSince: undefined, lastPollAt: undefined };
const complete: LedgerStatus = { loaded: 40_000, historyComplete: true, estimatedTotal: undefined, upToDateSince: new Date(), lastPollAt: new Date() };
const search = { since: '2026-10-01', until: '2026-10-31', currency: 'USD', words: ['<!channel>', '=HYPERLINK("x")'] };

describe('the export replies', () => {
  it('say when the history is still loading, so a short file is not taken as complete', () => {
    const reply = buildExportStartedMessage(EN, { search, timeZone: 'Africa/Kinshasa', status: loading, count: 812 });
    expect(reply.text).toContain('Exporting 812 transactions');
    expect(reply.text).toContain('12,300 of about 40,000');
    expect(reply.text).toContain('Days are read in Africa/Kinshasa');
    expect(buildExportStartedMessage(EN, { search, timeZone: 'UTC', status: complete, count: 812 }).text).not.toContain('still loading');
    expect(exportFileComment(EN, { count: 812, search, status: loading })).toContain('still loading');
  });

  it('are written in French for a French reader', () => {
    expect(buildExportProgressMessage(FR, { search, timeZone: 'UTC', status: complete, count: 100_000, rows: 20_000 }).text).toContain(
      '20\u202f000 transactions écrites sur 100\u202f000',
    );
    expect(buildExportTooManyMessage(FR, { search, timeZone: 'UTC', status: loading, count: 600_000, maxRows: 500_000 }).text).toContain(
      '600\u202f000 transactions, au-delà des 500\u202f000',
    );
  });

  it('never let a typed word ping or link', () => {
    const reply = buildExportStartedMessage(EN, { search, timeZone: 'UTC', status: complete, count: 3 });
    expect(reply.text).not.toContain('<!channel>');
    expect(reply.text).toContain('&lt;!channel&gt;');
    for (const block of reply.blocks) if (block.type === 'section') expect(block.text!.text.length).toBeLessThanOrEqual(3000);
  });
});

describe('the export period', () => {
  it('defaults to the last full calendar month in the ledger time zone', () => {
    expect(lastFullMonth(new Date('2026-11-23T12:00:00Z'), 'UTC')).toEqual({ since: '2026-10-01', until: '2026-10-31' });
    expect(lastFullMonth(new Date('2026-01-05T00:00:00Z'), 'UTC')).toEqual({ since: '2025-12-01', until: '2025-12-31' });
    expect(lastFullMonth(new Date('2028-03-01T10:00:00Z'), 'UTC')).toEqual({ since: '2028-02-01', until: '2028-02-29' });
    // 23:30 UTC on 31 October is already 1 November in Kinshasa (UTC+1): last month is October there.
    expect(lastFullMonth(new Date('2026-10-31T23:30:00Z'), 'Africa/Kinshasa')).toEqual({ since: '2026-10-01', until: '2026-10-31' });
    expect(lastFullMonth(new Date('2026-10-31T23:30:00Z'), 'UTC')).toEqual({ since: '2026-09-01', until: '2026-09-30' });
  });

  it('names the file after its period alone', () => {
    expect(exportFileName({ since: '2026-10-01', until: '2026-10-31' })).toBe('fleet-transactions-2026-10-01_2026-10-31.csv');
    expect(exportFileName({ since: '2026-10-01' })).toBe('fleet-transactions-2026-10-01_now.csv');
  });
});

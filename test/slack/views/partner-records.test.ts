import { checkMessage, checkView } from '@fleet-treasury-bot/local-slack';
import { describe, expect, it } from 'vitest';
import type { RecordsRun, RunSummary } from '../../../src/partner-records/index.js';
import {
  buildRecordsHistory,
  buildRecordsResultMessage,
  buildRecordsResultModal,
  buildRecordsUploadModal,
  exceptionsFileName,
} from '../../../src/slack/views/partner-records.js';
import type { Surface } from '../../../src/slack/views/text.js';

const EN: Surface = { sandbox: true, locale: 'en' };
const FR: Surface = { sandbox: false, locale: 'fr' };
const asJson = (value: unknown) => JSON.parse(JSON.stringify(value)) as Record<string, unknown>;

const summary: RunSummary = {
  id: 'RC-7K3F9Q',
  userId: 'U0VIEWER',
  createdAt: new Date('2026-11-20T10:00:00.000Z'),
  fileName: '<!channel> *books*.csv',
  periodStart: '2026-11-01',
  periodEnd: '2026-11-30',
  ledgerComplete: true,
  records: 1200,
  matched: 1100,
  differences: 3,
  notInLedger: 97,
  notInRecords: 12,
  totals: new Map([
    ['CDF', { count: 100, minor: -125_000 }],
    ['USD', { count: 1000, minor: 1_505_025 }],
  ]),
  bySum: { groups: 0, records: 0, shown: [] },
};
const run: RecordsRun = { summary, gap: undefined, exceptions: [], kept: true };

const modalOf = (recordsRun: RecordsRun) => buildRecordsResultModal(EN, { run: recordsRun, timeZone: 'UTC', file: { none: true }, lastPollAt: undefined });

describe('the records check views', () => {
  it("open a form with one CSV file input, within Block Kit's limits, in both languages", () => {
    const limits = { maxRows: 50_000, maxBytes: 10 * 1024 * 1024, toleranceDays: 1, timeZone: 'Africa/Kinshasa' };
    const form = buildRecordsUploadModal(EN, limits);
    expect(JSON.stringify(form.blocks)).toContain('"filetypes":["csv","tsv","txt","xlsx"]');
    expect(JSON.stringify(form.blocks)).toContain('At most 50,000 rows and 10 MiB');
    expect(checkView(asJson(form))).toEqual([]);
    expect(checkView(asJson(buildRecordsUploadModal(FR, limits)))).toEqual([]);
  });

  it('offer the saved profiles, picking by the header unless the command named one', () => {
    const limits = { maxRows: 50_000, maxBytes: 10 * 1024 * 1024, toleranceDays: 1, timeZone: 'UTC' };
    const select = (form: ReturnType<typeof buildRecordsUploadModal>) =>
      asJson(form).blocks as Array<{ block_id?: string; element?: { options: Array<{ text: { text: string } }>; initial_option: { text: { text: string } } } }>;
    const auto = select(buildRecordsUploadModal(EN, limits, { names: ['TMB', 'Rawbank'] })).find((block) => block.block_id === 'records_profile');
    expect(auto?.element?.options.map((option) => option.text.text)).toEqual(["Pick by the file's header", 'TMB', 'Rawbank']);
    expect(auto?.element?.initial_option.text.text).toBe("Pick by the file's header");
    const named = select(buildRecordsUploadModal(FR, limits, { names: ['TMB', 'Rawbank'], chosen: 'Rawbank' })).find(
      (block) => block.block_id === 'records_profile',
    );
    expect(named?.element?.initial_option.text.text).toBe('Rawbank');
  });

  it("sum the run up with totals per currency in the reader's way, the file name escaped", () => {
    const modal = buildRecordsResultModal(EN, { run, timeZone: 'UTC', file: { sent: exceptionsFileName(summary) }, lastPollAt: undefined });
    const text = JSON.stringify(modal.blocks);
    expect(text).toContain('1,200 records from 2026-11-01 to 2026-11-30');
    expect(text).toContain('USD: 1,000 records, +15,050.25 USD');
    expect(text).toContain('CDF: 100 records, -1,250.00 CDF');
    expect(text).toContain('12 ledger entries not in your records');
    expect(text).toContain('fleet-records-2026-11-01_2026-11-30-RC-7K3F9Q.csv');
    expect(text).not.toContain('<!channel>');
    expect(checkView(asJson(modal))).toEqual([]);
    const french = buildRecordsResultMessage(FR, { run, timeZone: 'UTC', file: { none: true }, lastPollAt: undefined });
    expect(JSON.stringify(french.blocks)).toContain('USD : 1\u202f000 écritures, +15\u202f050,25 USD');
    expect(checkMessage(asJson(french).blocks, french.text)).toEqual([]);
  });

  it('say which records sharing a reference matched one ledger entry by their sum, the first five named and the rest counted, in both languages', () => {
    const shown = [
      { reference: 'FT123', records: 3, currency: 'USD', minor: 99_420 },
      ...Array.from({ length: 4 }, (_, index) => ({ reference: `FT${index}<!here>${'x'.repeat(200)}`, records: 2, currency: 'CDF', minor: -125_000 })),
    ];
    const grouped: RecordsRun = { ...run, summary: { ...summary, bySum: { groups: 7, records: 17, shown } } };
    const modal = buildRecordsResultModal(EN, { run: grouped, timeZone: 'UTC', file: { none: true }, lastPollAt: undefined });
    const english = JSON.stringify(modal.blocks);
    expect(english).toContain('7 groups of records sharing a reference each matched one ledger entry by their sum (17 records in all)');
    expect(english).toContain('3 records sharing reference `FT123` matched one ledger entry by their sum, +994.20 USD');
    expect(english).toContain('…and 2 more groups.');
    expect(english).not.toContain('<!here>');
    expect(checkView(asJson(modal))).toEqual([]);
    const french = buildRecordsResultMessage(FR, { run: grouped, timeZone: 'UTC', file: { none: true }, lastPollAt: undefined });
    const frenchText = JSON.stringify(french.blocks);
    expect(frenchText).toContain(
      '7 groupes d’écritures de même référence rapprochés chacun d’une seule opération du grand livre par leur somme (17 écritures en tout)',
    );
    expect(frenchText).toContain('3 écritures de même référence `FT123` rapprochées d’une seule opération du grand livre par leur somme, +994,20 USD');
    expect(frenchText).toContain('…et 2 autres groupes.');
    expect(checkMessage(asJson(french).blocks, french.text)).toEqual([]);
    const one = { ...run, summary: { ...summary, bySum: { groups: 1, records: 3, shown: shown.slice(0, 1) } } };
    const single = JSON.stringify(buildRecordsResultMessage(EN, { run: one, timeZone: 'UTC', file: { none: true }, lastPollAt: undefined }).blocks);
    expect(single).toContain('1 group of records sharing a reference matched one ledger entry by their sum (3 records in all)');
    expect(single).not.toContain('more group');
    expect(JSON.stringify(modalOf(run).blocks)).not.toContain('by their sum');
  });

  it('name the exceptions file after the run id as the summary writes it, in its capitals', () => {
    expect(exceptionsFileName(summary)).toBe('fleet-records-2026-11-01_2026-11-30-RC-7K3F9Q.csv');
  });

  it("count the days of the match's tolerance in proper singular and plural, in both languages", () => {
    const form = (surface: Surface, toleranceDays: number) =>
      JSON.stringify(buildRecordsUploadModal(surface, { maxRows: 10, maxBytes: 1024, toleranceDays, timeZone: 'UTC' }).blocks);
    expect(form(EN, 1)).toContain('within 1 day of their date');
    expect(form(EN, 3)).toContain('within 3 days of their date');
    expect(form(FR, 1)).toContain('à 1 jour près');
    expect(form(FR, 3)).toContain('à 3 jours près');
    expect(form(EN, 0)).toContain('on their own date');
    expect(form(EN, 1)).toContain(
      'Records sharing a reference (a transfer, its fee and its VAT) match entries of their own amounts one by one, or together one entry of their sum.',
    );
    expect(form(FR, 1)).toContain('Des écritures de même référence');
    for (const text of [form(EN, 1), form(EN, 0), form(FR, 1), form(FR, 3)]) expect(text).not.toContain('(s)');
  });

  it('say the exceptions file went to the DM in the modal, and that it follows in the DM itself', () => {
    const file = { sent: exceptionsFileName(summary) };
    const modal = JSON.stringify(buildRecordsResultModal(EN, { run, timeZone: 'UTC', file, lastPollAt: undefined }).blocks);
    expect(modal).toContain('in your direct messages with the app');
    for (const surface of [EN, FR]) {
      const message = JSON.stringify(buildRecordsResultMessage(surface, { run, timeZone: 'UTC', file, lastPollAt: undefined }).blocks);
      expect(message).not.toMatch(/direct messages|messages directs/);
      expect(message).toMatch(/below|ci-dessous/);
      expect(message).toContain(exceptionsFileName(summary));
    }
  });

  it('say the ledger could not vouch for the period, and then call nothing missing from the records', () => {
    const incomplete = { ...run, gap: 'history' as const, summary: { ...summary, ledgerComplete: false, notInRecords: 0 } };
    const text = JSON.stringify(buildRecordsResultModal(EN, { run: incomplete, timeZone: 'UTC', file: { none: true }, lastPollAt: undefined }).blocks);
    expect(text).toContain('does not reach back to 2026-11-01');
    expect(text).not.toContain('not in your records');
    expect(text).not.toContain('not in the ledger');
    expect(text).toContain('97 records not found in the ledger, which may not hold them yet');
    const history = JSON.stringify(buildRecordsHistory(EN, [incomplete.summary]).blocks);
    expect(history).toContain('97 not found while the ledger was incomplete (nothing called missing)');
  });

  it("list ten runs with a button each for those with exceptions, within a message's limits", () => {
    const runs = Array.from({ length: 10 }, (_, index) => ({ ...summary, id: `RC-AAAAA${index + 2}`, fileName: 'x'.repeat(300) }));
    const history = buildRecordsHistory(EN, [...runs.slice(0, 9), { ...runs[9]!, differences: 0, notInLedger: 0, notInRecords: 0 }]);
    expect(history.blocks.filter((block) => 'accessory' in block && block.accessory)).toHaveLength(9);
    expect(checkMessage(asJson(history).blocks, history.text)).toEqual([]);
    expect(JSON.stringify(buildRecordsHistory(FR, []).blocks)).toContain('Aucun rapprochement');
  });
});

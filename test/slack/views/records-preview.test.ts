import { checkView } from '@fleet-treasury-bot/local-slack';
import { describe, expect, it } from 'vitest';
import { defaultProfile, type ProfileRowProblem, type RecordsPreview } from '../../../src/partner-records/index.js';
import {
  buildRecordsPreviewModal,
  decodePreviewMetadata,
  encodePreviewMetadata,
  packProblems,
  type PreviewProfile,
} from '../../../src/slack/views/records-preview.js';
import type { Surface } from '../../../src/slack/views/text.js';

const EN: Surface = { sandbox: false, locale: 'en' };
const FR: Surface = { sandbox: false, locale: 'fr' };
const asJson = (value: unknown) => JSON.parse(JSON.stringify(value)) as Record<string, unknown>;
const TMB: PreviewProfile = { name: 'TMB', by: 'header', saved: true, hints: defaultProfile('UTC') };
const metadata = encodePreviewMetadata({ file: 'F0RECORDS', profile: 'TMB' });

const clean: RecordsPreview = {
  ok: true,
  first: [
    { row: 4, date: '02/11/2026', amountMinor: -1200, currency: 'EUR', reference: 'FRAIS-12' },
    { row: 5, date: '03/11/2026', amountMinor: 125050, currency: 'EUR', reference: '' },
  ],
  records: 2,
  leftOut: [
    { row: 6, status: 'Pending' },
    { row: 7, status: 'Pending' },
    { row: 8, status: '<!channel>' },
  ],
  problems: [],
  moreProblems: 0,
};

const problem = (row: number): ProfileRowProblem => ({ row, column: 'date', position: 2, code: 'date_invalid', found: `${row}/13/2026` });

describe('the records preview', () => {
  it('shows the profile, the first records with money out as such, the rows left out, and the match button', () => {
    const modal = buildRecordsPreviewModal(EN, { fileName: 'nov.csv', profile: TMB, preview: clean, privateMetadata: metadata });
    const text = JSON.stringify(modal.blocks);
    expect(text).toContain("*nov.csv*, read with the profile `TMB` (picked by the file's header).");
    expect(text).toContain('Row 4: `02/11/2026`, -12.00 EUR (money out), `FRAIS-12`');
    expect(text).toContain('Row 5: `03/11/2026`, +1,250.50 EUR (money in), no reference');
    expect(text).toContain('`Pending`: 2 rows (rows 6, 7)');
    expect(text).not.toContain('<!channel>');
    expect(modal.submit?.text).toBe('Match with the ledger');
    expect(text).toContain('records_make_profile');
    expect(text).toContain('records_edit_profile');
    expect(decodePreviewMetadata(modal.private_metadata)).toEqual({ file: 'F0RECORDS', profile: 'TMB' });
    expect(checkView(asJson(modal))).toEqual([]);
    const french = buildRecordsPreviewModal(FR, { fileName: 'nov.csv', profile: TMB, preview: clean, privateMetadata: metadata });
    expect(JSON.stringify(french.blocks)).toContain('-12,00 EUR (sortie)');
    expect(checkView(asJson(french))).toEqual([]);
  });

  it('has no match button while a row has a problem, and no Edit profile for the built-in one', () => {
    const preview: RecordsPreview = { ...clean, problems: [problem(9)], moreProblems: 0 };
    const builtIn: PreviewProfile = { ...TMB, name: 'default', by: 'default', saved: false };
    const modal = buildRecordsPreviewModal(EN, { fileName: 'nov.csv', profile: builtIn, preview, privateMetadata: metadata });
    expect(modal.submit).toBeUndefined();
    const text = JSON.stringify(modal.blocks);
    expect(text).toContain('Row 9, column `date`: found `9/13/2026`.');
    expect(text).toContain('the built-in layout');
    expect(text).not.toContain('records_edit_profile');
  });

  it('shows every problem the modal holds and says where the full list went', () => {
    const problems = Array.from({ length: 200 }, (_, index) => problem(index + 2));
    const preview: RecordsPreview = { ...clean, problems, moreProblems: 35 };
    const modal = buildRecordsPreviewModal(EN, {
      fileName: 'nov.csv',
      profile: TMB,
      preview,
      privateMetadata: metadata,
      problemsFile: { sent: 'fleet-records-problems.csv' },
    });
    const text = JSON.stringify(modal.blocks);
    expect(text).toContain('*235 problems.*');
    expect(text).toContain('The full list is in `fleet-records-problems.csv`');
    expect(text).toMatch(/…and \d+ more\./);
    expect(checkView(asJson(modal))).toEqual([]);
    const lines = problems.map((entry) => `• Row ${entry.row}: ${'x'.repeat(200)}`);
    const packed = packProblems(lines);
    expect(packed.shown).toBeLessThan(lines.length);
    expect(packed.sections.every((section) => section.length <= 3000)).toBe(true);
    expect(packProblems(lines.slice(0, 5))).toMatchObject({ shown: 5, sections: [lines.slice(0, 5).join('\n')] });
  });

  it('refuses metadata it did not write', () => {
    expect(decodePreviewMetadata('{"file":"F1","profile":null}')).toEqual({ file: 'F1', profile: null });
    expect(decodePreviewMetadata('not json')).toBeUndefined();
    expect(decodePreviewMetadata('{"file":"../etc","profile":null}')).toBeUndefined();
  });
});

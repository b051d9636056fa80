import { describe, expect, it } from 'vitest';
import { defaultProfile, IMPORT_PROFILE, type ProfileRowProblem } from '../../../src/partner-records/index.js';
import { describeRecordsProblem, describeRowProblem } from '../../../src/slack/refusals/partner-records-problems.js';

const PROFILE = defaultProfile('UTC');
const BANK = IMPORT_PROFILE.parse({
  ...PROFILE,
  name: 'bank',
  date: { column: 'Date', format: 'DD/MM/YYYY' },
  amount: { layout: 'debit_credit', debit: 'Debit', credit: 'Credit' },
  numbers: { decimalMark: ',', grouping: '.' },
});

describe("a records file's problems in words", () => {
  it('names the row, the column, what was found and the fix, in the words of the profile', () => {
    const date: ProfileRowProblem = { row: 7, column: 'Date', position: 1, code: 'date_invalid', found: '2026-11-02' };
    expect(describeRowProblem('en', date, BANK)).toBe(
      'Row 7, column `Date`: found `2026-11-02`. Not a date as the profile reads it (`DD/MM/YYYY`): write it like `02/11/2026`, or pick a profile with the format the file uses.',
    );
    const amount: ProfileRowProblem = { row: 8, column: 'Credit', position: 5, code: 'amount_invalid', found: '12.50' };
    expect(describeRowProblem('en', amount, BANK)).toContain(
      'found `12.50`. Not an amount: write digits with `,` for decimals and a minus for money out, like `1.250,50`.',
    );
    expect(describeRowProblem('fr', amount, BANK)).toContain('Ligne 8, colonne `Credit` : trouvé `12.50`. Ce n’est pas un montant');
    const flag: ProfileRowProblem = { row: 9, column: 'direction', position: 5, code: 'flag_invalid', found: 'sideways' };
    expect(describeRowProblem('en', flag, PROFILE)).toContain('write `in` / `entrée` / `entree` for money in or `out` / `sortie` for money out');
    const missing: ProfileRowProblem = { row: 10, column: '', position: 3, code: 'column_missing', found: '' };
    expect(describeRowProblem('en', missing, PROFILE)).toBe(
      'Row 10, column 3: found nothing. The row ends before this column: give the row all its cells, or remove it.',
    );
    expect(describeRowProblem('en', { row: 11, column: 'Credit', position: 5, code: 'amount_sign', found: '-3' }, BANK)).toContain('A credit is money in');
  });

  it("words an amount with decimals beyond its currency's with the thousands reading, in French too", () => {
    const problem: ProfileRowProblem = {
      row: 2,
      column: 'amount',
      position: 3,
      code: 'amount_decimals',
      found: '75.000',
      amount: { code: 'amount_too_many_decimals', currency: 'CDF', decimals: 2, typed: '75.000', thousands: 7_500_000 },
    };
    expect(describeRowProblem('en', problem, PROFILE)).toBe('Row 2, column `amount`: found `75.000`. `75.000` CDF: 75,000? CDF has 2 decimals.');
    expect(describeRowProblem('fr', problem, PROFILE)).toContain('`75.000` CDF : 75\u202F000 ? Les montants en CDF ont 2 décimales.');
  });

  it('quotes and cuts what the file holds, whatever it is', () => {
    const hostile: ProfileRowProblem = { row: 2, column: '<!channel>', position: 1, code: 'currency_unknown', found: `\`<!here>${'9'.repeat(200)}` };
    const text = describeRowProblem('en', hostile, PROFILE);
    expect(text).not.toContain('<!channel>');
    expect(text).not.toContain('<!here>');
    expect(text.length).toBeLessThan(250);
  });

  it('words a refused file, naming the profile, in French too', () => {
    const rows = { code: 'rows' as const, more: 4, problems: [{ row: 7, column: 'montant', position: 3, code: 'amount_invalid' as const, found: 'x' }] };
    const english = describeRecordsProblem('en', rows, PROFILE);
    expect(english).toContain('5 problems in your records; nothing was kept');
    expect(english).toContain('Row 7, column `montant`: found `x`.');
    expect(english).toContain('…and 4 more.');
    expect(describeRecordsProblem('en', { code: 'file_missing_columns', columns: ['Débit'] }, BANK)).toContain(
      'The header row has no `Débit` column, which the profile `bank` reads.',
    );
    expect(describeRecordsProblem('fr', { code: 'file_missing_columns', columns: ['amount'] }, PROFILE)).toContain('n’a pas de colonne `amount`');
    expect(describeRecordsProblem('en', { code: 'file_encoding', encoding: 'utf-8' }, PROFILE)).toContain(
      'The file is not text in UTF-8, the encoding its import profile names',
    );
    expect(describeRecordsProblem('en', { code: 'file_too_large', maxBytes: 10 * 1024 * 1024 }, PROFILE)).toContain(
      'over 10 MiB, the most this form reads (`RECORDS_MAX_BYTES`)',
    );
    expect(describeRecordsProblem('fr', { code: 'file_no_records', leftOut: 3 }, PROFILE)).toContain('ses 3 lignes sont toutes écartées par leur statut');
  });
});

import { describe, expect, it } from 'vitest';
import type { RowProblem } from '../../../src/partner-records/index.js';
import { describeRecordsProblem } from '../../../src/slack/refusals/partner-records-problems.js';

describe("the records file's problems in words", () => {
  it('word each file problem with its row and column, in French too', () => {
    const problem = {
      code: 'rows' as const,
      more: 4,
      problems: [
        { row: 7, column: 'montant', code: 'amount_invalid' as const },
        { row: 9, column: 'sens', code: 'direction_invalid' as const },
      ],
    };
    const english = describeRecordsProblem('en', problem);
    expect(english).toContain('6 problems in your records; nothing was kept');
    expect(english).toContain('Row 7, column `montant`: not an amount');
    expect(english).toContain('Row 9, column `sens`: the direction is `in` or `out`');
    expect(english).toContain('…and 4 more.');
    expect(describeRecordsProblem('fr', { code: 'file_missing_columns', columns: ['amount'] })).toContain('n’a pas de colonne `amount`');
    expect(describeRecordsProblem('en', { code: 'file_too_large', maxBytes: 10 * 1024 * 1024 })).toContain('larger than 10 MiB');
  });

  it("word an amount with decimals beyond its currency's with the thousands reading, in French too", () => {
    const rows = (problems: RowProblem[]) => ({ code: 'rows' as const, more: 0, problems });
    const problems: RowProblem[] = [
      {
        row: 2,
        column: 'amount',
        code: 'amount_decimals',
        amount: { code: 'amount_too_many_decimals', currency: 'CDF', decimals: 2, typed: '75.000', thousands: 7_500_000 },
      },
      {
        row: 3,
        column: 'amount',
        code: 'amount_decimals',
        amount: { code: 'amount_too_many_decimals', currency: 'XAF', decimals: 0, typed: '150.000', thousands: 150_000 },
      },
      { row: 4, column: 'amount', code: 'amount_decimals', amount: { code: 'amount_too_many_decimals', currency: 'EUR', decimals: 2, typed: '20.2500' } },
    ];
    const english = describeRecordsProblem('en', rows(problems));
    expect(english).toContain('Row 2, column `amount`: `75.000` CDF: 75,000? CDF has 2 decimals.');
    expect(english).toContain('Row 3, column `amount`: `150.000` XAF: 150,000? XAF has no decimals.');
    expect(english).toContain('Row 4, column `amount`: EUR has 2 decimals at most.');
    const french = describeRecordsProblem('fr', rows(problems));
    expect(french).toContain('`75.000` CDF : 75\u202F000 ? Les montants en CDF ont 2 décimales.');
    expect(french).toContain('`150.000` XAF : 150\u202F000 ? Les montants en XAF n’ont pas de décimales.');
    expect(french).toContain('Les montants en EUR ont au plus 2 décimales.');
    // What the file says is cut and quoted, whatever it holds.
    const hostile = describeRecordsProblem(
      'en',
      rows([
        {
          row: 2,
          column: 'amount',
          code: 'amount_decimals',
          amount: { code: 'amount_too_many_decimals', currency: 'CDF', decimals: 2, typed: `1.000\`<!channel>${'9'.repeat(200)}`, thousands: 100_000 },
        },
      ]),
    );
    expect(hostile).not.toContain('<!channel>');
    expect(hostile.length).toBeLessThan(200);
  });
});

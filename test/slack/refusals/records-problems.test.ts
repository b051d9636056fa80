import { describe, expect, it } from 'vitest';
import { describeRecordsProblem } from '../../../src/slack/refusals/records-problems.js';

describe('the records file\'s problems in words', () => {
  it('word each file problem with its row and column, in French too', () => {
    const problem = { code: 'rows' as const, more: 4, problems: [{ row: 7, column: 'montant', code: 'amount_invalid' as const }, { row: 9, column: 'référence', code: 'reference_repeated' as const, firstRow: 3 }] };
    const english = describeRecordsProblem('en', problem);
    expect(english).toContain('6 problems in your records; nothing was kept');
    expect(english).toContain('Row 7, column `montant`: not an amount');
    expect(english).toContain('Row 9, column `référence`: this reference is already on row 3.');
    expect(english).toContain('…and 4 more.');
    expect(describeRecordsProblem('fr', { code: 'file_missing_columns', columns: ['amount'] })).toContain('n’a pas de colonne `amount`');
    expect(describeRecordsProblem('en', { code: 'file_too_large', maxBytes: 10 * 1024 * 1024 })).toContain('larger than 10 MiB');
  });
});

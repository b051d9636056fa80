import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { csvText } from '../../../src/slack/files/csv-to-person.js';

describe('the small CSV files the app writes', () => {
  it('neutralises every text cell that starts like a formula, and leaves the amount columns it is told of as numbers', () => {
    const text = csvText(['kind', 'amount', 'note'], [['-minus', '-1250.50', '=HYPERLINK("x")'], ['@sum', '12.00', 'line\nbreak']], [1]);
    expect(text.startsWith('\uFEFF')).toBe(true);
    expect(parse(text, { bom: true, columns: true })).toEqual([
      { kind: '\'-minus', amount: '-1250.50', note: '\'=HYPERLINK("x")' },
      { kind: '\'@sum', amount: '12.00', note: 'line\nbreak' },
    ]);
    expect(parse(csvText(['amount'], [['-3']]), { bom: true, columns: true })).toEqual([{ amount: '\'-3' }]);
  });
});

import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { csvText, csvTextInSlices } from '../../../src/slack/files/csv-to-person.js';

describe('the small CSV files the app writes', () => {
  it('neutralises every text cell that starts like a formula, and leaves the amount columns it is told of as numbers', () => {
    const text = csvText(
      ['kind', 'amount', 'note'],
      [
        ['-minus', '-1250.50', '=HYPERLINK("x")'],
        ['@sum', '12.00', 'line\nbreak'],
      ],
      [1],
    );
    expect(text.startsWith('\uFEFF')).toBe(true);
    expect(parse(text, { bom: true, columns: true })).toEqual([
      { kind: "'-minus", amount: '-1250.50', note: '\'=HYPERLINK("x")' },
      { kind: "'@sum", amount: '12.00', note: 'line\nbreak' },
    ]);
    expect(parse(csvText(['amount'], [['-3']]), { bom: true, columns: true })).toEqual([{ amount: "'-3" }]);
  });

  it('writes a long file in slices to the very text it writes at once', async () => {
    const rows = Array.from({ length: 2_345 }, (_, index) => ({
      kind: index % 7 === 0 ? '=SUM(A1)' : 'not_in_ledger',
      amount: `-${index}.50`,
      note: index % 11 === 0 ? 'two\nlines, "quoted"' : `row ${index}`,
    }));
    const cells = (row: (typeof rows)[number]) => [row.kind, row.amount, row.note];
    const sliced = await csvTextInSlices(['kind', 'amount', 'note'], rows, cells, [1]);
    expect(sliced).toBe(csvText(['kind', 'amount', 'note'], rows.map(cells), [1]));
    expect(parse(sliced, { bom: true, columns: true })).toHaveLength(2_345);
    expect(await csvTextInSlices(['kind'], [], (row: string) => [row])).toBe(csvText(['kind'], []));
  });
});

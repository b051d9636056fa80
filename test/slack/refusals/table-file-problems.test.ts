/** The words of the problems every uploaded table can have, for bulk payouts and the partner's records, in English and French. */
import { describe, expect, it } from 'vitest';
import type { TableFileProblem } from '../../../src/core/table-file.js';
import { describeFileProblem, rowProblemLine } from '../../../src/slack/refusals/batch-problems.js';
import { describeCellProblem, describeTableFileProblem } from '../../../src/slack/refusals/table-file-problems.js';

const EVERY_PROBLEM: TableFileProblem[] = [
  { code: 'file_empty' },
  { code: 'file_too_large', maxBytes: 10 * 1024 * 1024 },
  { code: 'file_encoding', encoding: 'windows-1252' },
  { code: 'file_unreadable', line: 12 },
  { code: 'file_too_many_rows', max: 500, rows: 812 },
  { code: 'xlsx_unreadable' },
  { code: 'xlsx_too_large', maxBytes: 20 * 1024 * 1024 },
  { code: 'xlsx_too_many_entries', max: 500 },
  { code: 'xlsx_too_many_cells', max: 32_000 },
];

describe('the words of a refused table file', () => {
  it('word every file problem in both languages, naming its limit, and say nothing was kept', () => {
    for (const locale of ['en', 'fr'] as const) {
      for (const problem of EVERY_PROBLEM) {
        const text = describeTableFileProblem(locale, problem, 'records');
        expect(text, problem.code).toMatch(locale === 'en' ? /Nothing was kept\.$/ : /Rien n’a été gardé\.$/);
        expect(text).not.toMatch(/\{|undefined/);
      }
    }
    expect(describeTableFileProblem('en', { code: 'file_too_many_rows', max: 500, rows: 812 }, 'records')).toContain(
      '812 rows; at most 500 are read at once (`RECORDS_MAX_ROWS`)',
    );
    expect(describeTableFileProblem('fr', { code: 'file_too_large', maxBytes: 10 * 1024 * 1024 }, 'records')).toContain(
      '10 Mio, le plus que lit ce formulaire (`RECORDS_MAX_BYTES`)',
    );
    expect(describeTableFileProblem('en', { code: 'file_too_large', maxBytes: 1024 * 1024 }, 'bulk')).toContain(
      'over 1 MiB, the most this form reads. Nothing',
    );
    expect(describeTableFileProblem('en', { code: 'xlsx_too_large', maxBytes: 20 * 1024 * 1024 }, 'bulk')).toContain('more than 20 MiB once unpacked');
    expect(describeTableFileProblem('fr', { code: 'xlsx_too_many_entries', max: 500 }, 'bulk')).toContain('plus de 500 parties');
  });

  it('give the fix for a wrong encoding that each form offers: the choice in the bulk form, the import profile for records', () => {
    const problem: TableFileProblem = { code: 'file_encoding', encoding: 'utf-8' };
    expect(describeTableFileProblem('en', problem, 'bulk')).toContain('not text in UTF-8');
    expect(describeTableFileProblem('en', problem, 'bulk')).toContain('"File encoding"');
    expect(describeTableFileProblem('fr', problem, 'bulk')).toContain('« Encodage du fichier »');
    expect(describeTableFileProblem('en', problem, 'records')).toContain('import profile');
    // The bulk form words the shared problems through the same catalog.
    expect(describeFileProblem('en', problem)).toBe(describeTableFileProblem('en', problem, 'bulk'));
  });

  it('word a cell that cannot be read with its reference, what it holds and the fix, in French too', () => {
    const quote = (found: string) => `\`${found}\``;
    expect(describeCellProblem('en', { code: 'cell_formula_uncached', cell: 'F2', found: '=SUM(F3:F9)' }, quote)).toBe(
      'cell F2 holds the formula `=SUM(F3:F9)` without its result (the program that saved the file did not compute it). Open the file in Excel and save it again, or type the value.',
    );
    expect(describeCellProblem('fr', { code: 'cell_number_exponent', cell: 'C7', found: '1.5e+21' }, quote)).toContain('la cellule C7 contient `1.5e+21`');
    expect(describeCellProblem('en', { code: 'cell_number_precision', cell: 'D3', found: '0.30000000000000004' }, quote)).toContain(
      'more than 15 significant digits',
    );
    expect(describeCellProblem('fr', { code: 'cell_error', cell: 'B9', found: '#DIV/0!' }, quote)).toContain('l’erreur `#DIV/0!`');
  });

  it('refuse a phone in scientific notation in a bulk file by its row and column, saying how to fix it, in both languages', () => {
    const entry = { rowNumber: 12, column: 'number' as const, problem: { code: 'number_scientific' as const, found: '2.43998E+11' } };
    expect(rowProblemLine('en', entry)).toBe(
      'Row 12, number: 2.43998E+11 is a number in scientific notation: the spreadsheet turned the phone number into a number and may have dropped its last digits. Format the column as Text, type the number in full with its +, and export again.',
    );
    expect(rowProblemLine('fr', entry)).toContain('notation scientifique');
    expect(rowProblemLine('fr', entry)).toContain('format Texte');
    const inWorkbook = { ...entry, problem: { ...entry.problem, found: '243812345679', cell: 'B12' } };
    expect(rowProblemLine('en', inWorkbook)).toContain('cell B12 holds 243812345679 as a number, not as text');
  });
});

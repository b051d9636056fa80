/**
 * Every amount a person reads is written by `src/core/money.ts` with the reader's language (its `locale`
 * is required, so the type checker finds a surface that forgets it). This scan finds the other way
 * to go wrong: a file that writes numbers by itself (`toFixed`, `toLocaleString`, its own
 * `Intl.NumberFormat` or thousands grouping), which would be English wherever the reader is French.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SRC, sourceFiles } from './support/source-files.js';

const AD_HOC_NUMBER_FORMATTING = [
  /\.toFixed\(/,
  /\.toLocaleString\(/,
  /Intl\.NumberFormat\b/,
  /\(\?=\(\\d\{3\}\)\+/, // a thousands-grouping replacement: `.replace(/\B(?=(\d{3})+(?!\d))/g, …)`
];

// Where a number is written but not as an amount for a reader, and why.
const ALLOWED: Record<string, string> = {
  'core/money.ts': 'the one money formatter',
  'i18n/catalog.ts': 'counts in texts ({count}, {rows}), whole numbers, never amounts',
  'sandbox/payouts.ts': 'the sandbox checks the decimals of an amount it receives, it writes none',
};

function offences(text: string): string[] {
  return text
    .split('\n')
    .filter((line) => AD_HOC_NUMBER_FORMATTING.some((pattern) => pattern.test(line)))
    .map((line) => line.trim());
}

describe('one money formatter', () => {
  it('finds no number formatting of its own in any file of src/ but the money module', () => {
    const files = sourceFiles();
    expect(files.length).toBeGreaterThan(100);
    // The scan recognises formatting where it is known to be: it would see it anywhere else.
    expect(offences(readFileSync(join(SRC, 'core/money.ts'), 'utf8')).length).toBeGreaterThan(0);
    const found = files
      .filter((file) => ALLOWED[file] === undefined)
      .flatMap((file) => offences(readFileSync(join(SRC, file), 'utf8')).map((line) => `${file}: ${line}`));
    expect(found).toEqual([]);
  });
});

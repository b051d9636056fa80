import { describe, expect, it } from 'vitest';
import { readLaidOutAmount, type NumberLayout } from '../../src/core/money.js';

const read = (text: string, currency: string, layout: NumberLayout) => readLaidOutAmount(text, currency, layout);
const minor = (text: string, currency: string, layout: NumberLayout) => {
  const result = read(text, currency, layout);
  return result.ok ? result.minor : result.code;
};

describe('amounts as a file with a known number layout writes them', () => {
  it('reads decimal commas with dots, spaces or apostrophes grouping thousands', () => {
    expect(minor('1.234,56', 'EUR', { decimalMark: ',', grouping: '.' })).toBe(123456);
    expect(minor('-1 234 567,5', 'EUR', { decimalMark: ',', grouping: ' ' })).toBe(-123456750);
    expect(minor('1\u202F234,50', 'EUR', { decimalMark: ',', grouping: ' ' })).toBe(123450);
    expect(minor("12'500.75", 'USD', { decimalMark: '.', grouping: "'" })).toBe(1250075);
    expect(minor('+75,00', 'USD', { decimalMark: ',', grouping: 'none' })).toBe(7500);
    expect(minor('\u221212,5', 'USD', { decimalMark: ',', grouping: 'none' })).toBe(-1250);
  });

  it('reads 1.500 as fifteen hundred only when the layout says a dot groups thousands', () => {
    expect(minor('1.500', 'CDF', { decimalMark: ',', grouping: '.' })).toBe(150000);
    expect(read('1.500', 'CDF', { decimalMark: '.', grouping: 'none' })).toMatchObject({ ok: false, code: 'amount_too_many_decimals', thousands: 150000 });
  });

  it('refuses marks the layout does not name and groups that are not threes, rather than guessing', () => {
    expect(minor('1,234.56', 'USD', { decimalMark: ',', grouping: '.' })).toBe('amount_not_a_number');
    expect(minor('12.34.567', 'USD', { decimalMark: ',', grouping: '.' })).toBe('amount_not_a_number');
    expect(minor('1 234,56', 'USD', { decimalMark: ',', grouping: 'none' })).toBe('amount_not_a_number');
    expect(minor('', 'USD', { decimalMark: '.', grouping: 'none' })).toBe('amount_not_a_number');
    expect(minor('12,', 'USD', { decimalMark: ',', grouping: 'none' })).toBe('amount_not_a_number');
    expect(minor('12,345', 'USD', { decimalMark: ',', grouping: 'none' })).toBe('amount_too_many_decimals');
  });
});

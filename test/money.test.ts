import { describe, expect, it } from 'vitest';
import { currencyDecimals, formatAmount, formatMinor, fromMinor, minorToPlain, parseAmount, toMinor } from '../src/money.js';

describe('money', () => {
  it('knows that USD, EUR and CDF have two decimals and JPY none', () => {
    expect([currencyDecimals('USD'), currencyDecimals('EUR'), currencyDecimals('CDF'), currencyDecimals('JPY'), currencyDecimals('KWD')]).toEqual([2, 2, 2, 0, 3]);
  });

  it('formats amounts with thousands separators and the currency decimals', () => {
    expect(formatAmount(1234567.5, 'USD')).toBe('1,234,567.50 USD');
    expect(formatAmount(1500, 'JPY')).toBe('1,500 JPY');
    expect(formatAmount(-20.1, 'EUR')).toBe('-20.10 EUR');
    expect(formatAmount(20.1, 'EUR', { signed: true })).toBe('+20.10 EUR');
    expect(formatMinor(0, 'USD', { signed: true })).toBe('0.00 USD');
  });

  it('writes amounts the French way for a French reader, from exact minor units', () => {
    const thin = '\u202f'; // the narrow no-break space French puts between thousands
    expect(formatMinor(12543057, 'USD', { locale: 'fr' })).toBe(`125${thin}430,57 USD`);
    expect(formatMinor(150000, 'JPY', { locale: 'fr' })).toBe(`150${thin}000 JPY`);
    expect(formatMinor(-1234, 'KWD', { locale: 'fr' })).toBe('-1,234 KWD');
    expect(formatMinor(5, 'CDF', { locale: 'fr', signed: true })).toBe('+0,05 CDF');
    expect(formatMinor(5, 'CDF', { locale: 'en' })).toBe('0.05 CDF');
  });

  it('prints every digit of an amount too large for a float to hold exactly', () => {
    expect(formatMinor(Number.MAX_SAFE_INTEGER, 'USD')).toBe('90,071,992,547,409.91 USD');
    expect(formatMinor(Number.MAX_SAFE_INTEGER, 'USD', { locale: 'fr' })).toBe('90\u202f071\u202f992\u202f547\u202f409,91 USD');
  });

  it('converts between decimals and exact minor units without float noise', () => {
    expect(toMinor(0.1 + 0.2, 'USD')).toBe(30);
    expect(toMinor(-1234.56, 'USD')).toBe(-123456);
    expect(minorToPlain(15025, 'USD')).toBe('150.25');
    expect(minorToPlain(5, 'USD')).toBe('0.05');
    expect(minorToPlain(1500, 'JPY')).toBe('1500');
    expect(fromMinor(15025, 'USD')).toBe(150.25);
  });

  it('parses plain amounts and refuses ambiguous or malformed ones with a reason', () => {
    expect(parseAmount('150', 'USD')).toEqual({ ok: true, minor: 15000 });
    expect(parseAmount(' 150.25 ', 'USD')).toEqual({ ok: true, minor: 15025 });
    expect(parseAmount('1,5', 'USD')).toMatchObject({ ok: false, reason: expect.stringContaining('ambiguous') });
    expect(parseAmount('1.000,00', 'EUR')).toMatchObject({ ok: false, reason: expect.stringContaining('ambiguous') });
    expect(parseAmount('1.234', 'USD')).toMatchObject({ ok: false, reason: 'USD has 2 decimals at most.' });
    expect(parseAmount('10.5', 'JPY')).toMatchObject({ ok: false, reason: expect.stringContaining('whole amount') });
    expect(parseAmount('0', 'USD')).toMatchObject({ ok: false, reason: 'The amount must be more than zero.' });
    expect(parseAmount('-5', 'USD')).toMatchObject({ ok: false });
    expect(parseAmount('12abc', 'USD')).toMatchObject({ ok: false });
    expect(parseAmount('', 'USD')).toMatchObject({ ok: false, reason: 'Enter an amount.' });
  });
});

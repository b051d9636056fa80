import { describe, expect, it } from 'vitest';
import {
  currencyDecimals,
  readDecimal,
  typedDecimal,
  formatAmount,
  formatMinor,
  fromMinor,
  minorToPlain,
  parseAmount,
  parsePlainAmount,
  readPlainAmount,
  toMinor,
  typedAmount,
} from '../../src/core/money.js';

describe('money', () => {
  it('knows that USD, EUR and CDF have two decimals and JPY none', () => {
    expect([currencyDecimals('USD'), currencyDecimals('EUR'), currencyDecimals('CDF'), currencyDecimals('JPY'), currencyDecimals('KWD')]).toEqual([
      2, 2, 2, 0, 3,
    ]);
  });

  it('formats amounts with thousands separators and the currency decimals', () => {
    expect(formatAmount(1234567.5, 'USD', { locale: 'en' })).toBe('1,234,567.50 USD');
    expect(formatAmount(1500, 'JPY', { locale: 'en' })).toBe('1,500 JPY');
    expect(formatAmount(-20.1, 'EUR', { locale: 'en' })).toBe('-20.10 EUR');
    expect(formatAmount(20.1, 'EUR', { signed: true, locale: 'en' })).toBe('+20.10 EUR');
    expect(formatMinor(0, 'USD', { signed: true, locale: 'en' })).toBe('0.00 USD');
  });

  it('writes amounts the French way for a French reader, from exact minor units', () => {
    const thin = '\u202f'; // the narrow no-break space French puts between thousands
    expect(formatMinor(12543057, 'USD', { locale: 'fr' })).toBe(`125${thin}430,57 USD`);
    expect(formatMinor(150000, 'JPY', { locale: 'fr' })).toBe(`150${thin}000 JPY`);
    expect(formatMinor(-1234, 'KWD', { locale: 'fr' })).toBe('-1,234 KWD');
    expect(formatMinor(5, 'CDF', { locale: 'fr', signed: true })).toBe('+0,05 CDF');
    expect(formatMinor(5, 'CDF', { locale: 'en' })).toBe('0.05 CDF');
  });

  it('writes a search decimal back the way the person types it, reading back to the same value', () => {
    expect(typedDecimal('5000.5', 'en')).toBe('5000.5');
    expect(typedDecimal('5000.5', 'fr')).toBe('5 000,5');
    expect(typedDecimal('1.234', 'fr')).toBe('1,2340');
    for (const [decimal, locale] of [
      ['5000.5', 'en'],
      ['5000.5', 'fr'],
      ['1.234', 'fr'],
      ['1500', 'en'],
      ['1500', 'fr'],
      ['0.5', 'fr'],
    ] as const) {
      expect(readDecimal(typedDecimal(decimal, locale), locale)).toEqual({ ok: true, value: decimal });
    }
  });

  it('prints every digit of an amount too large for a float to hold exactly', () => {
    expect(formatMinor(Number.MAX_SAFE_INTEGER, 'USD', { locale: 'en' })).toBe('90,071,992,547,409.91 USD');
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

  it('reads plain amounts in both languages and refuses malformed ones with a code', () => {
    for (const locale of ['en', 'fr'] as const) {
      expect(parseAmount('150', 'USD', locale)).toEqual({ ok: true, minor: 15000 });
      expect(parseAmount(' 150.25 ', 'USD', locale)).toEqual({ ok: true, minor: 15025 });
      expect(parseAmount('1500.50', 'USD', locale)).toEqual({ ok: true, minor: 150050 });
      expect(parseAmount('0', 'USD', locale)).toEqual({ ok: false, code: 'amount_not_positive' });
      expect(parseAmount('0.00', 'USD', locale)).toEqual({ ok: false, code: 'amount_not_positive' });
      expect(parseAmount('-5', 'USD', locale)).toEqual({ ok: false, code: 'amount_not_positive' });
      expect(parseAmount('12abc', 'USD', locale)).toEqual({ ok: false, code: 'amount_not_a_number' });
      expect(parseAmount('150.', 'USD', locale)).toEqual({ ok: false, code: 'amount_not_a_number' });
      expect(parseAmount('.5', 'USD', locale)).toEqual({ ok: false, code: 'amount_not_a_number' });
      expect(parseAmount('1  500', 'USD', locale)).toEqual({ ok: false, code: 'amount_not_a_number' });
      expect(parseAmount('15 00', 'USD', locale)).toEqual({ ok: false, code: 'amount_not_a_number' });
      expect(parseAmount('', 'USD', locale)).toEqual({ ok: false, code: 'amount_empty' });
      expect(parseAmount('1.234', 'USD', 'en')).toEqual({
        ok: false,
        code: 'amount_too_many_decimals',
        currency: 'USD',
        decimals: 2,
        typed: '1.234',
        thousands: 123400,
      });
      expect(parseAmount('10.5', 'JPY', locale)).toEqual({ ok: false, code: 'amount_too_many_decimals', currency: 'JPY', decimals: 0, typed: '10.5' });
      expect(parseAmount('99999999999999999999', 'USD', locale)).toEqual({ ok: false, code: 'amount_too_large' });
    }
  });

  it('reads thousands grouped by spaces in both languages, then a dot or a comma as the decimal mark', () => {
    for (const locale of ['en', 'fr'] as const) {
      for (const space of [' ', '\u00A0', '\u202F']) {
        expect(parseAmount(`1${space}500,50`, 'USD', locale)).toEqual({ ok: true, minor: 150050 });
        expect(parseAmount(`1${space}500.50`, 'USD', locale)).toEqual({ ok: true, minor: 150050 });
        expect(parseAmount(`1${space}500`, 'USD', locale)).toEqual({ ok: true, minor: 150000 });
        expect(parseAmount(`12${space}345${space}678,9`, 'EUR', locale)).toEqual({ ok: true, minor: 1234567890 });
      }
      expect(parseAmount('1 500,500', 'KWD', locale)).toEqual({ ok: true, minor: 1500500 });
      expect(parseAmount('1 500', 'JPY', locale)).toEqual({ ok: true, minor: 1500 });
    }
    // What formatMinor writes in French reads back.
    expect(parseAmount(formatMinor(123456789, 'USD', { locale: 'fr' }).replace(' USD', ''), 'USD', 'fr')).toEqual({ ok: true, minor: 123456789 });
  });

  it('reads English amounts: a dot for decimals, commas for thousands, and refuses 1,500 as two readings', () => {
    expect(parseAmount('1,500.50', 'USD', 'en')).toEqual({ ok: true, minor: 150050 });
    expect(parseAmount('1,500,000', 'USD', 'en')).toEqual({ ok: true, minor: 150000000 });
    expect(parseAmount('1,5', 'USD', 'en')).toEqual({ ok: true, minor: 150 });
    expect(parseAmount('1,500', 'USD', 'en')).toEqual({ ok: false, code: 'amount_ambiguous', currency: 'USD', thousands: 150000, decimal: 150 });
    expect(parseAmount('12,000', 'EUR', 'en')).toEqual({ ok: false, code: 'amount_ambiguous', currency: 'EUR', thousands: 1200000, decimal: 1200 });
    // A dot never groups thousands in English, so these are not numbers.
    expect(parseAmount('1.500.000', 'USD', 'en')).toEqual({ ok: false, code: 'amount_not_a_number' });
    expect(parseAmount('1.500,50', 'USD', 'en')).toEqual({ ok: false, code: 'amount_not_a_number' });
    expect(parseAmount('1,50,000', 'USD', 'en')).toEqual({ ok: false, code: 'amount_not_a_number' });
    expect(parseAmount('1,500.50.1', 'USD', 'en')).toEqual({ ok: false, code: 'amount_not_a_number' });
  });

  it('reads French amounts: a comma or a dot for decimals, and refuses 1.500 and 1,500 as two readings', () => {
    expect(parseAmount('150,25', 'EUR', 'fr')).toEqual({ ok: true, minor: 15025 });
    expect(parseAmount('150.25', 'EUR', 'fr')).toEqual({ ok: true, minor: 15025 });
    expect(parseAmount('1,5', 'EUR', 'fr')).toEqual({ ok: true, minor: 150 });
    expect(parseAmount('1500,5', 'EUR', 'fr')).toEqual({ ok: true, minor: 150050 });
    expect(parseAmount('1.500,50', 'EUR', 'fr')).toEqual({ ok: true, minor: 150050 });
    expect(parseAmount('1,500.50', 'EUR', 'fr')).toEqual({ ok: true, minor: 150050 });
    expect(parseAmount('1.500.000', 'EUR', 'fr')).toEqual({ ok: true, minor: 150000000 });
    expect(parseAmount('1.500', 'EUR', 'fr')).toEqual({ ok: false, code: 'amount_ambiguous', currency: 'EUR', thousands: 150000, decimal: 150 });
    expect(parseAmount('1,500', 'EUR', 'fr')).toEqual({ ok: false, code: 'amount_ambiguous', currency: 'EUR', thousands: 150000, decimal: 150 });
    expect(parseAmount('1,234', 'USD', 'fr')).toEqual({ ok: true, minor: 123400 });
    expect(parseAmount('150,255', 'USD', 'fr')).toEqual({ ok: true, minor: 15025500 });
    expect(parseAmount('1,2345', 'USD', 'fr')).toEqual({ ok: false, code: 'amount_too_many_decimals', currency: 'USD', decimals: 2, typed: '1,2345' });
  });

  it('counts only readings the currency can hold: zero- and three-decimal currencies', () => {
    for (const locale of ['en', 'fr'] as const) {
      // 1,5 JPY cannot exist, so 1,500 JPY is fifteen hundred; 1,000 JPY could be 1000 or 1 (1,000 with zero decimals).
      expect(parseAmount('1,500', 'JPY', locale)).toEqual({ ok: true, minor: 1500 });
      expect(parseAmount('1,000', 'JPY', locale)).toEqual({ ok: false, code: 'amount_ambiguous', currency: 'JPY', thousands: 1000, decimal: 1 });
      expect(parseAmount('1500', 'JPY', locale)).toEqual({ ok: true, minor: 1500 });
      // KWD has three decimals: 1,500 is 1 500,000 or 1,500.
      expect(parseAmount('1,500', 'KWD', locale)).toEqual({ ok: false, code: 'amount_ambiguous', currency: 'KWD', thousands: 1500000, decimal: 1500 });
      expect(parseAmount('1,234', 'KWD', locale)).toEqual({ ok: false, code: 'amount_ambiguous', currency: 'KWD', thousands: 1234000, decimal: 1234 });
      expect(parseAmount('1,2345', 'KWD', locale)).toEqual({ ok: false, code: 'amount_too_many_decimals', currency: 'KWD', decimals: 3, typed: '1,2345' });
      expect(parseAmount('1.25', 'KWD', locale)).toEqual({ ok: true, minor: 1250 });
    }
    expect(parseAmount('1.500', 'JPY', 'fr')).toEqual({ ok: true, minor: 1500 });
    expect(parseAmount('1.000', 'JPY', 'fr')).toEqual({ ok: false, code: 'amount_ambiguous', currency: 'JPY', thousands: 1000, decimal: 1 });
    expect(parseAmount('1.500', 'KWD', 'fr')).toEqual({ ok: false, code: 'amount_ambiguous', currency: 'KWD', thousands: 1500000, decimal: 1500 });
    expect(parseAmount('1.500', 'KWD', 'en')).toEqual({ ok: true, minor: 1500 });
    expect(parseAmount('1.500', 'JPY', 'en')).toEqual({
      ok: false,
      code: 'amount_too_many_decimals',
      currency: 'JPY',
      decimals: 0,
      typed: '1.500',
      thousands: 1500,
    });
  });

  it('refuses a fraction longer than the currency allows even when it is zeros, naming the thousands reading', () => {
    // How Excel writes 75,000 CDF, 1,500 USD and 150,000 XAF in many locales: never a thousandth of it.
    expect(parseAmount('75.000', 'CDF', 'en')).toEqual({
      ok: false,
      code: 'amount_too_many_decimals',
      currency: 'CDF',
      decimals: 2,
      typed: '75.000',
      thousands: 7_500_000,
    });
    expect(parseAmount('1.500', 'USD', 'en')).toEqual({
      ok: false,
      code: 'amount_too_many_decimals',
      currency: 'USD',
      decimals: 2,
      typed: '1.500',
      thousands: 150_000,
    });
    expect(parseAmount('150.000', 'XAF', 'en')).toEqual({
      ok: false,
      code: 'amount_too_many_decimals',
      currency: 'XAF',
      decimals: 0,
      typed: '150.000',
      thousands: 150_000,
    });
    // Zeros that cannot be thousands are refused all the same, without a thousands reading.
    for (const locale of ['en', 'fr'] as const) {
      expect(parseAmount('1.00', 'JPY', locale)).toEqual({ ok: false, code: 'amount_too_many_decimals', currency: 'JPY', decimals: 0, typed: '1.00' });
      expect(parseAmount('12.5000', 'USD', locale)).toEqual({ ok: false, code: 'amount_too_many_decimals', currency: 'USD', decimals: 2, typed: '12.5000' });
      expect(parseAmount('1 500.000', 'USD', locale)).toEqual({
        ok: false,
        code: 'amount_too_many_decimals',
        currency: 'USD',
        decimals: 2,
        typed: '1 500.000',
      });
      expect(parseAmount('12.50', 'USD', locale)).toEqual({ ok: true, minor: 1250 });
    }
    expect(parseAmount('1500,500', 'EUR', 'fr')).toEqual({ ok: false, code: 'amount_too_many_decimals', currency: 'EUR', decimals: 2, typed: '1500,500' });
    expect(parseAmount('0,500', 'EUR', 'fr')).toEqual({ ok: false, code: 'amount_too_many_decimals', currency: 'EUR', decimals: 2, typed: '0,500' });
    // Where the mark may also group thousands (French), both readings are still named, never guessed.
    expect(parseAmount('75.000', 'CDF', 'fr')).toEqual({ ok: false, code: 'amount_ambiguous', currency: 'CDF', thousands: 7_500_000, decimal: 7_500 });
  });

  it('reads amounts written for machines by the same rule, with their sign', () => {
    expect(readPlainAmount('-1250.50', 'USD')).toEqual({ ok: true, minor: -125050 });
    expect(readPlainAmount('20', 'EUR')).toEqual({ ok: true, minor: 2000 });
    expect(readPlainAmount('0', 'USD')).toEqual({ ok: true, minor: 0 });
    expect(readPlainAmount('-0.00', 'USD')).toEqual({ ok: true, minor: 0 });
    expect(readPlainAmount('-75.000', 'CDF')).toEqual({
      ok: false,
      code: 'amount_too_many_decimals',
      currency: 'CDF',
      decimals: 2,
      typed: '-75.000',
      thousands: 7_500_000,
    });
    expect(readPlainAmount('150.000', 'XAF')).toEqual({
      ok: false,
      code: 'amount_too_many_decimals',
      currency: 'XAF',
      decimals: 0,
      typed: '150.000',
      thousands: 150_000,
    });
    expect(readPlainAmount('12.500', 'EUR')).toMatchObject({ ok: false, code: 'amount_too_many_decimals' });
    for (const text of ['1,5', '1 000', '', '+5', '1.', '.5', '--1'])
      expect(readPlainAmount(text, 'USD'), text).toEqual({ ok: false, code: 'amount_not_a_number' });
    expect(readPlainAmount('99999999999999999999', 'USD')).toEqual({ ok: false, code: 'amount_too_large' });
  });

  it('writes an amount the way each reader types it, so that it reads back unambiguously', () => {
    expect(typedAmount(150050, 'USD', 'en')).toBe('1500.50');
    expect(typedAmount(150050, 'USD', 'fr')).toBe('1 500,50');
    expect(typedAmount(150, 'EUR', 'fr')).toBe('1,50');
    expect(typedAmount(1500, 'JPY', 'fr')).toBe('1 500');
    expect(typedAmount(1500, 'KWD', 'fr')).toBe('1,5');
    // 1,234 would read two ways in French, and 1,2340 has a decimal too many.
    expect(typedAmount(1234, 'KWD', 'fr')).toBe('01,234');
    expect(typedAmount(1234567, 'KWD', 'fr')).toBe('1 234,567');
    for (const [minor, currency] of [
      [1, 'USD'],
      [150000, 'EUR'],
      [1000, 'JPY'],
      [1, 'JPY'],
      [1500, 'KWD'],
      [1000, 'KWD'],
      [1234, 'KWD'],
      [999123, 'KWD'],
      [999999999, 'CDF'],
    ] as const) {
      for (const locale of ['en', 'fr'] as const) {
        expect(parseAmount(typedAmount(minor, currency, locale), currency, locale), `${minor} ${currency} ${locale}`).toEqual({ ok: true, minor });
      }
    }
  });

  it('reads configured amounts with digits and a dot only, as before', () => {
    expect(parsePlainAmount('1000', 'USD')).toEqual({ ok: true, minor: 100000 });
    expect(parsePlainAmount('10.5', 'USD')).toEqual({ ok: true, minor: 1050 });
    expect(parsePlainAmount('1 000', 'USD')).toMatchObject({ ok: false });
    expect(parsePlainAmount('1,5', 'USD')).toMatchObject({ ok: false });
    expect(parsePlainAmount('1.234', 'USD')).toEqual({
      ok: false,
      code: 'amount_too_many_decimals',
      currency: 'USD',
      decimals: 2,
      typed: '1.234',
      thousands: 123400,
    });
    expect(parsePlainAmount('1.500', 'USD')).toMatchObject({ ok: false, code: 'amount_too_many_decimals' });
    expect(parsePlainAmount('-5', 'USD')).toMatchObject({ ok: false });
    expect(parsePlainAmount('0', 'USD')).toEqual({ ok: false, code: 'amount_not_positive' });
  });
});

/**
 * Money in exact minor units: currency decimals, strict parsing of typed amounts, and display.
 * The Fleet API speaks decimal numbers; everything that compares or adds amounts uses integers.
 */
import type { Locale } from './i18n/locale.js';

// ISO 4217 minor units that differ from 2. Currencies not listed here (including USD, EUR, CDF) use 2.
const MINOR_UNITS: Record<string, number> = {
  BIF: 0, CLP: 0, DJF: 0, GNF: 0, ISK: 0, JPY: 0, KMF: 0, KRW: 0, PYG: 0, RWF: 0, UGX: 0, UYI: 0,
  VND: 0, VUV: 0, XAF: 0, XOF: 0, XPF: 0,
  BHD: 3, IQD: 3, JOD: 3, KWD: 3, LYD: 3, OMR: 3, TND: 3,
};

/** Amount per currency, in minor units (`USD:1000` → USD → 100000). */
export type CurrencyAmounts = ReadonlyMap<string, number>;

export function currencyDecimals(currency: string): number {
  return MINOR_UNITS[currency.toUpperCase()] ?? 2;
}

export type ParsedAmount = { ok: true; minor: number } | { ok: false; reason: string };

/**
 * Parses an amount typed by a person. Only `1234.56` style is accepted: a comma is refused rather
 * than guessed, because `1,500` means 1.5 in some locales and 1500 in others.
 */
export function parseAmount(text: string, currency: string): ParsedAmount {
  const input = text.trim();
  const decimals = currencyDecimals(currency);
  if (input === '') return { ok: false, reason: 'Enter an amount.' };
  if (input.includes(',')) {
    return { ok: false, reason: `Write the amount with digits and a dot only, like 1500.50: "${input}" is ambiguous.` };
  }
  const match = /^(\d+)(?:\.(\d+))?$/.exec(input);
  if (!match) return { ok: false, reason: 'Enter the amount as a number, like 150 or 150.25.' };
  const whole = match[1] ?? '0';
  const fraction = match[2] ?? '';
  if (fraction.length > decimals) {
    return {
      ok: false,
      reason: decimals === 0
        ? `${currency} has no decimals: enter a whole amount.`
        : `${currency} has ${decimals} decimals at most.`,
    };
  }
  const minor = Number(whole + fraction.padEnd(decimals, '0'));
  if (!Number.isSafeInteger(minor)) return { ok: false, reason: 'That amount is too large.' };
  if (minor <= 0) return { ok: false, reason: 'The amount must be more than zero.' };
  return { ok: true, minor };
}

/** Converts an API decimal to exact minor units (rounding away float noise such as 0.1 + 0.2). */
export function toMinor(amount: number, currency: string): number {
  return Math.round(Number(amount.toFixed(currencyDecimals(currency))) * 10 ** currencyDecimals(currency));
}

/** Converts minor units back to the decimal number the API expects; JSON prints it exactly. */
export function fromMinor(minor: number, currency: string): number {
  return Number(minorToPlain(minor, currency));
}

/** `15025` USD → `"150.25"`: the plain form sent to the API and shown in forms. */
export function minorToPlain(minor: number, currency: string): string {
  const decimals = currencyDecimals(currency);
  const negative = minor < 0;
  const digits = Math.abs(minor).toString().padStart(decimals + 1, '0');
  const whole = digits.slice(0, digits.length - decimals);
  const fraction = decimals > 0 ? `.${digits.slice(digits.length - decimals)}` : '';
  return `${negative ? '-' : ''}${whole}${fraction}`;
}

// How the app's languages write numbers: `1,234.50` in English, `1 234,50` in French. Intl groups
// the whole part (French puts a narrow no-break space between thousands, so an amount never breaks
// across lines); the fraction is the exact digits of the minor units, so no float is ever involved.
const NUMBER_FORMATS: Record<Locale, { whole: Intl.NumberFormat; decimalSeparator: string }> = {
  en: { whole: new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 }), decimalSeparator: '.' },
  fr: { whole: new Intl.NumberFormat('fr-FR', { maximumFractionDigits: 0 }), decimalSeparator: ',' },
};

export interface FormatOptions {
  /** Show `+` on credits as well as `−` on debits. */
  signed?: boolean;
  /** Whose way of writing numbers: `en` (default) `1,234.50`, `fr` `1 234,50`. */
  locale?: Locale;
}

/** `1234.5, "USD"` → `1,234.50 USD` (`1 234,50 USD` in French); with `signed`, `+1,234.50 USD` / `-1,234.50 USD`. */
export function formatAmount(amount: number, currency: string, options: FormatOptions = {}): string {
  return formatMinor(toMinor(amount, currency), currency, options);
}

export function formatMinor(minor: number, currency: string, options: FormatOptions = {}): string {
  const format = NUMBER_FORMATS[options.locale ?? 'en'];
  const [whole = '0', fraction] = minorToPlain(Math.abs(minor), currency).split('.');
  const body = format.whole.format(BigInt(whole)) + (fraction === undefined ? '' : format.decimalSeparator + fraction);
  const sign = minor < 0 ? '-' : options.signed && minor > 0 ? '+' : '';
  return `${sign}${body} ${currency}`;
}

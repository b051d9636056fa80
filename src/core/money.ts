/**
 * Money in exact minor units: currency decimals, parsing of amounts typed the reader's way, and display.
 * The Fleet API speaks decimal numbers; everything that compares or adds amounts uses integers.
 * Every amount a person reads, on every surface, is written by `formatMinor` (or `formatAmount`) in
 * the reader's language. Files are data, not prose: CSV columns (export, bulk rows and results) carry
 * `minorToPlain`'s machine form in every language, and only their sentences (a problem described)
 * are written for the reader.
 */
import type { Locale } from '../i18n/locale.js';

// ISO 4217 minor units that differ from 2. Currencies not listed here (including USD, EUR, CDF) use 2.
const MINOR_UNITS: Record<string, number> = {
  BIF: 0,
  CLP: 0,
  DJF: 0,
  GNF: 0,
  ISK: 0,
  JPY: 0,
  KMF: 0,
  KRW: 0,
  PYG: 0,
  RWF: 0,
  UGX: 0,
  UYI: 0,
  VND: 0,
  VUV: 0,
  XAF: 0,
  XOF: 0,
  XPF: 0,
  BHD: 3,
  IQD: 3,
  JOD: 3,
  KWD: 3,
  LYD: 3,
  OMR: 3,
  TND: 3,
};

/** Amount per currency, in minor units (`USD:1000` → USD → 100000). */
export type CurrencyAmounts = ReadonlyMap<string, number>;

export function currencyDecimals(currency: string): number {
  return MINOR_UNITS[currency.toUpperCase()] ?? 2;
}

/** Why a typed amount was refused: a code with the data a message needs, never a sentence. */
export type AmountProblem =
  | { code: 'amount_empty' }
  | { code: 'amount_not_a_number' }
  | { code: 'amount_not_positive' }
  | { code: 'amount_too_large' }
  | TooManyDecimals
  /** Two possible amounts, in minor units: the separator read as thousands, and read as decimals. */
  | { code: 'amount_ambiguous'; currency: string; thousands: number; decimal: number };

/**
 * An amount written with more decimals than its currency has: what was written, and, when its mark
 * can group thousands (`75.000`, one to three digits then exactly three), that reading in minor units.
 */
export interface TooManyDecimals {
  code: 'amount_too_many_decimals';
  currency: string;
  decimals: number;
  typed: string;
  thousands?: number;
}

export type ParsedAmount = { ok: true; minor: number } | ({ ok: false } & AmountProblem);

const fail = (problem: AmountProblem): ParsedAmount => ({ ok: false, ...problem });

// Spaces that group thousands: a plain space, a no-break space and the narrow no-break space that
// French formatting (and so `formatMinor`) writes, so a copied amount reads back.
const GROUP_SPACE = /[ \u00A0\u202F]/;
// Marks that may separate thousands in each language. In English a dot is only ever decimal; a
// French reader may meet `1.500` and `1,500` for fifteen hundred, so both are possible there.
const GROUP_MARKS: Record<Locale, readonly string[]> = { en: [','], fr: ['.', ','] };

interface Reading {
  whole: string;
  fraction: string;
}

/** `1`, `12` or `123`, then groups of exactly three digits. */
function validGroups(groups: readonly string[]): boolean {
  return groups.length > 0 && /^\d{1,3}$/.test(groups[0] ?? '') && groups.slice(1).every((group) => /^\d{3}$/.test(group));
}

/** Every way `input` can be read by a person of `locale`: none (not a number), one, or two. */
function readingsOf(input: string, locale: Locale): Reading[] {
  if (!/^\d[\d., \u00A0\u202F]*$/.test(input) || !/\d$/.test(input)) return [];
  if (GROUP_SPACE.test(input)) {
    // Spaces group thousands; then a dot or a comma can only be the decimal mark.
    const groups = input.split(GROUP_SPACE);
    const last = /^(\d{3})(?:[.,](\d+))?$/.exec(groups.at(-1) ?? '');
    if (!last || groups.length < 2 || !validGroups([...groups.slice(0, -1), last[1] ?? ''])) return [];
    return [{ whole: groups.slice(0, -1).join('') + (last[1] ?? ''), fraction: last[2] ?? '' }];
  }
  const marks = [...new Set(input.replace(/\d/g, ''))];
  if (marks.length === 0) return [{ whole: input, fraction: '' }];
  if (marks.length === 2) {
    // `1,500.50` or `1.500,50`: the last mark is the decimal one and appears once; the other groups thousands.
    const decimalMark = input.match(/[.,]/g)?.at(-1) ?? '';
    const groupMark = marks.find((mark) => mark !== decimalMark) ?? '';
    const at = input.lastIndexOf(decimalMark);
    const whole = input.slice(0, at);
    if (whole.includes(decimalMark) || !GROUP_MARKS[locale].includes(groupMark) || !validGroups(whole.split(groupMark))) return [];
    return [{ whole: whole.split(groupMark).join(''), fraction: input.slice(at + 1) }];
  }
  const mark = marks[0] ?? '';
  const parts = input.split(mark);
  if (parts.length > 2) {
    // `1,500,000`: a mark that appears twice can only group thousands.
    return GROUP_MARKS[locale].includes(mark) && validGroups(parts) ? [{ whole: parts.join(''), fraction: '' }] : [];
  }
  const [whole = '', fraction = ''] = parts;
  const readings: Reading[] = [];
  if (GROUP_MARKS[locale].includes(mark) && /^[1-9]\d{0,2}$/.test(whole) && fraction.length === 3) {
    readings.push({ whole: whole + fraction, fraction: '' });
  }
  readings.push({ whole, fraction });
  return readings;
}

/**
 * The one rule for decimals, for every amount a person types or a file holds (the payout form, a
 * bulk file, a Workflow step, a records file, configuration): `whole`.`fraction` in exact minor
 * units, refused when the fraction is longer than the currency allows, even when the extra digits
 * are zeros. Spreadsheets in many locales write 75,000 as `75.000`: read as 75.00 CDF, a payout
 * would be sent at a thousandth. `typed` is the amount as written, for the refusal.
 */
export function minorUnits(whole: string, fraction: string, currency: string, typed: string): { ok: true; minor: number } | ({ ok: false } & TooManyDecimals) {
  const decimals = currencyDecimals(currency);
  if (fraction.length <= decimals) return { ok: true, minor: Number(whole + fraction.padEnd(decimals, '0')) };
  const groupsThousands = /^[1-9]\d{0,2}$/.test(whole) && fraction.length === 3;
  return {
    ok: false,
    code: 'amount_too_many_decimals',
    currency,
    decimals,
    typed,
    ...(groupsThousands ? { thousands: Number(whole + fraction) * 10 ** decimals } : {}),
  };
}

/**
 * The amount a reading names when its decimals beyond the currency's are zeros (`1,500` EUR read
 * as decimals: 1.50), undefined when they are not. Such a reading is never accepted (`minorUnits`),
 * but it is what the person may have meant, so with another reading it makes the amount ambiguous.
 */
function meantMinor(reading: Reading, decimals: number): number | undefined {
  if (!/^0*$/.test(reading.fraction.slice(decimals))) return undefined;
  return Number(reading.whole + reading.fraction.slice(0, decimals).padEnd(decimals, '0'));
}

/**
 * Parses an amount typed by a person, the way that person writes numbers, and never guesses.
 *
 * - Both languages: `1500`, `1500.50`, and thousands grouped by spaces (plain, no-break or narrow
 *   no-break), after which a dot or a comma is the decimal mark: `1 500,50` and `1 500.50` are 1500.50.
 * - English: a dot is decimal; a comma groups thousands (`1,500.50`, `1,500,000`). A comma that can
 *   only be decimal (`1,5`) is read so.
 * - French: a comma or a dot is decimal (`150,25`, `150.25`); either may also group thousands
 *   (`1.500.000`, `1,500.50`).
 * - A single mark followed by exactly three digits after one to three digits (`1,500`, and `1.500`
 *   in French) can be read two ways. Each reading that names an amount in the currency counts
 *   (decimals beyond the currency's that are zeros included: `1,500` EUR may mean 1,50); two are
 *   refused as `amount_ambiguous` with both amounts. So `1,500` EUR is refused (1 500,00 or 1,50),
 *   as is `1,000` JPY (1 000 or 1) and `1,500` KWD (1 500,000 or 1,500); `1,500` JPY is 1 500,
 *   since 1,5 JPY cannot exist.
 * - Otherwise the one reading must pass `minorUnits`: decimals beyond the currency's are refused,
 *   zeros too, naming the thousands reading where there is one (`75.000` CDF in English: 75,000?).
 *   The review screen repeats the amount in any case.
 */
export function parseAmount(text: string, currency: string, locale: Locale): ParsedAmount {
  const input = text.trim();
  const decimals = currencyDecimals(currency);
  if (input === '') return fail({ code: 'amount_empty' });
  if (/^[-\u2212]\s*\d/.test(input)) return fail({ code: 'amount_not_positive' });
  const readings = readingsOf(input, locale);
  if (readings.length === 0) return fail({ code: 'amount_not_a_number' });
  const [first, second] = readings.map((reading) => meantMinor(reading, decimals)).filter((minor): minor is number => minor !== undefined);
  if (first !== undefined && second !== undefined && second !== first) return fail({ code: 'amount_ambiguous', currency, thousands: first, decimal: second });
  const read = readings.map(({ whole, fraction }) => minorUnits(whole, fraction, currency, input));
  const exact = read.find((reading) => reading.ok);
  if (exact?.ok) return checked(exact.minor);
  return read.find((reading) => !reading.ok) ?? fail({ code: 'amount_not_a_number' });
}

/**
 * An amount typed by a person where no currency is known yet (a search's `min:` and `max:`), as an
 * exact decimal string: the same reading rules as `parseAmount`, with both readings of `1,500`
 * counting since no currency rules one out. `1,500.50` → `1500.5`.
 */
export function readDecimal(text: string, locale: Locale): { ok: true; value: string } | { ok: false; code: 'not_a_number' | 'ambiguous' } {
  const readings = readingsOf(text.trim(), locale).map(({ whole, fraction }) => canonicalDecimal(whole, fraction));
  const [first] = readings;
  if (first === undefined || first.split('.')[0]!.length > 15) return { ok: false, code: 'not_a_number' };
  return new Set(readings).size > 1 ? { ok: false, code: 'ambiguous' } : { ok: true, value: first };
}

/** `0100`, `50` → `100.5`: no leading zeros, no trailing decimal zeros. */
function canonicalDecimal(whole: string, fraction: string): string {
  const integer = whole.replace(/^0+(?=\d)/, '');
  const decimals = fraction.replace(/0+$/, '');
  return decimals === '' ? integer : `${integer}.${decimals}`;
}

function checked(minor: number): ParsedAmount {
  if (!Number.isSafeInteger(minor)) return fail({ code: 'amount_too_large' });
  if (minor <= 0) return fail({ code: 'amount_not_positive' });
  return { ok: true, minor };
}

/**
 * Reads an amount written for machines (a records file): an optional minus, digits, and a dot
 * before at most the currency's decimals (`-1250.50`), by `minorUnits`. Zero may be an amount here;
 * a comma or a space is refused rather than guessed.
 */
export function readPlainAmount(
  text: string,
  currency: string,
): { ok: true; minor: number } | { ok: false; code: 'amount_not_a_number' | 'amount_too_large' } | ({ ok: false } & TooManyDecimals) {
  const input = text.trim();
  const match = /^(-?)(\d+)(?:\.(\d+))?$/.exec(input);
  if (!match) return { ok: false, code: 'amount_not_a_number' };
  const read = minorUnits(match[2] ?? '', match[3] ?? '', currency, input);
  if (!read.ok) return read;
  if (!Number.isSafeInteger(read.minor)) return { ok: false, code: 'amount_too_large' };
  return { ok: true, minor: match[1] === '-' && read.minor !== 0 ? -read.minor : read.minor };
}

/** How a file writes its numbers: the decimal mark, and the mark grouping thousands (none, `,`, `.`, a space, an apostrophe). */
export interface NumberLayout {
  decimalMark: '.' | ',';
  grouping: 'none' | ',' | '.' | ' ' | "'";
}

/**
 * Reads an amount as a file with a known number layout writes it (a bank export read through an
 * import profile): an optional sign (`-`, `−` or `+`), the whole part grouped by the layout's mark
 * in threes (`1.234.567`), or not grouped at all, then the layout's decimal mark before at most the
 * currency's decimals, by `minorUnits`. A grouping of spaces accepts the no-break spaces too. Nothing
 * is guessed: a mark the layout does not name is refused, as are groups that are not threes.
 */
export function readLaidOutAmount(
  text: string,
  currency: string,
  layout: NumberLayout,
): { ok: true; minor: number } | { ok: false; code: 'amount_not_a_number' | 'amount_too_large' } | ({ ok: false } & TooManyDecimals) {
  const input = text.trim();
  const signed = /^([-\u2212+]?)\s*(.*)$/su.exec(input);
  const body = signed?.[2] ?? '';
  const at = body.lastIndexOf(layout.decimalMark);
  const whole = at === -1 ? body : body.slice(0, at);
  const fraction = at === -1 ? '' : body.slice(at + 1);
  if (!/^\d+$/.test(fraction) && at !== -1) return { ok: false, code: 'amount_not_a_number' };
  let digits = whole;
  if (layout.grouping !== 'none') {
    const groups = whole.split(layout.grouping === ' ' ? GROUP_SPACE : layout.grouping);
    if (groups.length > 1 && !validGroups(groups)) return { ok: false, code: 'amount_not_a_number' };
    digits = groups.join('');
  }
  if (!/^\d+$/.test(digits)) return { ok: false, code: 'amount_not_a_number' };
  const read = minorUnits(digits, fraction, currency, input);
  if (!read.ok) return read;
  if (!Number.isSafeInteger(read.minor)) return { ok: false, code: 'amount_too_large' };
  const negative = signed?.[1] === '-' || signed?.[1] === '\u2212';
  return { ok: true, minor: negative && read.minor !== 0 ? -read.minor : read.minor };
}

/**
 * Parses an amount written for operators (configuration): digits and a dot only, positive, as the
 * app always accepted there. A comma is refused rather than guessed.
 */
export function parsePlainAmount(text: string, currency: string): ParsedAmount {
  const input = text.trim();
  if (input === '') return fail({ code: 'amount_empty' });
  if (input.startsWith('-')) return fail({ code: 'amount_not_a_number' });
  const read = readPlainAmount(input, currency);
  return read.ok ? checked(read.minor) : read;
}

/**
 * An amount as the person would type it, which `parseAmount` reads back to the same minor units in
 * that language: `1500.50` in English, `1 500,50` in French. For the rare French amount that would
 * be ambiguous (`1,234` KWD) the decimals lose their trailing zeros, or the whole part gains a
 * leading zero (`01,234`), which cannot group thousands.
 */
export function typedAmount(minor: number, currency: string, locale: Locale): string {
  const plain = minorToPlain(minor, currency);
  if (locale === 'en') return plain;
  const [whole = '0', fraction] = plain.split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ' ');
  const candidates =
    fraction === undefined ? [grouped] : [`${grouped},${fraction}`, `${grouped},${fraction.replace(/0+$/, '')}`.replace(/,$/, ''), `0${grouped},${fraction}`];
  const readsBack = (typed: string) => {
    const parsed = parseAmount(typed, currency, locale);
    return parsed.ok && parsed.minor === minor;
  };
  return candidates.find(readsBack) ?? plain;
}

/**
 * A search's decimal as the person would type it, which `readDecimal` reads back to the same value:
 * `5000.5` in English, `5 000,5` in French (`1,2340` where `1,234` would read two ways).
 */
export function typedDecimal(decimal: string, locale: Locale): string {
  if (locale === 'en') return decimal;
  const [whole = '0', fraction] = decimal.split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ' ');
  const candidates = fraction === undefined ? [grouped] : [`${grouped},${fraction}`, `${grouped},${fraction}0`];
  return (
    candidates.find((typed) => {
      const read = readDecimal(typed, locale);
      return read.ok && read.value === decimal;
    }) ?? decimal
  );
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
  const digits = Math.abs(minor)
    .toString()
    .padStart(decimals + 1, '0');
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

const PLAIN_FORMATS: Record<Locale, { whole: Intl.NumberFormat; tenths: Intl.NumberFormat; compact: Intl.NumberFormat }> = {
  en: {
    whole: new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 }),
    tenths: new Intl.NumberFormat('en-US', { maximumFractionDigits: 1 }),
    compact: new Intl.NumberFormat('en-US', { notation: 'compact', maximumFractionDigits: 1 }),
  },
  fr: {
    whole: new Intl.NumberFormat('fr-FR', { maximumFractionDigits: 0 }),
    tenths: new Intl.NumberFormat('fr-FR', { maximumFractionDigits: 1 }),
    compact: new Intl.NumberFormat('fr-FR', { notation: 'compact', maximumFractionDigits: 1 }),
  },
};

/**
 * A number that is not an amount (a count, a ratio such as "4.5 times", an axis label), the reader's
 * way: `whole` `10,000` / `10 000`; `tenths` `4.5` / `4,5`; `compact` `12.5K` / `12,5 k`.
 */
export function formatNumber(value: number, locale: Locale, style: 'whole' | 'tenths' | 'compact' = 'whole'): string {
  return PLAIN_FORMATS[locale][style].format(value);
}

/**
 * Axis labels: each value compact, with as many significant digits as it takes to tell them apart
 * (`692.8M`, `692.9M`, `693.1M` rather than three times `693M`), the reader's way.
 */
export function formatDistinctCompact(values: readonly number[], locale: Locale): string[] {
  const tag = locale === 'fr' ? 'fr-FR' : 'en-US';
  let labels: string[] = [];
  for (let digits = 2; digits <= 8; digits += 1) {
    const format = new Intl.NumberFormat(tag, { notation: 'compact', maximumSignificantDigits: digits });
    labels = values.map((value) => format.format(value));
    if (new Set(labels).size === labels.length) break;
  }
  return labels;
}

export interface FormatOptions {
  /** Show `+` on credits as well as `−` on debits. */
  signed?: boolean;
  /**
   * Whose way of writing numbers: `en` `1,234.50`, `fr` `1 234,50`. Required, so that no surface can
   * forget its reader: the reader's language for a reply, DM or modal, CHANNEL_LOCALE for a channel.
   */
  locale: Locale;
}

/** `1234.5, "USD"` → `1,234.50 USD` (`1 234,50 USD` in French); with `signed`, `+1,234.50 USD` / `-1,234.50 USD`. */
export function formatAmount(amount: number, currency: string, options: FormatOptions): string {
  return formatMinor(toMinor(amount, currency), currency, options);
}

/** An exact, unsigned decimal string the reader's way (`5000.5` → `5,000.5` / `5 000,5`), without a float. */
export function formatDecimal(decimal: string, locale: Locale): string {
  const format = NUMBER_FORMATS[locale];
  const [whole = '0', fraction] = decimal.split('.');
  return format.whole.format(BigInt(whole)) + (fraction === undefined ? '' : format.decimalSeparator + fraction);
}

export function formatMinor(minor: number, currency: string, options: FormatOptions): string {
  const body = formatDecimal(minorToPlain(Math.abs(minor), currency), options.locale);
  const sign = minor < 0 ? '-' : options.signed && minor > 0 ? '+' : '';
  return `${sign}${body} ${currency}`;
}

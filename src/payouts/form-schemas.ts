/**
 * The checks of a payout form's fields, one zod schema per kind of value: each trims and normalises
 * what was typed, or records one problem as a code with its data (worded by the Slack layer). Shared
 * by the form's validation and each payout rail's own fields (`rails/`).
 */
import { z } from 'zod';
import { findHiddenCharacters } from '../core/hidden-text.js';
import type { Locale } from '../i18n/locale.js';
import { fromMinor, minorToPlain, parseAmount } from '../core/money.js';
import type { FieldProblem, PayoutFieldName } from './model.js';
import type { PayoutSettings } from './settings.js';

/** The form as Slack hands it over: a missing or cleared input may be `null` or `undefined`. */
export type PayoutFormFields = Partial<Record<PayoutFieldName, string | null | undefined>>;

export type PayoutValidationSettings = Pick<PayoutSettings, 'operators' | 'currencies' | 'maxAmount'>;

export const LIMITS = {
  phoneDigits: { min: 8, max: 15 },
  name: { min: 2, max: 100 },
  accountNumber: { min: 5, max: 34 },
  reference: { min: 4, max: 40 },
  note: { max: 500 },
} as const;

export const BIC_PATTERN = /^[A-Z]{6}[A-Z0-9]{2}([A-Z0-9]{3})?$/;
const REFERENCE_PATTERN = /^[A-Za-z0-9_-]{4,40}$/;

export const formText = z.union([z.string(), z.null(), z.undefined()]).transform((value) => (value ?? '').trim());

type Ctx = z.RefinementCtx;

/** Records a field's problem as a code with its data; the Slack layer words it in the reader's language. */
export function report(ctx: Ctx, problem: FieldProblem): typeof z.NEVER {
  ctx.addIssue({ code: 'custom', message: problem.code, params: { problem } });
  return z.NEVER;
}

/**
 * Text a person typed that approvers will read: refused when it holds a character that changes how
 * it reads (checked before trimming or collapsing spaces, which would hide some of them).
 */
function typedText(options: { lineBreaks?: boolean } = {}) {
  return z.union([z.string(), z.null(), z.undefined()]).transform((value, ctx) => {
    const hidden = findHiddenCharacters(value ?? '', options);
    if (hidden) return report(ctx, { code: 'hidden_characters', kind: hidden });
    return (value ?? '').trim();
  });
}

export const phoneSchema = formText.transform((typed, ctx) => {
  if (typed === '') return report(ctx, { code: 'required' });
  const value = typed.replace(/^\+/, '').replace(/[\s\-().]/g, '');
  if (/\p{L}/u.test(value)) return report(ctx, { code: 'phone_letters' });
  if (!/^\d*$/.test(value)) return report(ctx, { code: 'phone_characters' });
  const { min, max } = LIMITS.phoneDigits;
  if (value.length < min || value.length > max) return report(ctx, { code: 'phone_length', min, max });
  return value;
});

export const nameSchema = typedText().transform((typed, ctx) => {
  const value = typed.replace(/\s+/g, ' ');
  if (value === '') return report(ctx, { code: 'required' });
  const { min, max } = LIMITS.name;
  if (value.length < min || value.length > max) return report(ctx, { code: 'name_length', min, max });
  return value;
});

export const countryCodeSchema = formText.transform((typed, ctx) => {
  const value = typed.toUpperCase();
  return /^[A-Z]{2}$/.test(value) ? value : report(ctx, { code: 'country_code' });
});

export const accountNumberSchema = formText.transform((typed, ctx) => {
  const value = typed.replace(/\s+/g, '').toUpperCase();
  if (value === '') return report(ctx, { code: 'required' });
  if (!/^[A-Z0-9]*$/.test(value)) return report(ctx, { code: 'account_number_characters' });
  const { min, max } = LIMITS.accountNumber;
  if (value.length < min || value.length > max) return report(ctx, { code: 'account_number_length', min, max });
  return value;
});

export const bankCodeSchema = formText.transform((typed, ctx) => {
  const value = typed.replace(/\s+/g, '').toUpperCase();
  return BIC_PATTERN.test(value) ? value : report(ctx, { code: 'bank_code' });
});

export const noteSchema = typedText({ lineBreaks: true }).transform((value, ctx) =>
  value.length <= LIMITS.note.max ? value : report(ctx, { code: 'note_too_long', max: LIMITS.note.max }),
);

export function oneOf(allowed: readonly string[]) {
  return formText.transform((value, ctx) => {
    const match = allowed.find((option) => option.toUpperCase() === value.toUpperCase());
    return match ?? report(ctx, { code: 'not_offered', allowed });
  });
}

export function referenceSchema(generate: () => string) {
  return typedText().transform((value, ctx) => {
    if (value === '') return generate();
    if (!REFERENCE_PATTERN.test(value)) return report(ctx, { code: 'reference_format', min: LIMITS.reference.min, max: LIMITS.reference.max });
    return value;
  });
}

export function amountSchema(currency: string, maxMinor: number | undefined, locale: Locale) {
  return formText.transform((value, ctx) => {
    const parsed = parseAmount(value, currency, locale);
    if (!parsed.ok) {
      const { ok: _ok, ...problem } = parsed;
      return report(ctx, problem);
    }
    if (maxMinor === undefined) return report(ctx, { code: 'amount_no_maximum', currency });
    if (parsed.minor > maxMinor) return report(ctx, { code: 'amount_over_maximum', maxMinor, currency });
    if (!sentExactly(parsed.minor, currency)) return report(ctx, { code: 'amount_not_exact' });
    return parsed.minor;
  });
}

/**
 * The API takes the amount as a JSON number: beyond about 15 significant digits the number that
 * goes out is not the one typed (90071992547409.91 is sent as 90071992547409.9).
 */
function sentExactly(minor: number, currency: string): boolean {
  const plain = minorToPlain(minor, currency);
  const withoutTrailingZeros = plain.includes('.') ? plain.replace(/0+$/, '').replace(/\.$/, '') : plain;
  return JSON.stringify(fromMinor(minor, currency)) === withoutTrailingZeros;
}

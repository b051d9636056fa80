/**
 * Turns the raw strings of a payout form into a normalised `PayoutDraft`, or one problem per field
 * that is wrong (a code with its data, worded by the Slack layer in the reader's language). Pure: the caller supplies the settings, the time and (optionally) the reference generator.
 */
import { z } from 'zod';
import { findHiddenCharacters } from '../hidden-text.js';
import type { Locale } from '../i18n/locale.js';
import { fromMinor, minorToPlain, parseAmount } from '../money.js';
import { callingCodeOf } from './calling-codes.js';
import { generateReference } from './identifiers.js';
import {
  BANK_ACCOUNT_FIELDS, MOBILE_MONEY_FIELDS,
  type FieldErrors, type FieldProblem, type PayoutDraft, type PayoutFieldName, type PayoutKind,
} from './model.js';
import type { PayoutSettings } from './settings.js';

/** The form as Slack hands it over: a missing or cleared input may be `null` or `undefined`. */
export type PayoutFormFields = Partial<Record<PayoutFieldName, string | null | undefined>>;

export type PayoutValidationSettings = Pick<PayoutSettings, 'operators' | 'currencies' | 'maxAmount'>;

export interface ValidationContext {
  settings: PayoutValidationSettings;
  /** Dates a generated reference. */
  now: Date;
  /** Used when the reference is left empty; defaults to `PAY-YYYYMMDD-XXXXXX`. */
  newReference?: (now: Date) => string;
  /** How the person writes amounts (`1 500,50` in French); `en` when not given. */
  locale?: Locale;
}

export type PayoutValidation = { ok: true; draft: PayoutDraft } | { ok: false; errors: FieldErrors };

export const LIMITS = {
  phoneDigits: { min: 8, max: 15 },
  name: { min: 2, max: 100 },
  accountNumber: { min: 5, max: 34 },
  reference: { min: 4, max: 40 },
  note: { max: 500 },
} as const;

const BIC_PATTERN = /^[A-Z]{6}[A-Z0-9]{2}([A-Z0-9]{3})?$/;
const REFERENCE_PATTERN = /^[A-Za-z0-9_-]{4,40}$/;

const formText = z
  .union([z.string(), z.null(), z.undefined()])
  .transform((value) => (value ?? '').trim());

type Ctx = z.RefinementCtx;

/** Records a field's problem as a code with its data; the Slack layer words it in the reader's language. */
function report(ctx: Ctx, problem: FieldProblem): typeof z.NEVER {
  ctx.addIssue({ code: 'custom', message: problem.code, params: { problem } });
  return z.NEVER;
}

/**
 * Text a person typed that approvers will read: refused when it holds a character that changes how
 * it reads (checked before trimming or collapsing spaces, which would hide some of them).
 */
function typedText(options: { lineBreaks?: boolean } = {}) {
  return z
    .union([z.string(), z.null(), z.undefined()])
    .transform((value, ctx) => {
      const hidden = findHiddenCharacters(value ?? '', options);
      if (hidden) return report(ctx, { code: 'hidden_characters', kind: hidden });
      return (value ?? '').trim();
    });
}

const phoneSchema = formText.transform((typed, ctx) => {
  if (typed === '') return report(ctx, { code: 'required' });
  const value = typed.replace(/^\+/, '').replace(/[\s\-().]/g, '');
  if (/\p{L}/u.test(value)) return report(ctx, { code: 'phone_letters' });
  if (!/^\d*$/.test(value)) return report(ctx, { code: 'phone_characters' });
  const { min, max } = LIMITS.phoneDigits;
  if (value.length < min || value.length > max) return report(ctx, { code: 'phone_length', min, max });
  return value;
});

const nameSchema = typedText().transform((typed, ctx) => {
  const value = typed.replace(/\s+/g, ' ');
  if (value === '') return report(ctx, { code: 'required' });
  const { min, max } = LIMITS.name;
  if (value.length < min || value.length > max) return report(ctx, { code: 'name_length', min, max });
  return value;
});

const countryCodeSchema = formText.transform((typed, ctx) => {
  const value = typed.toUpperCase();
  return /^[A-Z]{2}$/.test(value) ? value : report(ctx, { code: 'country_code' });
});

const accountNumberSchema = formText.transform((typed, ctx) => {
  const value = typed.replace(/\s+/g, '').toUpperCase();
  if (value === '') return report(ctx, { code: 'required' });
  if (!/^[A-Z0-9]*$/.test(value)) return report(ctx, { code: 'account_number_characters' });
  const { min, max } = LIMITS.accountNumber;
  if (value.length < min || value.length > max) return report(ctx, { code: 'account_number_length', min, max });
  return value;
});

const bankCodeSchema = formText.transform((typed, ctx) => {
  const value = typed.replace(/\s+/g, '').toUpperCase();
  return BIC_PATTERN.test(value) ? value : report(ctx, { code: 'bank_code' });
});

const noteSchema = typedText({ lineBreaks: true }).transform((value, ctx) =>
  value.length <= LIMITS.note.max ? value : report(ctx, { code: 'note_too_long', max: LIMITS.note.max }));

function oneOf(allowed: readonly string[]) {
  return formText.transform((value, ctx) => {
    const match = allowed.find((option) => option.toUpperCase() === value.toUpperCase());
    return match ?? report(ctx, { code: 'not_offered', allowed });
  });
}

function referenceSchema(generate: () => string) {
  return typedText().transform((value, ctx) => {
    if (value === '') return generate();
    if (!REFERENCE_PATTERN.test(value)) return report(ctx, { code: 'reference_format', min: LIMITS.reference.min, max: LIMITS.reference.max });
    return value;
  });
}

function amountSchema(currency: string, maxMinor: number | undefined, locale: Locale) {
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

/** Validates one form. Every field is checked, so the person sees all problems at once. */
export function validatePayoutForm(kind: PayoutKind, fields: PayoutFormFields, context: ValidationContext): PayoutValidation {
  const { settings } = context;
  const errors: FieldErrors = {};
  const values: Partial<Record<PayoutFieldName, string | number>> = {};

  const check = <T extends string | number>(field: PayoutFieldName, schema: z.ZodType<T, unknown>): T | undefined => {
    const result = schema.safeParse(fields[field]);
    if (result.success) {
      values[field] = result.data;
      return result.data;
    }
    errors[field] = problemOf(result.error.issues[0]);
    return undefined;
  };

  const currency = check('currency', oneOf(settings.currencies));
  // With an unknown currency the amount is still checked for shape (decimals as for most currencies).
  const amountCurrency = currency ?? (fields.currency ?? '').trim().toUpperCase();
  const maxMinor = currency === undefined ? Number.MAX_SAFE_INTEGER : settings.maxAmount.get(currency);
  check('amount', amountSchema(amountCurrency, maxMinor, context.locale ?? 'en'));
  const newReference = context.newReference ?? generateReference;
  check('reference', referenceSchema(() => newReference(context.now)));
  check('note', noteSchema);
  check('name', nameSchema);
  const countryCode = check('countryCode', countryCodeSchema);
  if (kind === 'mobile_money') {
    const phone = check('phone', phoneSchema);
    check('operator', oneOf(settings.operators));
    const problem = countryCode === undefined ? undefined : walletCountryProblem(phone, countryCode);
    if (problem) errors[problem.field] = problem.problem;
  } else {
    check('accountNumber', accountNumberSchema);
    check('bankCode', bankCodeSchema);
  }

  if (Object.keys(errors).length > 0) return { ok: false, errors: orderErrors(kind, errors) };
  const text = (field: PayoutFieldName) => String(values[field]);
  const common = {
    amountMinor: Number(values.amount),
    currency: text('currency'),
    reference: text('reference'),
    note: text('note'),
    // Settlement trusts a description quoting a generated reference; see PayoutLifecycle.referenceGenerated.
    ...((fields.reference ?? '').trim() === '' ? { referenceGenerated: true } : {}),
  };
  const draft: PayoutDraft = kind === 'mobile_money'
    ? {
      kind,
      recipient: { phone: text('phone'), name: text('name'), countryCode: text('countryCode') },
      operator: text('operator'),
      ...common,
    }
    : {
      kind,
      recipient: { accountNumber: text('accountNumber'), bankCode: text('bankCode'), name: text('name'), countryCode: text('countryCode') },
      ...common,
    };
  return { ok: true, draft };
}

/**
 * A wallet number is its digits with its country's calling code (spec §2.3), so a number typed the
 * national way (`0812345678`) or with another country's code is refused under the phone. A country
 * without a known calling code cannot be checked, so a wallet there is refused under the country.
 */
function walletCountryProblem(phone: string | undefined, countryCode: string): { field: PayoutFieldName; problem: FieldProblem } | undefined {
  const prefix = callingCodeOf(countryCode);
  if (prefix === undefined) return { field: 'countryCode', problem: { code: 'country_no_calling_code', countryCode } };
  if (phone !== undefined && !phone.startsWith(prefix)) return { field: 'phone', problem: { code: 'phone_country_prefix', countryCode, prefix } };
  return undefined;
}

/** Checks a draft again (it may have travelled through Slack), returning the normalised copy. */
export function revalidateDraft(draft: PayoutDraft, context: ValidationContext): PayoutValidation {
  const result = validatePayoutForm(draft.kind, draftToFields(draft), context);
  if (draft.reference.trim() !== '') return result;
  // A draft's reference was fixed when the review screen showed it; a new one must not appear here.
  return { ok: false, errors: { ...(result.ok ? {} : result.errors), reference: { code: 'reference_missing' } } };
}

/** The form values for a draft: what "Back" puts into the inputs again. */
export function draftToFields(draft: PayoutDraft): PayoutFormFields {
  const common = {
    name: draft.recipient.name,
    countryCode: draft.recipient.countryCode,
    amount: minorToPlain(draft.amountMinor, draft.currency),
    currency: draft.currency,
    reference: draft.reference,
    note: draft.note,
  };
  return draft.kind === 'mobile_money'
    ? { phone: draft.recipient.phone, operator: draft.operator, ...common }
    : { accountNumber: draft.recipient.accountNumber, bankCode: draft.recipient.bankCode, ...common };
}

function problemOf(issue: z.core.$ZodIssue | undefined): FieldProblem {
  const problem = issue?.code === 'custom' ? (issue.params as { problem?: FieldProblem } | undefined)?.problem : undefined;
  return problem ?? { code: 'check_value' };
}

function orderErrors(kind: PayoutKind, errors: FieldErrors): FieldErrors {
  const ordered: FieldErrors = {};
  for (const field of kind === 'mobile_money' ? MOBILE_MONEY_FIELDS : BANK_ACCOUNT_FIELDS) {
    const message = errors[field];
    if (message !== undefined) ordered[field] = message;
  }
  return ordered;
}

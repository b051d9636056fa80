/**
 * Turns the raw strings of a payout form into a normalised `PayoutDraft`, or one message per field
 * that is wrong. Pure: the caller supplies the settings, the time and (optionally) the reference generator.
 */
import { z } from 'zod';
import { findHiddenCharacters, type HiddenCharacterKind } from '../hidden-text.js';
import { formatMinor, fromMinor, minorToPlain, parseAmount } from '../money.js';
import { generateReference } from './identifiers.js';
import {
  BANK_ACCOUNT_FIELDS, MOBILE_MONEY_FIELDS,
  type FieldErrors, type PayoutDraft, type PayoutRefusal, type PayoutFieldName, type PayoutKind,
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
}

export type PayoutValidation = { ok: true; draft: PayoutDraft } | { ok: false; errors: FieldErrors; refusal?: PayoutRefusal };

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

const HIDDEN_PROBLEMS: Record<HiddenCharacterKind, string> = {
  invisible: 'contains invisible characters (direction marks or zero-width spaces) that would make it read differently from what is sent: type it again without them.',
  control: 'contains control characters that cannot be sent: type it again without them.',
  broken: 'contains a broken character that cannot be sent: type it again.',
};

/**
 * Text a person typed that approvers will read: refused when it holds a character that changes how
 * it reads (checked before trimming or collapsing spaces, which would hide some of them).
 */
function typedText(what: string, options: { lineBreaks?: boolean } = {}) {
  return z
    .union([z.string(), z.null(), z.undefined()])
    .transform((value, ctx) => {
      const hidden = findHiddenCharacters(value ?? '', options);
      if (hidden) {
        ctx.addIssue({ code: 'custom', message: `The ${what} ${HIDDEN_PROBLEMS[hidden]}` });
        return z.NEVER;
      }
      return (value ?? '').trim();
    });
}

const phoneSchema = formText
  .refine((value) => value !== '', 'Enter the phone number with its country prefix, like 243812345678.')
  .transform((value) => value.replace(/^\+/, '').replace(/[\s\-().]/g, ''))
  .refine((value) => !/\p{L}/u.test(value), 'A phone number has digits only: remove the letters.')
  .refine((value) => /^\d*$/.test(value), 'A phone number has digits only, with an optional + in front.')
  .refine(
    (value) => value.length >= LIMITS.phoneDigits.min && value.length <= LIMITS.phoneDigits.max,
    `Enter ${LIMITS.phoneDigits.min} to ${LIMITS.phoneDigits.max} digits, country prefix included, like 243812345678.`,
  );

const nameSchema = typedText('name')
  .transform((value) => value.replace(/\s+/g, ' '))
  .refine((value) => value !== '', 'Enter the recipient\'s name.')
  .refine(
    (value) => value.length >= LIMITS.name.min && value.length <= LIMITS.name.max,
    `Enter a name of ${LIMITS.name.min} to ${LIMITS.name.max} characters.`,
  );

const countryCodeSchema = formText
  .transform((value) => value.toUpperCase())
  .refine((value) => /^[A-Z]{2}$/.test(value), 'Enter a two-letter country code, like CD.');

const accountNumberSchema = formText
  .transform((value) => value.replace(/\s+/g, '').toUpperCase())
  .refine((value) => value !== '', 'Enter the account number.')
  .refine((value) => /^[A-Z0-9]*$/.test(value), 'An account number has letters and digits only.')
  .refine(
    (value) => value.length >= LIMITS.accountNumber.min && value.length <= LIMITS.accountNumber.max,
    `Enter ${LIMITS.accountNumber.min} to ${LIMITS.accountNumber.max} letters or digits.`,
  );

const bankCodeSchema = formText
  .transform((value) => value.replace(/\s+/g, '').toUpperCase())
  .refine((value) => BIC_PATTERN.test(value), 'Enter the bank code as a BIC of 8 or 11 characters, like BCDCCDKI.');

const noteSchema = typedText('note', { lineBreaks: true }).refine(
  (value) => value.length <= LIMITS.note.max,
  `Keep the note to ${LIMITS.note.max} characters.`,
);

function oneOf(allowed: readonly string[], message: string) {
  return formText.transform((value, ctx) => {
    const match = allowed.find((option) => option.toUpperCase() === value.toUpperCase());
    if (match === undefined) {
      ctx.addIssue({ code: 'custom', message });
      return z.NEVER;
    }
    return match;
  });
}

function referenceSchema(generate: () => string) {
  return typedText('reference').transform((value, ctx) => {
    if (value === '') return generate();
    if (!REFERENCE_PATTERN.test(value)) {
      ctx.addIssue({
        code: 'custom',
        message: `Use ${LIMITS.reference.min} to ${LIMITS.reference.max} letters, digits, - or _ for the reference, or leave it empty.`,
      });
      return z.NEVER;
    }
    return value;
  });
}

function amountSchema(currency: string, maxMinor: number | undefined) {
  return formText.transform((value, ctx) => {
    const parsed = parseAmount(value, currency);
    if (!parsed.ok) {
      ctx.addIssue({ code: 'custom', message: parsed.reason });
      return z.NEVER;
    }
    if (maxMinor === undefined) {
      ctx.addIssue({ code: 'custom', message: `Payouts in ${currency} have no maximum set, so they cannot be sent.` });
      return z.NEVER;
    }
    if (parsed.minor > maxMinor) {
      ctx.addIssue({ code: 'custom', message: `One payout can send at most ${formatMinor(maxMinor, currency)}.` });
      return z.NEVER;
    }
    if (!sentExactly(parsed.minor, currency)) {
      ctx.addIssue({ code: 'custom', message: 'That amount has too many digits to be sent exactly.' });
      return z.NEVER;
    }
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
    errors[field] = result.error.issues[0]?.message ?? 'Check this value.';
    return undefined;
  };

  const currency = check('currency', oneOf(settings.currencies, `Choose one of ${settings.currencies.join(', ')}.`));
  // With an unknown currency the amount is still checked for shape (decimals as for most currencies).
  const amountCurrency = currency ?? (fields.currency ?? '').trim().toUpperCase();
  check('amount', amountSchema(amountCurrency, currency === undefined ? Number.MAX_SAFE_INTEGER : settings.maxAmount.get(currency)));
  const newReference = context.newReference ?? generateReference;
  check('reference', referenceSchema(() => newReference(context.now)));
  check('note', noteSchema);
  check('name', nameSchema);
  check('countryCode', countryCodeSchema);
  if (kind === 'mobile_money') {
    check('phone', phoneSchema);
    check('operator', oneOf(settings.operators, `Choose an operator: ${settings.operators.join(', ')}.`));
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

/** Checks a draft again (it may have travelled through Slack), returning the normalised copy. */
export function revalidateDraft(draft: PayoutDraft, context: ValidationContext): PayoutValidation {
  const result = validatePayoutForm(draft.kind, draftToFields(draft), context);
  if (draft.reference.trim() !== '') return result;
  // A draft's reference was fixed when the review screen showed it; a new one must not appear here.
  return { ok: false, errors: { ...(result.ok ? {} : result.errors), reference: 'The reference is missing: go back and submit the form again.' } };
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

function orderErrors(kind: PayoutKind, errors: FieldErrors): FieldErrors {
  const ordered: FieldErrors = {};
  for (const field of kind === 'mobile_money' ? MOBILE_MONEY_FIELDS : BANK_ACCOUNT_FIELDS) {
    const message = errors[field];
    if (message !== undefined) ordered[field] = message;
  }
  return ordered;
}

/**
 * Turns the raw strings of a payout form into a normalised `PayoutDraft`, or one problem per field
 * that is wrong (a code with its data, worded by the Slack layer in the reader's language). Pure: the caller supplies the settings, the time and (optionally) the reference generator.
 */
import type { z } from 'zod';
import type { Locale } from '../i18n/locale.js';
import { minorToPlain } from '../core/money.js';
import {
  amountSchema,
  countryCodeSchema,
  nameSchema,
  noteSchema,
  oneOf,
  referenceSchema,
  type PayoutFormFields,
  type PayoutValidationSettings,
} from './form-schemas.js';
import { generateReference } from './identifiers.js';
import type { FieldErrors, FieldProblem, PayoutDraft, PayoutFieldName, PayoutKind } from './model.js';
import { railOf } from './rails/index.js';

export type { PayoutFormFields, PayoutValidationSettings } from './form-schemas.js';
export { LIMITS } from './form-schemas.js';

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
  check(
    'reference',
    referenceSchema(() => newReference(context.now)),
  );
  check('note', noteSchema);
  check('name', nameSchema);
  const countryCode = check('countryCode', countryCodeSchema);
  const rail = railOf(kind);
  Object.assign(errors, rail.checkFields(check, settings, countryCode));

  if (Object.keys(errors).length > 0) return { ok: false, errors: orderErrors(kind, errors) };
  const text = (field: PayoutFieldName) => String(values[field]);
  const draft: PayoutDraft = rail.draft(text, {
    recipient: { name: text('name'), countryCode: text('countryCode') },
    amountMinor: Number(values.amount),
    currency: text('currency'),
    reference: text('reference'),
    note: text('note'),
    // Settlement trusts a description quoting a generated reference; see PayoutLifecycle.referenceGenerated.
    ...((fields.reference ?? '').trim() === '' ? { referenceGenerated: true } : {}),
  });
  return { ok: true, draft };
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
  return { ...railOf(draft.kind).formValues(draft), ...common };
}

function problemOf(issue: z.core.$ZodIssue | undefined): FieldProblem {
  const problem = issue?.code === 'custom' ? (issue.params as { problem?: FieldProblem } | undefined)?.problem : undefined;
  return problem ?? { code: 'check_value' };
}

function orderErrors(kind: PayoutKind, errors: FieldErrors): FieldErrors {
  const ordered: FieldErrors = {};
  for (const field of railOf(kind).formFields) {
    const message = errors[field];
    if (message !== undefined) ordered[field] = message;
  }
  return ordered;
}

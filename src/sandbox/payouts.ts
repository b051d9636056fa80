/** How the sandbox judges a payout request body: stricter than the spec says, so the app's validation is tested. */
import { z } from 'zod';
import type { PayoutKind } from '../fleet/schemas.js';
import { currencyDecimals } from '../core/money.js';

export type { PayoutKind };

export interface PayoutRules {
  currencies: string[];
  operators: string[];
}

export interface ValidPayout {
  kind: PayoutKind;
  amount: number;
  currency: string;
  reference: string;
  /** Who receives it, for the transaction description: a phone number or an account at a bank. */
  destination: string;
}

const text = (max: number) => z.string().trim().min(1, 'must not be empty').max(max, `must be at most ${max} characters`);
const countryCode = z.string().regex(/^[A-Z]{2}$/, 'must be a two-letter country code such as CD');

function payoutFields(rules: PayoutRules) {
  return {
    amount: z.number('must be a number').positive('must be more than zero'),
    currency: z.string().refine((value) => rules.currencies.includes(value), `must be one of ${rules.currencies.join(', ')}`),
    reference: text(64),
  };
}

/** How the sandbox judges each rail's body; keyed by the app's kinds, so a kind without its rule does not compile. */
const PAYOUT_RULES: Readonly<Record<PayoutKind, { label: string; schema: (rules: PayoutRules) => z.ZodType<RailBody> }>> = {
  mobile_money: {
    label: 'Mobile money payout',
    schema: (rules) =>
      z
        .object({
          recipient: z.object({
            phone: z.string().regex(/^\d{8,15}$/, 'must be 8 to 15 digits with the country prefix, no plus sign'),
            name: text(100),
            countryCode,
          }),
          ...payoutFields(rules),
          operator: z.string().refine((value) => rules.operators.includes(value), `must be one of ${rules.operators.join(', ')}`),
        })
        .transform((data) => ({ ...data, destination: data.recipient.phone })),
  },
  bank_account: {
    label: 'Bank payout',
    schema: (rules) =>
      z
        .object({
          recipient: z.object({
            accountNumber: z.string().regex(/^[A-Za-z0-9]{4,34}$/, 'must be 4 to 34 letters or digits'),
            bankCode: z.string().regex(/^[A-Z]{6}[A-Z0-9]{2}([A-Z0-9]{3})?$/, 'must be a bank identifier code such as RAWBCDKI'),
            name: text(100),
            countryCode,
          }),
          ...payoutFields(rules),
        })
        .transform((data) => ({ ...data, destination: `${data.recipient.bankCode} account ${data.recipient.accountNumber}` })),
  },
};

/** What the transaction list says a payout of this kind is (`Mobile money payout PAY-… to 243…`). */
export function payoutLabel(kind: PayoutKind): string {
  return PAYOUT_RULES[kind].label;
}

/** What every rail's checked body holds. */
interface RailBody {
  amount: number;
  currency: string;
  reference: string;
  destination: string;
}

function fieldPath(path: PropertyKey[]): string {
  return path.map(String).join('.') || 'body';
}

/** Validates a parsed JSON body; the message names every field that is wrong. */
export function validatePayout(kind: PayoutKind, body: unknown, rules: PayoutRules): { ok: true; payout: ValidPayout } | { ok: false; message: string } {
  const result = PAYOUT_RULES[kind].schema(rules).safeParse(body);
  if (!result.success) {
    const problems = result.error.issues.map((issue) => `${fieldPath(issue.path)} ${issue.message}`);
    return { ok: false, message: `Invalid payout request: ${problems.join('; ')}` };
  }
  const data = result.data;
  const decimals = currencyDecimals(data.currency);
  if (Number(data.amount.toFixed(decimals)) !== data.amount) {
    return { ok: false, message: `Invalid payout request: amount has more than ${decimals} decimals for ${data.currency}` };
  }
  return { ok: true, payout: { kind, amount: data.amount, currency: data.currency, reference: data.reference, destination: data.destination } };
}

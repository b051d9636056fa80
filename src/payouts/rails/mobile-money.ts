/** Mobile money: a wallet named by its phone number (with the country's calling code) at an operator. */
import { callingCodeOf } from '../calling-codes.js';
import { oneOf, phoneSchema } from '../form-schemas.js';
import type { FieldProblem, PayoutFieldName } from '../model.js';
import { z } from 'zod';
import { TRAVELLED_COMMON, travelledText, type PayoutRail } from './rail.js';

export const mobileMoneyRail: PayoutRail<'mobile_money'> = {
  kind: 'mobile_money',
  commandWords: ['mobile', 'momo', 'mobile_money', 'mobile-money'],
  bulkWords: ['mobile', 'mobile_money'],
  formFields: ['phone', 'name', 'countryCode', 'operator', 'amount', 'currency', 'reference', 'note'],
  destinationFields: ['phone', 'operator'],

  checkFields(check, settings, countryCode) {
    const phone = check('phone', phoneSchema);
    check('operator', oneOf(settings.operators));
    const problem = countryCode === undefined ? undefined : walletCountryProblem(phone, countryCode);
    return problem ? { [problem.field]: problem.problem } : {};
  },
  draft: (value, { recipient, ...common }) => ({
    kind: 'mobile_money',
    recipient: { phone: value('phone'), name: recipient.name, countryCode: recipient.countryCode },
    operator: value('operator'),
    ...common,
  }),
  formValues: (part) => ({ phone: part.recipient.phone, operator: part.operator }),
  prefill: (tokens) => ({ phone: tokens.join(' ') }),
  // Only after a phone written in one piece: `+243 812 345 678` is a phone in groups, not an amount.
  groupedAmountStart: (tokens) => (/^\+?\d{8,}$/.test(tokens[0] ?? '') ? 1 : undefined),
  bulkFields: (cells) => ({ phone: cells.number, operator: cells.provider }),
  bulkCells: (part) => ({ number: part.recipient.phone, provider: part.operator }),

  // A number is one person's wallet: another operator must neither split a total nor hide a repeat.
  recipientKey: (part) => `mobile:${part.recipient.phone}`,
  // The operator decides where the money lands: a known number with another operator was never paid.
  recipientIdentity: (part) => `mobile:${part.recipient.phone}:${part.operator}`,
  details: (part) => ({ kind: 'mobile_money', phone: part.recipient.phone, operator: part.operator }),
  recipientPart: (part) => ({ kind: 'mobile_money', recipient: part.recipient, operator: part.operator }),
  operatorOf: (part) => part.operator,
  offered: (part, settings) => settings.operators.includes(part.operator),

  columns: (part) => ({ phone: part.recipient.phone, operator: part.operator, account_number: null, bank_code: null }),
  fromColumns: (columns, { name, countryCode }) => ({
    kind: 'mobile_money',
    recipient: { phone: columns.phone ?? '', name, countryCode },
    operator: columns.operator ?? '',
  }),

  travelled: z.object({
    kind: z.literal('mobile_money'),
    recipient: z.object({ phone: travelledText(50), name: travelledText(300), countryCode: travelledText(10) }),
    operator: travelledText(100),
    ...TRAVELLED_COMMON,
  }),
  send: (fleet, draft, common) => fleet.payout('mobile_money', { recipient: { ...draft.recipient }, ...common, operator: draft.operator }),
};

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

/**
 * A payout form's field problems, which the domain gives as codes with data, worded in the reader's
 * language: amounts written the reader's way, each ambiguous amount with both readings, and the
 * thousands reading of an amount with too many decimals.
 */
import { textsFor, type Locale } from '../../i18n/index.js';
import { formatMinor, typedAmount } from '../../core/money.js';
import type { FieldProblem, PayoutFieldName } from '../../payouts/index.js';
import { plainWithin } from '../views/text.js';
import { describeTooManyDecimals } from './amount-problems.js';

/** An amount as typed, quoted in a problem: longer is not an amount anyone meant. */
const TYPED_MAX = 40;

/** The problem as plain text (modal field errors are not mrkdwn); `refused` words a policy refusal. */
export function describeFieldProblem(
  locale: Locale,
  field: PayoutFieldName,
  problem: FieldProblem,
  refused: (refusal: Extract<FieldProblem, { code: 'refused' }>['refusal']) => string,
): string {
  const t = textsFor(locale);
  const amount = (minor: number, currency: string) => formatMinor(minor, currency, { locale }).trim();
  switch (problem.code) {
    case 'amount_empty':
    case 'amount_not_a_number':
    case 'amount_not_positive':
    case 'amount_too_large':
    case 'amount_not_exact':
    case 'phone_letters':
    case 'phone_characters':
    case 'country_code':
    case 'account_number_characters':
    case 'bank_code':
    case 'reference_missing':
    case 'reference_used':
    case 'check_value':
      return t(`payoutRequest.problem.${problem.code}`);
    case 'reference_reserved': {
      const kept = problem.reservedFor;
      return kept.kind === 'series'
        ? t('payoutRequest.problem.reference_reserved.series', { number: kept.number, id: kept.requestId })
        : t('payoutRequest.problem.reference_reserved.bulk', { row: kept.row, id: kept.batchId });
    }
    case 'amount_too_many_decimals':
      return describeTooManyDecimals(locale, problem, (typed) => plainWithin(typed, TYPED_MAX));
    case 'amount_ambiguous':
      return t('payoutRequest.problem.amount_ambiguous', {
        thousands: amount(problem.thousands, problem.currency),
        decimal: amount(problem.decimal, problem.currency),
        thousandsTyped: typedAmount(problem.thousands, problem.currency, locale),
        decimalTyped: typedAmount(problem.decimal, problem.currency, locale),
      });
    case 'amount_no_maximum':
      return t('payoutRequest.problem.amount_no_maximum', { currency: problem.currency });
    case 'amount_over_maximum':
      return t('payoutRequest.problem.amount_over_maximum', { max: amount(problem.maxMinor, problem.currency) });
    case 'required':
      return field === 'phone' || field === 'name' || field === 'accountNumber'
        ? t(`payoutRequest.problem.required.${field}`)
        : t('payoutRequest.problem.required');
    case 'hidden_characters': {
      const what =
        field === 'name' || field === 'reference' || field === 'note'
          ? t(`payoutRequest.problem.hiddenIn.${field}`)
          : t('payoutRequest.problem.hiddenIn.other');
      return t(`payoutRequest.problem.hidden.${problem.kind}`, { what });
    }
    case 'phone_length':
    case 'name_length':
    case 'account_number_length':
    case 'reference_format':
      return t(`payoutRequest.problem.${problem.code}`, { min: problem.min, max: problem.max });
    case 'phone_country_prefix':
      return t('payoutRequest.problem.phone_country_prefix', { country: problem.countryCode, prefix: problem.prefix });
    case 'country_no_calling_code':
      return t('payoutRequest.problem.country_no_calling_code', { country: problem.countryCode });
    case 'note_too_long':
      return t('payoutRequest.problem.note_too_long', { max: problem.max });
    case 'not_offered': {
      const allowed = problem.allowed.join(', ');
      return field === 'currency' || field === 'operator'
        ? t(`payoutRequest.problem.not_offered.${field}`, { allowed })
        : t('payoutRequest.problem.not_offered', { allowed });
    }
    case 'refused':
      return refused(problem.refusal);
  }
}

/** The name of a field in a line such as `Amount: …` above the form. */
export function fieldName(locale: Locale, field: PayoutFieldName): string {
  return textsFor(locale)(`payoutRequest.fieldName.${field}`);
}

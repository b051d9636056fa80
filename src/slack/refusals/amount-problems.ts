/**
 * The one rule for decimals (`minorUnits` in money.ts) in words, for every surface that reads an
 * amount: the currency's decimals, and the thousands reading when the amount may be one (`75.000`).
 */
import { textsFor, type Locale } from '../../i18n/index.js';
import { formatDecimal, minorToPlain, type TooManyDecimals } from '../../core/money.js';

/** What was written is ours to show only once `quote` has neutralised and cut it. */
export function describeTooManyDecimals(locale: Locale, problem: TooManyDecimals, quote: (typed: string) => string): string {
  const t = textsFor(locale);
  const { currency, decimals, thousands } = problem;
  if (thousands === undefined) {
    return decimals === 0 ? t('amount.noDecimals', { currency }) : t('amount.tooManyDecimals', { currency, count: decimals });
  }
  // The thousands reading has no decimals: `75,000`, not `75,000.00`.
  const reading = formatDecimal(minorToPlain(thousands, currency).replace(/\.0*$/, ''), locale);
  const typed = quote(problem.typed);
  return decimals === 0
    ? t('amount.thousandsNoDecimals', { typed, currency, thousands: reading })
    : t('amount.thousands', { typed, currency, thousands: reading, count: decimals });
}

/**
 * The readers of single environment variables that the configuration's schema is built from: text,
 * whole numbers, flags, channel IDs, access lists, currency lists and amounts, time zones, times of
 * day and languages. Each reports what it expects, never the value it was given.
 */
import { z } from 'zod';
import { parseWallTime, type WallTime } from '../core/calendar.js';
import { LOCALES, isLocale, type Locale } from '../i18n/locale.js';
import { parsePlainAmount, type CurrencyAmounts } from '../core/money.js';

/** Who may do something: everyone, or listed users and members of listed user groups. */
export interface AccessList {
  everyone: boolean;
  users: ReadonlySet<string>;
  groups: ReadonlySet<string>;
}
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

export const optionalText = z
  .string()
  .optional()
  .transform((value) => (value === undefined || value.trim() === '' ? undefined : value.trim()));

export const url = (what: string) =>
  z
    .string()
    .trim()
    .refine((value) => /^https?:\/\/[^\s]+$/.test(value), `expected ${what}`);

export const integer = (min: number, max: number, fallback: number) =>
  optionalText.transform((value, ctx) => {
    if (value === undefined) return fallback;
    const parsed = Number(value);
    if (!Number.isInteger(parsed) || parsed < min || parsed > max) {
      ctx.addIssue({ code: 'custom', message: `expected a whole number from ${min} to ${max}` });
      return z.NEVER;
    }
    return parsed;
  });

export const channelId = optionalText.refine(
  (value) => value === undefined || /^[CGD][A-Z0-9]{2,}$/.test(value),
  'expected a Slack channel ID such as C0123456789',
);

export const accessList = optionalText.transform((value, ctx): AccessList => {
  const users = new Set<string>();
  const groups = new Set<string>();
  let everyone = false;
  for (const entry of (value ?? '')
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)) {
    if (entry === '*') everyone = true;
    else if (/^[UW][A-Z0-9]{2,}$/.test(entry)) users.add(entry);
    else if (/^S[A-Z0-9]{2,}$/.test(entry)) groups.add(entry);
    else {
      ctx.addIssue({
        code: 'custom',
        message: 'expected a comma list of Slack user IDs (U…, W…), user-group IDs (S…) or *; one entry is neither',
      });
      return z.NEVER;
    }
  }
  return { everyone, users, groups };
});

/**
 * Each default payout currency with its maximum, daily limit and dual-approval threshold, in one
 * table so that the defaults of PAYOUT_CURRENCIES and of the three amounts always cover each other.
 */
export const PAYOUT_DEFAULTS = {
  USD: { max: '50000', daily: '100000', dual: '1000' },
  EUR: { max: '50000', daily: '100000', dual: '1000' },
  CDF: { max: '100000000', daily: '250000000', dual: '2500000' },
} as const;
export const defaultAmounts = (pick: (amounts: (typeof PAYOUT_DEFAULTS)[keyof typeof PAYOUT_DEFAULTS]) => string) =>
  Object.entries(PAYOUT_DEFAULTS)
    .map(([currency, amounts]) => `${currency}:${pick(amounts)}`)
    .join(',');

/** Every payout currency needs all three, or a payout in it could go out unchecked. */
export const PER_CURRENCY_PAYOUT_SETTINGS = ['PAYOUT_MAX_AMOUNT', 'PAYOUT_DAILY_LIMIT', 'PAYOUT_DUAL_APPROVAL_ABOVE'] as const;

export const currencyList = (fallback: string[]) =>
  optionalText.transform((value, ctx) => {
    if (value === undefined) return fallback;
    const codes = value
      .split(',')
      .map((part) => part.trim().toUpperCase())
      .filter(Boolean);
    if (codes.length === 0 || codes.some((code) => !/^[A-Z]{3}$/.test(code))) {
      ctx.addIssue({ code: 'custom', message: 'expected a comma list of three-letter currency codes, like USD,EUR,CDF' });
      return z.NEVER;
    }
    return [...new Set(codes)];
  });

export const codeList = (fallback: string[]) =>
  optionalText.transform((value, ctx) => {
    if (value === undefined) return fallback;
    const codes = value
      .split(',')
      .map((part) => part.trim())
      .filter(Boolean);
    if (codes.length === 0 || codes.some((code) => !/^[A-Za-z0-9_-]{1,40}$/.test(code))) {
      ctx.addIssue({ code: 'custom', message: 'expected a comma list of codes (letters, digits, _ or -), like VODACOM_MPESA,ORANGE_MONEY' });
      return z.NEVER;
    }
    return [...new Set(codes)];
  });

export const currencyAmounts = (fallback: string) =>
  optionalText.transform((value, ctx): CurrencyAmounts => {
    const amounts = new Map<string, number>();
    for (const entry of (value ?? fallback)
      .split(',')
      .map((part) => part.trim())
      .filter(Boolean)) {
      const match = /^([A-Za-z]{3}):(.+)$/.exec(entry);
      const currency = match?.[1]?.toUpperCase() ?? '';
      const parsed = match ? parsePlainAmount(match[2] ?? '', currency) : undefined;
      if (!parsed?.ok) {
        ctx.addIssue({
          code: 'custom',
          message: 'expected CURRENCY:AMOUNT pairs separated by commas, like USD:1000,EUR:1000 (amounts with a dot, positive)',
        });
        return z.NEVER;
      }
      amounts.set(currency, parsed.minor);
    }
    return amounts;
  });

export const payoutAmountsSchema = z.object({
  PAYOUT_CURRENCIES: currencyList(Object.keys(PAYOUT_DEFAULTS)),
  PAYOUT_MAX_AMOUNT: currencyAmounts(defaultAmounts((amounts) => amounts.max)),
  PAYOUT_DAILY_LIMIT: currencyAmounts(defaultAmounts((amounts) => amounts.daily)),
  PAYOUT_DUAL_APPROVAL_ABOVE: currencyAmounts(defaultAmounts((amounts) => amounts.dual)),
});

export const flag = (fallback: boolean) =>
  optionalText.transform((value, ctx) => {
    if (value === undefined) return fallback;
    const word = value.toLowerCase();
    if (['true', '1', 'yes', 'on'].includes(word)) return true;
    if (['false', '0', 'no', 'off'].includes(word)) return false;
    ctx.addIssue({ code: 'custom', message: 'expected true or false' });
    return z.NEVER;
  });

export const timeZone = optionalText.transform((value, ctx) => readTimeZone(value ?? 'UTC', ctx));

/** A zone that follows another variable when unset (LEDGER_TIMEZONE and DIGEST_TIMEZONE follow TEAM_TIMEZONE). */
export const optionalTimeZone = optionalText.transform((value, ctx) => (value === undefined ? undefined : readTimeZone(value, ctx)));

function readTimeZone(value: string, ctx: z.RefinementCtx): string {
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: value }).resolvedOptions().timeZone;
  } catch {
    ctx.addIssue({ code: 'custom', message: 'expected an IANA time zone name such as UTC or Africa/Kinshasa' });
    return z.NEVER;
  }
}

export const timeOfDay = (fallback: WallTime) =>
  optionalText.transform((value, ctx): WallTime => {
    if (value === undefined) return fallback;
    const parsed = parseWallTime(value);
    if (!parsed) {
      ctx.addIssue({ code: 'custom', message: 'expected a time of day as HH:MM on a 24-hour clock, such as 08:00' });
      return z.NEVER;
    }
    return parsed;
  });

/** A language the app speaks, or undefined when unset (CHANNEL_LOCALE then follows DEFAULT_LOCALE). */
export const locale = optionalText.transform((value, ctx): Locale | undefined => {
  if (value === undefined) return undefined;
  const word = value.toLowerCase();
  if (isLocale(word)) return word;
  ctx.addIssue({ code: 'custom', message: `expected one of ${LOCALES.join(', ')}` });
  return z.NEVER;
});

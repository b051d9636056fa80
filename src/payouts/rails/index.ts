/**
 * The payout rails, keyed by kind: every decision that depends on how a payout reaches its
 * recipient asks the rail of its kind. A kind of `PayoutKind` without a rail here does not compile.
 */
import { z } from 'zod';
import { PAYOUT_KINDS, type PayoutDraft, type PayoutKind } from '../model.js';
import { bankAccountRail } from './bank-account.js';
import { mobileMoneyRail } from './mobile-money.js';
import type { PayoutRail } from './rail.js';

export type { BulkCells, DraftOf, PayoutRail, RecipientColumns, RecipientDetails, RecipientPart } from './rail.js';
export { assertNever } from './exhaustive.js';
export { headOfficeBic } from './bank-account.js';

export type PayoutRails = { readonly [K in PayoutKind]: PayoutRail<K> };

export const PAYOUT_RAILS: PayoutRails = {
  mobile_money: mobileMoneyRail,
  bank_account: bankAccountRail,
};

/** The rail of a kind; given a draft's `kind`, its methods take that draft. */
export function railOf<K extends PayoutKind>(kind: K): PayoutRail<K> {
  return PAYOUT_RAILS[kind];
}

/** The rail a stored kind names; a kind the tables' check lets through always has one. */
export function storedRail(kind: string): PayoutRail<PayoutKind> {
  if (!Object.hasOwn(PAYOUT_RAILS, kind)) throw new Error(`No payout rail for the stored kind ${JSON.stringify(kind)}`);
  return railOf(kind as PayoutKind);
}

/** The kind a word names (`mobile`, `bank`, …) among each rail's `words`, in any case. */
export function kindNamed(word: string, words: (rail: PayoutRail<PayoutKind>) => readonly string[]): PayoutKind | undefined {
  const lower = word.toLowerCase();
  return PAYOUT_KINDS.find((kind) => words(railOf(kind)).includes(lower));
}

/** A draft that travelled through Slack, read back in the shape of its kind's rail (unknown keys dropped), or refused. */
export const travelledDraftSchema: z.ZodType<PayoutDraft, unknown> = z.unknown().transform((value, ctx) => {
  const kind = typeof value === 'object' && value !== null ? (value as { kind?: unknown }).kind : undefined;
  const parsed = typeof kind === 'string' && Object.hasOwn(PAYOUT_RAILS, kind) ? railOf(kind as PayoutKind).travelled.safeParse(value) : undefined;
  if (!parsed?.success) {
    ctx.addIssue({ code: 'custom', message: 'not a payout draft' });
    return z.NEVER;
  }
  return parsed.data;
});

/**
 * Reads the optional values after `/fleet payout mobile|bank` into form fields. Nothing here is
 * validated: the values only prefill the modal, whose submission goes through `validatePayoutForm`.
 */
import type { PayoutFormFields } from './validation.js';
import type { PayoutKind } from './model.js';
import { kindNamed, railOf } from './rails/index.js';

/** The payout kind a word after `/fleet payout` names (`mobile`, `momo`, `bank`, `banque`, …), in any case. */
export function payoutKindFromWord(word: string | undefined): PayoutKind | undefined {
  return kindNamed(word ?? '', (rail) => rail.commandWords);
}

/**
 * Mobile money: `<phone> [amount] [currency]`, e.g. `243812345678 150 USD`; the phone may contain
 * spaces (`+243 812 345 678 150 USD`). Bank: `<account> <BIC> [amount] [currency]`. The words
 * `payout` and the kind itself are skipped when the caller passes the whole command text. An
 * amount grouped by spaces (`1 500,50`, as French writes it) is read whole when what comes before
 * it is unambiguous: a phone written in one piece, or an account and a BIC.
 */
export function parseCommandPrefill(kind: PayoutKind, text: string): PayoutFormFields {
  const tokens = text.trim().split(/\s+/).filter(Boolean);
  while (tokens.length > 0 && (tokens[0]?.toLowerCase() === 'payout' || payoutKindFromWord(tokens[0]))) tokens.shift();

  const fields: PayoutFormFields = {};
  const last = tokens.at(-1);
  if (last !== undefined && /^[A-Za-z]{3}$/.test(last) && tokens.length > 1) {
    fields.currency = last.toUpperCase();
    tokens.pop();
  }
  const grouped = groupedAmountAfter(kind, tokens);
  if (grouped !== undefined) {
    fields.amount = tokens.splice(grouped).join(' ');
  }
  const amount = grouped === undefined ? tokens.at(-1) : undefined;
  // An amount is digits with dots or commas; a bare long digit run is more likely part of the phone.
  if (amount !== undefined && tokens.length > 1 && /^\d[\d.,]*$/.test(amount) && amount.replace(/\D/g, '').length < 8) {
    fields.amount = amount;
    tokens.pop();
  }
  if (tokens.length === 0) return fields;

  return { ...fields, ...railOf(kind).prefill(tokens) };
}

// Thousands grouped by spaces, with an optional decimal part: `1 500`, `12 500 000,25`.
const GROUPED_AMOUNT = /^\d{1,3}( \d{3})+([.,]\d+)?$/;

/**
 * Where a space-grouped amount starts in `tokens`, or undefined. Only after a one-piece phone of at
 * least 8 digits, or after an account and a BIC (which has letters): `+243 812 345 678` is a phone
 * written in groups, not an amount.
 */
function groupedAmountAfter(kind: PayoutKind, tokens: string[]): number | undefined {
  const head = railOf(kind).groupedAmountStart(tokens);
  if (head === undefined || tokens.length < head + 2) return undefined;
  return GROUPED_AMOUNT.test(tokens.slice(head).join(' ')) ? head : undefined;
}

/**
 * Reads the optional values after `/fleet payout mobile|bank` into form fields. Nothing here is
 * validated: the values only prefill the modal, whose submission goes through `validatePayoutForm`.
 */
import type { PayoutFormFields } from './validation.js';
import type { PayoutKind } from './model.js';

// A Map, not an object: `/fleet payout constructor` must not find Object.prototype's members.
const KIND_BY_WORD = new Map<string, PayoutKind>([
  ['mobile', 'mobile_money'], ['momo', 'mobile_money'], ['mobile_money', 'mobile_money'], ['mobile-money', 'mobile_money'],
  ['bank', 'bank_account'], ['bank_account', 'bank_account'], ['bank-account', 'bank_account'],
  // French readers: `/fleet paiement banque …`.
  ['banque', 'bank_account'], ['bancaire', 'bank_account'],
]);

/** The payout kind a word after `/fleet payout` names (`mobile`, `momo`, `bank`, `banque`, …), in any case. */
export function payoutKindFromWord(word: string | undefined): PayoutKind | undefined {
  return KIND_BY_WORD.get((word ?? '').toLowerCase());
}

/**
 * Mobile money: `<phone> [amount] [currency]`, e.g. `243812345678 150 USD`; the phone may contain
 * spaces (`+243 812 345 678 150 USD`). Bank: `<account> <BIC> [amount] [currency]`. The words
 * `payout` and the kind itself are skipped when the caller passes the whole command text.
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
  const amount = tokens.at(-1);
  // An amount is digits with dots or commas; a bare long digit run is more likely part of the phone.
  if (amount !== undefined && tokens.length > 1 && /^\d[\d.,]*$/.test(amount) && amount.replace(/\D/g, '').length < 8) {
    fields.amount = amount;
    tokens.pop();
  }
  if (tokens.length === 0) return fields;

  if (kind === 'mobile_money') {
    fields.phone = tokens.join(' ');
  } else if (tokens.length === 1) {
    fields.accountNumber = tokens[0];
  } else {
    fields.bankCode = tokens.pop();
    fields.accountNumber = tokens.join(' ');
  }
  return fields;
}

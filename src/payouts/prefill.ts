/**
 * Reads the optional values after `/fleet payout mobile|bank` into form fields. Nothing here is
 * validated: the values only prefill the modal, whose submission goes through `validatePayoutForm`.
 */
import type { PayoutFormFields } from './validation.js';
import type { PayoutKind } from './model.js';

const KIND_WORDS = new Set(['payout', 'mobile', 'mobile_money', 'mobile-money', 'momo', 'bank', 'bank_account', 'bank-account']);

/**
 * Mobile money: `<phone> [amount] [currency]`, e.g. `243812345678 150 USD`; the phone may contain
 * spaces (`+243 812 345 678 150 USD`). Bank: `<account> <BIC> [amount] [currency]`. The words
 * `payout` and the kind itself are skipped when the caller passes the whole command text.
 */
export function parseCommandPrefill(kind: PayoutKind, text: string): PayoutFormFields {
  const tokens = text.trim().split(/\s+/).filter(Boolean);
  while (tokens.length > 0 && KIND_WORDS.has((tokens[0] ?? '').toLowerCase())) tokens.shift();

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

/** Bank account: an account number at a bank named by its BIC. */
import { accountNumberSchema, bankCodeSchema } from '../form-schemas.js';
import type { BankAccountRecipient } from '../model.js';
import { z } from 'zod';
import { TRAVELLED_COMMON, travelledText, type PayoutRail } from './rail.js';

/**
 * A bank account: its BIC and its account number as validated (no spaces, upper case). An 8-character
 * BIC names the bank's head office, the same as that BIC with `XXX`; any other branch code is another
 * BIC. Leading zeros are part of the account number (`0012345678` and `12345678` are two accounts).
 * Migration 014 computes the same text in SQL (`bankAccountKeySql`); keep the two equal.
 */
function bankAccountKey(recipient: Pick<BankAccountRecipient, 'accountNumber' | 'bankCode'>): string {
  return `bank:${headOfficeBic(recipient.bankCode)}:${recipient.accountNumber}`;
}

/** An 8-letter BIC and the same with `XXX` are one bank: its head office. */
export function headOfficeBic(bankCode: string): string {
  return bankCode.length === 11 && bankCode.endsWith('XXX') ? bankCode.slice(0, 8) : bankCode;
}

export const bankAccountRail: PayoutRail<'bank_account'> = {
  kind: 'bank_account',
  commandWords: ['bank', 'bank_account', 'bank-account', 'banque', 'bancaire'],
  bulkWords: ['bank', 'bank_account'],
  formFields: ['accountNumber', 'bankCode', 'name', 'countryCode', 'amount', 'currency', 'reference', 'note'],
  destinationFields: ['accountNumber', 'bankCode'],

  checkFields(check) {
    check('accountNumber', accountNumberSchema);
    check('bankCode', bankCodeSchema);
    return {};
  },
  draft: (value, { recipient, ...common }) => ({
    kind: 'bank_account',
    recipient: { accountNumber: value('accountNumber'), bankCode: value('bankCode'), name: recipient.name, countryCode: recipient.countryCode },
    ...common,
  }),
  formValues: (part) => ({ accountNumber: part.recipient.accountNumber, bankCode: part.recipient.bankCode }),
  // `<account> <BIC>`; one word is the account alone.
  prefill: (tokens) => (tokens.length === 1 ? { accountNumber: tokens[0] } : { bankCode: tokens.at(-1), accountNumber: tokens.slice(0, -1).join(' ') }),
  // Only after an account and a BIC, which has letters.
  groupedAmountStart: (tokens) => (/[A-Za-z]/.test(tokens[1] ?? '') ? 2 : undefined),
  bulkFields: (cells) => ({ accountNumber: cells.number, bankCode: cells.provider }),
  bulkCells: (part) => ({ number: part.recipient.accountNumber, provider: part.recipient.bankCode }),

  recipientKey: (part) => bankAccountKey(part.recipient),
  recipientIdentity: (part) => bankAccountKey(part.recipient),
  details: (part) => ({ kind: 'bank_account', accountNumber: part.recipient.accountNumber, bankCode: part.recipient.bankCode }),
  recipientPart: (part) => ({ kind: 'bank_account', recipient: part.recipient }),
  operatorOf: () => null,
  offered: () => true,

  columns: (part) => ({ phone: null, operator: null, account_number: part.recipient.accountNumber, bank_code: part.recipient.bankCode }),
  fromColumns: (columns, { name, countryCode }) => ({
    kind: 'bank_account',
    recipient: { accountNumber: columns.account_number ?? '', bankCode: columns.bank_code ?? '', name, countryCode },
  }),

  travelled: z.object({
    kind: z.literal('bank_account'),
    recipient: z.object({ accountNumber: travelledText(100), bankCode: travelledText(30), name: travelledText(300), countryCode: travelledText(10) }),
    ...TRAVELLED_COMMON,
  }),
  send: (fleet, draft, common) => fleet.payout('bank_account', { recipient: { ...draft.recipient }, ...common }),
};

/** Texts of the one rule for decimals (`minorUnits` in money.ts), shared by every surface that reads an amount: the form, a bulk or records file, a Workflow step. */
import { defineMessages } from '../define.js';

export const amountTexts = defineMessages({
  en: {
    'amount.tooManyDecimals': {
      one: '{currency} has {count} decimal at most.',
      other: '{currency} has {count} decimals at most.',
    },
    'amount.noDecimals': '{currency} has no decimals: enter a whole amount.',
    'amount.thousands': {
      one: '{typed} {currency}: {thousands}? {currency} has {count} decimal.',
      other: '{typed} {currency}: {thousands}? {currency} has {count} decimals.',
    },
    'amount.thousandsNoDecimals': '{typed} {currency}: {thousands}? {currency} has no decimals.',
  },
  fr: {
    'amount.tooManyDecimals': {
      one: 'Les montants en {currency} ont au plus {count} décimale.',
      other: 'Les montants en {currency} ont au plus {count} décimales.',
    },
    'amount.noDecimals': 'Les montants en {currency} n’ont pas de décimales : saisissez un montant entier.',
    'amount.thousands': {
      one: '{typed} {currency} : {thousands} ? Les montants en {currency} ont {count} décimale.',
      other: '{typed} {currency} : {thousands} ? Les montants en {currency} ont {count} décimales.',
    },
    'amount.thousandsNoDecimals': '{typed} {currency} : {thousands} ? Les montants en {currency} n’ont pas de décimales.',
  },
});

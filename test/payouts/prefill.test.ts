import { describe, expect, it } from 'vitest';
import { parseCommandPrefill, payoutKindFromWord } from '../../src/payouts/prefill.js';

describe('parseCommandPrefill', () => {
  it('reads phone, amount and currency for mobile money', () => {
    expect(parseCommandPrefill('mobile_money', '243812345678 150 USD')).toEqual({ phone: '243812345678', amount: '150', currency: 'USD' });
  });

  it('skips the command words when given the whole text', () => {
    expect(parseCommandPrefill('mobile_money', 'payout mobile 243812345678 150.50 usd')).toEqual({
      phone: '243812345678',
      amount: '150.50',
      currency: 'USD',
    });
  });

  it('keeps a phone written with spaces together', () => {
    expect(parseCommandPrefill('mobile_money', '+243 812 345 678 150 USD')).toEqual({ phone: '+243 812 345 678', amount: '150', currency: 'USD' });
  });

  it('reads account, BIC, amount and currency for a bank payout', () => {
    expect(parseCommandPrefill('bank_account', 'bank 000123456789 BCDCCDKI 2500 EUR')).toEqual({
      accountNumber: '000123456789',
      bankCode: 'BCDCCDKI',
      amount: '2500',
      currency: 'EUR',
    });
  });

  it('prefills only what was given', () => {
    expect(parseCommandPrefill('mobile_money', '')).toEqual({});
    expect(parseCommandPrefill('mobile_money', '243812345678')).toEqual({ phone: '243812345678' });
    expect(parseCommandPrefill('bank_account', '000123456789')).toEqual({ accountNumber: '000123456789' });
  });

  it('reads an amount grouped by spaces after a phone written in one piece', () => {
    expect(parseCommandPrefill('mobile_money', '243812345678 1 500,50 CDF')).toEqual({ phone: '243812345678', amount: '1 500,50', currency: 'CDF' });
    expect(parseCommandPrefill('mobile_money', '+243812345678 12 500 000 CDF')).toEqual({ phone: '+243812345678', amount: '12 500 000', currency: 'CDF' });
  });

  it('reads an amount grouped by spaces after the BIC of a bank payout', () => {
    expect(parseCommandPrefill('bank_account', '000123456789 BCDCCDKI 1 500 000,25 CDF')).toEqual({
      accountNumber: '000123456789',
      bankCode: 'BCDCCDKI',
      amount: '1 500 000,25',
      currency: 'CDF',
    });
  });

  it('passes an ambiguous amount through so that the form can explain the problem', () => {
    expect(parseCommandPrefill('mobile_money', '243812345678 1,5 USD')).toEqual({ phone: '243812345678', amount: '1,5', currency: 'USD' });
  });
});

describe('payoutKindFromWord', () => {
  it('reads the words for each kind in any case', () => {
    expect(['mobile', 'MoMo', 'mobile_money', 'mobile-money'].map(payoutKindFromWord)).toEqual(Array(4).fill('mobile_money'));
    expect(['bank', 'BANK_ACCOUNT', 'bank-account'].map(payoutKindFromWord)).toEqual(Array(3).fill('bank_account'));
  });

  it('reads the French word for a bank payout, and skips it before the account', () => {
    expect(['banque', 'Bancaire'].map(payoutKindFromWord)).toEqual(['bank_account', 'bank_account']);
    expect(parseCommandPrefill('bank_account', 'banque 00012345678901 BCDCCDKI 750,50 EUR')).toEqual({
      accountNumber: '00012345678901',
      bankCode: 'BCDCCDKI',
      amount: '750,50',
      currency: 'EUR',
    });
  });

  it('names no kind for other words, nor for names of built-in object properties', () => {
    for (const word of [undefined, '', 'payout', 'cash', 'constructor', '__proto__', 'toString']) {
      expect(payoutKindFromWord(word)).toBeUndefined();
    }
  });
});

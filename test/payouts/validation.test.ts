import { describe, expect, it } from 'vitest';
import { PAYOUT_RAILS } from '../../src/payouts/rails/index.js';
import { draftToFields, revalidateDraft, validatePayoutForm, type PayoutFormFields, type ValidationContext } from '../../src/payouts/validation.js';

const context: ValidationContext = {
  settings: {
    operators: ['VODACOM_MPESA', 'ORANGE_MONEY'],
    currencies: ['USD', 'EUR', 'CDF', 'XAF'],
    maxAmount: new Map([
      ['USD', 5_000_000],
      ['EUR', 5_000_000],
      ['CDF', 10_000_000_000],
      ['XAF', 1_000_000],
    ]),
  },
  now: new Date('2025-03-14T23:30:00Z'),
};

const mobile: PayoutFormFields = {
  phone: '243812345678',
  name: 'Amani Kabila',
  countryCode: 'cd',
  operator: 'VODACOM_MPESA',
  amount: '150',
  currency: 'USD',
  reference: '',
  note: 'March stipend',
};
const bank: PayoutFormFields = {
  accountNumber: '0001 2345 6789',
  bankCode: 'bcdccdki',
  name: 'Ndaya Logistics SARL',
  countryCode: 'CD',
  amount: '2500.50',
  currency: 'EUR',
  reference: 'INV-2025-031',
  note: '',
};

function errorsFor(kind: 'mobile_money' | 'bank_account', fields: PayoutFormFields) {
  const result = validatePayoutForm(kind, fields, context);
  if (result.ok) throw new Error('expected validation errors');
  return result.errors;
}

describe('validatePayoutForm', () => {
  it('turns a valid mobile money form into a normalised draft with a generated reference', () => {
    const result = validatePayoutForm('mobile_money', mobile, context);
    expect(result).toEqual({
      ok: true,
      draft: {
        kind: 'mobile_money',
        recipient: { phone: '243812345678', name: 'Amani Kabila', countryCode: 'CD' },
        operator: 'VODACOM_MPESA',
        amountMinor: 15000,
        currency: 'USD',
        reference: expect.stringMatching(/^PAY-20250314-[0-9A-Z]{6}$/) as string,
        note: 'March stipend',
        referenceGenerated: true,
      },
    });
  });

  it('turns a valid bank form into a draft with the account number cleaned and the BIC upper-cased', () => {
    const result = validatePayoutForm('bank_account', bank, context);
    expect(result.ok && result.draft).toEqual({
      kind: 'bank_account',
      recipient: { accountNumber: '000123456789', bankCode: 'BCDCCDKI', name: 'Ndaya Logistics SARL', countryCode: 'CD' },
      amountMinor: 250050,
      currency: 'EUR',
      reference: 'INV-2025-031',
      note: '',
    });
  });

  it('cleans a phone number written with a plus and spaces', () => {
    const result = validatePayoutForm('mobile_money', { ...mobile, phone: '+243 812 345 678' }, context);
    expect(result.ok && result.draft.kind === 'mobile_money' && result.draft.recipient.phone).toBe('243812345678');
  });

  it('cleans dashes out of a phone number', () => {
    const result = validatePayoutForm('mobile_money', { ...mobile, phone: '243-812-345-678' }, context);
    expect(result.ok && result.draft.kind === 'mobile_money' && result.draft.recipient.phone).toBe('243812345678');
  });

  it('refuses a phone number with letters', () => {
    expect(errorsFor('mobile_money', { ...mobile, phone: '24381234567O' })).toEqual({ phone: { code: 'phone_letters' } });
  });

  it('refuses a phone number that is too short or too long', () => {
    expect(errorsFor('mobile_money', { ...mobile, phone: '1234567' }).phone).toEqual({ code: 'phone_length', min: 8, max: 15 });
    expect(errorsFor('mobile_money', { ...mobile, phone: '1234567890123456' }).phone).toEqual({ code: 'phone_length', min: 8, max: 15 });
  });

  it("refuses a wallet number without the chosen country's prefix, naming the prefix it needs", () => {
    expect(errorsFor('mobile_money', { ...mobile, phone: '0812345678' })).toEqual({
      phone: { code: 'phone_country_prefix', countryCode: 'CD', prefix: '243' },
    });
    expect(errorsFor('mobile_money', { ...mobile, phone: '254712345678' })).toEqual({
      phone: { code: 'phone_country_prefix', countryCode: 'CD', prefix: '243' },
    });
    expect(errorsFor('mobile_money', { ...mobile, countryCode: 'KE', phone: '243812345678' }).phone).toEqual({
      code: 'phone_country_prefix',
      countryCode: 'KE',
      prefix: '254',
    });
    expect(validatePayoutForm('mobile_money', { ...mobile, countryCode: 'ke', phone: '+254 712 345 678' }, context).ok).toBe(true);
  });

  it('refuses a wallet in a country the app knows no calling code for, and leaves bank payouts to any two-letter country', () => {
    expect(errorsFor('mobile_money', { ...mobile, countryCode: 'XX' })).toEqual({ countryCode: { code: 'country_no_calling_code', countryCode: 'XX' } });
    expect(validatePayoutForm('bank_account', { ...bank, countryCode: 'XX' }, context).ok).toBe(true);
  });

  it('asks for a phone number when it is empty', () => {
    expect(errorsFor('mobile_money', { ...mobile, phone: null }).phone).toEqual({ code: 'required' });
  });

  it('refuses a three-letter country code', () => {
    expect(errorsFor('mobile_money', { ...mobile, countryCode: 'XYZ' })).toEqual({ countryCode: { code: 'country_code' } });
  });

  it('refuses a name that is too short or too long', () => {
    expect(errorsFor('mobile_money', { ...mobile, name: 'A' }).name).toEqual({ code: 'name_length', min: 2, max: 100 });
    expect(errorsFor('mobile_money', { ...mobile, name: 'A'.repeat(101) }).name).toEqual({ code: 'name_length', min: 2, max: 100 });
    expect(errorsFor('mobile_money', { ...mobile, name: '  ' }).name).toEqual({ code: 'required' });
  });

  it('refuses an operator that is not configured', () => {
    expect(errorsFor('mobile_money', { ...mobile, operator: 'MTN' })).toEqual({
      operator: { code: 'not_offered', allowed: ['VODACOM_MPESA', 'ORANGE_MONEY'] },
    });
  });

  it('refuses a BIC of 9 characters', () => {
    expect(errorsFor('bank_account', { ...bank, bankCode: 'BCDCCDKIX' })).toEqual({ bankCode: { code: 'bank_code' } });
  });

  it('accepts an 11-character BIC', () => {
    const result = validatePayoutForm('bank_account', { ...bank, bankCode: 'BCDCCDKI XXX' }, context);
    expect(result.ok && result.draft.kind === 'bank_account' && result.draft.recipient.bankCode).toBe('BCDCCDKIXXX');
  });

  it('refuses an account number with symbols or of the wrong length', () => {
    expect(errorsFor('bank_account', { ...bank, accountNumber: '1234/5678' }).accountNumber).toEqual({ code: 'account_number_characters' });
    expect(errorsFor('bank_account', { ...bank, accountNumber: '1234' }).accountNumber).toEqual({ code: 'account_number_length', min: 5, max: 34 });
    expect(errorsFor('bank_account', { ...bank, accountNumber: '1'.repeat(35) }).accountNumber).toEqual({ code: 'account_number_length', min: 5, max: 34 });
  });

  it('refuses an amount whose comma could group thousands or mark decimals as ambiguous', () => {
    expect(errorsFor('mobile_money', { ...mobile, amount: '1,500' }).amount).toEqual({
      code: 'amount_ambiguous',
      currency: 'USD',
      thousands: 150000,
      decimal: 150,
    });
  });

  it('refuses an amount with thousands dots, which English never writes', () => {
    expect(errorsFor('mobile_money', { ...mobile, amount: '1.000,00' }).amount).toEqual({ code: 'amount_not_a_number' });
  });

  it('reads the amount the way the person writes it: 1 500,50 in French, with 1,500 refused as two readings', () => {
    const french: ValidationContext = { ...context, locale: 'fr' };
    expect(validatePayoutForm('mobile_money', { ...mobile, amount: '1 500,50' }, french)).toMatchObject({ ok: true, draft: { amountMinor: 150050 } });
    expect(validatePayoutForm('mobile_money', { ...mobile, amount: '150.25' }, french)).toMatchObject({ ok: true, draft: { amountMinor: 15025 } });
    const refused = validatePayoutForm('mobile_money', { ...mobile, amount: '1,500' }, french);
    expect(refused).toEqual({ ok: false, errors: { amount: { code: 'amount_ambiguous', currency: 'USD', thousands: 150000, decimal: 150 } } });
    expect(validatePayoutForm('mobile_money', { ...mobile, amount: '1 500,50' }, context)).toMatchObject({ ok: true, draft: { amountMinor: 150050 } });
  });

  it('refuses a zero amount', () => {
    expect(errorsFor('mobile_money', { ...mobile, amount: '0' }).amount).toEqual({ code: 'amount_not_positive' });
  });

  it('refuses more decimals than the currency has', () => {
    expect(errorsFor('mobile_money', { ...mobile, amount: '1.234' }).amount).toEqual({
      code: 'amount_too_many_decimals',
      currency: 'USD',
      decimals: 2,
      typed: '1.234',
      thousands: 123400,
    });
    expect(errorsFor('mobile_money', { ...mobile, amount: '10.5', currency: 'XAF' }).amount).toEqual({
      code: 'amount_too_many_decimals',
      currency: 'XAF',
      decimals: 0,
      typed: '10.5',
    });
  });

  it("refuses decimals beyond the currency's even when they are zeros, naming the thousands reading", () => {
    expect(errorsFor('mobile_money', { ...mobile, amount: '75.000', currency: 'CDF' }).amount).toEqual({
      code: 'amount_too_many_decimals',
      currency: 'CDF',
      decimals: 2,
      typed: '75.000',
      thousands: 7_500_000,
    });
    expect(errorsFor('mobile_money', { ...mobile, amount: '1.500' }).amount).toEqual({
      code: 'amount_too_many_decimals',
      currency: 'USD',
      decimals: 2,
      typed: '1.500',
      thousands: 150_000,
    });
    expect(errorsFor('mobile_money', { ...mobile, amount: '150.000', currency: 'XAF' }).amount).toEqual({
      code: 'amount_too_many_decimals',
      currency: 'XAF',
      decimals: 0,
      typed: '150.000',
      thousands: 150_000,
    });
    expect(validatePayoutForm('mobile_money', { ...mobile, amount: '1500,500' }, { ...context, locale: 'fr' })).toEqual({
      ok: false,
      errors: { amount: { code: 'amount_too_many_decimals', currency: 'USD', decimals: 2, typed: '1500,500' } },
    });
  });

  it('refuses an amount over the per-payout maximum for the currency', () => {
    expect(errorsFor('mobile_money', { ...mobile, amount: '50000.01' }).amount).toEqual({ code: 'amount_over_maximum', maxMinor: 5_000_000, currency: 'USD' });
    expect(validatePayoutForm('mobile_money', { ...mobile, amount: '50000' }, context).ok).toBe(true);
  });

  it('refuses an amount the Fleet API cannot be sent exactly as a JSON number, whatever the maximum', () => {
    const generous: ValidationContext = { ...context, settings: { ...context.settings, maxAmount: new Map([['USD', Number.MAX_SAFE_INTEGER]]) } };
    const result = (amount: string) => validatePayoutForm('mobile_money', { ...mobile, amount }, generous);
    expect(result('90071992547409.91')).toEqual({ ok: false, errors: { amount: { code: 'amount_not_exact' } } });
    expect(result('9007199254740.99')).toMatchObject({ ok: true, draft: { amountMinor: 900_719_925_474_099 } });
  });

  it('refuses a currency that is not configured', () => {
    expect(errorsFor('mobile_money', { ...mobile, currency: 'GBP' })).toEqual({ currency: { code: 'not_offered', allowed: ['USD', 'EUR', 'CDF', 'XAF'] } });
  });

  it('refuses a reference with spaces or that is too short', () => {
    const message = { code: 'reference_format', min: 4, max: 40 };
    expect(errorsFor('mobile_money', { ...mobile, reference: 'my ref' }).reference).toEqual(message);
    expect(errorsFor('mobile_money', { ...mobile, reference: 'abc' }).reference).toEqual(message);
  });

  it('refuses a note longer than 500 characters', () => {
    expect(errorsFor('mobile_money', { ...mobile, note: 'x'.repeat(501) }).note).toEqual({ code: 'note_too_long', max: 500 });
  });

  it('reports every wrong field at once, one problem each, in form order', () => {
    const errors = errorsFor('mobile_money', { phone: 'abc', name: '', countryCode: 'XYZ', operator: '', amount: '1,500', currency: 'USD' });
    expect(Object.keys(errors)).toEqual(['phone', 'name', 'countryCode', 'operator', 'amount']);
    expect(PAYOUT_RAILS.mobile_money.formFields).toContain('operator');
    expect(PAYOUT_RAILS.bank_account.formFields).not.toContain('operator');
  });

  it('gives the form back unchanged from a draft, so that Back keeps what was typed', () => {
    const first = validatePayoutForm('bank_account', bank, context);
    if (!first.ok) throw new Error('expected a draft');
    const again = validatePayoutForm('bank_account', draftToFields(first.draft), context);
    expect(again).toEqual(first);
    expect(draftToFields(first.draft).amount).toBe('2500.50');
  });

  it('refuses a draft that comes back tampered with an amount over the maximum', () => {
    const first = validatePayoutForm('mobile_money', { ...mobile, reference: 'REF-0001' }, context);
    if (!first.ok) throw new Error('expected a draft');
    const result = revalidateDraft({ ...first.draft, amountMinor: 999_999_999 }, context);
    expect(result).toEqual({ ok: false, errors: { amount: { code: 'amount_over_maximum', maxMinor: 5_000_000, currency: 'USD' } } });
  });

  it('refuses a draft without a reference instead of making one up at submission', () => {
    const first = validatePayoutForm('mobile_money', mobile, context);
    if (!first.ok) throw new Error('expected a draft');
    const result = revalidateDraft({ ...first.draft, reference: '' }, context);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.errors.reference).toEqual({ code: 'reference_missing' });
  });

  describe('characters that would make what approvers read differ from what is sent', () => {
    const hidden: Array<[string, string]> = [
      ['right-to-left override', '\u202E'],
      ['left-to-right embedding', '\u202A'],
      ['pop directional isolate', '\u2069'],
      ['first strong isolate', '\u2068'],
      ['right-to-left mark', '\u200F'],
      ['Arabic letter mark', '\u061C'],
      ['zero-width space', '\u200B'],
      ['zero-width joiner', '\u200D'],
      ['word joiner', '\u2060'],
      ['byte order mark', '\uFEFF'],
    ];

    it.each(hidden)('refuses a %s in the name, the note and the reference, each with its own message', (_label, char) => {
      const errors = errorsFor('mobile_money', { ...mobile, name: `Amani${char} Kabila`, note: `For ${char}March`, reference: `INV-${char}42` });
      const invisible = { code: 'hidden_characters', kind: 'invisible' };
      expect(errors).toMatchObject({ name: invisible, note: invisible, reference: invisible });
    });

    it('refuses control characters in the name and the note, but keeps line breaks in the note', () => {
      const errors = errorsFor('bank_account', { ...bank, name: 'Ndaya\u0007 Logistics', note: `Line one\u0000\u001b[31m` });
      const control = { code: 'hidden_characters', kind: 'control' };
      expect(errors).toMatchObject({ name: control, note: control });
      expect(validatePayoutForm('bank_account', { ...bank, note: 'Line one\nLine two' }, context)).toMatchObject({
        ok: true,
        draft: { note: 'Line one\nLine two' },
      });
    });

    it('refuses half of a surrogate pair, which no keyboard types', () => {
      expect(errorsFor('mobile_money', { ...mobile, note: 'broken \uD800 pair' }).note).toEqual({ code: 'hidden_characters', kind: 'broken' });
    });

    it('refuses a draft that comes back with a hidden character', () => {
      const result = validatePayoutForm('mobile_money', mobile, context);
      if (!result.ok || result.draft.kind !== 'mobile_money') throw new Error('expected a valid mobile money form');
      const tampered = { ...result.draft, recipient: { ...result.draft.recipient, name: 'Amani \u202EalibaK' } };
      expect(revalidateDraft(tampered, context)).toMatchObject({ ok: false, errors: { name: { code: 'hidden_characters', kind: 'invisible' } } });
    });
  });
});

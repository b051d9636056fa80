/**
 * The payout rails: each one is keyed by its own kind, takes its drafts through the form, the stored
 * columns, the bulk file and a modal's metadata and back unchanged, and a third kind without a rail
 * does not compile (the `@ts-expect-error` lines below fail `npm run typecheck` when it would).
 */
import { describe, expect, it } from 'vitest';
import { PAYOUT_KINDS, requestMatchesDraft, type PayoutDraft, type PayoutKind, type PayoutRequest } from '../../src/payouts/model.js';
import { assertNever, PAYOUT_RAILS, railOf, travelledDraftSchema, type PayoutRail } from '../../src/payouts/rails/index.js';
import { pendingRequest } from '../support/payout-doubles.js';
import { draftToFields, validatePayoutForm, type ValidationContext } from '../../src/payouts/validation.js';

const context: ValidationContext = {
  settings: { operators: ['VODACOM_MPESA'], currencies: ['USD'], maxAmount: new Map([['USD', 5_000_000]]) },
  now: new Date('2026-03-14T10:00:00Z'),
};
const common = { amountMinor: 15_000, currency: 'USD', reference: 'INV-2026-001', note: 'March' };
const DRAFTS: { [K in PayoutKind]: Extract<PayoutDraft, { kind: K }> } = {
  mobile_money: { kind: 'mobile_money', recipient: { phone: '243812345678', name: 'Amani Kabila', countryCode: 'CD' }, operator: 'VODACOM_MPESA', ...common },
  bank_account: { kind: 'bank_account', recipient: { accountNumber: '000123456789', bankCode: 'BCDCCDKI', name: 'Ndaya SARL', countryCode: 'CD' }, ...common },
};

describe('the payout rails', () => {
  it('has one rail per kind, keyed by its own kind, with its fields in the form', () => {
    expect(Object.keys(PAYOUT_RAILS).sort()).toEqual([...PAYOUT_KINDS].sort());
    for (const kind of PAYOUT_KINDS) {
      expect(railOf(kind).kind).toBe(kind);
      expect(railOf(kind).formFields).toEqual(expect.arrayContaining([...railOf(kind).destinationFields, 'name', 'amount']));
    }
  });

  it.each(PAYOUT_KINDS)('takes a %s draft through the form, the stored columns, the bulk file and a modal and back unchanged', (kind) => {
    const draft: PayoutDraft = DRAFTS[kind];
    const rail = railOf(draft.kind);
    expect(validatePayoutForm(kind, draftToFields(draft), context)).toEqual({ ok: true, draft });
    expect({ ...rail.fromColumns(rail.columns(draft), draft.recipient), ...common }).toEqual(draft);
    expect(validatePayoutForm(kind, { ...draftToFields(draft), ...rail.bulkFields(rail.bulkCells(draft)) }, context)).toEqual({ ok: true, draft });
    expect(travelledDraftSchema.parse(JSON.parse(JSON.stringify({ ...draft, extra: 'dropped' })))).toEqual(draft);
  });

  it('refuses a travelled draft of a kind it has no rail for', () => {
    expect(travelledDraftSchema.safeParse({ ...DRAFTS.mobile_money, kind: 'card' }).success).toBe(false);
  });

  it('keys a wallet by its number for totals and by number and operator for identity, a bank account by its head office', () => {
    const wallet = DRAFTS.mobile_money;
    expect(railOf('mobile_money').recipientKey(wallet)).toBe('mobile:243812345678');
    expect(railOf('mobile_money').recipientIdentity(wallet)).toBe('mobile:243812345678:VODACOM_MPESA');
    const branch = { ...DRAFTS.bank_account, recipient: { ...DRAFTS.bank_account.recipient, bankCode: 'BCDCCDKIXXX' } };
    expect(railOf('bank_account').recipientIdentity(branch)).toBe(railOf('bank_account').recipientIdentity(DRAFTS.bank_account));
  });

  it('takes a stored request for a draft only when its kind, recipient, operator, amount, currency, reference and note are the same', () => {
    const stored = (draft: PayoutDraft): PayoutRequest => {
      const request: Record<string, unknown> = { ...pendingRequest() };
      delete request.operator;
      return { ...request, ...draft } as PayoutRequest;
    };
    for (const draft of Object.values(DRAFTS)) {
      expect(requestMatchesDraft(stored(draft), { ...draft, referenceGenerated: false })).toBe(true);
      expect(requestMatchesDraft(stored(draft), { ...draft, note: 'April' })).toBe(false);
    }
    const { mobile_money: wallet, bank_account: account } = DRAFTS;
    expect(requestMatchesDraft(stored(wallet), { ...wallet, recipient: { ...wallet.recipient, name: 'Someone else' } })).toBe(false);
    expect(requestMatchesDraft(stored(account), { ...account, recipient: { ...account.recipient, bankCode: 'RAWBCDKI' } })).toBe(false);
    expect(requestMatchesDraft(stored(DRAFTS.mobile_money), { ...DRAFTS.mobile_money, operator: 'ORANGE_MONEY' })).toBe(false);
    expect(requestMatchesDraft(stored(DRAFTS.bank_account), DRAFTS.mobile_money)).toBe(false);
    expect(requestMatchesDraft(stored(DRAFTS.mobile_money), DRAFTS.bank_account)).toBe(false);
  });

  it('makes a third kind a compile error where its rail or its case is missing', () => {
    type WithCard = PayoutKind | 'card';
    // @ts-expect-error the rails record has no rail for `card`
    const rails: { readonly [K in WithCard]: PayoutRail<Extract<PayoutKind, K>> } = PAYOUT_RAILS;
    const name = (kind: WithCard): string => {
      switch (kind) {
        case 'mobile_money':
          return 'wallet';
        case 'bank_account':
          return 'account';
        default:
          // @ts-expect-error `card` has no case
          return assertNever(kind);
      }
    };
    expect(Object.keys(rails)).toHaveLength(PAYOUT_KINDS.length);
    expect(name('mobile_money')).toBe('wallet');
    expect(() => assertNever('card' as never)).toThrow('Unexpected value');
  });
});

import { describe, expect, it } from 'vitest';
import { checkView } from '@fleet-treasury-bot/local-slack';
import { LOCALES, type Locale } from '../../../src/i18n/index.js';
import { parseAmount } from '../../../src/core/money.js';
import type { FieldProblem, PayoutFieldName, PayoutRequest } from '../../../src/payouts/index.js';
import { describeFieldProblem } from '../../../src/slack/refusals/payout-field-problems.js';
import { fieldErrorsByBlock, refusalMessage, refusalProblems } from '../../../src/slack/refusals/payout-refusals.js';
import { PAYOUT_FIELD_BLOCKS, PAYOUT_VIEWS } from '../../../src/slack/ids.js';
import { noticeModal } from '../../../src/slack/views/notice.js';
import { buildPayoutChooser, buildPayoutForm, buildPayoutReview, buildPayoutSubmitted, formValuesFor } from '../../../src/slack/views/payout-form.js';
import { pendingRequest } from '../../support/payout-doubles.js';

const choices = { operators: ['VODACOM_MPESA', 'ORANGE_MONEY', 'AIRTEL_MONEY'], currencies: ['USD', 'EUR', 'CDF', 'JPY', 'KWD'] };
const at = new Date('2026-11-21T10:00:00.000Z');
const json = (value: unknown) => JSON.stringify(value);

function request(overrides: Partial<PayoutRequest> = {}): PayoutRequest {
  return pendingRequest({
    amountMinor: 150_050,
    reference: 'INV-2025-0042',
    note: 'March stipend',
    requestedBy: 'U0REQUESTER',
    requestedAt: at,
    expiresAt: new Date(at.getTime() + 24 * 3_600_000),
    requiredApprovals: 2,
    updatedAt: at,
    ...overrides,
  });
}

/** Every plain text of a view (titles, buttons, labels, placeholders, options), which Slack refuses past its limit. */
function shortTexts(view: unknown): string[] {
  const found: string[] = [];
  const walk = (node: unknown) => {
    if (Array.isArray(node)) node.forEach(walk);
    else if (node && typeof node === 'object') {
      for (const [key, value] of Object.entries(node)) {
        if (['label', 'placeholder', 'title', 'submit', 'close', 'text'].includes(key) && value && typeof value === 'object') {
          const text = value as { type?: unknown; text?: unknown };
          if (text.type === 'plain_text') found.push(String(text.text));
        }
        walk(value);
      }
    }
  };
  walk(view);
  return found;
}

const EVERY_PROBLEM: Array<[PayoutFieldName, FieldProblem]> = [
  ['amount', { code: 'amount_empty' }],
  ['amount', { code: 'amount_not_a_number' }],
  ['amount', { code: 'amount_not_positive' }],
  ['amount', { code: 'amount_too_large' }],
  ['amount', { code: 'amount_too_many_decimals', currency: 'USD', decimals: 2, typed: '1.2345' }],
  ['amount', { code: 'amount_too_many_decimals', currency: 'KWD', decimals: 3, typed: '1.2345' }],
  ['amount', { code: 'amount_too_many_decimals', currency: 'JPY', decimals: 0, typed: '10.5' }],
  ['amount', { code: 'amount_too_many_decimals', currency: 'CDF', decimals: 2, typed: '75.000', thousands: 7_500_000 }],
  ['amount', { code: 'amount_too_many_decimals', currency: 'XAF', decimals: 0, typed: '150.000', thousands: 150_000 }],
  ['amount', { code: 'amount_too_many_decimals', currency: 'USD', decimals: 2, typed: `999.000${'\u202E'.repeat(300)}`, thousands: 99_900_000 }],
  ['amount', { code: 'amount_ambiguous', currency: 'EUR', thousands: 150_000, decimal: 150 }],
  ['amount', { code: 'amount_ambiguous', currency: 'KWD', thousands: 1_234_000, decimal: 1_234 }],
  ['amount', { code: 'amount_ambiguous', currency: 'JPY', thousands: 1_000, decimal: 1 }],
  ['amount', { code: 'amount_no_maximum', currency: 'CDF' }],
  ['amount', { code: 'amount_over_maximum', maxMinor: 5_000_000, currency: 'USD' }],
  ['amount', { code: 'amount_not_exact' }],
  ['amount', { code: 'refused', refusal: { code: 'over_daily_limit', details: { limitMinor: 100_000, leftMinor: 2_550, currency: 'USD' } } }],
  ['phone', { code: 'required' }],
  ['name', { code: 'required' }],
  ['accountNumber', { code: 'required' }],
  ['countryCode', { code: 'required' }],
  ['name', { code: 'hidden_characters', kind: 'invisible' }],
  ['note', { code: 'hidden_characters', kind: 'control' }],
  ['reference', { code: 'hidden_characters', kind: 'broken' }],
  ['phone', { code: 'phone_letters' }],
  ['phone', { code: 'phone_characters' }],
  ['phone', { code: 'phone_length', min: 8, max: 15 }],
  ['name', { code: 'name_length', min: 2, max: 100 }],
  ['countryCode', { code: 'country_code' }],
  ['phone', { code: 'phone_country_prefix', countryCode: 'CD', prefix: '243' }],
  ['countryCode', { code: 'country_no_calling_code', countryCode: 'XX' }],
  ['accountNumber', { code: 'account_number_characters' }],
  ['accountNumber', { code: 'account_number_length', min: 5, max: 34 }],
  ['bankCode', { code: 'bank_code' }],
  ['note', { code: 'note_too_long', max: 500 }],
  ['currency', { code: 'not_offered', allowed: choices.currencies }],
  ['operator', { code: 'not_offered', allowed: choices.operators }],
  ['reference', { code: 'reference_format', min: 4, max: 40 }],
  ['reference', { code: 'reference_missing' }],
  ['reference', { code: 'reference_used' }],
  ['reference', { code: 'check_value' }],
];

describe.each(LOCALES)('payout request modals in %s', (locale: Locale) => {
  const surfaces = [
    { sandbox: false, locale },
    { sandbox: true, locale },
  ];

  it("keeps every modal of the flow within Slack's limits, in the sandbox and out of it", () => {
    for (const surface of surfaces) {
      const problems = EVERY_PROBLEM.map(([field, problem]) => describeFieldProblem(locale, field, problem, (refusal) => refusalMessage(refusal, locale)));
      const views = [
        buildPayoutChooser(surface, '243812345678 150 USD'),
        buildPayoutForm(surface, 'mobile_money', choices, {}),
        buildPayoutForm(surface, 'bank_account', choices, { amount: '9'.repeat(40), currency: 'EUR' }, problems),
        buildPayoutReview(surface, request(), 'C0APPROVALS', {
          required: 2,
          reason: { rule: 'requester_total', totalMinor: 500_000, thresholdMinor: 100_000 },
        }),
        buildPayoutReview(surface, request({ note: '<'.repeat(500) }), undefined),
        buildPayoutSubmitted(surface, request(), 'C0APPROVALS'),
        buildPayoutSubmitted(surface, request(), undefined),
        noticeModal(surface, { title: 'x'.repeat(40), text: 'y'.repeat(4000), callbackId: PAYOUT_VIEWS.notice }),
      ];
      for (const view of views) {
        expect(checkView(view as unknown as Record<string, unknown>), `${view.callback_id} ${locale}`).toEqual([]);
        // Cut to fit would be a text the person cannot read whole: every short text fits as written.
        const notice = view.callback_id === 'payout_notice';
        for (const text of shortTexts(view)) {
          expect(text.length, text).toBeLessThanOrEqual(150);
          if (!notice) expect(text, text).not.toMatch(/…$/);
        }
      }
    }
  });

  it('words every field problem within the length of a field error, and never leaves a {variable}', () => {
    for (const [field, problem] of EVERY_PROBLEM) {
      const text = describeFieldProblem(locale, field, problem, (refusal) => refusalMessage(refusal, locale));
      expect(text, problem.code).not.toMatch(/\{\w+\}/);
      expect(text.length, text).toBeLessThanOrEqual(300);
    }
  });
});

describe('mobile money operators', () => {
  it('are offered and reviewed by their names, while the value sent stays the API code', () => {
    const form = buildPayoutForm({ sandbox: false, locale: 'en' }, 'mobile_money', choices, { operator: 'ORANGE_MONEY' });
    expect(json(form)).toContain('{"text":{"type":"plain_text","text":"Vodacom M-Pesa","emoji":true},"value":"VODACOM_MPESA"}');
    expect(json(form)).toContain('"initial_option":{"text":{"type":"plain_text","text":"Orange Money","emoji":true},"value":"ORANGE_MONEY"}');
    const review = buildPayoutReview({ sandbox: false, locale: 'en' }, request({ kind: 'mobile_money', operator: 'VODACOM_MPESA' }), 'C0APPROVALS');
    expect(json(review)).toContain('Vodacom M-Pesa');
    // A code the app does not know is shown as it is, escaped.
    const unknown = buildPayoutForm({ sandbox: false, locale: 'en' }, 'mobile_money', { ...choices, operators: ['NEW_OPERATOR_X'] }, {});
    expect(json(unknown)).toContain('"text":"NEW_OPERATOR_X"');
  });
});

describe('payout request modals for a French reader', () => {
  const fr = { sandbox: false, locale: 'fr' as const };

  it('shows the form in French, with the amount hint and example written the French way', () => {
    const view = buildPayoutForm(fr, 'mobile_money', choices, {});
    expect(view.title.text).toBe('Paiement mobile money');
    expect(view.submit?.text).toBe('Vérifier');
    expect(json(view)).toContain('"text":"Montant"');
    expect(json(view)).toContain('"placeholder":{"type":"plain_text","text":"p. ex. 1 500,50"');
    expect(json(view)).toContain('Nom du bénéficiaire');
    expect(json(view)).not.toContain('Phone number');
  });

  it('repeats the amount in French on the review screen before anything is submitted', () => {
    const view = buildPayoutReview(fr, request({ amountMinor: 150_050, currency: 'USD' }), 'C0APPROVALS');
    expect(view.title.text).toBe('Vérifiez le paiement');
    expect(view.submit?.text).toBe('Demander l’approbation');
    expect(json(view)).toContain('*Montant*\\n*1\u202F500,50 USD*');
    expect(json(view)).toContain('dans <#C0APPROVALS>');
  });

  it('shows the amount once on the review screen, beside the other details, in English and in French', () => {
    const times = (view: ReturnType<typeof buildPayoutReview>, amount: string) => json(view.blocks).split(amount).length - 1;
    expect(times(buildPayoutReview(fr, request({ amountMinor: 150_050, currency: 'USD' }), 'C0APPROVALS'), '1\u202F500,50 USD')).toBe(1);
    expect(times(buildPayoutReview({ sandbox: false, locale: 'en' }, request({ amountMinor: 150_050, currency: 'USD' }), 'C0APPROVALS'), '1,500.50 USD')).toBe(
      1,
    );
  });

  it('puts the amount back into the form as the person types it, which reads back to the same value', () => {
    for (const [amountMinor, currency, typed] of [
      [150_050, 'USD', '1 500,50'],
      [150, 'EUR', '1,50'],
      [1_500, 'JPY', '1 500'],
      [1_234, 'KWD', '01,234'],
    ] as const) {
      const values = formValuesFor(fr, request({ amountMinor, currency }));
      expect(values.amount).toBe(typed);
      expect(parseAmount(values.amount ?? '', currency, 'fr')).toEqual({ ok: true, minor: amountMinor });
      expect(formValuesFor({ sandbox: false, locale: 'en' }, request({ amountMinor, currency })).amount).not.toContain(' ');
    }
  });

  it('shows the form a wallet number takes in the chosen country, in English and in French', () => {
    const problem = { code: 'phone_country_prefix', countryCode: 'CD', prefix: '243' } as const;
    expect(describeFieldProblem('en', 'phone', problem, () => '')).toBe(
      'A wallet in CD starts with the country prefix 243, without a plus: 243 then the number without its leading 0.',
    );
    expect(describeFieldProblem('fr', 'phone', problem, () => '')).toBe(
      'Un portefeuille en CD commence par l’indicatif 243, sans plus : 243 puis le numéro sans son 0 initial.',
    );
  });

  it("names the thousands reading of an amount with decimals beyond its currency's, in English and in French", () => {
    const words = (locale: Locale, problem: FieldProblem) => describeFieldProblem(locale, 'amount', problem, () => '');
    const cdf = { code: 'amount_too_many_decimals', currency: 'CDF', decimals: 2, typed: '75.000', thousands: 7_500_000 } as const;
    const xaf = { code: 'amount_too_many_decimals', currency: 'XAF', decimals: 0, typed: '150.000', thousands: 150_000 } as const;
    const usd = { code: 'amount_too_many_decimals', currency: 'USD', decimals: 2, typed: '1.500', thousands: 150_000 } as const;
    expect(words('en', cdf)).toBe('75.000 CDF: 75,000? CDF has 2 decimals.');
    expect(words('en', xaf)).toBe('150.000 XAF: 150,000? XAF has no decimals.');
    expect(words('en', usd)).toBe('1.500 USD: 1,500? USD has 2 decimals.');
    expect(words('fr', cdf)).toBe('75.000 CDF : 75\u202F000 ? Les montants en CDF ont 2 décimales.');
    expect(words('fr', xaf)).toBe('150.000 XAF : 150\u202F000 ? Les montants en XAF n’ont pas de décimales.');
    // Without a thousands reading, the currency's decimals alone.
    expect(words('en', { code: 'amount_too_many_decimals', currency: 'JPY', decimals: 0, typed: '1.00' })).toBe('JPY has no decimals: enter a whole amount.');
    expect(words('en', { code: 'amount_too_many_decimals', currency: 'USD', decimals: 2, typed: '12.5000' })).toBe('USD has 2 decimals at most.');
    // What was typed is shown neutralised and cut.
    const odd = words('en', { ...usd, typed: `1.500${'\u202E'.repeat(300)}` });
    expect(odd).not.toContain('\u202E');
    expect(odd.length).toBeLessThan(100);
  });

  it('explains an ambiguous amount with both readings written the French way and how to type each', () => {
    const text = describeFieldProblem('fr', 'amount', { code: 'amount_ambiguous', currency: 'EUR', thousands: 150_000, decimal: 150 }, () => '');
    expect(text).toBe('Ce montant peut se lire de deux façons : 1\u202F500,00 EUR ou 1,50 EUR. Écrivez 1 500,00 pour le premier, ou 1,50 pour le second.');
    const english = describeFieldProblem('en', 'amount', { code: 'amount_ambiguous', currency: 'USD', thousands: 150_000, decimal: 150 }, () => '');
    expect(english).toBe('This amount could be read two ways: 1,500.00 USD or 1.50 USD. Write 1500.00 for the first, or 1.50 for the second.');
  });

  it('puts field errors under their blocks and problem lines above the form, in French', () => {
    expect(fieldErrorsByBlock({ amount: { code: 'amount_not_positive' } }, 'fr')).toEqual({
      [PAYOUT_FIELD_BLOCKS.amount]: 'Le montant doit être supérieur à zéro.',
    });
    const lines = refusalProblems({ ok: false, code: 'duplicate_reference', errors: { reference: { code: 'reference_used' } } }, 'fr');
    expect(lines).toEqual(['Référence : Cette référence a déjà été utilisée : choisissez-en une autre, ou laissez-la vide.']);
  });
});

describe("the payout form's placeholders", () => {
  /** Every placeholder of the form, in the order of its fields. */
  const placeholders = (locale: Locale, kind: 'mobile_money' | 'bank_account') => {
    const found: string[] = [];
    for (const block of buildPayoutForm({ sandbox: false, locale }, kind, choices, {}).blocks) {
      const element = (block as { element?: { placeholder?: { text: string } } }).element;
      if (element?.placeholder) found.push(element.placeholder.text);
    }
    return found;
  };

  it('read as hints, never as values already filled in, in French and in English', () => {
    for (const kind of ['mobile_money', 'bank_account'] as const) {
      const french = placeholders('fr', kind);
      expect(french.length).toBeGreaterThan(3);
      for (const text of french) expect(text).toMatch(/^(p\. ex\. |Choisissez )/);
      for (const text of placeholders('en', kind)) expect(text).toMatch(/^(e\.g\. |Choose )/);
    }
    expect(placeholders('fr', 'mobile_money')).toContain('p. ex. 243812345678');
    expect(placeholders('fr', 'mobile_money')).toContain('p. ex. 1 500,50');
    expect(placeholders('en', 'bank_account')).toContain('e.g. 1500.50');
  });
});

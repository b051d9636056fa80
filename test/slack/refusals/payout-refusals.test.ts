import { describe, expect, it } from 'vitest';
import { PAYOUT_FIELD_BLOCKS } from '../../../src/slack/ids.js';
import { fieldErrorsByBlock, refusalMessage, refusalText } from '../../../src/slack/refusals/payout-refusals.js';

// The narrow no-break space French puts between thousands.
const thin = '\u202f';

describe("payout refusals in the reader's language", () => {
  it("writes the daily limit's amounts the reader's way, from the minor units the domain gives", () => {
    const refusal = { code: 'over_daily_limit', details: { limitMinor: 100_000_000, leftMinor: 150_050, currency: 'USD' } } as const;
    expect(refusalMessage(refusal, 'en')).toBe(
      'This would take you over your daily limit of 1,000,000.00 USD (the team’s day, TEAM_TIMEZONE): you can still request 1,500.50 USD today.',
    );
    expect(refusalMessage(refusal, 'fr')).toBe(
      `Vous dépasseriez votre limite journalière de 1${thin}000${thin}000,00 USD (jour de l’équipe, TEAM_TIMEZONE) : vous pouvez encore demander 1${thin}500,50 USD aujourd’hui.`,
    );
  });

  it("writes the maximum of one payout in the currency's own decimals", () => {
    expect(refusalMessage({ code: 'over_max_amount', details: { maxMinor: 5_000_000, currency: 'CDF' } }, 'fr')).toBe(
      `Un paiement ne peut pas dépasser 50${thin}000,00 CDF.`,
    );
    expect(refusalMessage({ code: 'over_max_amount', details: { cause: 'not_configured', currency: 'EUR' } }, 'en')).toBe(
      'Payouts in EUR have no maximum set, so they cannot be sent.',
    );
  });

  it('tells a request that moved on by its state, and the same code differently per action', () => {
    expect(refusalMessage({ code: 'not_pending', details: { payoutId: 'PR-7K3F9Q', state: 'completed' } }, 'en')).toBe('Payout PR-7K3F9Q was already sent.');
    expect(refusalMessage({ code: 'not_pending', details: { payoutId: 'PR-7K3F9Q', state: 'rejected' } }, 'fr')).toBe('Le paiement PR-7K3F9Q a été rejeté.');
    expect(refusalMessage({ code: 'own_request', details: { action: 'reject' } }, 'en')).toBe('You requested this payout: cancel it instead of rejecting it.');
    expect(refusalMessage({ code: 'own_request', details: { action: 'approve' } }, 'fr')).toMatch(/un autre approbateur doit l’approuver/);
    expect(refusalMessage({ code: 'already_approved', details: { action: 'retry', payoutId: 'PR-7K3F9Q' } }, 'fr')).toMatch(
      /^Vous avez déjà accepté de renvoyer le paiement PR-7K3F9Q/,
    );
  });

  it('escapes what the Fleet client said when the transactions could not be read', () => {
    const text = refusalText({ code: 'could_not_check', details: { action: 'retry', payoutId: 'PR-7K3F9Q', searchProblem: 'timeout <@U1>' } }, 'fr');
    expect(text).toContain('(timeout &lt;@U1&gt;)');
    expect(text).toMatch(/^:no_entry: Impossible de vérifier toutes les transactions depuis la demande du paiement PR-7K3F9Q/);
  });

  it('puts a limit refusal under the amount field', () => {
    const errors = fieldErrorsByBlock(
      { amount: { code: 'refused', refusal: { code: 'over_daily_limit', details: { limitMinor: 100_000, leftMinor: 0, currency: 'EUR' } } } },
      'fr',
    );
    expect(errors).toEqual({
      [PAYOUT_FIELD_BLOCKS.amount]: `Vous dépasseriez votre limite journalière de 1${thin}000,00 EUR (jour de l’équipe, TEAM_TIMEZONE) : vous pouvez encore demander 0,00 EUR aujourd’hui.`,
    });
  });
});

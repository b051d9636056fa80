import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { payoutChooserAction } from '../../../src/slack/ids.js';
import type { OpenView } from '@fleet-treasury-bot/local-slack';
import { CHANNELS, PEOPLE, startHarness, type Harness } from '../../support/bot-harness.js';
import {
  callbackIs,
  fieldErrors,
  MOBILE_FIELDS,
  openPayoutForm,
  PAYOUT_ACTIONS,
  PAYOUT_ENV,
  PAYOUT_VIEWS,
  payoutPosts,
  submitForm,
  viewText,
  waitForView,
} from '../../support/payout-flow.js';

const titleOf = (view: OpenView) => (view.view.title as { text?: string } | undefined)?.text;

/** Fabrice's Slack runs in French (fr-FR); the usual requester's in English (en-US). */
const FRENCH = 'U0FABRICE';
const ENGLISH = PEOPLE.requester;

describe('requesting a payout in the language of the person', () => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness({
      env: { ...PAYOUT_ENV, FLEET_REQUESTERS: `${FRENCH},${ENGLISH}` },
    });
  });
  afterAll(async () => h?.close());
  afterEach(() => {
    expect(h.slack.limitViolations).toEqual([]);
  });

  it('gives a French person the French form, reads 1 500,50 as 1500.50 and stores 150050 minor units', async () => {
    const form = await openPayoutForm(h, FRENCH, 'payout mobile');
    expect(titleOf(form)).toBe('Paiement mobile money');
    expect(viewText(form)).toContain('Numéro de téléphone');
    expect(viewText(form)).not.toContain('Phone number');

    const review = await submitForm(h, FRENCH, form.id, { ...MOBILE_FIELDS, amount: '1 500,50', reference: 'INV-FR-0001' });
    expect(review.view.callback_id, JSON.stringify(review.errors)).toBe(PAYOUT_VIEWS.review);
    expect(titleOf(review)).toBe('Vérifiez le paiement');
    expect(viewText(review)).toContain('*Montant*\\n*1\u202F500,50 USD*');
    expect(payoutPosts(h)).toBe(0);

    await h.slack.submitView({ userId: FRENCH, viewId: review.id });
    const receipt = h.slack.view(review.id)!;
    expect(titleOf(receipt)).toBe('Paiement demandé');
    expect(viewText(receipt)).toContain('attend une approbation dans');
    const stored = await h.bot.payouts.getByReference('INV-FR-0001');
    expect(stored).toMatchObject({ amountMinor: 150_050, currency: 'USD', requestedBy: FRENCH });
  });

  it('goes Back with the amount written the French way, which reads back to the same review', async () => {
    const form = await openPayoutForm(h, FRENCH, 'payout mobile');
    const review = await submitForm(h, FRENCH, form.id, { ...MOBILE_FIELDS, amount: '2500.5' });
    expect(review.view.callback_id, JSON.stringify(review.errors)).toBe(PAYOUT_VIEWS.review);
    await h.slack.clickButton({ userId: FRENCH, viewId: review.id, actionId: PAYOUT_ACTIONS.backToForm });
    const back = await waitForView(h, FRENCH, callbackIs(PAYOUT_VIEWS.form), 'the form again');
    expect(viewText(back)).toContain('"initial_value":"2 500,50"');
    const again = await submitForm(h, FRENCH, back.id, {});
    expect(again.view.callback_id).toBe(PAYOUT_VIEWS.review);
    expect(viewText(again)).toContain('*Montant*\\n*2\u202F500,50 USD*');
    await h.slack.closeView({ userId: FRENCH, viewId: back.id });
  });

  it('refuses 1,500 and 1.500 from a French person with both readings, in French, and stores nothing', async () => {
    for (const amount of ['1,500', '1.500']) {
      const form = await openPayoutForm(h, FRENCH, 'payout mobile');
      const answered = await submitForm(h, FRENCH, form.id, { ...MOBILE_FIELDS, amount });
      expect(answered.view.callback_id).toBe(PAYOUT_VIEWS.form);
      expect(fieldErrors(answered)).toEqual({
        amount: 'Ce montant peut se lire de deux façons : 1\u202F500,00 USD ou 1,50 USD. Écrivez 1 500,00 pour le premier, ou 1,50 pour le second.',
      });
      await h.slack.closeView({ userId: FRENCH, viewId: answered.id });
    }
    expect(payoutPosts(h)).toBe(0);
  });

  it("refuses decimals beyond the currency's even when they are zeros, naming the thousands reading, and stores nothing", async () => {
    const cases = [
      [ENGLISH, '75.000', 'CDF', '75.000 CDF: 75,000? CDF has 2 decimals.'],
      [ENGLISH, '1.500', 'USD', '1.500 USD: 1,500? USD has 2 decimals.'],
      [FRENCH, '1500,500', 'USD', 'Les montants en USD ont au plus 2 décimales.'],
    ] as const;
    for (const [userId, amount, currency, words] of cases) {
      const form = await openPayoutForm(h, userId, 'payout mobile');
      const reference = `ZEROS-${currency}-${userId.slice(-4)}`;
      const answered = await submitForm(h, userId, form.id, { ...MOBILE_FIELDS, amount, currency, reference });
      expect(answered.view.callback_id, amount).toBe(PAYOUT_VIEWS.form);
      expect(fieldErrors(answered)).toEqual({ amount: words });
      await h.slack.closeView({ userId, viewId: answered.id });
      expect(await h.bot.payouts.getByReference(reference)).toBeUndefined();
    }
    expect(payoutPosts(h)).toBe(0);
  });

  it('opens the chooser and then the form in French from /fleet payout alone', async () => {
    await h.slack.runCommand({ userId: FRENCH, channelId: CHANNELS.treasury, text: 'payout' });
    const chooser = await waitForView(h, FRENCH, callbackIs(PAYOUT_VIEWS.chooser), 'the chooser');
    expect(titleOf(chooser)).toBe('Nouveau paiement');
    expect(viewText(chooser)).toContain('Compte bancaire');
    await h.slack.clickButton({ userId: FRENCH, viewId: chooser.id, actionId: payoutChooserAction('bank_account') });
    const form = await waitForView(h, FRENCH, callbackIs(PAYOUT_VIEWS.form), 'the bank form');
    expect(titleOf(form)).toBe('Virement bancaire');
    await h.slack.closeView({ userId: FRENCH, viewId: form.id });
  });

  it('keeps English for an English person at the same time, where 1,500 is refused the English way', async () => {
    const form = await openPayoutForm(h, ENGLISH, 'payout mobile');
    expect(titleOf(form)).toBe('Mobile money payout');
    const answered = await submitForm(h, ENGLISH, form.id, { ...MOBILE_FIELDS, amount: '1,500' });
    expect(fieldErrors(answered)).toEqual({
      amount: 'This amount could be read two ways: 1,500.00 USD or 1.50 USD. Write 1500.00 for the first, or 1.50 for the second.',
    });
    const review = await submitForm(h, ENGLISH, form.id, { ...MOBILE_FIELDS, amount: '1,500.50' });
    expect(review.view.callback_id).toBe(PAYOUT_VIEWS.review);
    expect(viewText(review)).toContain('*Amount*\\n*1,500.50 USD*');
    await h.slack.closeView({ userId: ENGLISH, viewId: review.id });
  });
});

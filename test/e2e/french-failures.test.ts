/**
 * What went wrong, told in the reader's language: a French person whose language choice could not be
 * saved, whose digest could not be built, or whose payout failed long ago (its reason stored as the
 * Fleet client's English sentence, before reasons were stored as codes) reads it in French.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stateLine } from '../../src/slack/views/payout-details.js';
import { buildPayoutHistory } from '../../src/slack/views/payout-history.js';
import { CHANNELS, PEOPLE, startHarness, type Harness } from '../support/bot-harness.js';
import { pendingRequest } from '../support/payout-doubles.js';

/** Fabrice's Slack runs in French (fr-FR). */
const FABRICE = 'U0FABRICE';

describe('failures told to a French person through the real receiver', () => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness({ env: { FLEET_VIEWERS: `${PEOPLE.requester},${FABRICE}` } });
  });
  afterAll(async () => h?.close());

  const ask = async (userId: string, text: string) => {
    const before = h.visibleTo(userId).length;
    await h.slack.runCommand({ userId, channelId: CHANNELS.treasury, text });
    return h.slack.waitFor(() => h.visibleTo(userId)[before], { message: `a reply to /fleet ${text} for ${userId}` });
  };

  it('tells a French person in French that their language could not be saved', async () => {
    await h.bot.db.query('ALTER TABLE language_choices RENAME TO language_choices_away');
    try {
      const reply = await ask(FABRICE, 'langue en');
      expect(reply.text).toContain('Impossible d’enregistrer votre langue');
      expect(reply.text).not.toMatch(/Could not|went wrong/);
    } finally {
      await h.bot.db.query('ALTER TABLE language_choices_away RENAME TO language_choices');
    }
  });

  it('tells a French viewer in French that the digest could not be built', async () => {
    // The payouts' events cannot be read for a moment: the digest cannot be computed.
    await h.bot.db.query('ALTER TABLE payout_events RENAME TO payout_events_away');
    try {
      const building = await ask(FABRICE, 'résumé');
      expect(building.text).toContain('Je prépare le résumé');
      // The digest's answer follows "building…" as a new reply once it is ready, or has failed.
      const reply = await h.slack.waitFor(() => h.visibleTo(FABRICE).find((message) => message.text.includes('Impossible de calculer')), {
        message: 'the digest\'s failure in place of "building"',
      });
      expect(reply.text).toContain('Impossible de calculer le résumé');
      expect(reply.text).not.toMatch(/Could not|went wrong/);
    } finally {
      await h.bot.db.query('ALTER TABLE payout_events_away RENAME TO payout_events');
    }
  });
});

describe("a payout reason stored as the Fleet client's English sentence, read in French", () => {
  const french = (failureReason: string, state: 'failed' | 'unknown' = 'failed') => stateLine(pendingRequest({ state, failureReason }), 'fr');

  it("words each of the client's old sentences in French", () => {
    expect(french('The Fleet API took too long to answer.', 'unknown')).toContain('L’API Fleet');
    expect(french('Could not reach the Fleet API.', 'unknown')).not.toContain('Could not reach');
    expect(french('The Fleet API is unavailable right now. Try again in a few minutes.')).toContain('L’API Fleet est indisponible');
    expect(french('The app stopped while sending this payout, so its outcome is not known yet.', 'unknown')).toContain(
      'L’application s’est arrêtée pendant l’envoi de ce paiement',
    );
  });

  it("keeps the Fleet API's own words of an old refusal, in a French sentence", () => {
    const line = french('The Fleet API refused the request: recipient.phone is not a wallet');
    expect(line).toContain('recipient.phone is not a wallet');
    expect(line).not.toContain('The Fleet API refused');
  });

  it('says a conflict may mean the payout exists already, in French', () => {
    const line = french('The Fleet API refused the request (HTTP 409). A payout with this reference may already exist.', 'unknown');
    expect(line).not.toContain('A payout with this reference');
  });

  it('shows a sentence it does not know as it is, escaped', () => {
    expect(french('Something <b>odd</b>')).toContain('Something &lt;b&gt;odd&lt;/b&gt;');
  });

  it('words the old sentence in the history too', () => {
    const request = pendingRequest({ state: 'failed', failureReason: 'Could not reach the Fleet API.' });
    const history = buildPayoutHistory({ sandbox: false, locale: 'fr' }, request, [
      { event: 'failed', at: new Date('2025-03-14T12:00:00Z'), userId: undefined, details: { code: 'connection', reason: 'Could not reach the Fleet API.' } },
    ] as never);
    expect(JSON.stringify(history.blocks)).not.toContain('Could not reach');
  });
});

import { checkMessage } from '@fleet-treasury-bot/local-slack';
import { describe, expect, it } from 'vitest';
import type { CurrencyDay, DailyDigest, PayoutOutcomeTotal } from '../../../src/digest/index.js';
import { buildDigestBuildingMessage, buildDigestMessage } from '../../../src/slack/views/digest.js';
import type { Surface } from '../../../src/slack/views/text.js';
import type { Reply } from '../../../src/slack/views/notice.js';

/** Every text of a reply's blocks, as a person reads them. */
function blockText(reply: Reply): string {
  const parts: string[] = [];
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) node.forEach(visit);
    else if (node && typeof node === 'object') {
      for (const [key, value] of Object.entries(node)) {
        if (key === 'text' && typeof value === 'string') parts.push(value);
        else visit(value);
      }
    }
  };
  visit(reply.blocks);
  return parts.join('\n');
}

const EN: Surface = { sandbox: false, locale: 'en' };
const FR: Surface = { sandbox: true, locale: 'fr' };

const noPayouts: PayoutOutcomeTotal[] = ['sent', 'failed', 'rejected', 'expired', 'unknown'].map((outcome) => ({
  outcome: outcome as PayoutOutcomeTotal['outcome'],
  count: 0,
  totals: [],
}));

function currencyDay(currency: string, overrides: Partial<CurrencyDay> = {}): CurrencyDay {
  return {
    currency,
    inMinor: 123_450,
    outMinor: 2_000,
    netMinor: 121_450,
    countsByType: [{ type: 'PAYMENT', count: 3 }],
    notCompleted: 0,
    largest: [{ reference: 'INV-42', type: 'PAYMENT', description: 'Fuel', amountMinor: 100_000, date: '2026-11-20T09:00:00.000Z' }],
    closing: { known: true, minor: 9_876_543 },
    ...overrides,
  };
}

function digestOf(overrides: Partial<DailyDigest> = {}): DailyDigest {
  return {
    day: '2026-11-20',
    timeZone: 'Africa/Kinshasa',
    start: new Date('2026-11-19T23:00:00Z'),
    end: new Date('2026-11-20T23:00:00Z'),
    computedAt: new Date('2026-11-21T07:00:00Z'),
    ledgerAvailable: true,
    currencies: [currencyDay('USD')],
    entryCount: 3,
    payouts: noPayouts,
    waiting: [],
    waitingTotal: 0,
    waitingAfterHours: 12,
    quiet: false,
    ...overrides,
  };
}

const hostile = '<!channel> *bold* <https://evil.example|click> & ```' + 'x'.repeat(4000);

describe('the daily digest message', () => {
  it("shows money in, out and net per currency with the closing balance, written the reader's way", () => {
    const en = blockText(buildDigestMessage(EN, digestOf()));
    expect(en).toContain('Daily digest · Friday, November 20, 2026');
    expect(en).toContain('In (credits to the fleet account): +1,234.50 USD · Out (debits): -20.00 USD · Net: +1,214.50 USD');
    expect(en).toContain('3 transactions: PAYMENT × 3');
    expect(en).toContain('Closing balance: 98,765.43 USD');
    expect(en).toContain('midnight to midnight in Africa/Kinshasa');
    const fr = blockText(buildDigestMessage(FR, digestOf()));
    expect(fr).toContain('Résumé quotidien · vendredi 20 novembre 2026');
    expect(fr).toContain('Entrées (crédits du compte de flotte) : +1\u202f234,50 USD');
    expect(fr).toContain('Solde de clôture : 98\u202f765,43 USD');
    expect(fr).toContain('SANDBOX');
  });

  it('says why a closing balance is left out', () => {
    const text = blockText(buildDigestMessage(EN, digestOf({ currencies: [currencyDay('USD', { closing: { known: false, reason: 'history_incomplete' } })] })));
    expect(text).toContain("Closing balance not shown: the ledger is still loading the account's history.");
    const fr = blockText(buildDigestMessage(FR, digestOf({ currencies: [currencyDay('USD', { closing: { known: false, reason: 'ledger_behind' } })] })));
    expect(fr).toContain("Solde de clôture non affiché : le registre n'était pas encore à jour");
  });

  it('says a closing balance was corrected by late entries, with the figure first computed, in both languages', () => {
    const closing = { known: true as const, minor: 9_881_543, correction: { previousMinor: 9_876_543, lateEntries: 1 } };
    const en = blockText(buildDigestMessage(EN, digestOf({ currencies: [currencyDay('USD', { closing })] })));
    expect(en).toContain(
      'Closing balance: 98,815.43 USD, corrected: it was first computed as 98,765.43 USD, and 1 late entry dated on or before this day arrived since.',
    );
    const fr = blockText(buildDigestMessage(FR, digestOf({ currencies: [currencyDay('USD', { closing })] })));
    expect(fr).toContain("Solde de clôture : 98\u202f815,43 USD, corrigé : il avait d'abord été calculé à 98\u202f765,43 USD, et 1 écriture tardive");
    // A currency that did not move lists its corrected balance on the closing balances line.
    const still = currencyDay('EUR', { countsByType: [], largest: [], closing: { ...closing, correction: { previousMinor: 9_876_543, lateEntries: 2 } } });
    expect(blockText(buildDigestMessage(EN, digestOf({ currencies: [currencyDay('USD'), still] })))).toContain(
      '98,815.43 EUR (corrected, first computed as 98,765.43 EUR)',
    );
  });

  it("says the digest is being built, naming the day the reader's way", () => {
    expect(blockText(buildDigestBuildingMessage(EN, '2026-11-20'))).toContain('Building the digest of Friday, November 20, 2026…');
    const fr = buildDigestBuildingMessage(FR, '2026-11-20');
    expect(blockText(fr)).toContain('Je prépare le résumé du vendredi 20 novembre 2026…');
    expect(checkMessage(fr.blocks ?? [], fr.text)).toEqual([]);
  });

  it('says a day that is not over has no closing balance yet', () => {
    const closing = { known: false as const, reason: 'day_not_over' as const };
    expect(blockText(buildDigestMessage(EN, digestOf({ currencies: [currencyDay('USD', { closing })] })))).toContain(
      'Closing balance not shown: the day is not over yet.',
    );
    expect(blockText(buildDigestMessage(FR, digestOf({ currencies: [currencyDay('USD', { closing })] })))).toContain("la journée n'est pas terminée");
  });

  it('counts payouts by outcome with totals, and says which way the money of a sent payout goes', () => {
    const payouts = noPayouts.map((outcome) =>
      outcome.outcome === 'sent'
        ? {
            ...outcome,
            count: 2,
            totals: [
              { currency: 'JPY', minor: 1500 },
              { currency: 'KWD', minor: 1005 },
            ],
          }
        : outcome.outcome === 'unknown'
          ? { ...outcome, count: 1, totals: [{ currency: 'USD', minor: 300 }] }
          : outcome,
    );
    const text = blockText(buildDigestMessage(EN, digestOf({ payouts })));
    expect(text).toContain('Sent: 2 payouts (1,500 JPY · 1.005 KWD)');
    expect(text).toContain('Outcome still unknown: 1 payout (3.00 USD)');
    expect(text).toContain("debits the platform's wallet user and credits the fleet account");
    expect(blockText(buildDigestMessage(FR, digestOf({ payouts })))).toContain('Envoyés : 2 paiements (1\u202f500 JPY · 1,005 KWD)');
  });

  it('is short on a quiet day, and says so', () => {
    const reply = buildDigestMessage(
      EN,
      digestOf({ quiet: true, entryCount: 0, currencies: [currencyDay('USD', { inMinor: 0, outMinor: 0, netMinor: 0, countsByType: [], largest: [] })] }),
    );
    expect(blockText(reply)).toContain('A quiet day');
    expect(blockText(reply)).toContain('Closing balances: 98,765.43 USD');
    expect(blockText(reply)).not.toContain('Payouts through this app');
    expect(reply.blocks.length).toBeLessThanOrEqual(5);
  });

  it('says it is late when posted after its time', () => {
    const text = blockText(buildDigestMessage(EN, digestOf(), { lateDueAt: new Date('2026-11-21T07:00:00Z') }));
    expect(text).toContain('Posted late');
    expect(blockText(buildDigestMessage(EN, digestOf()))).not.toContain('Posted late');
  });

  it('lists long-waiting requests with their requester', () => {
    const waiting = [{ id: 'PR-7K3F9Q', requestedBy: 'U0REQUESTER', requestedAt: new Date('2026-11-20T06:00:00Z'), amountMinor: 15000, currency: 'USD' }];
    const text = blockText(buildDigestMessage(EN, digestOf({ waiting, waitingTotal: 14 })));
    expect(text).toContain('Waiting for approval for more than 12 h');
    expect(text).toContain('`PR-7K3F9Q` 150.00 USD, requested by <@U0REQUESTER>');
    expect(text).toContain('and 13 more requests waiting.');
  });

  it('shows every currency of an ordinary day', () => {
    const text = blockText(buildDigestMessage(EN, digestOf({ currencies: ['CDF', 'EUR', 'JPY', 'KWD', 'USD'].map((code) => currencyDay(code)) })));
    for (const code of ['CDF', 'EUR', 'JPY', 'KWD', 'USD']) expect(text).toContain(`*${code}*`);
    expect(text).not.toContain('more currenc');
  });

  it('stays within Block Kit limits with hostile text and many currencies, in English and in French', () => {
    const currencies = Array.from({ length: 80 }, (_, index) =>
      currencyDay(`C${String(index).padStart(2, '0')}`, {
        countsByType: Array.from({ length: 30 }, (_, type) => ({ type: `${hostile}${type}`, count: type + 1 })),
        notCompleted: 2,
        largest: Array.from({ length: 5 }, () => ({
          reference: hostile,
          type: hostile,
          description: hostile,
          amountMinor: -Number.MAX_SAFE_INTEGER,
          date: '2026-11-20T09:00:00.000Z',
        })),
      }),
    );
    const waiting = Array.from({ length: 10 }, (_, index) => ({
      id: `PR-${index}`,
      requestedBy: '<!here>',
      requestedAt: new Date(),
      amountMinor: 1,
      currency: 'USD',
    }));
    for (const surface of [EN, FR]) {
      const reply = buildDigestMessage(surface, digestOf({ currencies, timeZone: hostile, waiting, waitingTotal: 500 }));
      expect(checkMessage(reply.blocks, reply.text)).toEqual([]);
      expect(reply.blocks.length).toBeLessThanOrEqual(50);
      const text = blockText(reply);
      expect(text).not.toContain('<!channel>');
      expect(text).not.toContain('<!here>');
      expect(text).not.toContain('<https://evil');
      expect(text).toMatch(surface.locale === 'en' ? /\d+ more currencies are not shown here/ : /\d+ autres devises ne sont pas affichées ici/);
      expect(text).toContain(surface.locale === 'en' ? 'Waiting for approval' : "En attente d'approbation");
    }
  });
});

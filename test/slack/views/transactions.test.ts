import { describe, expect, it } from 'vitest';
import { checkMessage, checkView } from '@fleet-treasury-bot/local-slack';
import { LOCALES } from '../../../src/i18n/index.js';
import type { TransactionSearch } from '../../../src/ledger/query-text.js';
import { searchFromFields } from '../../../src/ledger/query-text.js';
import type { LedgerEntry, LedgerStatus } from '../../../src/ledger/types.js';
import { buildLedgerStatusMessage } from '../../../src/slack/views/ledger-status.js';
import { buildTransactionFilterModal } from '../../../src/slack/views/transaction-filter.js';
import {
  buildQueryProblemMessage,
  buildSearchResultsMessage,
  buildTransactionsMessage,
  decodePageRequest,
  describeSearch,
  encodePageRequest,
} from '../../../src/slack/views/transactions.js';

const readAt = new Date('2026-11-21T10:00:00.000Z');
const complete: LedgerStatus = { loaded: 40_000, historyComplete: true, estimatedTotal: undefined, upToDateSince: readAt, lastPollAt: readAt };
const loading: LedgerStatus = { loaded: 12_300, historyComplete: false, estimatedTotal: 40_000, upToDateSince: undefined, lastPollAt: readAt };
const full: TransactionSearch = {
  currency: 'USD',
  type: 'PAYMENT',
  status: 'Completed',
  direction: 'out',
  since: '2026-11-01',
  until: '2026-11-15',
  min: '100',
  max: '5000.5',
  words: ['INV-42', 'office rent'],
};

function entry(index: number, overrides: Partial<LedgerEntry> = {}): LedgerEntry {
  return {
    key: `k${index}`,
    reference: `INV-${index}`,
    type: 'PAYMENT',
    amountMinor: -15050,
    currency: 'USD',
    description: `Entry ${index}`,
    date: new Date(readAt.getTime() - index * 60_000).toISOString(),
    status: 'Completed',
    firstSeenAt: readAt,
    late: false,
    ...overrides,
  };
}

const texts = (reply: { blocks: unknown[] }) => JSON.stringify(reply.blocks);
const results = (overrides: Partial<Parameters<typeof buildSearchResultsMessage>[1]> = {}) => ({
  search: full,
  page: 1,
  pageSize: 10,
  entries: [entry(1), entry(2)],
  total: 23,
  storedUpTo: 4321,
  newer: 0,
  status: complete,
  timeZone: 'Europe/Paris',
  ...overrides,
});

describe('search results', () => {
  it('state the search in words, the count with its range, and the time zone of days', () => {
    const reply = buildSearchResultsMessage({ sandbox: false, locale: 'en' }, results());
    expect(reply.text).toContain('23 matches, showing 1–2, newest first.');
    const blocks = texts(reply);
    expect(blocks).toContain(
      'in USD · type `PAYMENT` · status `Completed` · money out · from Nov 1, 2026 to Nov 15, 2026 · amount from 100 to 5,000.5 · containing “INV-42”, “office rent”',
    );
    expect(blocks).toContain('Days are read in Europe/Paris.');
    expect(blocks).toContain('*-150.50 USD* · PAYMENT · Completed');
    expect(blocks).toContain('"text":"Filter"');
    expect(blocks).not.toContain('"text":"Previous"');
  });

  it('are written in French with French numbers and plural forms', () => {
    const reply = buildSearchResultsMessage({ sandbox: false, locale: 'fr' }, results({ page: 2, total: 12 }));
    expect(reply.text).toContain('12 résultats, affichés de 11 à 12');
    const blocks = texts(reply);
    expect(blocks).toContain(
      'en USD · type `PAYMENT` · statut `Completed` · sorties · du 1 nov. 2026 au 15 nov. 2026 · montant de 100 à 5\u202f000,5 · contenant « INV-42 », « office rent »',
    );
    expect(blocks).toContain('fuseau horaire Europe/Paris');
    expect(blocks).toContain('"text":"Précédent"');
    expect(blocks).toContain('"text":"Filtrer"');
    expect(buildSearchResultsMessage({ sandbox: false, locale: 'fr' }, results({ total: 1, entries: [entry(1)] })).text).toContain(
      '1 résultat, affiché de 1 à 1',
    );
  });

  it('say so when nothing matches, when a page is past the end, and when the history is still loading', () => {
    expect(buildSearchResultsMessage({ sandbox: false, locale: 'en' }, results({ total: 0, entries: [] })).text).toContain(
      'No transaction matches this search.',
    );
    expect(buildSearchResultsMessage({ sandbox: false, locale: 'en' }, results({ page: 4, entries: [] })).text).toContain(
      'Page 4 is past the last match: there are 23 in all.',
    );
    const partial = texts(buildSearchResultsMessage({ sandbox: false, locale: 'en' }, results({ status: loading })));
    expect(partial).toContain('The history is still loading: 12,300 of about 40,000 transactions so far, so older matches may be missing.');
    const partialFr = texts(buildSearchResultsMessage({ sandbox: false, locale: 'fr' }, results({ status: loading })));
    expect(partialFr).toContain('12\u202f300 transactions sur environ 40\u202f000');
  });

  it('keep the search in every paging button, read back the same', () => {
    const reply = buildSearchResultsMessage({ sandbox: false, locale: 'en' }, results({ page: 2, entries: [entry(1)], total: 30 }));
    const buttons = (reply.blocks.at(-1) as { elements: { action_id: string; value: string }[] }).elements;
    const next = buttons.find((button) => button.action_id === 'transactions_page:next')!;
    // Every button carries the point the list was read at, so the next page reads the same list.
    expect(decodePageRequest(next.value, 25)).toEqual({ page: 3, pageSize: 10, search: full, asOf: 4321 });
    expect(decodePageRequest(buttons.find((button) => button.action_id === 'transactions_filter')!.value, 25)).toEqual({
      page: 1,
      pageSize: 10,
      search: full,
      asOf: 4321,
    });
  });

  it('offer the last page past the end instead of a Previous into more empty pages, and say how many there are', () => {
    for (const [locale, words] of [
      ['en', 'Page 99,999 is past the end of the list: there are 23 transactions in all.'],
      ['fr', 'il y a 23 transactions en tout'],
    ] as const) {
      const reply = buildSearchResultsMessage({ sandbox: false, locale }, results({ search: {}, page: 99999, entries: [] }));
      expect(texts(reply)).toContain(words);
      const buttons = (reply.blocks.at(-1) as { elements: { action_id: string; value: string; text: { text: string } }[] }).elements;
      expect(buttons.map((button) => button.text.text)).toEqual([locale === 'en' ? 'Last page (3)' : 'Dernière page (3)']);
      // Read from the other end: the 3 entries after the two full pages.
      expect(decodePageRequest(buttons[0]!.value, 25)).toEqual({ page: 3, pageSize: 10, asOf: 4321, position: { last: true } });
    }
  });

  it('say "more than 10,000" past the count, in both languages, and offer the last page read from the other end', () => {
    const many = { total: 10_000, totalCapped: true, hasNext: true, hasPrevious: true, bounds: { first: 901, last: 877 } };
    const reply = buildSearchResultsMessage({ sandbox: false, locale: 'en' }, results({ ...many, page: 3 }));
    expect(reply.text).toContain('More than 10,000 matches, showing 21–22, newest first.');
    const buttons = (reply.blocks.at(-1) as { elements: { action_id: string; value: string; text: { text: string } }[] }).elements;
    expect(buttons.map((button) => button.text.text)).toEqual(['Previous', 'Next', 'Last page', 'Share in channel', 'Filter']);
    const value = (direction: string) => decodePageRequest(buttons.find((button) => button.action_id === `transactions_page:${direction}`)!.value, 25);
    // Previous and Next start from the page's first and last entries; the last page is counted from the end.
    expect(value('previous')).toEqual({ page: 2, pageSize: 10, search: full, asOf: 4321, position: { before: 901 } });
    expect(value('next')).toEqual({ page: 4, pageSize: 10, search: full, asOf: 4321, position: { after: 877 } });
    expect(value('last')).toEqual({ page: -1, pageSize: 10, search: full, asOf: 4321, position: { last: true } });

    const french = buildSearchResultsMessage({ sandbox: false, locale: 'fr' }, results({ ...many, search: {}, page: 1 }));
    expect(french.text).toContain('Plus de 10\u202f000 transactions, affichées de 1 à 2');
    expect(texts(french)).toContain('"text":"Dernière page"');
    const fromEnd = buildSearchResultsMessage({ sandbox: false, locale: 'fr' }, results({ ...many, hasNext: false, page: -2 }));
    expect(fromEnd.text).toContain('Plus de 10\u202f000 résultats : page 2 depuis la fin');
    expect(buildSearchResultsMessage({ sandbox: false, locale: 'en' }, results({ ...many, search: {}, hasNext: false, page: -1 })).text).toContain(
      'More than 10,000 transactions, showing page 1 from the end (the oldest last).',
    );
  });

  it('read keyset and last-page buttons back, and refuse a page counted from the end without its position', () => {
    expect(decodePageRequest('3.77a120|10|', 25)).toEqual({ page: 3, pageSize: 10, asOf: 77, position: { after: 120 } });
    expect(decodePageRequest('-2.77b99|10|usd', 25)).toEqual({ page: -2, pageSize: 10, asOf: 77, position: { before: 99 }, search: { words: ['usd'] } });
    expect(decodePageRequest('-1.77l|10|', 25)).toEqual({ page: -1, pageSize: 10, asOf: 77, position: { last: true } });
    expect(encodePageRequest({ page: -1, pageSize: 10, asOf: 77, position: { last: true } })).toBe('-1.77l|10|');
    expect(decodePageRequest('-2.77|10|', 25)).toBeUndefined();
    expect(decodePageRequest('0.77a1|10|', 25)).toBeUndefined();
    expect(decodePageRequest('2.77x5|10|', 25)).toBeUndefined();
  });

  it('show the plain list from the ledger without a search line, and say when newer entries arrived since it was read', () => {
    const reply = buildSearchResultsMessage({ sandbox: false, locale: 'en' }, results({ search: {}, newer: 2 }));
    expect(texts(reply)).toContain('23 transactions, showing 1–2, newest first.');
    expect(texts(reply)).toContain('2 newer transactions arrived since this list was read; these pages stay as they were.');
    expect(texts(reply)).not.toContain('Search:');
    const shared = buildSearchResultsMessage({ sandbox: false, locale: 'en' }, results({ search: {}, newer: 2 }), { sharedBy: 'U0RITA' });
    expect(texts(shared)).not.toContain('newer');
  });

  it('read page buttons sent before paging was pinned, and refuse a pin that is not a number', () => {
    expect(decodePageRequest('2|10|', 25)).toEqual({ page: 2, pageSize: 10 });
    expect(decodePageRequest('{"page":2,"size":10}', 25)).toEqual({ page: 2, pageSize: 10 });
    expect(decodePageRequest('2.77|10|', 25)).toEqual({ page: 2, pageSize: 10, asOf: 77 });
    expect(decodePageRequest('2.x|10|', 25)).toBeUndefined();
  });

  it('stay within Block Kit limits in both languages with 25 long rows and hostile words', () => {
    const hostile: TransactionSearch = { ...full, type: '<!channel>'.repeat(5), words: Array.from({ length: 10 }, () => `<!here>${'&'.repeat(30)}`) };
    for (const locale of LOCALES) {
      const rows = Array.from({ length: 25 }, (_, i) => entry(i, { description: 'x'.repeat(5000), reference: '<'.repeat(300) }));
      const reply = buildSearchResultsMessage(
        { sandbox: true, locale },
        results({ search: hostile, entries: rows, pageSize: 25, page: 3, total: 1_000_000, status: loading }),
      );
      expect(checkMessage(reply.blocks, reply.text)).toEqual([]);
      // Button values are never shown; everything a person reads is escaped.
      const shown = JSON.stringify(reply.blocks.filter((block) => block.type !== 'actions'));
      expect(shown).not.toContain('<!channel>');
      expect(shown).not.toContain('<!here>');
    }
  });
});

describe('paging button values', () => {
  it('read the values of buttons sent before searches existed', () => {
    expect(decodePageRequest('{"page":2,"size":10}', 25)).toEqual({ page: 2, pageSize: 10 });
  });

  it('refuse forged values instead of trusting them', () => {
    expect(decodePageRequest('2|99|', 25)).toBeUndefined();
    expect(decodePageRequest('0|10|', 25)).toBeUndefined();
    expect(decodePageRequest('1|10|colour:red', 25)).toBeUndefined();
    expect(decodePageRequest(`1|10|${'x'.repeat(3000)}`, 25)).toBeUndefined();
    expect(decodePageRequest(undefined, 25)).toBeUndefined();
  });

  it('stay under 2,000 characters for the longest search a person can type', () => {
    const words = Array.from({ length: 120 }, () => '"a"');
    const value = encodePageRequest({ page: 999_999, pageSize: 25, search: { ...full, words: words.map(() => 'a b') } });
    expect(value.length).toBeLessThan(2000);
  });
});

describe('the plain list', () => {
  it("offers Filter only when searches work, in the reader's language", () => {
    const page = { page: 1, pageSize: 10, firstItem: 1, transactions: [], hasNext: false, readAt };
    expect(texts(buildTransactionsMessage({ sandbox: false, locale: 'en' }, { ...page, transactions: [] }))).not.toContain('transactions_filter');
    const fr = buildTransactionsMessage({ sandbox: false, locale: 'fr' }, page, { filterButton: true });
    expect(fr.text).toContain('Le compte de flotte n’a encore aucune transaction.');
    expect(texts(fr)).toContain('"text":"Filtrer"');
  });
});

describe('describeSearch', () => {
  it('says "all transactions" for an empty search', () => {
    expect(describeSearch('en', {})).toBe('all transactions');
    expect(describeSearch('fr', { since: '2026-11-01' })).toBe('à partir du 1 nov. 2026');
    expect(describeSearch('en', { until: '2026-11-15', max: '20' })).toBe('up to Nov 15, 2026 · amount at most 20');
  });
});

describe('usage replies', () => {
  it('name the word that could not be read, escaped, in both languages', () => {
    const en = buildQueryProblemMessage({ sandbox: false, locale: 'en' }, { code: 'unknown_filter', word: 'colour:<!channel>' }, { maxPageSize: 25 });
    expect(en.text).toContain("I don't know the filter `colour:&lt;!channel&gt;`");
    expect(en.text).toContain('/fleet tx currency:USD');
    const fr = buildQueryProblemMessage({ sandbox: false, locale: 'fr' }, { code: 'bad_page_size', word: '26' }, { maxPageSize: 25 });
    expect(fr.text).toContain('`26` : la taille de page doit être un nombre entier de 1 à 25.');
    expect(fr.text).toContain('devise:USD');
  });
});

describe('the Filter modal', () => {
  it('is filled from the search, with what has no control of its own in the text field', () => {
    const modal = buildTransactionFilterModal(
      { sandbox: false, locale: 'en' },
      {
        search: { ...full, currency: 'JPY' },
        currencies: ['USD', 'EUR', 'CDF'],
        timeZone: 'Africa/Kinshasa',
        privateMetadata: '{}',
      },
    );
    const json = JSON.stringify(modal);
    expect(json).toContain('"initial_date":"2026-11-01"');
    expect(json).toContain('"initial_date":"2026-11-15"');
    // Written as the person types it, so that submitting the modal unchanged reads the same amount.
    expect(json).toContain('"initial_value":"5000.5"');
    expect(json).toContain('"initial_value":"currency:JPY status:Completed INV-42 \\"office rent\\""');
    expect(json).toContain('Days are read in Africa/Kinshasa.');
  });

  it('fills amounts that submit unchanged without being refused as ambiguous, in both languages', () => {
    for (const locale of LOCALES) {
      const modal = buildTransactionFilterModal(
        { sandbox: false, locale },
        {
          search: { min: '1.234', max: '5000' },
          currencies: ['USD'],
          timeZone: 'UTC',
          privateMetadata: '{}',
        },
      );
      const values = [...JSON.stringify(modal).matchAll(/"block_id":"filter_(min|max)".*?"initial_value":"([^"]*)"/g)].map((match) => match[2]!);
      expect(values).toHaveLength(2);
      expect(searchFromFields({ min: values[0], max: values[1] }, { locale })).toMatchObject({ ok: true, search: { min: '1.234', max: '5000' } });
    }
  });

  it("stays within Slack's limits in both languages, title at most 24 characters", () => {
    for (const locale of LOCALES) {
      const modal = buildTransactionFilterModal(
        { sandbox: true, locale },
        {
          search: { ...full, words: Array.from({ length: 40 }, () => 'x'.repeat(20)) },
          currencies: ['USD', 'EUR', 'CDF'],
          timeZone: 'America/Argentina/ComodRivadavia',
          privateMetadata: '{}',
        },
      );
      expect(modal.title.text.length).toBeLessThanOrEqual(24);
      expect(checkView(modal as unknown as Record<string, unknown>)).toEqual([]);
    }
  });
});

describe('the /fleet ledger reply', () => {
  it('says how far the history is, in both languages', () => {
    const en = buildLedgerStatusMessage({ sandbox: false, locale: 'en' }, loading, 'UTC');
    expect(en.text).toContain('History: 12,300 of about 40,000 transactions loaded so far.');
    const fr = buildLedgerStatusMessage({ sandbox: false, locale: 'fr' }, loading, 'UTC');
    expect(fr.text).toContain('Historique : 12\u202f300 transactions chargées sur environ 40\u202f000');
    const done = buildLedgerStatusMessage({ sandbox: false, locale: 'en' }, complete, 'UTC');
    expect(done.text).toContain('History: complete, 40,000 transactions; up to date since <!date^');
    expect(buildLedgerStatusMessage({ sandbox: false, locale: 'en' }, undefined, 'UTC').text).toContain('not turned on');
    for (const locale of LOCALES) {
      for (const status of [loading, complete, undefined]) {
        const reply = buildLedgerStatusMessage({ sandbox: true, locale }, status, 'Europe/Paris');
        expect(checkMessage(reply.blocks, reply.text)).toEqual([]);
      }
    }
  });
});

describe('hostile text in searches and entries', () => {
  const SEED = '<!channel> <http://x|y> <@U0BOSS> & \u202Eevil\u202C \u200Bz\uFEFF \u0007';
  // eslint-disable-next-line no-control-regex -- finding control characters is the point
  const INVISIBLE = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u200B-\u200F\u202A-\u202E\u2066-\u2069\uFEFF]/;
  // Every string a person reads: the fallback text and each text in the blocks (button values are never shown).
  const shown = (reply: { text: string; blocks: unknown[] }) => {
    const parts = [reply.text];
    const visit = (node: unknown): void => {
      if (Array.isArray(node)) node.forEach(visit);
      else if (node && typeof node === 'object') {
        for (const [key, value] of Object.entries(node))
          if (key === 'text' && typeof value === 'string') parts.push(value);
          else visit(value);
      }
    };
    visit((reply.blocks as { type: string }[]).filter((block) => block.type !== 'actions'));
    return parts.join('\n');
  };

  it('can never ping, link or show an invisible character, in either language', () => {
    const search: TransactionSearch = { type: SEED, status: SEED, words: [SEED, SEED.repeat(10)] };
    for (const locale of LOCALES) {
      const rows = Array.from({ length: 25 }, (_, i) => entry(i, { reference: SEED, description: SEED.repeat(50), type: SEED, status: SEED, currency: 'USD' }));
      const replies = [
        buildSearchResultsMessage({ sandbox: true, locale }, results({ search, entries: rows, pageSize: 25 })),
        buildQueryProblemMessage({ sandbox: true, locale }, { code: 'unknown_filter', word: SEED }, { maxPageSize: 25 }),
      ];
      for (const reply of replies) {
        expect(checkMessage(reply.blocks, reply.text)).toEqual([]);
        const text = shown(reply);
        for (const hazard of ['<!channel>', '<http://x', '<@U0BOSS>']) expect(text).not.toContain(hazard);
        expect(INVISIBLE.test(text)).toBe(false);
      }
    }
  });
});

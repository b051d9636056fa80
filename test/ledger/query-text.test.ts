import { describe, expect, it } from 'vitest';
import { ledgerFilterFor, parseSearchText, parseTransactionQuery, readDecimal, searchFromFields, searchToText, tokenize } from '../../src/ledger/query-text.js';
import { startOfDay } from '../../src/core/calendar.js';

const search = (text: string, locale: 'en' | 'fr' = 'en') => {
  const result = parseTransactionQuery(text, { locale });
  if (!result.ok) throw new Error(`${text}: ${result.problem.code} ${result.problem.word}`);
  return result.query;
};
const problem = (text: string, locale: 'en' | 'fr' = 'en') => {
  const result = parseTransactionQuery(text, { locale });
  if (result.ok) throw new Error(`${text} was read`);
  return result.problem;
};

describe('the /fleet tx text', () => {
  it('keeps the forms from before filters: nothing, a page, a page and a size, named options', () => {
    expect(search('')).toEqual({ search: {}, page: 1, pageSize: 10 });
    expect(search('3')).toEqual({ search: {}, page: 3, pageSize: 10 });
    expect(search('2 25')).toEqual({ search: {}, page: 2, pageSize: 25 });
    expect(search('page 4 size 5')).toEqual({ search: {}, page: 4, pageSize: 5 });
    expect(search('size=20')).toEqual({ search: {}, page: 1, pageSize: 20 });
    expect(search('page:2 size:5')).toEqual({ search: {}, page: 2, pageSize: 5 });
  });

  it('refuses the paging it refused before, naming the word', () => {
    expect(problem('1 26')).toEqual({ code: 'bad_page_size', word: '26' });
    expect(problem('0')).toEqual({ code: 'bad_page', word: '0' });
    expect(problem('1 2 3')).toEqual({ code: 'too_many_numbers', word: '1 2 3' });
    expect(problem('page 2 3')).toMatchObject({ code: 'too_many_numbers' });
  });

  it('reads every filter of the issue at once, with free words', () => {
    const query = search('currency:usd type:PAYMENT status:Completed out since:2026-11-01 until:2026-11-15 min:100 max:5000 INV-42 2 25');
    expect(query).toEqual({
      search: {
        currency: 'USD',
        type: 'PAYMENT',
        status: 'Completed',
        direction: 'out',
        since: '2026-11-01',
        until: '2026-11-15',
        min: '100',
        max: '5000',
        words: ['INV-42'],
      },
      page: 2,
      pageSize: 25,
    });
    expect(search('in').search).toEqual({ direction: 'in' });
  });

  it('reads French filter words', () => {
    expect(search("devise:CDF statut:Completed sortant depuis:2026-11-01 jusqu'au:2026-11-15 min:150,25", 'fr').search).toEqual({
      currency: 'CDF',
      status: 'Completed',
      direction: 'out',
      since: '2026-11-01',
      until: '2026-11-15',
      min: '150.25',
    });
    // Slack's clients turn ' into ’; both spellings without the apostrophe too.
    expect(search('jusqu’au:2026-11-15').search.until).toBe('2026-11-15');
    expect(search('jusqua:2026-11-15 entrant').search).toEqual({ until: '2026-11-15', direction: 'in' });
    expect(search('sens:sortant').search.direction).toBe('out');
  });

  it('keeps quoted phrases whole, with straight, curly and angle quotes', () => {
    expect(search('"office rent" INV-42').search.words).toEqual(['office rent', 'INV-42']);
    expect(search('“loyer  bureau” 7').search).toEqual({ words: ['loyer bureau'] });
    expect(search('« loyer bureau »').search.words).toEqual(['loyer bureau']);
    expect(search('"42" "in" "since:2026"').search.words).toEqual(['42', 'in', 'since:2026']);
    expect(search('type:"CARD REFUND"').search.type).toBe('CARD REFUND');
    expect(tokenize('"unclosed phrase')).toEqual([{ text: 'unclosed phrase', phrase: true }]);
  });

  it('names the word of an unknown filter, a bad date, amount or currency', () => {
    expect(problem('colour:blue')).toEqual({ code: 'unknown_filter', word: 'colour:blue' });
    expect(problem('since:2026-02-30')).toEqual({ code: 'bad_date', word: 'since:2026-02-30' });
    expect(problem('until:15/11/2026')).toEqual({ code: 'bad_date', word: 'until:15/11/2026' });
    expect(problem('min:abc')).toEqual({ code: 'bad_amount', word: 'min:abc' });
    expect(problem('max:-5')).toEqual({ code: 'bad_amount', word: 'max:-5' });
    expect(problem('currency:dollars')).toEqual({ code: 'bad_currency', word: 'currency:dollars' });
    expect(problem('status:')).toEqual({ code: 'empty_value', word: 'status:' });
    expect(problem('direction:up')).toEqual({ code: 'unknown_filter', word: 'direction:up' });
    expect(problem('currency:USD currency:EUR')).toEqual({ code: 'repeated_filter', word: 'currency:EUR' });
    expect(problem('in out')).toEqual({ code: 'repeated_filter', word: 'out' });
    expect(problem('since:2026-11-15 until:2026-11-01')).toMatchObject({ code: 'dates_reversed' });
    expect(problem('min:500 max:100.5')).toMatchObject({ code: 'amounts_reversed' });
    expect(problem('x'.repeat(600))).toMatchObject({ code: 'too_long' });
  });

  it("refuses an amount that reads two ways in the person's language", () => {
    expect(problem('min:1,500')).toEqual({ code: 'ambiguous_amount', word: 'min:1,500' });
    expect(problem('min:1,500', 'fr')).toEqual({ code: 'ambiguous_amount', word: 'min:1,500' });
    expect(problem('min:1.500', 'fr')).toEqual({ code: 'ambiguous_amount', word: 'min:1.500' });
    expect(search('min:1.500').search.min).toBe('1.5');
  });

  it('reads amounts as exact decimals', () => {
    expect(readDecimal('0100.50', 'en')).toEqual({ ok: true, value: '100.5' });
    expect(readDecimal('100.00', 'en')).toEqual({ ok: true, value: '100' });
    expect(readDecimal('1 500,5', 'fr')).toEqual({ ok: true, value: '1500.5' });
    expect(readDecimal('999999999999999.999', 'en')).toEqual({ ok: true, value: '999999999999999.999' });
    expect(readDecimal('1e3', 'en')).toMatchObject({ ok: false });
    // The same reading as a payout's amount: grouped thousands with a decimal mark are unambiguous.
    expect(readDecimal('1,500.50', 'en')).toEqual({ ok: true, value: '1500.5' });
    expect(readDecimal('1.500,50', 'fr')).toEqual({ ok: true, value: '1500.5' });
  });

  it("takes numbers as words in the Filter modal's text field, and no paging there", () => {
    expect(parseSearchText('INV 42 out')).toEqual({ ok: true, search: { words: ['INV', '42'], direction: 'out' } });
    expect(parseSearchText('page:2')).toEqual({ ok: false, problem: { code: 'unknown_filter', word: 'page:2' } });
  });
});

describe('a search written back as text', () => {
  it('reads back into the same search', () => {
    const texts = [
      'currency:USD type:PAYMENT status:Completed out since:2026-11-01 until:2026-11-15 min:100 max:5000.5 INV-42',
      'type:"CARD REFUND" "office rent" "42" "in" "since:x" "page"',
      '',
    ];
    for (const text of texts) {
      const first = search(text).search;
      expect(search(searchToText(first)).search).toEqual(first);
    }
  });
});

describe('calendar days in the ledger time zone', () => {
  it('makes until: inclusive of its day, in UTC by default', () => {
    const filter = ledgerFilterFor({ since: '2026-11-01', until: '2026-11-15' }, 'UTC');
    expect(filter.since?.toISOString()).toBe('2026-11-01T00:00:00.000Z');
    expect(filter.before?.toISOString()).toBe('2026-11-16T00:00:00.000Z');
  });

  it('starts days at local midnight in Europe/Paris across both DST changes', () => {
    // Summer time ends on 25 October 2026 (a 25-hour day) and starts on 29 March 2026 (23 hours).
    expect(startOfDay('2026-10-25', 'Europe/Paris').toISOString()).toBe('2026-10-24T22:00:00.000Z');
    expect(startOfDay('2026-10-26', 'Europe/Paris').toISOString()).toBe('2026-10-25T23:00:00.000Z');
    expect(startOfDay('2026-03-29', 'Europe/Paris').toISOString()).toBe('2026-03-28T23:00:00.000Z');
    expect(startOfDay('2026-03-30', 'Europe/Paris').toISOString()).toBe('2026-03-29T22:00:00.000Z');
    const filter = ledgerFilterFor({ since: '2026-10-25', until: '2026-10-25' }, 'Europe/Paris');
    expect((filter.before!.getTime() - filter.since!.getTime()) / 3_600_000).toBe(25);
  });

  it('starts a day whose midnight is skipped at the first instant that exists', () => {
    // Santiago moved its clocks from 00:00 to 01:00 on 6 September 2026.
    expect(startOfDay('2026-09-06', 'America/Santiago').toISOString()).toBe('2026-09-06T04:00:00.000Z');
    expect(startOfDay('2026-11-16', 'Africa/Kinshasa').toISOString()).toBe('2026-11-15T23:00:00.000Z');
    expect(startOfDay('2026-11-16', 'Pacific/Kiritimati').toISOString()).toBe('2026-11-15T10:00:00.000Z');
  });

  it('passes amounts, words and direction through to the store filter', () => {
    expect(ledgerFilterFor({ currency: 'USD', direction: 'in', min: '100', max: '5000.5', words: ['INV-42'] }, 'UTC')).toEqual({
      currency: 'USD',
      direction: 'in',
      minAmount: '100',
      maxAmount: '5000.5',
      words: ['INV-42'],
    });
  });
});

describe('the Filter modal fields', () => {
  it('reads every field, the text field like /fleet tx, the fields winning over the text', () => {
    expect(
      searchFromFields({
        currency: 'usd',
        type: 'PAYMENT',
        direction: 'out',
        since: '2026-11-01',
        until: '2026-11-15',
        min: '100',
        max: '5000.50',
        text: 'currency:EUR status:Completed "office rent" 42',
      }),
    ).toEqual({
      ok: true,
      search: {
        currency: 'USD',
        type: 'PAYMENT',
        direction: 'out',
        since: '2026-11-01',
        until: '2026-11-15',
        min: '100',
        max: '5000.5',
        status: 'Completed',
        words: ['office rent', '42'],
      },
    });
    expect(searchFromFields({})).toEqual({ ok: true, search: {} });
    expect(searchFromFields({ min: '1 500,5' }, { locale: 'fr' })).toEqual({ ok: true, search: { min: '1500.5' } });
  });

  it('puts each problem under its own field', () => {
    expect(searchFromFields({ min: 'lots', until: '2026-11-01', since: '2026-11-15', text: 'colour:red' })).toEqual({
      ok: false,
      errors: {
        min: { code: 'bad_amount', word: 'lots' },
        until: { code: 'dates_reversed', word: '2026-11-15 > 2026-11-01' },
        text: { code: 'unknown_filter', word: 'colour:red' },
      },
    });
    expect(searchFromFields({ min: '500', max: '20' })).toMatchObject({ ok: false, errors: { max: { code: 'amounts_reversed' } } });
  });
});

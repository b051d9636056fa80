/**
 * The transaction list's pages over the stored ledger: Next and Previous read by
 * keyset give exactly the pages an offset would, ties on a timestamp included; totals are exact up
 * to 10,000 and "more than" beyond; the last page is read from the other end; migration 026's
 * indexes exist and the list's queries can be answered through them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StoredLedgerReader } from '../../src/ledger/reader.js';
import { MATCH_COUNT_LIMIT, type LedgerFilter, type LedgerPage } from '../../src/ledger/types.js';
import type { Db, Queryable } from '../../src/store/db.js';
import { testDatabases } from '../support/databases.js';

const NEWEST = Date.parse('2026-11-20T12:00:00.000Z');

/**
 * Rows 1..count (row 1 the newest), inserted newest first so that seq does not follow the date.
 * `tieEvery` > 1 puts that many consecutive rows on one millisecond; currency, type, status and sign vary.
 */
async function fill(db: Queryable, count: number, tieEvery = 1): Promise<void> {
  await db.query(
    `INSERT INTO ledger_entries (entry_key, reference, occurrence, type, status, amount, amount_minor, currency, description, date_text, entry_at, first_seen_at, late, words)
     SELECT 'R-' || i || '#1', 'R-' || i, 1, typ, stat, minor / 100.0, minor, cur, 'Entry ' || i || CASE WHEN i % 97 = 0 THEN ' rare' ELSE '' END,
            to_char(at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), at, now(), false,
            ARRAY['r-' || i, 'r', i::text, 'entry'] || CASE WHEN i % 97 = 0 THEN ARRAY['rare'] ELSE ARRAY[]::text[] END
       FROM (
         SELECT i, to_timestamp(($2::bigint - ((i - 1) / $3::integer) * 60000) / 1000.0) AS at,
                CASE WHEN i % 3 = 0 THEN 'EUR' ELSE 'USD' END AS cur,
                CASE WHEN i % 4 = 0 THEN 'B2B_JIT_FUNDING' ELSE 'PAYMENT' END AS typ,
                CASE WHEN i % 50 = 0 THEN 'Reversed' ELSE 'Completed' END AS stat,
                CASE WHEN i % 2 = 0 THEN -(i * 7 % 900 + 100) ELSE i * 13 % 250000 + 100 END AS minor
           FROM generate_series(1, $1::integer) AS i ORDER BY i
       ) g`,
    [count, NEWEST, tieEvery],
  );
}

const references = (page: LedgerPage) => page.entries.map((entry) => entry.reference);

describe.each(testDatabases())('ledger list pages on $name', ({ open }) => {
  let db: Db;
  let reader: StoredLedgerReader;
  beforeAll(async () => {
    db = await open();
    reader = new StoredLedgerReader(db);
  });
  afterAll(async () => {
    await db?.close();
  });

  describe('over 120 entries, four to a millisecond', () => {
    beforeAll(async () => {
      await db.query('DELETE FROM ledger_entries');
      await fill(db, 120, 4);
    });

    const filters: Array<[string, LedgerFilter]> = [
      ['everything', {}],
      ['a currency', { currency: 'EUR' }],
      ['a direction', { direction: 'out' }],
      ['a type and an amount', { type: 'payment', minAmount: '5' }],
      ['a word', { words: ['entry'] }],
    ];

    it.each(filters)('turns the pages of %s by keyset exactly as by offset, forwards and back', async (_name, filter) => {
      const size = 7;
      const first = await reader.find(filter, { offset: 0, limit: size });
      const pinned = { ...filter, storedUpTo: first.storedUpTo };
      const byOffset: string[][] = [];
      for (let offset = 0; offset < first.total; offset += size) byOffset.push(references(await reader.find(pinned, { offset, limit: size })));
      expect(byOffset.flat()).toHaveLength(first.total);

      const forwards: string[][] = [references(first)];
      let page = first;
      while (page.hasNext) {
        page = await reader.find(pinned, { after: page.bounds!.last, limit: size });
        forwards.push(references(page));
      }
      expect(forwards).toEqual(byOffset);

      const backwards: string[][] = [references(page)];
      while (page.hasPrevious) {
        page = await reader.find(pinned, { before: page.bounds!.first, limit: size });
        backwards.unshift(references(page));
      }
      expect(backwards).toEqual(byOffset);
      expect(page.hasPrevious).toBe(false);
    });

    it('orders entries of one millisecond the way they were stored, newest stored first', async () => {
      const page = await reader.find({}, { offset: 0, limit: 4 });
      // R-1..R-4 share the newest millisecond and were stored in that order.
      expect(references(page)).toEqual(['R-4', 'R-3', 'R-2', 'R-1']);
    });

    it('reads the last page from the other end: what is left after the full pages, newest first', async () => {
      const last = await reader.find({}, { last: true, limit: 50 });
      expect(last.totalCapped).toBe(false);
      expect(last.entries).toHaveLength(20);
      expect(references(last)).toEqual(references(await reader.find({}, { offset: 100, limit: 50 })));
      expect(last).toMatchObject({ hasPrevious: true, hasNext: false });
      const before = await reader.find({ storedUpTo: last.storedUpTo }, { before: last.bounds!.first, limit: 50 });
      expect(references(before)).toEqual(references(await reader.find({}, { offset: 50, limit: 50 })));
    });
  });

  it('knows how many entries are stored without counting them, through inserts, deletes and truncation', async () => {
    await db.query('DELETE FROM ledger_entries');
    expect((await reader.status()).loaded).toBe(0);
    await fill(db, 30);
    expect((await reader.status()).loaded).toBe(30);
    await db.query("DELETE FROM ledger_entries WHERE currency = 'EUR'");
    expect((await reader.status()).loaded).toBe(20);
    await db.query('TRUNCATE ledger_entries');
    expect((await reader.status()).loaded).toBe(0);
  });

  describe('over more than 10,000 entries', () => {
    beforeAll(async () => {
      await db.query('DELETE FROM ledger_entries');
      await fill(db, MATCH_COUNT_LIMIT + 57);
      await db.query('ANALYZE ledger_entries');
    });

    it('counts exactly up to 10,000 and says "more than" beyond', async () => {
      expect(await reader.find({}, { offset: 0, limit: 10 })).toMatchObject({ total: MATCH_COUNT_LIMIT, totalCapped: true, hasNext: true, hasPrevious: false });
      // R-1 .. R-10,000 dated at or after the 10,000th entry's minute: exactly 10,000.
      const since = new Date(NEWEST - (MATCH_COUNT_LIMIT - 1) * 60_000);
      expect(await reader.find({ since }, { offset: 0, limit: 10 })).toMatchObject({ total: MATCH_COUNT_LIMIT, totalCapped: false });
      expect(await reader.find({ since: new Date(since.getTime() - 60_000) }, { offset: 0, limit: 10 })).toMatchObject({ totalCapped: true });
      expect(await reader.find({ words: ['rare'] }, { offset: 0, limit: 10 })).toMatchObject({
        total: Math.floor((MATCH_COUNT_LIMIT + 57) / 97),
        totalCapped: false,
      });
    });

    it('reads the last page of a list past the count from the other end: the oldest entries, newest first', async () => {
      const last = await reader.find({}, { last: true, limit: 10 });
      expect(references(last)).toEqual(Array.from({ length: 10 }, (_, index) => `R-${MATCH_COUNT_LIMIT + 48 + index}`));
      expect(last).toMatchObject({ totalCapped: true, hasNext: false, hasPrevious: true });
      const previous = await reader.find({ storedUpTo: last.storedUpTo }, { before: last.bounds!.first, limit: 10 });
      expect(references(previous)).toEqual(Array.from({ length: 10 }, (_, index) => `R-${MATCH_COUNT_LIMIT + 38 + index}`));
      // 3,352 EUR entries, an exact total: the last page holds the one left after 1,117 full pages of 3.
      const eur = await reader.find({ currency: 'EUR' }, { last: true, limit: 3 });
      expect(eur).toMatchObject({ total: 3352, totalCapped: false, hasPrevious: true, hasNext: false });
      expect(references(eur)).toEqual(['R-10056']);
    });

    it("has migration 026's indexes, and the list's queries can read each filter through its own", async () => {
      const { rows } = await db.query<{ indexname: string }>("SELECT indexname FROM pg_indexes WHERE tablename = 'ledger_entries'");
      const names = rows.map((row) => row.indexname);
      const expected: Array<[LedgerFilter, string, RegExp?]> = [
        [{}, 'ledger_entries_list'],
        [{ currency: 'GBP' }, 'ledger_entries_list_currency', /ledger_entries_list_currency(_type)?\b/],
        [{ type: 'refund' }, 'ledger_entries_list_type'],
        [{ status: 'failed' }, 'ledger_entries_list_status'],
        [{ currency: 'GBP', type: 'refund' }, 'ledger_entries_list_currency_type', /ledger_entries_list_(currency_type|currency|type)\b/],
        [{ direction: 'in' }, 'ledger_entries_list_in'],
        [{ direction: 'out' }, 'ledger_entries_list_out'],
        [{ minAmount: '900000' }, 'ledger_entries_abs_amount'],
        [{ words: ['nowhere'] }, 'ledger_entries_words'],
      ];
      expect(names).toEqual(expect.arrayContaining(expected.map(([, index]) => index)));
      for (const [filter, index, accepted] of expected) {
        const plans = await plansOf(db, (recorder) => new StoredLedgerReader(recorder).find(filter, { offset: 0, limit: 10 }));
        // The count or the page goes through the filter's index (with sequential scans off, so that the
        // table's small size does not decide: the test is that the index fits the query as written).
        const uses = (plan: string) => (accepted ? accepted.test(plan) : new RegExp(`${index}\\b`).test(plan));
        expect(plans.some(uses), `${JSON.stringify(filter)} via ${index}:\n${plans.join('\n---\n')}`).toBe(true);
      }
    });
  });
});

/** The plans (EXPLAIN, sequential scans off) of the count and page queries `read` makes over ledger_entries. */
async function plansOf(db: Db, read: (recorder: Queryable) => Promise<unknown>): Promise<string[]> {
  const queries: Array<{ sql: string; params: unknown[] }> = [];
  const recorder: Queryable = {
    query: (sql, params = []) => {
      if (/count\(\*\)|ORDER BY entry_at/.test(sql) && !sql.includes('seq >')) queries.push({ sql, params });
      return db.query(sql, params);
    },
  };
  await read(recorder);
  return db.transaction(async (tx) => {
    await tx.query('SET LOCAL enable_seqscan = off');
    const plans: string[] = [];
    for (const { sql, params } of queries) {
      const { rows } = await tx.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${sql}`, params);
      plans.push(rows.map((row) => row['QUERY PLAN']).join('\n'));
    }
    return plans;
  });
}

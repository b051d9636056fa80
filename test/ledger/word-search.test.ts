/**
 * Word search through the word table (migration 027, src/ledger/word-search.ts): a word or phrase
 * held by many entries is read from its rarest word's postings, and answers exactly what the
 * entries' own search (the export's stream, through the GIN index) answers: the same entries, case
 * folded, accents kept as written, pages by keyset equal to pages by offset, "more than 10,000" and
 * the last page from the other end. The table is filled by the statement that stores the entries,
 * kept through deletes, and backfilled for entries stored before the migration.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Transaction } from '../../src/fleet/schemas.js';
import { identifyPage } from '../../src/ledger/identity.js';
import { StoredLedgerReader } from '../../src/ledger/reader.js';
import { insertEntries } from '../../src/ledger/store.js';
import { MATCH_COUNT_LIMIT, type LedgerFilter, type LedgerPage } from '../../src/ledger/types.js';
import { planSearch } from '../../src/ledger/word-search.js';
import { migrate, type Db, type Queryable } from '../../src/store/index.js';
import { migrations } from '../../src/store/migrations/index.js';
import { testDatabases } from '../support/databases.js';

const NEWEST = Date.parse('2026-11-20T12:00:00.000Z');
/** More entries hold each of the frequent words than the reader takes through the GIN index (2,000). */
const ENTRIES = 4_400;
const DESCRIPTIONS = ['Card purchase funding Kin Marché', 'Payout to KIN market', 'Marché kin crafts', 'Café Kinshasa & co'];

/** Entry i (1 the newest, one a minute): descriptions in turn, currencies USD, EUR, CDF in turn, money in for odd i. */
function transaction(i: number): Transaction {
  return {
    reference: `W-${i}`,
    type: i % 5 === 0 ? 'B2B_JIT_FUNDING' : 'PAYMENT',
    amount: i % 2 === 1 ? 10 + (i % 7) : -(20 + (i % 11)),
    currency: ['USD', 'EUR', 'CDF'][i % 3]!,
    description: DESCRIPTIONS[i % 4]!,
    date: new Date(NEWEST - i * 60_000).toISOString(),
    status: 'Completed',
  };
}

/** Stores entries from..to (oldest slice first) a slice of 100 at a time, as the sync does. */
async function store(db: Db, from: number, to: number): Promise<void> {
  for (let last = to; last >= from; last -= 100) {
    const page = [];
    for (let i = Math.max(from, last - 99); i <= last; i += 1) page.push(transaction(i));
    await insertEntries(db, identifyPage(page), { firstSeenAt: new Date(NEWEST), markLate: false });
  }
}

const references = (page: LedgerPage) => page.entries.map((entry) => entry.reference);

/** The matches as the entries' own search finds them (the export's stream), newest first. */
async function expected(reader: StoredLedgerReader, filter: LedgerFilter): Promise<string[]> {
  const found: string[] = [];
  for await (const entry of reader.stream(filter)) found.push(entry.reference);
  return found.reverse();
}

/** Every page from the first by Next, then back by Previous from the last page. */
async function turnPages(
  reader: StoredLedgerReader,
  filter: LedgerFilter,
  size: number,
): Promise<{ forwards: string[]; backwards: string[]; first: LedgerPage }> {
  const first = await reader.find(filter, { offset: 0, limit: size });
  const pinned = { ...filter, storedUpTo: first.storedUpTo };
  const forwards = [...references(first)];
  let page = first;
  while (page.hasNext) {
    page = await reader.find(pinned, { after: page.bounds!.last, limit: size });
    forwards.push(...references(page));
  }
  page = await reader.find(pinned, { last: true, limit: size });
  const backwards = [...references(page)];
  while (page.hasPrevious) {
    page = await reader.find(pinned, { before: page.bounds!.first, limit: size });
    backwards.unshift(...references(page));
  }
  return { forwards, backwards, first };
}

describe.each(testDatabases())('word search on $name', ({ open }) => {
  describe(`over ${ENTRIES} entries stored by slices`, () => {
    let db: Db;
    let reader: StoredLedgerReader;
    beforeAll(async () => {
      db = await open();
      reader = new StoredLedgerReader(db);
      await store(db, 1, ENTRIES);
      await db.query('VACUUM ANALYZE ledger_entries, ledger_words');
    });
    afterAll(async () => {
      await db?.close();
    });

    const searches: Array<[string, LedgerFilter, number]> = [
      ['a word in three entries of four', { words: ['kin'] }, 3_300],
      ['the same word in capitals', { words: ['KIN'] }, 3_300],
      ['a word with an accent, as written', { words: ['Marché'] }, 2_200],
      ['a phrase whose words are each in half the entries', { words: ['kin marché'] }, 1_100],
      ['the phrase in capitals, quoted', { words: ['"KIN MARCHÉ"'] }, 1_100],
      ['the phrase in the other order', { words: ['marché kin'] }, 1_100],
      ['two frequent words', { words: ['kin', 'marché'] }, 2_200],
      ['a frequent word, a currency and a direction', { words: ['kin'], currency: 'EUR', direction: 'out' }, 733],
      ['a frequent word and a date range', { words: ['kin'], since: new Date(NEWEST - 3_000 * 60_000), before: new Date(NEWEST - 1_000 * 60_000) }, 1_500],
    ];

    it.each(searches)("finds %s exactly as the entries' own search does", async (_name, filter, count) => {
      expect((await planSearch(db, filter, 2_000)).kind).toBe('word');
      const all = await expected(reader, filter);
      expect(all).toHaveLength(count);
      const page = await reader.find(filter, { offset: 0, limit: 10 });
      expect(page).toMatchObject({ total: count, totalCapped: false, hasPrevious: false, hasNext: true });
      expect(references(page)).toEqual(all.slice(0, 10));
      expect(references(await reader.find(filter, { offset: 500, limit: 10 }))).toEqual(all.slice(500, 510));
      expect(references(await reader.find(filter, { last: true, limit: 10 }))).toEqual(all.slice(Math.floor((count - 1) / 10) * 10));
    });

    it('finds nothing for a word without its accent, nor for a phrase written across the words', async () => {
      expect(await reader.find({ words: ['marche'] }, { offset: 0, limit: 10 })).toMatchObject({ total: 0, entries: [] });
      expect(await reader.find({ words: ['crafts kin'] }, { offset: 0, limit: 10 })).toMatchObject({ total: 0, entries: [] });
      expect(await reader.find({ words: ['kin', 'kinshasa'] }, { offset: 0, limit: 10 })).toMatchObject({ total: 0, entries: [] });
      const nowhere = { words: ['marché kin marché'] };
      expect((await planSearch(db, nowhere, 2_000)).kind).toBe('word');
      expect(await reader.find(nowhere, { offset: 0, limit: 10 })).toMatchObject({ total: 0, entries: [] });
      expect(await reader.find(nowhere, { last: true, limit: 10 })).toMatchObject({ total: 0, entries: [] });
    });

    it('finds a phrase written inside longer chunks of the text whose words the entry holds apart, as the text search always did', async () => {
      await insertEntries(
        db,
        identifyPage([{ ...transaction(0), reference: 'ODD-1', description: 'Bakin Marchés — kin, marché', date: new Date(NEWEST + 60_000).toISOString() }]),
        { firstSeenAt: new Date(NEWEST), markLate: false },
      );
      const page = await reader.find({ words: ['kin marché'] }, { offset: 0, limit: 2 });
      expect(page).toMatchObject({ total: 1_101 });
      expect(references(page)).toEqual(['ODD-1', 'W-4']);
      await db.query("DELETE FROM ledger_entries WHERE reference = 'ODD-1'");
    });

    it("turns every page of a frequent word by keyset, forwards and back from the last page, as the entries' own search lists them", async () => {
      const filter = { words: ['marché'], currency: 'USD' };
      const all = await expected(reader, filter);
      const { forwards, backwards, first } = await turnPages(reader, filter, 97);
      expect(first.total).toBe(all.length);
      expect(forwards).toEqual(all);
      expect(backwards).toEqual(all);
    });

    it("keeps a first read's pages fixed while entries holding the word arrive, and counts the newer ones", async () => {
      const first = await reader.find({ words: ['kin'] }, { offset: 0, limit: 10 });
      await store(db, 0, 0);
      const next = await reader.find({ words: ['kin'], storedUpTo: first.storedUpTo }, { after: first.bounds!.last, limit: 10 });
      expect(next).toMatchObject({ total: 3_300, newer: 1 });
      expect(references(next)[0]).toBe('W-14');
      await db.query("DELETE FROM ledger_entries WHERE reference = 'W-0'");
    });

    it("drops a deleted entry's words with it, and all words when the ledger is emptied", async () => {
      const { rows: before } = await db.query<{ n: string | number }>("SELECT count(*) AS n FROM ledger_words WHERE word = 'kin'");
      await db.query("DELETE FROM ledger_entries WHERE reference IN ('W-1', 'W-2', 'W-3', 'W-4')");
      const { rows: after } = await db.query<{ n: string | number }>("SELECT count(*) AS n FROM ledger_words WHERE word = 'kin'");
      expect(Number(before[0]!.n) - Number(after[0]!.n)).toBe(3);
      expect(await db.query('SELECT 1 FROM ledger_words WHERE seq NOT IN (SELECT seq FROM ledger_entries)')).toMatchObject({ rows: [] });
      await db.query('TRUNCATE ledger_entries');
      expect(await db.query('SELECT 1 FROM ledger_words')).toMatchObject({ rows: [] });
    });
  });

  describe('over more than 10,000 entries holding one word', () => {
    let db: Db;
    let reader: StoredLedgerReader;
    beforeAll(async () => {
      db = await open();
      reader = new StoredLedgerReader(db);
      // Rows 1..10,057 (row 1 the newest), two to a millisecond, stored in one statement as a backfill would be.
      await db.query(
        `INSERT INTO ledger_entries (entry_key, reference, occurrence, type, status, amount, amount_minor, currency, description, date_text, entry_at, first_seen_at, late, words)
         SELECT 'R-' || i || '#1', 'R-' || i, 1, 'PAYMENT', 'Completed', 1, 100, CASE WHEN i % 3 = 0 THEN 'EUR' ELSE 'USD' END, 'Kin Marché entry',
                to_char(at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), at, now(), false, ARRAY['entry', 'kin', 'marché']
           FROM (SELECT i, to_timestamp(($2::bigint - ((i - 1) / 2) * 60000) / 1000.0) AS at FROM generate_series(1, $1::integer) AS i ORDER BY i) g`,
        [MATCH_COUNT_LIMIT + 57, NEWEST],
      );
      await db.query('VACUUM ANALYZE ledger_entries, ledger_words');
    }, 180_000);
    afterAll(async () => {
      await db?.close();
    });

    it('says "more than 10,000" and reads the last page from the other end: the oldest entries, newest first', async () => {
      const first = await reader.find({ words: ['Entry'] }, { offset: 0, limit: 10 });
      expect(first).toMatchObject({ total: MATCH_COUNT_LIMIT, totalCapped: true, hasNext: true, hasPrevious: false });
      const last = await reader.find({ words: ['entry'], storedUpTo: first.storedUpTo }, { last: true, limit: 10 });
      expect(last).toMatchObject({ totalCapped: true, hasNext: false, hasPrevious: true });
      // Rows of one millisecond: the later stored first (R-10057 is alone on the oldest).
      // Two to a millisecond, the later stored first; R-10057 is alone on the oldest.
      expect(references(last)).toEqual(['R-10047', 'R-10050', 'R-10049', 'R-10052', 'R-10051', 'R-10054', 'R-10053', 'R-10056', 'R-10055', 'R-10057']);
      expect(references(last)).toEqual(references(await reader.find({ words: ['entry'] }, { offset: MATCH_COUNT_LIMIT + 47, limit: 10 })));
      const previous = await reader.find({ words: ['entry'], storedUpTo: first.storedUpTo }, { before: last.bounds!.first, limit: 10 });
      expect(references(previous)).toEqual(references(await reader.find({ words: ['entry'] }, { offset: MATCH_COUNT_LIMIT + 37, limit: 10 })));
    });

    it('says "more than 10,000" for a two-word phrase held by more, and pages it as the word', async () => {
      const first = await reader.find({ words: ['"KIN MARCHÉ"'] }, { offset: 0, limit: 10 });
      expect(first).toMatchObject({ total: MATCH_COUNT_LIMIT, totalCapped: true, hasNext: true });
      const byWord = await reader.find({ words: ['entry'] }, { offset: 0, limit: 10 });
      expect(references(first)).toEqual(references(byWord));
      const last = await reader.find({ words: ['kin marché'], storedUpTo: first.storedUpTo }, { last: true, limit: 10 });
      expect(references(last)).toEqual(references(await reader.find({ words: ['entry'], storedUpTo: first.storedUpTo }, { last: true, limit: 10 })));
    });

    it('counts exactly below 10,000 when another filter narrows the word, and its last page holds what is left', async () => {
      const eur = await reader.find({ words: ['entry'], currency: 'EUR' }, { last: true, limit: 3 });
      expect(eur).toMatchObject({ total: 3352, totalCapped: false, hasPrevious: true, hasNext: false });
      expect(references(eur)).toEqual(['R-10056']);
    });
  });

  it('fills the word table for entries stored before migration 027, and finds them by a frequent word', async () => {
    const db = await open({ migrations: migrations.filter((migration) => migration.id < 27) });
    try {
      // One statement: before 027 there is no word table to fill, and the test stays short under load.
      const old = Array.from({ length: 2_800 }, (_, index) => transaction(index + 1));
      // The insert as it was before tenants (migration 035): entry keys were unique on their own then.
      const beforeTenants: Queryable = {
        query: (sql, params) => db.query(sql.replace('ON CONFLICT (tenant_id, entry_key)', 'ON CONFLICT (entry_key)'), params),
      };
      await insertEntries(beforeTenants, identifyPage(old), { firstSeenAt: new Date(NEWEST), markLate: false });
      await migrate(db, migrations);
      const reader = new StoredLedgerReader(db);
      const filter = { words: ['kin'] };
      expect((await planSearch(db, filter, 2_000)).kind).toBe('word');
      const page = await reader.find(filter, { offset: 0, limit: 5 });
      expect(page).toMatchObject({ total: 2_100, totalCapped: false });
      expect(references(page)).toEqual(['W-1', 'W-2', 'W-4', 'W-5', 'W-6']);
      expect(references(await reader.find(filter, { last: true, limit: 5 }))).toEqual(['W-2794', 'W-2796', 'W-2797', 'W-2798', 'W-2800']);
      const { rows } = await db.query<{ stored: string | number; words: string | number }>(
        "SELECT (SELECT count(*) FROM ledger_words WHERE word NOT LIKE '% %') AS stored, (SELECT sum(cardinality(words)) FROM ledger_entries) AS words",
      );
      expect(Number(rows[0]!.stored)).toBe(Number(rows[0]!.words));
    } finally {
      await db.close();
    }
  });
});

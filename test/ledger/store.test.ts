import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Transaction } from '../../src/fleet/schemas.js';
import { identifyPage } from '../../src/ledger/identity.js';
import { StoredLedgerReader } from '../../src/ledger/reader.js';
import { insertEntries, readSyncState, updateSyncState } from '../../src/ledger/store.js';
import type { LedgerEntry } from '../../src/ledger/types.js';
import type { Db } from '../../src/store/db.js';
import { testDatabases } from '../support/databases.js';

const seenAt = new Date('2026-11-20T10:00:00.000Z');

function tx(reference: string, date: string, overrides: Partial<Transaction> = {}): Transaction {
  return { reference, type: 'PAYMENT', amount: 10, currency: 'USD', description: `Payout ${reference}`, date, status: 'Completed', ...overrides };
}

const refs = (entries: LedgerEntry[]) => entries.map((entry) => entry.reference);

describe.each(testDatabases())('ledger store on $name', ({ open }) => {
  let db: Db;
  let reader: StoredLedgerReader;
  beforeAll(async () => {
    db = await open();
    reader = new StoredLedgerReader(db);
  });
  afterAll(async () => {
    await db?.close();
  });
  beforeEach(async () => {
    await db.query('DELETE FROM ledger_entries');
  });

  const store = (page: Transaction[], markLate = false) => insertEntries(db, identifyPage(page), { firstSeenAt: seenAt, markLate });

  it('stores every field once, with the amount exact and unknown type and status kept as text', async () => {
    const page = [
      tx('INV-42', '2026-11-19T08:00:00.123Z', { amount: -1234.56, type: 'REVERSAL_FEE', status: 'Pending review', description: 'Fee, "quoted" <!channel>' }),
      tx('INV-41', '2026-11-19T07:00:00.000Z', { amount: 0.1, currency: 'EUR' }),
    ];
    expect(await store(page)).toHaveLength(2);
    expect(await store(page)).toEqual([]);

    const { entries, total } = await reader.find({}, { offset: 0, limit: 10 });
    expect(total).toBe(2);
    expect(entries[0]).toMatchObject({
      reference: 'INV-42',
      type: 'REVERSAL_FEE',
      status: 'Pending review',
      amountMinor: -123456,
      currency: 'USD',
      description: 'Fee, "quoted" <!channel>',
      date: '2026-11-19T08:00:00.123Z',
      firstSeenAt: seenAt,
      late: false,
    });
    expect(entries[1]).toMatchObject({ reference: 'INV-41', amountMinor: 10, currency: 'EUR' });
    const { rows } = await db.query<{ amount: string }>("SELECT amount::text AS amount FROM ledger_entries WHERE reference = 'INV-42'");
    expect(rows[0]?.amount).toBe('-1234.56');
  });

  it('keeps the pages of a first read fixed while entries arrive, and counts the newer ones', async () => {
    await store([
      tx('A-5', '2026-11-19T05:00:00.000Z'),
      tx('A-4', '2026-11-19T04:00:00.000Z'),
      tx('A-3', '2026-11-19T03:00:00.000Z'),
      tx('A-2', '2026-11-19T02:00:00.000Z'),
      tx('A-1', '2026-11-19T01:00:00.000Z'),
    ]);
    const first = await reader.find({}, { offset: 0, limit: 2 });
    expect(refs(first.entries)).toEqual(['A-5', 'A-4']);
    expect(first.newer).toBe(0);

    // Two new entries and a late one (dated among the old ones) arrive before the person clicks Next.
    await store([tx('A-7', '2026-11-19T07:00:00.000Z'), tx('A-6', '2026-11-19T06:00:00.000Z')]);
    await store([tx('LATE', '2026-11-19T03:30:00.000Z')], true);
    const second = await reader.find({ storedUpTo: first.storedUpTo }, { offset: 2, limit: 2 });
    expect(refs(second.entries)).toEqual(['A-3', 'A-2']);
    expect(second).toMatchObject({ total: 5, storedUpTo: first.storedUpTo, newer: 3 });
    // The anchor narrows like any filter: a search counts only its own newer matches.
    expect(await reader.find({ storedUpTo: first.storedUpTo, words: ['late'] }, { offset: 0, limit: 2 })).toMatchObject({ total: 0, newer: 1 });
    // Without it, a read sees everything.
    expect(refs((await reader.find({}, { offset: 2, limit: 2 })).entries)).toEqual(['A-5', 'A-4']);
  });

  it('keeps entries that share a reference but differ in date, amount or currency apart', async () => {
    await store([
      tx('DUP', '2026-11-19T08:00:00.000Z'),
      tx('DUP', '2026-11-19T07:00:00.000Z'),
      tx('DUP', '2026-11-19T07:00:00.000Z', { amount: 11 }),
      tx('DUP', '2026-11-19T07:00:00.000Z', { currency: 'CDF' }),
    ]);
    expect(await reader.count({ words: ['dup'] })).toBe(4);
  });

  it('keeps identical entries on one page as occurrences, and as many as the most seen on one page', async () => {
    const same = tx('TWIN', '2026-11-19T08:00:00.000Z');
    expect(await store([same, same])).toHaveLength(2);
    // A later page showing one of them (the other on the page before) adds nothing.
    expect(await store([same])).toEqual([]);
    expect(await store([same, same, same])).toHaveLength(1);
    expect(await reader.count({})).toBe(3);
  });

  it('marks an entry late when entries with a later date were already stored, outside the first history walk', async () => {
    await store([tx('NEW', '2026-11-19T12:00:00.000Z')], true);
    await store([tx('OLD-HISTORY', '2026-11-18T12:00:00.000Z')], false);
    await store([tx('LATE', '2026-11-19T11:00:00.000Z'), tx('SAME-MS', '2026-11-19T12:00:00.000Z')], true);
    const late = Object.fromEntries((await reader.find({}, { offset: 0, limit: 10 })).entries.map((entry) => [entry.reference, entry.late]));
    expect(late).toEqual({ NEW: false, 'OLD-HISTORY': false, LATE: true, 'SAME-MS': false });
  });

  it('inserts a page oldest first, so the insertion order follows the list', async () => {
    const inserted = await store([tx('C', '2026-11-19T12:00:00.003Z'), tx('B', '2026-11-19T12:00:00.002Z'), tx('A', '2026-11-19T12:00:00.001Z')]);
    const bySeq = [...inserted].sort((a, b) => a.seq - b.seq).map((entry) => entry.key.split('|')[0]);
    expect(bySeq).toEqual(['A', 'B', 'C']);
  });

  describe('finding', () => {
    beforeEach(async () => {
      await store([
        tx('INV-42', '2026-11-15T10:00:00.000Z', { amount: -150, description: 'Payout to Kin Marché' }),
        tx('INV-420', '2026-11-14T10:00:00.000Z', { amount: 5000.5, type: 'B2B_JIT_FUNDING', description: 'Card purchase funding — Shoprite Kinshasa' }),
        tx('TXN-A', '2026-11-10T10:00:00.000Z', { amount: -100, currency: 'EUR', description: 'Wallet withdrawal via ORANGE_MONEY' }),
        tx('TXN-B', '2026-11-01T00:00:00.000Z', { amount: 100, currency: 'JPY', description: 'Order settlement ORD-1' }),
        tx('TXN-C', '2026-10-31T23:59:59.999Z', { amount: -99.99, status: 'Reversed', description: 'Marks & Spencer' }),
      ]);
    });

    it('pages newest first with the total of all matches', async () => {
      const page = await reader.find({}, { offset: 1, limit: 2 });
      expect(refs(page.entries)).toEqual(['INV-420', 'TXN-A']);
      expect(page.total).toBe(5);
    });

    it('finds a reference as a whole word, and a word of the description, case-insensitively', async () => {
      expect(refs((await reader.find({ words: ['inv-42'] }, { offset: 0, limit: 10 })).entries)).toEqual(['INV-42']);
      expect(refs((await reader.find({ words: ['SHOPRITE'] }, { offset: 0, limit: 10 })).entries)).toEqual(['INV-420']);
      expect(refs((await reader.find({ words: ['"kin marché"'] }, { offset: 0, limit: 10 })).entries)).toEqual(['INV-42']);
      expect(refs((await reader.find({ words: ['kin marché'] }, { offset: 0, limit: 10 })).entries)).toEqual(['INV-42']);
      expect(await reader.count({ words: ['marché', 'kinshasa'] })).toBe(0);
      expect(refs((await reader.find({ words: ['&'] }, { offset: 0, limit: 10 })).entries)).toEqual(['TXN-C']);
    });

    it('combines currency, type, status, direction, dates and an amount range', async () => {
      expect(refs((await reader.find({ currency: 'usd', direction: 'out' }, { offset: 0, limit: 10 })).entries)).toEqual(['INV-42', 'TXN-C']);
      expect(await reader.count({ type: 'b2b_jit_funding' })).toBe(1);
      expect(await reader.count({ status: 'reversed' })).toBe(1);
      expect(await reader.count({ direction: 'in' })).toBe(2);
      expect(
        refs((await reader.find({ since: new Date('2026-11-01T00:00:00Z'), before: new Date('2026-11-14T10:00:00Z') }, { offset: 0, limit: 10 })).entries),
      ).toEqual(['TXN-A', 'TXN-B']);
      expect(refs((await reader.find({ minAmount: '100', maxAmount: '5000' }, { offset: 0, limit: 10 })).entries)).toEqual(['INV-42', 'TXN-A', 'TXN-B']);
      expect(await reader.count({ minAmount: '5000.50' })).toBe(1);
      await expect(reader.count({ minAmount: '1e3' })).rejects.toThrow(RangeError);
    });

    it('streams every match oldest first in batches', async () => {
      const streamed: string[] = [];
      for await (const entry of reader.stream({}, { batchSize: 2 })) streamed.push(entry.reference);
      expect(streamed).toEqual(['TXN-C', 'TXN-B', 'TXN-A', 'INV-420', 'INV-42']);
      const usd: string[] = [];
      for await (const entry of reader.stream({ currency: 'USD' }, { batchSize: 1 })) usd.push(entry.reference);
      expect(usd).toEqual(['TXN-C', 'INV-420', 'INV-42']);
    });

    it('streams entries sharing a millisecond without losing any between batches', async () => {
      await store(['S1', 'S2', 'S3', 'S4'].map((reference) => tx(reference, '2026-09-01T00:00:00.000Z')));
      const streamed: string[] = [];
      for await (const entry of reader.stream({ words: ['payout'] }, { batchSize: 3 })) streamed.push(entry.reference);
      expect(streamed.slice(0, 4).sort()).toEqual(['S1', 'S2', 'S3', 'S4']);
      expect(streamed).toHaveLength(5);
    });
  });

  it('reports its progress: loaded, estimate while the history loads, up to date once complete', async () => {
    await store([tx('ONE', '2026-11-19T08:00:00.000Z')]);
    await updateSyncState(db, { estimatedTotal: 40_000, lastPollAt: seenAt, upToDateSince: seenAt });
    expect(await reader.status()).toEqual({ loaded: 1, historyComplete: false, estimatedTotal: 40_000, upToDateSince: undefined, lastPollAt: seenAt });
    await updateSyncState(db, { historyComplete: true, historyCompletedAt: seenAt, lastError: 'boom' });
    expect(await reader.status()).toMatchObject({ historyComplete: true, estimatedTotal: undefined, upToDateSince: seenAt });
    expect((await readSyncState(db)).lastError).toBe('boom');
    await updateSyncState(db, { historyComplete: false, estimatedTotal: undefined, lastPollAt: undefined, upToDateSince: undefined, lastError: undefined });
  });
});

import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { recordsExample, recordsExampleDays } from '../../src/demo/records-example.js';
import { readWithProfile } from '../../../../src/partner-records/profile-reader.js';
import { defaultProfile } from '../../../../src/partner-records/profile.js';
import { matchRecords, type LedgerCandidate } from '../../../../src/partner-records/match.js';
import { dayGrid } from '../../../../src/partner-records/service.js';
import { startSandbox } from '../../../../src/sandbox/server.js';
import { toMinor } from '../../../../src/core/money.js';
import type { Transaction } from '../../../../src/fleet/schemas.js';

/** The moment docs/examples/records.csv was written for: a demo started then offers exactly that file. */
const DOCS_EXAMPLE_NOW = new Date('2026-11-05T09:00:00.000Z');

async function sandboxTransactions(now: Date): Promise<Transaction[]> {
  const sandbox = await startSandbox({ clock: { now: () => now, sleep: async () => undefined } });
  try {
    return sandbox.transactions();
  } finally {
    await sandbox.close();
  }
}

/** What a first `/fleet reconcile` finds, the ledger holding every one of `transactions` (days in UTC, one day of tolerance, as in the demo). */
async function reconcile(file: string, transactions: readonly Transaction[]) {
  const reading = await readWithProfile(file, defaultProfile('UTC'), {
    maxBytes: 1_000_000,
    maxRows: 1_000,
    timeZone: 'UTC',
    currencies: new Set(['USD', 'EUR', 'CDF']),
  });
  if (!reading.ok || reading.problems.length > 0) throw new Error(`the example does not read: ${JSON.stringify(reading)}`);
  const grid = await dayGrid(reading.records, 1, 'UTC');
  const entries: LedgerCandidate[] = transactions
    .map((tx) => ({
      key: tx.reference,
      reference: tx.reference,
      partnerReference: undefined,
      amountMinor: toMinor(tx.amount, tx.currency),
      currency: tx.currency,
      at: Date.parse(tx.date),
      date: tx.date,
      description: tx.description,
    }))
    .filter((entry) => entry.at >= grid.starts[0]! && entry.at < grid.starts[grid.starts.length - 1]!)
    .sort((a, b) => a.at - b.at);
  const result = await matchRecords({ records: reading.records, windowEntries: entries, referencedEntries: [], grid, toleranceDays: 1, ledgerComplete: true });
  return { records: reading.records, result };
}

describe("the demo's example records file", () => {
  it("matches the sandbox's last two days but for one exception of each kind, whatever day the demo starts", async () => {
    for (const now of ['2026-11-05T09:00:00.000Z', '2026-11-28T21:40:00.000Z', '2027-02-01T00:10:00.000Z', '2027-06-30T23:59:00.000Z']) {
      const transactions = await sandboxTransactions(new Date(now));
      const { records, result } = await reconcile(recordsExample(transactions, new Date(now)), transactions);
      const [first, last] = recordsExampleDays(new Date(now));
      expect(new Set(records.map((record) => record.day)), now).toEqual(new Set([first, last]));
      expect(result.matched.length, now).toBe(records.length - 2);
      expect(result.matched.length, now).toBeGreaterThanOrEqual(8);
      expect(
        result.matched.some((match) => match.by === 'amount'),
        now,
      ).toBe(true);
      expect(
        result.differences.map(({ record, entry }) => record.reference === entry.reference),
        now,
      ).toEqual([true]);
      expect(
        result.notInLedger.map((record) => record.note),
        now,
      ).toEqual(['Bank charges, not yet in the fleet account']);
      expect(result.notInRecords, now).toHaveLength(1);
    }
  });

  it('is the same file for the same sandbox and day, and docs/examples/records.csv is the one a demo started on 2026-11-05 offers', async () => {
    const transactions = await sandboxTransactions(DOCS_EXAMPLE_NOW);
    const written = recordsExample(transactions, DOCS_EXAMPLE_NOW);
    expect(recordsExample([...transactions].reverse(), DOCS_EXAMPLE_NOW)).toBe(written);
    const docs = await readFile(new URL('../../../../docs/examples/records.csv', import.meta.url), 'utf8');
    expect(docs).toBe(written);
  });
});

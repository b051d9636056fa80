import { describe, expect, it } from 'vitest';
import type { PartnerRecord } from '../../src/partner-records/file.js';
import { matchRecords, type LedgerCandidate, type MatchInput } from '../../src/partner-records/match.js';
import { dayGrid } from '../../src/partner-records/service.js';

const ZONE = 'Africa/Kinshasa'; // UTC+1, no daylight saving

function record(row: number, day: string, amountMinor: number, fields: Partial<PartnerRecord> = {}): PartnerRecord {
  return { row, reference: '', day, at: undefined, dateText: day, amountMinor, currency: 'USD', note: '', ...fields };
}

function entry(key: string, date: string, amountMinor: number, fields: Partial<LedgerCandidate> = {}): LedgerCandidate {
  return { key, reference: key, partnerReference: undefined, amountMinor, currency: 'USD', at: Date.parse(date), date, description: `entry ${key}`, ...fields };
}

async function match(
  records: PartnerRecord[],
  ledger: LedgerCandidate[],
  options: { tolerance?: number; complete?: boolean; referenced?: LedgerCandidate[] } = {},
) {
  const toleranceDays = options.tolerance ?? 1;
  const grid = await dayGrid(records, toleranceDays, ZONE);
  const from = grid.starts[0]!;
  const before = grid.starts.at(-1)!;
  const input: MatchInput = {
    records,
    grid,
    toleranceDays,
    ledgerComplete: options.complete ?? true,
    windowEntries: ledger.filter((candidate) => candidate.at >= from && candidate.at < before).sort((a, b) => a.at - b.at),
    referencedEntries: options.referenced ?? [],
  };
  const result = await matchRecords(input);
  return {
    matched: result.matched.map((pair) => `${pair.record.row}=${pair.entry.key} by ${pair.by}`),
    differences: result.differences.map((pair) => `${pair.record.row}≠${pair.entry.key}`),
    notInLedger: result.notInLedger.map((item) => item.row),
    notInRecords: result.notInRecords.map((item) => item.key),
  };
}

describe('matching records against the ledger', () => {
  it('matches by the Fleet reference, or by the partner reference the app sent, whatever the day', async () => {
    const result = await match(
      [record(2, '2026-11-02', -1000, { reference: 'TX-A' }), record(3, '2026-11-02', -2000, { reference: 'PAY-20261101-ABCDEF' })],
      [entry('TX-A', '2026-11-02T09:00:00.000Z', -1000), entry('TX-B', '2026-11-02T10:00:00.000Z', -2000, { partnerReference: 'PAY-20261101-ABCDEF' })],
      { referenced: [] },
    );
    expect(result).toEqual({ matched: ['2=TX-A by reference', '3=TX-B by reference'], differences: [], notInLedger: [], notInRecords: [] });
  });

  it("finds a reference outside the records' days, without calling it missing", async () => {
    const result = await match([record(2, '2026-11-10', 500, { reference: 'OLD' })], [], { referenced: [entry('OLD', '2026-10-01T09:00:00.000Z', 500)] });
    expect(result.matched).toEqual(['2=OLD by reference']);
  });

  it('shows a reference found with another amount as a difference, and uses its entry up', async () => {
    const result = await match(
      [record(2, '2026-11-02', -1000, { reference: 'TX-A' }), record(3, '2026-11-02', -1200)],
      [entry('TX-A', '2026-11-02T09:00:00.000Z', -1200)],
    );
    expect(result).toEqual({ matched: [], differences: ['2≠TX-A'], notInLedger: [3], notInRecords: [] });
  });

  it('matches the rest by amount, currency and direction on the same day, each entry once', async () => {
    const result = await match(
      [record(2, '2026-11-02', 1000), record(3, '2026-11-02', 1000), record(4, '2026-11-02', -1000), record(5, '2026-11-02', 1000, { currency: 'EUR' })],
      [
        entry('E1', '2026-11-02T08:00:00.000Z', 1000),
        entry('E2', '2026-11-02T09:00:00.000Z', -1000),
        entry('E3', '2026-11-02T10:00:00.000Z', 1000, { currency: 'EUR' }),
      ],
    );
    expect(result).toEqual({ matched: ['2=E1 by amount', '4=E2 by amount', '5=E3 by amount'], differences: [], notInLedger: [3], notInRecords: [] });
  });

  it('takes the closest day first, then the oldest entry', async () => {
    // Kinshasa days: 2026-11-02 runs from 2026-11-01T23:00Z.
    const result = await match(
      [record(2, '2026-11-03', 700), record(3, '2026-11-03', 700)],
      [
        entry('DAY-BEFORE', '2026-11-02T12:00:00.000Z', 700),
        entry('SAME-LATE', '2026-11-03T18:00:00.000Z', 700),
        entry('SAME-EARLY', '2026-11-03T06:00:00.000Z', 700),
      ],
    );
    expect(result.matched).toEqual(['2=SAME-EARLY by amount', '3=SAME-LATE by amount']);
    expect(result.notInRecords).toEqual([]);
  });

  it('matches the records in date order, then by row, whatever their order in the file', async () => {
    // One entry of 900 on 2026-11-03; the record of the 4th, first in the file, would take it in the file's order.
    const result = await match(
      [
        record(2, '2026-11-04', 900),
        record(3, '2026-11-03', 900, { at: Date.parse('2026-11-03T15:00:00.000Z'), dateText: '2026-11-03T16:00' }),
        record(4, '2026-11-03', 900),
        record(5, '2026-11-02', 400),
      ],
      [entry('E900', '2026-11-03T15:00:00.000Z', 900), entry('E400', '2026-11-02T10:00:00.000Z', 400)],
    );
    // On the 3rd, the record without a time comes first: a day alone counts as the day's start.
    expect(result).toEqual({ matched: ['5=E400 by amount', '4=E900 by amount'], differences: [], notInLedger: [3, 2], notInRecords: [] });
  });

  it('with a time, takes the nearest instant', async () => {
    const result = await match(
      [record(2, '2026-11-03', 700, { at: Date.parse('2026-11-03T17:00:00.000Z') })],
      [entry('MORNING', '2026-11-03T06:00:00.000Z', 700), entry('EVENING', '2026-11-03T18:00:00.000Z', 700)],
    );
    expect(result.matched).toEqual(['2=EVENING by amount']);
    expect(result.notInRecords).toEqual(['MORNING']);
  });

  it("matches at the tolerance's last day and not one day further; entries outside the records' days are never called missing", async () => {
    const records = [record(2, '2026-11-05', 300), record(3, '2026-11-05', 400)];
    const ledger = [
      // 2026-11-07 in Kinshasa: two days after, inside a tolerance of 2.
      entry('TWO-DAYS', '2026-11-07T22:59:59.999Z', 300),
      // 2026-11-08 in Kinshasa: three days after.
      entry('THREE-DAYS', '2026-11-07T23:00:00.000Z', 400),
    ];
    expect(await match(records, ledger, { tolerance: 2 })).toEqual({ matched: ['2=TWO-DAYS by amount'], differences: [], notInLedger: [3], notInRecords: [] });
    expect(await match(records, ledger, { tolerance: 0 })).toEqual({ matched: [], differences: [], notInLedger: [2, 3], notInRecords: [] });
  });

  it("reports the ledger's entries inside the records' days that no record matched", async () => {
    const result = await match(
      [record(2, '2026-11-02', 100), record(3, '2026-11-04', 100)],
      [entry('IN-1', '2026-11-02T08:00:00.000Z', 100), entry('IN-2', '2026-11-03T08:00:00.000Z', 999), entry('EDGE', '2026-11-05T08:00:00.000Z', 555)],
    );
    expect(result).toEqual({ matched: ['2=IN-1 by amount'], differences: [], notInLedger: [3], notInRecords: ['IN-2'] });
  });

  it('calls nothing missing from the records when the ledger is not complete for the period', async () => {
    const result = await match([record(2, '2026-11-02', 100)], [entry('OTHER', '2026-11-02T08:00:00.000Z', 999)], { complete: false });
    expect(result).toEqual({ matched: [], differences: [], notInLedger: [2], notInRecords: [] });
  });
});

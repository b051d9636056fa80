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
    differences: result.differences.map(
      (pair) => `${pair.record.row}≠${pair.entry.key}${pair.sharedSum === undefined ? '' : ` (sum ${pair.sharedSum.minor})`}`,
    ),
    notInLedger: result.notInLedger.map((item) => item.row),
    notInRecords: result.notInRecords.map((item) => item.key),
    bySum: result.bySum.map((group) => `${group.records.map((item) => item.row).join('+')}=${group.entry.key}`),
  };
}

describe('matching records against the ledger', () => {
  it('matches by the Fleet reference, or by the partner reference the app sent, whatever the day', async () => {
    const result = await match(
      [record(2, '2026-11-02', -1000, { reference: 'TX-A' }), record(3, '2026-11-02', -2000, { reference: 'PAY-20261101-ABCDEF' })],
      [entry('TX-A', '2026-11-02T09:00:00.000Z', -1000), entry('TX-B', '2026-11-02T10:00:00.000Z', -2000, { partnerReference: 'PAY-20261101-ABCDEF' })],
      { referenced: [] },
    );
    expect(result).toEqual({ matched: ['2=TX-A by reference', '3=TX-B by reference'], differences: [], notInLedger: [], notInRecords: [], bySum: [] });
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
    expect(result).toEqual({ matched: [], differences: ['2≠TX-A'], notInLedger: [3], notInRecords: [], bySum: [] });
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
    expect(result).toEqual({ matched: ['2=E1 by amount', '4=E2 by amount', '5=E3 by amount'], differences: [], notInLedger: [3], notInRecords: [], bySum: [] });
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
    expect(result).toEqual({ matched: ['5=E400 by amount', '4=E900 by amount'], differences: [], notInLedger: [3, 2], notInRecords: [], bySum: [] });
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
    expect(await match(records, ledger, { tolerance: 2 })).toEqual({
      matched: ['2=TWO-DAYS by amount'],
      differences: [],
      notInLedger: [3],
      notInRecords: [],
      bySum: [],
    });
    expect(await match(records, ledger, { tolerance: 0 })).toEqual({ matched: [], differences: [], notInLedger: [2, 3], notInRecords: [], bySum: [] });
  });

  it("reports the ledger's entries inside the records' days that no record matched", async () => {
    const result = await match(
      [record(2, '2026-11-02', 100), record(3, '2026-11-04', 100)],
      [entry('IN-1', '2026-11-02T08:00:00.000Z', 100), entry('IN-2', '2026-11-03T08:00:00.000Z', 999), entry('EDGE', '2026-11-05T08:00:00.000Z', 555)],
    );
    expect(result).toEqual({ matched: ['2=IN-1 by amount'], differences: [], notInLedger: [3], notInRecords: ['IN-2'], bySum: [] });
  });

  it('calls nothing missing from the records when the ledger is not complete for the period', async () => {
    const result = await match([record(2, '2026-11-02', 100)], [entry('OTHER', '2026-11-02T08:00:00.000Z', 999)], { complete: false });
    expect(result).toEqual({ matched: [], differences: [], notInLedger: [2], notInRecords: [], bySum: [] });
  });
});

describe('records sharing a reference', () => {
  // A bank export gives a transfer, its fee and the fee's VAT one bank reference; the fleet account saw one entry.
  const transfer = [
    record(2, '2026-11-02', 100_000, { reference: 'FT123', note: 'transfer' }),
    record(3, '2026-11-02', -500, { reference: 'FT123', note: 'fee' }),
    record(4, '2026-11-02', -80, { reference: 'FT123', note: 'VAT on the fee' }),
  ];

  it('match one ledger entry by their sum: a transfer, its fee and its VAT', async () => {
    const result = await match(transfer, [entry('FT123', '2026-11-02T09:00:00.000Z', 99_420)]);
    expect(result).toEqual({
      matched: ['2=FT123 by sum', '3=FT123 by sum', '4=FT123 by sum'],
      differences: [],
      notInLedger: [],
      notInRecords: [],
      bySum: ['2+3+4=FT123'],
    });
  });

  it('match several entries with that reference one by one, each record to an entry of its own amount', async () => {
    const result = await match(
      [record(2, '2026-11-02', 5000, { reference: 'BATCH-7' }), record(3, '2026-11-02', 5000, { reference: 'BATCH-7' })],
      [
        entry('P1', '2026-11-02T09:00:00.000Z', 5000, { partnerReference: 'BATCH-7' }),
        entry('P2', '2026-11-02T10:00:00.000Z', 5000, { partnerReference: 'BATCH-7' }),
      ],
    );
    expect(result).toEqual({ matched: ['2=P1 by reference', '3=P2 by reference'], differences: [], notInLedger: [], notInRecords: [], bySum: [] });
  });

  it('match one by one first, then the rest together by their sum', async () => {
    // The ledger holds the transfer, and the fee with its VAT as one entry.
    const result = await match(transfer, [
      entry('FT123-T', '2026-11-02T09:00:00.000Z', 100_000, { reference: 'FT123' }),
      entry('FT123-F', '2026-11-02T09:00:01.000Z', -580, { reference: 'FT123' }),
    ]);
    expect(result).toMatchObject({ matched: ['2=FT123-T by reference', '3=FT123-F by sum', '4=FT123-F by sum'], bySum: ['3+4=FT123-F'] });
    expect(result.notInRecords).toEqual([]);
  });

  it('leave the records an entry does not hold to the match by amount: a fee the ledger never saw', async () => {
    const result = await match(transfer, [entry('FT123', '2026-11-02T09:00:00.000Z', 100_000), entry('FEE', '2026-11-02T11:00:00.000Z', -500)]);
    expect(result).toEqual({
      matched: ['2=FT123 by reference', '3=FEE by amount'],
      differences: [],
      notInLedger: [4],
      notInRecords: [],
      bySum: [],
    });
  });

  it('report every record of a group whose sum differs from the one entry, with their sum', async () => {
    const result = await match(transfer, [entry('FT123', '2026-11-02T09:00:00.000Z', 99_500)]);
    expect(result).toEqual({
      matched: [],
      differences: ['2≠FT123 (sum 99420)', '3≠FT123 (sum 99420)', '4≠FT123 (sum 99420)'],
      notInLedger: [],
      notInRecords: [],
      bySum: [],
    });
  });

  it("match by their sum only when every record's day is within the tolerance of the entry's", async () => {
    const spread = [record(2, '2026-11-02', 100_000, { reference: 'FT9' }), record(3, '2026-11-05', -500, { reference: 'FT9' })];
    const ledger = [entry('FT9', '2026-11-03T09:00:00.000Z', 99_500)];
    expect((await match(spread, ledger, { tolerance: 1 })).differences).toEqual(['2≠FT9 (sum 99500)', '3≠FT9 (sum 99500)']);
    expect((await match(spread, ledger, { tolerance: 2 })).bySum).toEqual(['2+3=FT9']);
  });

  it('are not summed across currencies', async () => {
    const result = await match(
      [record(2, '2026-11-02', 1000, { reference: 'MIX' }), record(3, '2026-11-02', 500, { reference: 'MIX', currency: 'EUR' })],
      [entry('MIX', '2026-11-02T09:00:00.000Z', 1500)],
    );
    expect(result).toEqual({ matched: [], differences: ['2≠MIX'], notInLedger: [3], notInRecords: [], bySum: [] });
  });

  it('match the same way whatever their order in the file', async () => {
    const ledger = [entry('FT123', '2026-11-02T09:00:00.000Z', 99_420)];
    const forwards = await match(transfer, ledger);
    const backwards = await match([...transfer].reverse(), ledger);
    expect(backwards).toEqual(forwards);
  });

  it('match 50,000 records in groups of three against 200,000 entries, yielding as they go', async () => {
    const records: PartnerRecord[] = [];
    const ledger: LedgerCandidate[] = [];
    for (let group = 0; group < 16_667; group += 1) {
      const reference = `FT${group}`;
      const day = `2026-11-${String(2 + (group % 20)).padStart(2, '0')}`;
      records.push(record(2 + group * 3, day, 100_000 + group, { reference }));
      records.push(record(3 + group * 3, day, -500, { reference }));
      records.push(record(4 + group * 3, day, -80, { reference }));
      ledger.push(entry(reference, `${day}T09:00:00.000Z`, 100_000 + group - 580));
    }
    for (let other = 0; other < 183_333; other += 1)
      ledger.push(entry(`OTHER-${other}`, `2026-11-${String(2 + (other % 20)).padStart(2, '0')}T10:00:00.000Z`, 7 + other));
    let turns = 0;
    const grid = await dayGrid(records, 1, ZONE);
    const started = performance.now();
    const result = await matchRecords({
      records,
      grid,
      toleranceDays: 1,
      ledgerComplete: true,
      windowEntries: ledger.sort((a, b) => a.at - b.at),
      referencedEntries: [],
      turns: {
        nextBackgroundTurn: () => {
          turns += 1;
          return new Promise((resolve) => setImmediate(resolve));
        },
      },
    });
    expect(result.bySum).toHaveLength(16_667);
    expect(result.matched).toHaveLength(50_001);
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(turns).toBeGreaterThan(0);
  });
});

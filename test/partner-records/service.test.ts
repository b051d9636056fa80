import ExcelJS from 'exceljs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Clock } from '../../src/core/clock.js';
import type { Transaction } from '../../src/fleet/schemas.js';
import { identifyPage } from '../../src/ledger/identity.js';
import { insertEntries, updateSyncState } from '../../src/ledger/store.js';
import { defaultProfile, IMPORT_PROFILE, RecordsService, exceptionCells } from '../../src/partner-records/index.js';
import type { Db } from '../../src/store/db.js';
import { testDatabases } from '../support/databases.js';

const NOW = new Date('2026-11-10T12:00:00.000Z');
const clock: Clock = { now: () => NOW, sleep: () => Promise.resolve() };

function tx(reference: string, date: string, amount: number, currency = 'USD'): Transaction {
  return { reference, type: 'PAYMENT', amount, currency, description: `Entry ${reference}`, date, status: 'Completed' };
}

const LEDGER = [
  tx('FL-OLD', '2026-10-01T09:00:00.000Z', -50),
  tx('FL-1', '2026-11-02T09:00:00.000Z', 150.5),
  tx('FL-2', '2026-11-02T10:00:00.000Z', -20),
  tx('FL-PAYOUT', '2026-11-03T10:00:00.000Z', 75),
  tx('FL-3', '2026-11-03T11:00:00.000Z', 12, 'EUR'),
  tx('FL-EXTRA', '2026-11-03T12:00:00.000Z', 99),
  tx('FL-NEXT-DAY', '2026-11-04T12:00:00.000Z', -33),
];

const RECORDS = [
  'reference,date,amount,currency,direction,note',
  'FL-1,2026-11-02,150.50,USD,in,matched by reference',
  ',2026-11-02,20,USD,out,matched by amount',
  'PAY-20261103-ABCDEF,2026-11-03,75,USD,in,the partner reference this app sent',
  'FL-3,2026-11-03,13,EUR,in,=HYPERLINK("x")',
  'NOT-THERE,2026-11-03,5,USD,,not in the ledger',
  'FL-OLD,2026-11-03,-50,USD,,a reference from October',
].join('\n');

describe.each(testDatabases())('the records check on $name', ({ open }) => {
  let db: Db;
  let service: RecordsService;
  beforeAll(async () => {
    db = await open();
    await insertEntries(db, identifyPage([...LEDGER].reverse()), { firstSeenAt: NOW, markLate: false });
    await db.query(
      `INSERT INTO payout_requests (id, kind, recipient_name, country_code, phone, operator, amount_minor, currency, reference,
         requested_by, requested_at, expires_at, state, required_approvals, transaction_id, updated_at, recipient_key)
       VALUES ('PR-SENT22', 'mobile_money', 'Mama Kitoko', 'CD', '243810000001', 'VODACOM_MPESA', 7500, 'USD', 'PAY-20261103-ABCDEF',
         'U0REQUESTER', $1, $1, 'completed', 1, 'FL-PAYOUT', $1, 'mobile:243810000001')`,
      [NOW],
    );
    service = new RecordsService({
      db,
      clock,
      timeZone: 'UTC',
      currencies: ['USD'],
      staleAfterMs: 60_000,
      settings: { maxBytes: 100_000, maxRows: 100, toleranceDays: 1 },
    });
  });
  afterAll(async () => {
    await db?.close();
  });
  beforeEach(async () => {
    await updateSyncState(db, { historyComplete: true, lastPollAt: new Date(NOW.getTime() - 10_000) });
  });

  let source = 0;
  const profile = defaultProfile('UTC');
  const check = (content: string) => service.check({ userId: 'U0VIEWER', fileName: 'records.csv', content, sourceKey: `view-${++source}:F1`, profile });
  const runs = async () => (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM records_runs')).rows[0]?.n;

  it('matches by reference and partner reference, then by amount, and keeps the run with its exceptions', async () => {
    const outcome = await check(RECORDS);
    expect(outcome.ok).toBe(true);
    if (!outcome.ok) return;
    const { summary, exceptions, gap } = outcome.run;
    expect(gap).toBeUndefined();
    expect(summary).toMatchObject({
      periodStart: '2026-11-02',
      periodEnd: '2026-11-03',
      records: 6,
      matched: 4,
      differences: 1,
      notInLedger: 1,
      notInRecords: 1,
      ledgerComplete: true,
    });
    expect([...summary.totals]).toEqual([['USD', { count: 4, minor: 15050 - 2000 + 7500 - 5000 }]]);
    expect(exceptions.map(exceptionCells)).toEqual([
      ['amount_difference', 'FL-3', '2026-11-03', '13.00', '12.00', 'EUR', '=HYPERLINK("x")', '5', ''],
      ['not_in_ledger', 'NOT-THERE', '2026-11-03', '5.00', '', 'USD', 'not in the ledger', '6', ''],
      ['not_in_records', 'FL-EXTRA', '2026-11-03T12:00:00.000Z', '', '99.00', 'USD', 'Entry FL-EXTRA', '', ''],
    ]);
    const history = await service.history();
    expect(history[0]).toMatchObject({ id: summary.id, userId: 'U0VIEWER', fileName: 'records.csv', matched: 4 });
    const again = await service.run(summary.id);
    expect(again?.exceptions).toEqual(exceptions);
  });

  it('matches records sharing a reference by their sum, keeps the groups with the run, and gives the sum of a group that differs', async () => {
    const entries = [tx('FT123', '2026-11-06T09:00:00.000Z', 994.2), tx('FT456', '2026-11-06T10:00:00.000Z', 500)];
    await insertEntries(db, identifyPage([...entries].reverse()), { firstSeenAt: NOW, markLate: false });
    const outcome = await check(
      [
        'reference,date,amount,currency,note',
        'FT123,2026-11-06,1000,USD,transfer',
        'FT123,2026-11-06,-5,USD,fee',
        'FT123,2026-11-06,-0.80,USD,VAT on the fee',
        'FT456,2026-11-06,510,USD,transfer',
        'FT456,2026-11-06,-5,USD,fee',
      ].join('\n'),
    );
    expect(outcome.ok).toBe(true);
    if (!outcome.ok) return;
    const { summary, exceptions } = outcome.run;
    const bySum = { groups: 1, records: 3, shown: [{ reference: 'FT123', records: 3, currency: 'USD', minor: 99_420 }] };
    expect(summary).toMatchObject({ records: 5, matched: 3, differences: 2, notInLedger: 0, notInRecords: 0, bySum });
    expect([...summary.totals]).toEqual([['USD', { count: 3, minor: 99_420 }]]);
    expect(exceptions.map(exceptionCells)).toEqual([
      ['amount_difference', 'FT456', '2026-11-06', '510.00', '500.00', 'USD', 'transfer', '5', '505.00'],
      ['amount_difference', 'FT456', '2026-11-06', '-5.00', '500.00', 'USD', 'fee', '6', '505.00'],
    ]);
    const kept = await service.run(summary.id);
    expect(kept?.summary.bySum).toEqual(bySum);
    expect(kept?.exceptions).toEqual(exceptions);
  });

  it('counts no group matched by their sum for a run kept before groups were', async () => {
    await db.query(
      `INSERT INTO records_runs (id, source_key, user_id, created_at, file_name, period_start, period_end, ledger_complete,
                                 record_count, matched, differences, not_in_ledger, not_in_records, totals)
       VALUES ('RC-2222QQ', 'before-groups:F1', 'U0VIEWER', $1, 'old.csv', '2026-10-01', '2026-10-31', true, 1, 1, 0, 0, 0, '{}')`,
      [NOW],
    );
    expect((await service.run('RC-2222QQ'))?.summary.bySum).toEqual({ groups: 0, records: 0, shown: [] });
  });

  it('keeps a submission delivered twice once', async () => {
    const first = await service.check({ userId: 'U0VIEWER', fileName: 'twice.csv', content: RECORDS, sourceKey: 'view-twice:F1', profile });
    const second = await service.check({ userId: 'U0VIEWER', fileName: 'twice.csv', content: RECORDS, sourceKey: 'view-twice:F1', profile });
    expect(first.ok && second.ok && second.run.summary.id).toBe(first.ok && first.run.summary.id);
    expect(second.ok && second.run.kept).toBe(false);
    const { rows } = await db.query<{ n: number }>("SELECT count(*)::int AS n FROM records_runs WHERE source_key = 'view-twice:F1'");
    expect(rows[0]?.n).toBe(1);
  });

  it('says the ledger is behind and calls nothing missing from the records when its last poll is old', async () => {
    await updateSyncState(db, { lastPollAt: new Date('2026-11-03T00:00:00.000Z') });
    const outcome = await check(RECORDS);
    expect(outcome.ok && outcome.run.gap).toBe('behind');
    expect(outcome.ok && outcome.run.summary).toMatchObject({ ledgerComplete: false, notInRecords: 0, notInLedger: 1 });
    expect(outcome.ok && outcome.run.exceptions.map((row) => row.kind)).toEqual(['amount_difference', 'not_found_yet']);
  });

  it('says the ledger does not hold the period yet while its history is loading past it', async () => {
    await updateSyncState(db, { historyComplete: false });
    const outcome = await check('reference,date,amount,currency\nX,2026-09-01,1,USD\n');
    expect(outcome.ok && outcome.run.gap).toBe('history');
    const recent = await check('reference,date,amount,currency\nFL-1,2026-11-02,150.50,USD\n');
    expect(recent.ok && recent.run.gap).toBeUndefined();
  });

  it('refuses a currency neither the ledger nor the payouts know, and keeps nothing', async () => {
    const before = await runs();
    const outcome = await check('reference,date,amount,currency\nX,2026-11-02,1,EUR\nY,2026-11-02,1,XAF\n');
    expect(outcome).toEqual({
      ok: false,
      problem: { code: 'rows', more: 0, problems: [{ row: 3, column: 'currency', position: 4, code: 'currency_unknown', found: 'XAF' }] },
    });
    expect(await runs()).toBe(before);
  });

  it("reads a statement of one fixed currency against the ledger's entries in that currency only", async () => {
    const usd = IMPORT_PROFILE.parse({ ...profile, name: 'usd account', currency: { fixed: 'USD' } });
    const content = ['reference,date,amount', 'FL-1,2026-11-02,150.50', 'FL-2,2026-11-02,-20', 'FL-PAYOUT,2026-11-03,75'].join('\n');
    const outcome = await service.check({ userId: 'U0VIEWER', fileName: 'usd.csv', content, sourceKey: 'view-usd:F1', profile: usd });
    expect(outcome.ok && outcome.run.summary).toMatchObject({ records: 3, matched: 3, notInRecords: 1 });
    // FL-3 is in EUR: a USD account's statement does not miss it; FL-EXTRA (USD) it does.
    expect(outcome.ok && outcome.run.exceptions.map(exceptionCells).map((cells) => cells.slice(0, 2))).toEqual([['not_in_records', 'FL-EXTRA']]);
  });

  it('checks an Excel workbook as it checks a CSV: dates as dates, amounts as exact decimals', async () => {
    const book = new ExcelJS.Workbook();
    const sheet = book.addWorksheet('Records');
    sheet.addRow(['reference', 'date', 'amount', 'currency']);
    sheet.addRow(['FL-1', new Date('2026-11-02T00:00:00.000Z'), 150.5, 'USD']);
    sheet.addRow(['FL-2', new Date('2026-11-02T00:00:00.000Z'), -20, 'USD']);
    const content = new Uint8Array(await book.xlsx.writeBuffer());
    const outcome = await service.check({ userId: 'U0VIEWER', fileName: 'records.xlsx', content, sourceKey: 'view-xlsx:F1', profile });
    expect(outcome.ok && outcome.run.summary).toMatchObject({ records: 2, matched: 2, differences: 0, notInLedger: 0 });
    expect(outcome.ok && [...outcome.run.summary.totals]).toEqual([['USD', { count: 2, minor: 15050 - 2000 }]]);
  });

  it('refuses a file whose rows are all left out by their status, and keeps nothing', async () => {
    const before = await runs();
    const pending = IMPORT_PROFILE.parse({ ...profile, name: 'pending', status: { column: 'status', counted: ['Completed'] } });
    const outcome = await service.check({
      userId: 'U0VIEWER',
      fileName: 'pending.csv',
      content: 'reference,date,amount,currency,status\nFL-1,2026-11-02,150.50,USD,Pending\n',
      sourceKey: 'view-pending:F1',
      profile: pending,
    });
    expect(outcome).toEqual({ ok: false, problem: { code: 'file_no_records', leftOut: 1 } });
    expect(await runs()).toBe(before);
  });

  it('previews the first records as read, a debit shown as money out, the rows left out and every problem, keeping nothing', async () => {
    const before = await runs();
    const bank = IMPORT_PROFILE.parse({
      ...profile,
      name: 'bank',
      delimiter: ';',
      reference: 'Ref',
      date: { column: 'Date', format: 'DD/MM/YYYY' },
      amount: { layout: 'debit_credit', debit: 'Debit', credit: 'Credit' },
      numbers: { decimalMark: ',', grouping: 'none' },
      currency: { fixed: 'USD' },
      status: { column: 'Status', counted: ['Done'] },
      note: undefined,
    });
    const file = [
      'Date;Ref;Debit;Credit;Status',
      '02/11/2026;FL-2;20,00;;Done',
      '02/11/2026;FL-1;;150,50;Done',
      '03/11/2026;FL-9;5,00;;Pending',
      '31/02/2026;FL-8;;1,00;Done',
    ].join('\n');
    const preview = await service.preview(file, bank);
    expect(preview).toEqual({
      ok: true,
      first: [
        { row: 2, date: '02/11/2026', amountMinor: -2000, currency: 'USD', reference: 'FL-2' },
        { row: 3, date: '02/11/2026', amountMinor: 15050, currency: 'USD', reference: 'FL-1' },
      ],
      records: 2,
      leftOut: [{ row: 4, status: 'Pending' }],
      problems: [{ row: 5, column: 'Date', position: 1, code: 'date_invalid', found: '31/02/2026' }],
      moreProblems: 0,
    });
    const refused = await service.check({ userId: 'U0VIEWER', fileName: 'bank.csv', content: file, sourceKey: 'view-bank:F1', profile: bank });
    expect(refused.ok).toBe(false);
    expect(await runs()).toBe(before);
  });
});

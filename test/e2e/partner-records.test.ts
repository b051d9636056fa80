import { parse } from 'csv-parse/sync';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { systemClock, type Clock } from '../../src/core/clock.js';
import { updateSyncState } from '../../src/ledger/store.js';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { defaultProfile } from '../../src/partner-records/index.js';
import { ImportProfiles } from '../../src/partner-records/profiles-store.js';
import { RECORDS } from '../../src/slack/ids.js';
import { blockText, CHANNELS, PEOPLE, startHarness, type Harness } from '../support/bot-harness.js';
import { callbackIs, dmWith, viewText, waitForView } from '../support/payout-flow.js';

// A fixed "now" that still moves: the records' days (16 and 17 November) are a week old whenever the test runs.
const BASE = Date.parse('2026-11-23T12:00:00.000Z');
const started = Date.now();
const clock: Clock = { now: () => new Date(BASE + (Date.now() - started)), sleep: (ms, signal) => systemClock.sleep(ms, signal) };
/** Fabrice's Slack runs in French (fr-FR). */
const FRENCH = 'U0FABRICE';

const LEDGER = [
  { reference: 'NOV-A', amount: 150.5, date: '2026-11-16T09:00:00.000Z', description: 'Driver payout' },
  { reference: 'NOV-B', amount: -20.25, date: '2026-11-17T10:00:00.000Z', description: 'Fuel card' },
  { reference: 'NOV-C', amount: -98, date: '2026-11-17T11:00:00.000Z', description: 'Settlement' },
  { reference: 'NOV-EXTRA', amount: 42.42, date: '2026-11-16T12:00:00.000Z', description: '=cmd|calc' },
];

const RECORDS_FILE = [
  'reference,date,amount,currency,direction,note',
  'NOV-A,2026-11-16,150.50,USD,in,matched by its reference',
  ',2026-11-16,20.25,USD,out,matched by amount a day apart',
  'NOV-C,2026-11-17 12:00,99.00,USD,out,another amount',
  'MISSING-1,2026-11-17,5.55,USD,,=1+1',
].join('\r\n');

type Row = Record<string, string>;

describe('/fleet reconcile in the running bot', () => {
  let sandbox: Sandbox;
  let h: Harness;

  beforeAll(async () => {
    sandbox = await startSandbox({ seed: 27, transactionCount: 120, clock });
    for (const entry of LEDGER) sandbox.addTransaction({ ...entry, type: 'PAYMENT', currency: 'USD' });
    h = await startHarness({
      existingSandbox: sandbox,
      bot: { clock },
      env: {
        LEDGER_ENABLED: 'true',
        LEDGER_HISTORY_PAGE_DELAY_MS: '0',
        LEDGER_POLL_SECONDS: '3600',
        LEDGER_SWEEP_MINUTES: '0',
        LEDGER_REWALK_HOURS: '0',
        FLEET_VIEWERS: `${PEOPLE.requester},${PEOPLE.approver},${FRENCH}`,
        RECORDS_MAX_ROWS: '50',
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
  afterEach(() => {
    expect(h.slack.limitViolations).toEqual([]);
  });

  const runs = async () => (await h.bot.db.query<{ n: number }>('SELECT count(*)::int AS n FROM records_runs')).rows[0]!.n;
  const fileMessages = (userId: string) => h.slack.messages(dmWith(userId)).filter((message) => message.files?.length);
  const rowsOfFile = (fileId: string): Row[] => parse<Row>(h.slack.file(fileId)!.bytes!.toString('utf8'), { bom: true, columns: true });

  /** The file chosen in the form: the preview as its profile reads it, or the notice that it was not read. */
  async function previewRecords(content: string, options: { userId?: string; text?: string; name?: string } = {}) {
    const userId = options.userId ?? PEOPLE.requester;
    await h.slack.runCommand({ userId, channelId: CHANNELS.treasury, text: options.text ?? 'reconcile' });
    const form = await waitForView(h, userId, callbackIs(RECORDS.uploadView), 'the records form');
    const fileId = h.slack.uploadFileAs({ userId, name: options.name ?? 'records.csv', bytes: content });
    const ack = await h.slack.submitView({ userId, viewId: form.id, values: { [RECORDS.fileBlock]: { [RECORDS.input]: [fileId] } } });
    expect(ack.status).toBe(200);
    return waitForView(
      h,
      userId,
      (view) => view.id === form.id && [RECORDS.previewView, RECORDS.resultView].some((id) => id === view.view.callback_id),
      'the records preview',
    );
  }

  /** The file previewed, then matched with the preview's button. */
  async function submitRecords(content: string, options: { userId?: string; text?: string; name?: string } = {}) {
    const userId = options.userId ?? PEOPLE.requester;
    const preview = await previewRecords(content, options);
    expect(preview.view.callback_id).toBe(RECORDS.previewView);
    const ack = await h.slack.submitView({ userId, viewId: preview.id });
    expect(ack.status).toBe(200);
    return waitForView(h, userId, (view) => view.id === preview.id && view.view.callback_id === RECORDS.resultView, 'the records check');
  }

  it('previews the records as the built-in profile reads them, matching nothing until asked', async () => {
    const before = await runs();
    const preview = await previewRecords(RECORDS_FILE, { name: 'november.csv' });
    const shown = viewText(preview);
    expect(preview.view.callback_id).toBe(RECORDS.previewView);
    expect(shown).toContain('read with the profile `default` (the built-in layout');
    expect(shown).toContain('4 records read');
    expect(shown).toContain('Row 3: `2026-11-16`, -20.25 USD (money out), no reference');
    expect(shown).toContain('No problem.');
    expect(preview.view.submit).toMatchObject({ text: 'Match with the ledger' });
    expect(await runs()).toBe(before);
  });

  it('opens a form with a CSV file input, matches the records, and sends the summary and the exceptions file to the person', async () => {
    const downloads = h.slack.privateDownloads;
    const result = viewText(await submitRecords(RECORDS_FILE, { name: 'november.csv' }));
    // Once for the preview, once again for the match.
    expect(h.slack.privateDownloads).toBe(downloads + 2);
    const unmatched = sandbox
      .transactions()
      .filter((tx) => tx.date >= '2026-11-16' && tx.date < '2026-11-18' && !['NOV-A', 'NOV-B', 'NOV-C'].includes(tx.reference))
      .sort((a, b) => a.date.localeCompare(b.date) || a.reference.localeCompare(b.reference));
    for (const detail of [
      '4 records from 2026-11-16 to 2026-11-17',
      '2 matched',
      'USD: 2 records, +130.25 USD',
      '1 found in the ledger with another amount',
      '1 record not in the ledger',
      `${unmatched.length} ledger entries not in your records`,
      'in your direct messages',
    ])
      expect(result).toContain(detail);
    const id = /RC-[A-Z0-9]{6}/.exec(result)![0];

    const summary = await h.slack.waitFor(() =>
      h.slack.messages(dmWith(PEOPLE.requester)).find((message) => message.text.includes(id) && !message.files?.length),
    );
    expect(blockText(summary)).toContain('2 matched');
    expect(blockText(summary)).toContain('just below');
    const [message] = await h.slack.waitFor(() => {
      const found = fileMessages(PEOPLE.requester);
      return found.length > 0 ? found : undefined;
    });
    expect(message!.files![0]).toMatchObject({ name: `fleet-records-2026-11-16_2026-11-17-${id}.csv`, title: 'Records check exceptions' });
    const rows = rowsOfFile(message!.files![0]!.id);
    expect(rows.slice(0, 2)).toEqual([
      {
        kind: 'amount_difference',
        reference: 'NOV-C',
        date: '2026-11-17 12:00',
        records_amount: '-99.00',
        ledger_amount: '-98.00',
        currency: 'USD',
        note: 'another amount',
        records_row: '4',
        records_sum: '',
      },
      {
        kind: 'not_in_ledger',
        reference: 'MISSING-1',
        date: '2026-11-17',
        records_amount: '5.55',
        ledger_amount: '',
        currency: 'USD',
        note: "'=1+1",
        records_row: '5',
        records_sum: '',
      },
    ]);
    const missing = rows.slice(2);
    expect(missing.every((row) => row.kind === 'not_in_records')).toBe(true);
    expect(missing.map((row) => row.reference).sort()).toEqual(unmatched.map((tx) => tx.reference).sort());
    expect(missing.find((row) => row.reference === 'NOV-EXTRA')).toMatchObject({ ledger_amount: '42.42', note: "'=cmd|calc" });
    const leaked = h.logs.filter((line) => line.includes('files-pri')).map((line) => line.slice(0, 300));
    expect(leaked).toEqual([]);
  });

  it("lists the last runs, and sends a run's exceptions file again from what it kept", async () => {
    await h.slack.runCommand({ userId: PEOPLE.approver, channelId: CHANNELS.treasury, text: 'reconcile history' });
    const list = await h.waitForMessage(PEOPLE.approver, 'Records checks');
    const text = blockText(list);
    expect(text).toContain('november.csv, 2026-11-16 to 2026-11-17. 2 matched, 1 other amount, 1 not in the ledger');
    const id = /RC-[A-Z0-9]{6}/.exec(text)![0];
    const before = fileMessages(PEOPLE.approver).length;
    await h.slack.clickButton({ userId: PEOPLE.approver, actionId: RECORDS.exceptionsFile, channelId: CHANNELS.treasury, messageTs: list.ts });
    await h.waitForMessage(PEOPLE.approver, `The exceptions file of ${id} is in your direct messages`);
    const [again] = fileMessages(PEOPLE.approver).slice(before);
    const [first] = fileMessages(PEOPLE.requester);
    expect(h.slack.file(again!.files![0]!.id)!.bytes!.toString('utf8')).toBe(h.slack.file(first!.files![0]!.id)!.bytes!.toString('utf8'));

    await h.slack.runCommand({ userId: PEOPLE.approver, channelId: CHANNELS.treasury, text: `reconcile history ${id.toLowerCase()}` });
    await h.slack.waitFor(() => (fileMessages(PEOPLE.approver).length === before + 2 ? true : undefined));
    // Asked for in the DM itself, the answer points just above, where the file now is.
    await h.slack.runCommand({ userId: PEOPLE.approver, channelId: dmWith(PEOPLE.approver), text: `reconcile history ${id}` });
    await h.waitForMessage(PEOPLE.approver, `The exceptions file of ${id} is just above`, dmWith(PEOPLE.approver));
    await h.slack.runCommand({ userId: PEOPLE.approver, channelId: CHANNELS.treasury, text: 'reconcile history RC-ZZZZZZ' });
    await h.waitForMessage(PEOPLE.approver, 'There is no records check `RC-ZZZZZZ`');
  });

  it('refuses a file without an amount column, naming it, and keeps nothing', async () => {
    const before = await runs();
    const preview = await previewRecords('reference,date,currency\nA,2026-11-16,USD\n');
    const shown = viewText(preview);
    expect(shown).toContain('The header row has no `amount` column, which the profile `default` reads');
    expect(shown).toContain('Nothing was kept');
    expect(preview.view.submit).toBeUndefined();
    expect(await runs()).toBe(before);
  });

  it('names the row, column and what was found of each bad cell, offers no match, and keeps a reference twice', async () => {
    const before = await runs();
    const preview = await previewRecords('reference,date,amount,currency\nA,2026-11-16,1,ZZZ\nB,16/11/2026,1,USD\nC,2026-11-16,1,USD\nC,2026-11-17,2,USD\n');
    const shown = viewText(preview);
    expect(shown).toContain('*2 problems.* Nothing is matched while a row has one');
    expect(shown).toContain('Row 2, column `currency`: found `ZZZ`. Not a currency the fleet account knows');
    expect(shown).toContain('Row 3, column `date`: found `16/11/2026`. Not a date as the profile reads it (`YYYY-MM-DD`): write it like `2026-11-02`');
    expect(shown).toContain('2 records read');
    expect(preview.view.submit).toBeUndefined();
    expect(await runs()).toBe(before);
  });

  it("refuses amounts with decimals beyond the currency's, even zeros, naming the thousands reading, and keeps nothing", async () => {
    const before = await runs();
    const shown = viewText(await previewRecords('reference,date,amount,currency\nA,2026-11-16,75.000,CDF\nB,2026-11-16,-1.500,USD\nC,2026-11-16,150.50,USD\n'));
    expect(shown).toContain('*2 problems.*');
    expect(shown).toContain('Row 2, column `amount`: found `75.000`. `75.000` CDF: 75,000? CDF has 2 decimals.');
    expect(shown).toContain('Row 3, column `amount`: found `-1.500`. `-1.500` USD: 1,500? USD has 2 decimals.');
    expect(await runs()).toBe(before);
  });

  it('refuses an empty file and a file over the row limit, naming the limit', async () => {
    expect(viewText(await previewRecords(''))).toContain('The file is empty');
    const rows = Array.from({ length: 51 }, (_, index) => `R${index},2026-11-16,1,USD`).join('\n');
    expect(viewText(await previewRecords(`reference,date,amount,currency\n${rows}\n`))).toContain(
      'The file has 51 rows; at most 50 are read at once (`RECORDS_MAX_ROWS`). Split it.',
    );
  });

  it("picks a saved profile by the file's header: a bank's semicolon statement, its debits money out", async () => {
    const saved = await new ImportProfiles(h.bot.db, clock).save(
      {
        ...defaultProfile('UTC'),
        name: 'TMB',
        delimiter: ';',
        skipAbove: 1,
        reference: 'Référence',
        date: { column: 'Date', format: 'DD/MM/YYYY' },
        amount: { layout: 'debit_credit', debit: 'Débit', credit: 'Crédit' },
        numbers: { decimalMark: ',', grouping: 'none' },
        currency: { fixed: 'USD' },
        note: undefined,
      },
      PEOPLE.approver,
    );
    expect(saved.ok).toBe(true);
    const statement = ['Relevé TMB novembre;;;', 'Date;Référence;Débit;Crédit', '16/11/2026;NOV-A;;150,50', '17/11/2026;NOV-B;20,25;'].join('\r\n');
    const preview = await previewRecords(statement, { name: 'tmb.csv' });
    const shown = viewText(preview);
    expect(shown).toContain("read with the profile `TMB` (picked by the file's header)");
    expect(shown).toContain('Row 4: `17/11/2026`, -20.25 USD (money out), `NOV-B`');
    expect(shown).toContain('records_edit_profile');
    await h.slack.submitView({ userId: PEOPLE.requester, viewId: preview.id });
    const result = viewText(
      await waitForView(h, PEOPLE.requester, (view) => view.id === preview.id && view.view.callback_id === RECORDS.resultView, 'the match'),
    );
    expect(result).toContain('2 matched');
  });

  it('answers an unknown profile with the saved names, opening no form', async () => {
    const views = h.slack.views(PEOPLE.requester).length;
    await h.slack.runCommand({ userId: PEOPLE.requester, channelId: CHANNELS.treasury, text: 'reconcile profile:equity' });
    await h.waitForMessage(PEOPLE.requester, 'There is no saved profile `equity`. Saved profiles: `TMB`.');
    expect(h.slack.views(PEOPLE.requester)).toHaveLength(views);
  });

  it('says the ledger is behind and calls nothing missing from the records', async () => {
    await updateSyncState(h.bot.db, { lastPollAt: new Date('2026-11-17T00:00:00.000Z') });
    try {
      const shown = viewText(await submitRecords(RECORDS_FILE, { name: 'behind.csv' }));
      expect(shown).toContain('The ledger has not read the Fleet API since');
      expect(shown).not.toContain('not in your records');
      expect(shown).not.toContain('not in the ledger');
      expect(shown).toContain('1 record not found in the ledger, which may not hold it yet');
    } finally {
      await updateSyncState(h.bot.db, { lastPollAt: clock.now() });
    }
  });

  it('answers in French to `/fleet rapprochement` and `historique`', async () => {
    const shown = viewText(await submitRecords(RECORDS_FILE, { userId: FRENCH, text: 'rapprochement', name: 'novembre.csv' }));
    expect(shown).toContain('4 écritures du 2026-11-16 au 2026-11-17');
    expect(shown).toContain('2 rapprochées');
    await h.slack.runCommand({ userId: FRENCH, channelId: CHANNELS.treasury, text: 'rapprochement historique' });
    expect(blockText(await h.waitForMessage(FRENCH, 'Rapprochements'))).toContain('novembre.csv');
  });

  it('gives an outsider the usual refusal, opens no form and reads no file', async () => {
    const downloads = h.slack.privateDownloads;
    await h.slack.runCommand({ userId: PEOPLE.newcomer, channelId: CHANNELS.treasury, text: 'reconcile' });
    await h.waitForMessage(PEOPLE.newcomer, "You don't have access to the fleet account's data");
    expect(h.slack.views(PEOPLE.newcomer)).toEqual([]);
    expect(h.slack.privateDownloads).toBe(downloads);
  });
});

describe('/fleet reconcile without the ledger', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ env: { LEDGER_ENABLED: 'false' } });
  });
  afterAll(async () => h?.close());

  it('says the ledger is off, and opens no form', async () => {
    await h.slack.runCommand({ userId: PEOPLE.requester, channelId: CHANNELS.treasury, text: 'reconcile' });
    await h.waitForMessage(PEOPLE.requester, 'it is not turned on here (LEDGER_ENABLED)');
    expect(h.slack.views(PEOPLE.requester)).toEqual([]);
  });
});

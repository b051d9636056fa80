import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import ExcelJS from 'exceljs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { PAYOUT_BATCH } from '../../../src/slack/ids.js';
import { CHANNELS, PEOPLE, startHarness, type Harness } from '../../support/bot-harness.js';
import { callbackIs, dmWith, PAYOUT_ENV, payoutPosts, viewText, waitForView } from '../../support/payout-flow.js';

const HEADER = 'kind,number,provider,name,country,amount,currency,reference,note';
const GOOD = [
  'mobile,243812345678,VODACOM_MPESA,Amani Kabila,CD,150.50,USD,,November',
  'bank,0001 2345 6789,BCDCCDKI,"Ndaya Logistics, SARL",CD,2500,EUR,INV-2026-031,',
  'mobile,243812345678,VODACOM_MPESA,Amani Kabila,CD,150.50,USD,,again',
];
/** Fabrice's Slack runs in French (fr-FR). */
const FRENCH = 'U0FABRICE';

describe('checking a bulk payout file in Slack', () => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness({ env: { ...PAYOUT_ENV, FLEET_REQUESTERS: `${PEOPLE.requester},${FRENCH}`, PAYOUT_BATCH_MAX_ROWS: '30' } });
  });
  afterAll(async () => h?.close());
  afterEach(() => {
    expect(h.slack.limitViolations).toEqual([]);
  });

  async function openForm(text = 'payout bulk', userId: string = PEOPLE.requester) {
    await h.slack.runCommand({ userId, channelId: CHANNELS.treasury, text });
    return waitForView(h, userId, callbackIs(PAYOUT_BATCH.uploadView), 'the bulk payout form');
  }

  async function submitFile(content: string | Buffer, name = 'payouts.csv', userId: string = PEOPLE.requester, encoding?: string) {
    const form = await openForm('payout bulk', userId);
    const fileId = h.slack.uploadFileAs({ userId, name, bytes: content });
    const values = {
      [PAYOUT_BATCH.fileBlock]: { [PAYOUT_BATCH.input]: [fileId] },
      ...(encoding ? { [PAYOUT_BATCH.encodingBlock]: { [PAYOUT_BATCH.input]: encoding } } : {}),
    };
    const ack = await h.slack.submitView({ userId, viewId: form.id, values });
    expect(ack.status).toBe(200);
    return waitForView(
      h,
      userId,
      (view) => view.id === form.id && view.view.callback_id !== PAYOUT_BATCH.uploadView && view.view.callback_id !== PAYOUT_BATCH.checkingView,
      'the check of the file',
    );
  }

  it('opens the form with a CSV file input and a paste area, in French too', async () => {
    const form = await openForm();
    const blocks = JSON.stringify(form.view.blocks);
    expect(blocks).toContain('"type":"file_input"');
    expect(blocks).toContain('"filetypes":["csv","tsv","txt","xlsx"]');
    expect(blocks).toContain('File encoding');
    expect(blocks).toContain('"max_files":1');
    expect(blocks).toContain('At most 30 rows');
    await h.slack.closeView({ userId: PEOPLE.requester, viewId: form.id });
    const french = await openForm('virement groupé');
    expect(french.view.callback_id).toBe(PAYOUT_BATCH.uploadView);
    await h.slack.closeView({ userId: PEOPLE.requester, viewId: french.id });
  });

  it('reads the chosen file through files.info and its private URL, and sums it up', async () => {
    const downloads = h.slack.privateDownloads;
    const result = await submitFile(`\uFEFF${HEADER}\r\n${GOOD.join('\r\n')}\r\n`);
    const shown = viewText(result);
    expect(shown).toContain('3 rows');
    expect(shown).toContain('301.00 USD');
    expect(shown).toContain('2,500.00 EUR');
    expect(shown).toContain('row 4 repeats row 2');
    expect(shown).toContain('3 new recipients');
    expect(shown).toContain('Every row can be sent');
    expect(h.slack.privateDownloads).toBe(downloads + 1);
    expect(h.slack.apiCalls.some((call) => call.method === 'files.info')).toBe(true);
    const leaked = h.logs.filter((line) => line.includes('files-pri')).map((line) => line.slice(0, 300));
    expect(leaked).toEqual([]);
    expect(payoutPosts(h)).toBe(0);
  });

  it('lists the problems with their rows and sends every one of them as a CSV to the person', async () => {
    const bad = Array.from({ length: 25 }, (_, index) => `mobile,24381234${String(index).padStart(4, '0')},NOPE,"=cmd|' /C calc'!A0",CD,1,USD,,`);
    const result = await submitFile(`${HEADER}\n${bad.join('\n')}\n`);
    const shown = viewText(result);
    expect(shown).toContain('25 problems');
    expect(shown).toContain('The first 20');
    expect(shown).toContain('Row 21, provider');
    expect(shown).not.toContain('Row 22, provider');
    const dm = await h.waitForMessage(PEOPLE.requester, 'problems found in your bulk payout file', dmWith(PEOPLE.requester));
    const file = h.slack.file(dm.files![0]!.id)!;
    const csv = file.bytes!.toString('utf8');
    expect(csv.split('\r\n').filter(Boolean)).toHaveLength(26);
    expect(csv).toContain('26,provider,');
  });

  it('refuses amounts a spreadsheet wrote with grouped thousands (75.000 CDF, 1.500 USD) instead of sending a thousandth, in each language', async () => {
    const count = async (table: string) => (await h.bot.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`)).rows[0]!.n;
    const [requests, rows] = [await count('payout_requests'), await count('payout_batch_rows')];
    const file = `${HEADER}\nmobile,243812345678,VODACOM_MPESA,Amani Kabila,CD,75.000,CDF,,\nmobile,243812345678,VODACOM_MPESA,Amani Kabila,CD,1.500,USD,,\n`;
    const english = viewText(await submitFile(file));
    expect(english).toContain('2 problems');
    expect(english).toContain('Row 2, amount: 75.000 CDF: 75,000? CDF has 2 decimals.');
    expect(english).toContain('Row 3, amount: 1.500 USD: 1,500? USD has 2 decimals.');
    expect(english).not.toContain('Every row can be sent');
    const french = viewText(await submitFile(file, 'paiements.csv', FRENCH));
    expect(french).toContain('Ligne 2, amount : 75.000 CDF : 75\u202F000 ? Les montants en CDF ont 2 décimales.');
    expect([await count('payout_requests'), await count('payout_batch_rows')]).toEqual([requests, rows]);
    expect(payoutPosts(h)).toBe(0);
  });

  it('reads a file with semicolons, and refuses an empty file and a binary file with a clear reason', async () => {
    expect(viewText(await submitFile(`${HEADER.replaceAll(',', ';')}\n${GOOD[0]!.replaceAll(',', ';')}\n`))).toContain('Every row can be sent');
    expect(viewText(await submitFile(''.padEnd(3, '\n')))).toContain('The file is empty');
    expect(viewText(await submitFile(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01]), 'photo.csv'))).toContain('not a text file');
  });

  it('reads a Windows-1252 file with that encoding chosen in the form, and an Excel workbook', async () => {
    const latin = `${HEADER}\nmobile,243812345678,VODACOM_MPESA,Zoé Kabila,CD,150.50,USD,,Prime été\n`;
    expect(viewText(await submitFile(Buffer.from(latin, 'latin1'), 'payouts.csv', PEOPLE.requester))).toContain('not text in UTF-8');
    const chosen = viewText(await submitFile(Buffer.from(latin, 'latin1'), 'payouts.csv', PEOPLE.requester, 'windows-1252'));
    expect(chosen).toContain('Zoé Kabila');
    expect(chosen).toContain('Every row can be sent');
    const book = new ExcelJS.Workbook();
    const sheet = book.addWorksheet('Payouts');
    sheet.addRow(HEADER.split(','));
    sheet.addRow(['mobile', '243812345678', 'VODACOM_MPESA', 'Amani Kabila', 'CD', 150.5, 'USD', '', 'November']);
    const workbook = viewText(await submitFile(Buffer.from(await book.xlsx.writeBuffer()), 'payouts.xlsx'));
    expect(workbook).toContain('1 row');
    expect(workbook).toContain('150.50 USD');
    expect(payoutPosts(h)).toBe(0);
  });

  it('refuses a phone number in scientific notation with the fix, in French too', async () => {
    const file = `${HEADER}\nmobile,2.43998E+11,VODACOM_MPESA,Amani Kabila,CD,10,USD,,\n`;
    expect(viewText(await submitFile(file))).toContain('Row 2, number: 2.43998E+11 is a number in scientific notation');
    expect(viewText(await submitFile(file, 'paiements.csv', FRENCH))).toContain('Mettez la colonne au format Texte');
  });

  it("sends the bot token to Slack alone: a file whose private URL names another server is refused in the person's language, and that server is never asked", async () => {
    const asked: IncomingHttpHeaders[] = [];
    const elsewhere = createServer((request, response) => {
      asked.push(request.headers);
      response.writeHead(200, { 'content-type': 'text/csv' }).end(`${HEADER}\n${GOOD[0]}\n`);
    });
    await new Promise<void>((resolve) => elsewhere.listen(0, '127.0.0.1', resolve));
    h.slack.servePrivateFilesFrom(`http://127.0.0.1:${(elsewhere.address() as AddressInfo).port}`);
    try {
      const english = viewText(await submitFile(`${HEADER}\n${GOOD[0]}\n`));
      expect(english).toContain('not on Slack');
      expect(english).not.toContain('1 row');
      const french = viewText(await submitFile(`${HEADER}\n${GOOD[0]}\n`, 'paiements.csv', FRENCH));
      expect(french).toContain('pas sur le serveur de fichiers de Slack');
      expect(asked).toEqual([]);
      expect(payoutPosts(h)).toBe(0);
    } finally {
      h.slack.servePrivateFilesFrom(undefined);
      elsewhere.closeAllConnections();
      await new Promise((resolve) => elsewhere.close(resolve));
    }
  });

  it('refuses a file over the size cap from files.info, without downloading it', async () => {
    const downloads = h.slack.privateDownloads;
    const result = await submitFile(`${HEADER}\n${`${GOOD[0]}\n`.repeat(150_000)}`);
    expect(viewText(result)).toContain('too large');
    expect(h.slack.privateDownloads).toBe(downloads);
  });

  it('reads rows pasted instead of a file, and asks for one or the other', async () => {
    const form = await openForm();
    const none = await h.slack.submitView({ userId: PEOPLE.requester, viewId: form.id, values: {} });
    expect(JSON.stringify(none.body)).toContain('Choose a file or paste rows');
    await h.slack.submitView({
      userId: PEOPLE.requester,
      viewId: form.id,
      values: { [PAYOUT_BATCH.pasteBlock]: { [PAYOUT_BATCH.input]: `${HEADER}\n${GOOD[0]}` } },
    });
    const result = await waitForView(
      h,
      PEOPLE.requester,
      (view) => view.id === form.id && view.view.callback_id !== PAYOUT_BATCH.uploadView && view.view.callback_id !== PAYOUT_BATCH.checkingView,
      'the check',
    );
    expect(viewText(result)).toContain('1 row');
  });

  it('does not open the form for someone who may not request payouts', async () => {
    await h.slack.runCommand({ userId: PEOPLE.newcomer, channelId: CHANNELS.treasury, text: 'payout bulk' });
    expect(h.slack.views(PEOPLE.newcomer)).toEqual([]);
  });
});

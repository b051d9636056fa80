/**
 * An import profile made in the browser: Abel uploads the demo's example bank statement, which the
 * built-in layout cannot read, makes its profile in the builder from the file itself (as a treasury
 * user would, one choice at a time), sees the preview read with it, matches it with the ledger, and
 * uploads the statement again to find the saved profile picked by the file's header. Then the
 * profiles of the other two example exports (the mobile-money statement, the accounting export),
 * made the same way, each checked in its preview against the file read by hand.
 */
import { readFile } from 'node:fs/promises';
import { expect, it } from 'vitest';
import { ACCOUNTING_EXPORT_PROFILE, BANK_STATEMENT_PROFILE, MOBILE_MONEY_PROFILE } from '../../../src/demo/example-profiles.js';
import { DEMO_CHANNELS, DEMO_PEOPLE } from '../../../src/demo/people.js';
import { recordsExampleDays } from '../../../src/demo/records-example.js';
import { cellsOf, profileBuilder, shownAmount } from './profile-builder.js';
import type { BrowserSession } from './session.js';

/** A line of the statement as its bank wrote it: the spreadsheet's row, its cells. */
interface StatementRow {
  row: number;
  date: string;
  label: string;
  reference: string;
  debit: string;
  credit: string;
}

/** The statement's records, read by hand: below the two title lines and the header, above the totals. */
function statementRows(bytes: Buffer): StatementRow[] {
  // Node reads windows-1252 as Latin-1; the statement's one byte of Windows-1252's own range is its dash.
  const lines = bytes.toString('latin1').replace(/\x97/g, '—').split('\r\n');
  expect(lines.at(-1)).toBe('');
  expect(lines[2]).toBe('Date opération;Date valeur;Libellé;Référence;Débit;Crédit');
  return lines.slice(3, -2).map((line, index) => {
    const [date = '', , label = '', reference = '', debit = '', credit = ''] = line.split(';');
    return { row: index + 4, date, label, reference, debit, credit };
  });
}

/** A statement amount (`1 802,79`, in the debit or the credit column) as the preview shows it: `-5.00 USD`, `+1,802.79 USD`. */
function statementAmount({ debit, credit }: StatementRow): string {
  return shownAmount((debit || credit).replace(/ /g, ',').replace(/,(\d\d)$/, '.$1'), debit !== '', 'USD');
}

export function importProfileSteps(session: BrowserSession): void {
  const { screenshot, showLogsOnFailure, modal, eventually, run, become } = session;
  const { sampleRead, chooseFields, selected, pictureBuilder } = profileBuilder(session);

  /** One of the demo page's example files, downloaded as Abel would. */
  async function exampleFile(name: string): Promise<Buffer> {
    const { page } = session;
    const [download] = await Promise.all([page.waitForEvent('download'), page.locator('a.sample-file', { hasText: name }).click()]);
    expect(download.suggestedFilename()).toBe(name);
    return readFile(await download.path());
  }

  /** `/fleet reconcile` with `name`'s bytes, up to the preview. */
  async function uploadFile(name: string, bytes: Buffer, mimeType: string): Promise<void> {
    await run('/fleet reconcile');
    await eventually(() => modal().locator('.modal-title').innerText()).toBe('Check records');
    await modal().locator('input[type=file]').setInputFiles({ name, mimeType, buffer: bytes });
    await eventually(() => modal().innerText()).toContain(`${name} uploaded`);
    await modal().getByRole('button', { name: 'Check' }).click();
    await eventually(() => modal().locator('.modal-title').innerText()).toBe('Records as read');
  }

  it('makes a profile for the example bank statement in the builder, previews it read exactly, matches it, and picks it again by its header', async () => {
    showLogsOnFailure();
    const ledger = session.demo.bot.ledger!.reader;
    await eventually(async () => (await ledger.status()).historyComplete).toBe(true);
    const profile = BANK_STATEMENT_PROFILE;
    await become(DEMO_PEOPLE.abel, { channelId: DEMO_CHANNELS.treasury.id });
    const bytes = await exampleFile('bank-statement.csv');
    const rows = statementRows(bytes);
    const [first, last] = recordsExampleDays(new Date(Date.now() + session.clockAheadMs));
    const upload = () => uploadFile('bank-statement.csv', bytes, 'text/csv');

    // The built-in layout reads UTF-8 with commas: the bank's Windows-1252 bytes stop it first.
    await upload();
    const refused = await modal().innerText();
    expect(refused).toContain("read with the profile default (the built-in layout: no saved profile fits the file's header)");
    expect(refused).toContain('The file is not text in UTF-8, the encoding its import profile names');
    await expect(modal().getByRole('button', { name: 'Match with the ledger' }).count()).resolves.toBe(0);
    await modal().getByRole('button', { name: 'Make a profile from this file' }).click();
    await eventually(() => modal().locator('.modal-title').innerText()).toBe('Import profile');
    // A blank profile reads UTF-8: the builder cannot show the bank's bytes until the encoding is chosen.
    expect(await modal().innerText()).toContain('The file is not text in UTF-8, so its lines cannot be shown: choose its encoding below.');
    await chooseFields(profile, 'Compte n° 00012-01234567801-27 USD');
    expect(await sampleRead().innerText()).toContain('6 columns');
    expect(await sampleRead().innerText()).toContain(`First record: ${rows[0]!.date} | ${rows[0]!.date} | ${rows[0]!.label}`);
    expect(await modal().innerText()).toContain(`The file writes: ${rows[0]!.date}`);
    // What was typed before the redraws is still there.
    await expect(modal().getByLabel('Profile name').inputValue()).resolves.toBe(profile.name);
    await expect(modal().getByRole('radio', { name: 'The first line read is a header row naming the columns' }).isChecked()).resolves.toBe(true);
    // Every choice survived the redraws that came after it.
    await expect(selected(modal().getByLabel('Reference column'))).resolves.toMatch(/^4\. Référence/);
    await expect(selected(modal().getByLabel('Date column'))).resolves.toMatch(/^1\. Date opération/);
    await expect(modal().getByLabel('Time zone of the file’s times').inputValue()).resolves.toBe(profile.timeZone);
    await expect(modal().getByLabel('Lines to skip below the records').inputValue()).resolves.toBe('1');
    await pictureBuilder('records-profile-builder', 'import-profile-builder');
    await modal().getByRole('button', { name: 'Continue' }).click();

    // The preview, read with the new profile: every line of the statement, as the bank wrote it.
    await eventually(() => modal().locator('.modal-title').innerText()).toBe('Records as read');
    const preview = await modal().innerText();
    expect(preview).toContain(`bank-statement.csv, read with the profile ${profile.name} (as chosen).`);
    expect(preview).toContain(`${rows.length} records read`);
    expect(preview).toContain('0 problems');
    expect(preview).toContain('No problem. Match with the ledger matches these records');
    const shownRows = rows.slice(0, 10);
    expect(preview).toContain(`The first ${shownRows.length} records as read:`);
    for (const row of shownRows)
      expect(preview).toContain(`Row ${row.row}: ${row.date}, ${statementAmount(row)} (${row.debit ? 'money out' : 'money in'}), ${row.reference}`);
    // The first credit: the transfer, its commission and the VAT, three lines under one reference.
    const group = rows.filter((row) => row.reference === rows.find((candidate) => candidate.credit)!.reference);
    expect(group.map((row) => row.label)).toEqual(['Virement reçu — retrait de portefeuille', 'Commission sur virement reçu', 'TVA 16 % sur commission']);
    expect(preview).toContain(`Row ${group[1]!.row}: ${group[1]!.date}, -5.00 USD (money out), ${group[1]!.reference}`);
    expect(preview).toContain(`Row ${group[2]!.row}: ${group[2]!.date}, -0.80 USD (money out), ${group[2]!.reference}`);
    await screenshot('records-preview', 'import-profile-preview');

    await modal().getByRole('button', { name: 'Match with the ledger' }).click();
    await eventually(() => modal().locator('.modal-title').innerText()).toBe('Records checked');
    const summary = await modal().innerText();
    const fee = rows.at(-1)!;
    expect(fee.label).toBe('Frais de tenue de compte');
    // The statement holds the account's USD only: the period's entries in other currencies are not called missing from it.
    const usdEntries = session
      .sandbox()
      .transactions()
      .filter((tx) => [first, last].includes(tx.date.slice(0, 10)) && tx.currency === 'USD').length;
    for (const detail of [
      `${rows.length} records from ${first} to ${last}`,
      `${rows.length - 1} matched`,
      '1 group of records sharing a reference matched one ledger entry by their sum (3 records in all)',
      `3 records sharing reference ${group[0]!.reference} matched one ledger entry by their sum`,
      '0 found in the ledger with another amount',
      '1 record not in the ledger',
      `${usdEntries - (rows.length - 1 - 2)} ledger entries not in your records`,
    ])
      expect(summary).toContain(detail);
    await modal().locator('.modal-footer').getByRole('button', { name: 'Close' }).click();

    // The same statement again: the saved profile is picked by its header, no choice needed.
    await upload();
    const again = await modal().innerText();
    expect(again).toContain(`bank-statement.csv, read with the profile ${profile.name} (picked by the file's header).`);
    expect(again).toContain(`${rows.length} records read`);
    await modal().locator('.modal-footer').getByRole('button', { name: 'Close' }).click();
    await eventually(() => modal().count()).toBe(0);
  });

  /** A record of an example export as its file writes it, with the line it is on. */
  interface ExportRow {
    row: number;
    date: string;
    amount: string;
    moneyOut: boolean;
    currency: string;
    reference: string;
    status?: string;
  }

  /** Makes `profile` from `name` in the builder, and checks the preview reads `rows` (the records) and leaves out `leftOut`. */
  async function makeAndPreview(
    name: string,
    bytes: Buffer,
    profile: Parameters<typeof chooseFields>[0],
    rows: ExportRow[],
    leftOut: ExportRow[],
    shown: string,
  ) {
    await uploadFile(name, bytes, 'text/plain');
    await modal().getByRole('button', { name: 'Make a profile from this file' }).click();
    await eventually(() => modal().locator('.modal-title').innerText()).toBe('Import profile');
    await chooseFields(profile, shown);
    const picture = name.startsWith('mobile') ? 'mobile-money' : 'accounting';
    await pictureBuilder(`records-profile-builder-${picture}`, `import-profile-builder-${picture}`);
    await modal().getByRole('button', { name: 'Continue' }).click();
    await eventually(() => modal().locator('.modal-title').innerText()).toBe('Records as read');
    const preview = await modal().innerText();
    expect(preview).toContain(`${name}, read with the profile ${profile.name} (as chosen).`);
    expect(preview).toContain(`${rows.length} records read`);
    expect(preview).toContain('0 problems');
    const shownRows = rows.slice(0, 10);
    expect(preview).toContain(`The first ${shownRows.length} records as read:`);
    for (const row of shownRows) {
      const direction = row.moneyOut ? 'money out' : 'money in';
      expect(preview).toContain(
        `Row ${row.row}: ${row.date}, ${shownAmount(row.amount, row.moneyOut, row.currency)} (${direction}), ${row.reference || 'no reference'}`,
      );
    }
    if (leftOut.length === 0) expect(preview).toContain('0 rows left out by their status');
    else {
      expect(preview).toContain(`${leftOut.length} rows left out by their status`);
      for (const status of new Set(leftOut.map((row) => row.status))) {
        const rowsOf = leftOut.filter((row) => row.status === status).map((row) => row.row);
        expect(preview).toContain(
          `${status}: ${rowsOf.length} row${rowsOf.length === 1 ? '' : 's'} (row${rowsOf.length === 1 ? '' : 's'} ${rowsOf.join(', ')})`,
        );
      }
    }
    await screenshot(`records-preview-${picture}`, `import-profile-preview-${picture}`);
    await modal().locator('.modal-footer').getByRole('button', { name: 'Close' }).click();
    await eventually(() => modal().count()).toBe(0);
  }

  it('makes the profiles of the example mobile-money statement and accounting export in the builder, each previewed read exactly', async () => {
    showLogsOnFailure();
    await become(DEMO_PEOPLE.abel, { channelId: DEMO_CHANNELS.treasury.id });

    // The provider's statement: UTF-8, commas, an unsigned amount with its direction, a status.
    const statement = await exampleFile('mobile-money-statement.csv');
    const statementLines = statement.toString('utf8').split('\r\n');
    expect(statementLines[0]).toBe('Receipt No.,Completion Time,Details,Transaction Status,Direction,Amount,Currency');
    expect(statementLines.at(-1)).toBe('');
    const statementRows = statementLines.slice(1, -1).map((line, index): ExportRow => {
      const [reference = '', date = '', , status = '', direction = '', amount = '', currency = ''] = cellsOf(line, ',');
      expect(['Credit', 'Debit']).toContain(direction);
      return { row: index + 2, date, amount, moneyOut: direction === 'Debit', currency, reference, status };
    });
    const leftOut = statementRows.filter((row) => row.status !== 'Completed');
    expect(leftOut.map((row) => row.status).sort()).toEqual(['Failed', 'Pending']);
    await makeAndPreview(
      'mobile-money-statement.csv',
      statement,
      MOBILE_MONEY_PROFILE,
      statementRows.filter((row) => row.status === 'Completed'),
      leftOut,
      statementLines[1]!.split(',')[0]!,
    );

    // The accounting system's "Unicode text": UTF-16 with its byte-order mark, tabs, one signed amount.
    const register = await exampleFile('accounting-export.txt');
    expect([...register.subarray(0, 2)]).toEqual([0xff, 0xfe]);
    const registerLines = register.subarray(2).toString('utf16le').split('\r\n');
    expect(registerLines[0]).toBe('Date\tTransaction Type\tNum\tDescription\tMemo\tAmount\tCurrency');
    expect(registerLines.at(-1)).toBe('');
    const registerRows = registerLines.slice(1, -1).map((line, index): ExportRow => {
      const [date = '', , reference = '', , , amount = '', currency = ''] = cellsOf(line, '\t');
      return { row: index + 2, date, amount, moneyOut: amount.startsWith('-'), currency, reference };
    });
    await makeAndPreview('accounting-export.txt', register, ACCOUNTING_EXPORT_PROFILE, registerRows, [], registerLines[1]!.split('\t')[0]!);
  });
}

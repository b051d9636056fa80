/**
 * An import profile made in the browser: Abel uploads the demo's example bank statement, which the
 * built-in layout cannot read, makes its profile in the builder from the file itself (as a treasury
 * user would, one choice at a time), sees the preview read with it, matches it with the ledger, and
 * uploads the statement again to find the saved profile picked by the file's header.
 */
import { readFile } from 'node:fs/promises';
import type { Locator } from 'playwright-core';
import { expect, it } from 'vitest';
import { BANK_STATEMENT_PROFILE } from '../../../src/demo/example-profiles.js';
import { DEMO_CHANNELS, DEMO_PEOPLE } from '../../../src/demo/people.js';
import { recordsExampleDays } from '../../../src/demo/records-example.js';
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
function shownAmount({ debit, credit }: StatementRow): string {
  const written = debit || credit;
  const value = Number(written.replace(/ /g, '').replace(',', '.'));
  const body = value.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  return `${debit ? '-' : '+'}${body} USD`;
}

export function importProfileSteps(session: BrowserSession): void {
  const { screenshot, showLogsOnFailure, modal, eventually, scrollTo, run, become } = session;

  /** The builder's sample line ("Read with these settings: …"), which every redraw writes again. */
  const sampleRead = () => modal().locator('.block', { hasText: 'Read with these settings' }).first();

  /**
   * Makes a change to an input that redraws the builder, and waits for the redraw: the page draws the
   * modal anew, so a locator found before it is detached; `until` says what the new one shows.
   */
  async function redrawnAfter(change: () => Promise<unknown>, until: () => Promise<boolean>): Promise<void> {
    await change();
    await eventually(until).toBe(true);
  }

  /** Picks a column of the file in a role's select, by its header name as the option shows it ("4. Référence – e.g. …"). */
  async function chooseColumn(label: string, header: string): Promise<void> {
    const select = modal().getByLabel(label);
    const options = await select.locator('option').allTextContents();
    const option = options.find((text) => new RegExp(`^\\d+\\. ${header}( –|$)`).test(text));
    expect(option, `${label}: ${header} in ${JSON.stringify(options)}`).toBeDefined();
    await select.selectOption({ label: option! });
  }

  const selected = (locator: Locator) =>
    locator.evaluate((select) => (select as unknown as { selectedOptions: Array<{ textContent: string }> }).selectedOptions[0]?.textContent ?? '');

  it('makes a profile for the example bank statement in the builder, previews it read exactly, matches it, and picks it again by its header', async () => {
    showLogsOnFailure();
    const { page } = session;
    const ledger = session.demo.bot.ledger!.reader;
    await eventually(async () => (await ledger.status()).historyComplete).toBe(true);
    const profile = BANK_STATEMENT_PROFILE;
    await become(DEMO_PEOPLE.abel, { channelId: DEMO_CHANNELS.treasury.id });
    const [example] = await Promise.all([page.waitForEvent('download'), page.locator('a.sample-file', { hasText: 'bank-statement.csv' }).click()]);
    expect(example.suggestedFilename()).toBe('bank-statement.csv');
    const bytes = await readFile(await example.path());
    const rows = statementRows(bytes);
    const [first, last] = recordsExampleDays(new Date(Date.now() + session.clockAheadMs));
    const upload = async () => {
      await run('/fleet reconcile');
      await eventually(() => modal().locator('.modal-title').innerText()).toBe('Check records');
      await modal().locator('input[type=file]').setInputFiles({ name: 'bank-statement.csv', mimeType: 'text/csv', buffer: bytes });
      await eventually(() => modal().innerText()).toContain('bank-statement.csv uploaded');
      await modal().getByRole('button', { name: 'Check' }).click();
      await eventually(() => modal().locator('.modal-title').innerText()).toBe('Records as read');
    };

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
    await modal().getByLabel('Profile name').fill(profile.name);
    await redrawnAfter(
      () => modal().getByLabel('Text encoding').selectOption('windows-1252'),
      async () => (await modal().innerText()).includes('Compte n° 00012-01234567801-27 USD'),
    );
    await redrawnAfter(
      () => modal().getByRole('radio', { name: 'Semicolons (;)' }).check(),
      async () => (await sampleRead().innerText()).includes('6 columns'),
    );
    await redrawnAfter(
      () => modal().getByLabel('Lines to skip above the header').selectOption(String(profile.skipAbove)),
      async () => (await sampleRead().innerText()).includes(`First record: ${rows[0]!.date} | ${rows[0]!.date} | ${rows[0]!.label}`),
    );
    // What was typed before the redraws is still there.
    await expect(modal().getByLabel('Profile name').inputValue()).resolves.toBe(profile.name);
    await expect(modal().getByRole('radio', { name: 'The first line read is a header row naming the columns' }).isChecked()).resolves.toBe(true);
    await modal().getByLabel('Lines to skip below the records').selectOption(String(profile.skipBelow));
    await chooseColumn('Reference column', profile.reference);
    await redrawnAfter(
      () => chooseColumn('Date column', profile.date.column),
      async () => (await modal().innerText()).includes(`The file writes: ${rows[0]!.date}`),
    );
    await modal().getByLabel('Dates are written as').selectOption(profile.date.format);
    await modal().getByLabel('Time zone of the file’s times').selectOption(profile.timeZone);
    await redrawnAfter(
      () => modal().getByRole('radio', { name: 'A debit column and a credit column' }).check(),
      async () => (await modal().getByLabel('Debit column (money out)').count()) === 1,
    );
    await chooseColumn('Debit column (money out)', profile.amount.debit);
    await chooseColumn('Credit column (money in)', profile.amount.credit);
    await modal().getByRole('radio', { name: 'Comma (1250,50)' }).check();
    await modal().getByLabel('Thousands are grouped with').selectOption('space');
    await redrawnAfter(
      () => modal().getByRole('radio', { name: 'Every record is in one currency' }).check(),
      async () => (await modal().getByLabel('The file’s currency').count()) === 1,
    );
    await modal().getByLabel('The file’s currency').selectOption(profile.currency.fixed);
    await chooseColumn('Description column', profile.description);
    // Every choice survived the redraws that came after it.
    await expect(selected(modal().getByLabel('Reference column'))).resolves.toMatch(/^4\. Référence/);
    await expect(selected(modal().getByLabel('Date column'))).resolves.toMatch(/^1\. Date opération/);
    await expect(modal().getByLabel('Time zone of the file’s times').inputValue()).resolves.toBe(profile.timeZone);
    await expect(modal().getByLabel('Lines to skip below the records').inputValue()).resolves.toBe('1');
    // A taller window for its picture: the file's first lines and the choices made from them, in one view.
    const viewport = page.viewportSize()!;
    await page.setViewportSize({ width: viewport.width, height: 1900 });
    await scrollTo(modal().getByRole('heading', { name: 'Optional columns' }));
    await screenshot('records-profile-builder', 'import-profile-builder');
    await page.setViewportSize(viewport);
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
      expect(preview).toContain(`Row ${row.row}: ${row.date}, ${shownAmount(row)} (${row.debit ? 'money out' : 'money in'}), ${row.reference}`);
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
}

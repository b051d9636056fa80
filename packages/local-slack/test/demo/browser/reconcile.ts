/**
 * The reconcile flow: the demo's example records file previewed as the built-in layout reads it, then
 * checked against the ledger, its exceptions file in Abel's direct messages.
 */
import { readFile } from 'node:fs/promises';
import { parse } from 'csv-parse/sync';
import { expect, it } from 'vitest';
import { DEMO_CHANNELS, DEMO_PEOPLE } from '../../../src/demo/people.js';
import { recordsExampleDays } from '../../../src/demo/records-example.js';
import type { BrowserSession } from './session.js';

export function reconcileSteps(session: BrowserSession): void {
  const { sandbox, screenshot, showLogsOnFailure, message, modal, eventually, scrollTo, run, become } = session;

  it("reconciles the demo's example records file for Abel: most records matched, one exception of each kind, the file in his DM", async () => {
    showLogsOnFailure();
    const { page, demo } = session;
    const ledger = demo.bot.ledger!.reader;
    await eventually(async () => (await ledger.status()).historyComplete).toBe(true);
    const [first, last] = recordsExampleDays(new Date(Date.now() + session.clockAheadMs));
    await become(DEMO_PEOPLE.abel, { channelId: DEMO_CHANNELS.treasury.id });
    // The example file, from the sidebar's Example files, as a first-timer downloads it.
    const [example] = await Promise.all([page.waitForEvent('download'), page.locator('a.sample-file', { hasText: 'records.csv' }).click()]);
    expect(example.suggestedFilename()).toBe('records.csv');
    const records = await readFile(await example.path(), 'utf8');
    const count = records.trim().split('\n').length - 1;
    expect(count).toBeGreaterThanOrEqual(10);

    await run('/fleet reconcile');
    await eventually(() => modal().locator('.modal-title').innerText()).toBe('Check records');
    expect(await modal().innerText()).toContain('within 1 day of their date');
    await modal()
      .locator('input[type=file]')
      .setInputFiles({ name: 'records.csv', mimeType: 'text/csv', buffer: Buffer.from(records) });
    await eventually(() => modal().innerText()).toContain('records.csv uploaded');
    await screenshot('records-form', 'reconcile-form');
    await modal().getByRole('button', { name: 'Check' }).click();
    // The file as the built-in profile reads it first; nothing is matched before the button.
    await eventually(() => modal().locator('.modal-title').innerText()).toBe('Records as read');
    const preview = await modal().innerText();
    expect(preview).toContain("records.csv, read with the profile default (the built-in layout: no saved profile fits the file's header).");
    expect(preview).toContain(`${count} records read`);
    expect(preview).toContain('0 problems');
    await screenshot('records-preview', 'reconcile-preview');
    await modal().getByRole('button', { name: 'Match with the ledger' }).click();
    await eventually(() => modal().locator('.modal-title').innerText()).toBe('Records checked');
    const summary = await modal().innerText();
    for (const detail of [
      `${count} records from ${first} to ${last}`,
      `${count - 2} matched`,
      '1 found in the ledger with another amount',
      '1 record not in the ledger',
      '1 ledger entry not in your records',
      'in your direct messages with the app',
    ])
      expect(summary).toContain(detail);
    const runId = /RC-[A-Z0-9]{6}/.exec(summary)?.[0] ?? '';
    expect(runId).not.toBe('');
    const fileName = `fleet-records-${first}_${last}-${runId}.csv`;
    expect(summary).toContain(fileName);
    await screenshot('records-checked', 'reconcile-summary');
    await modal().locator('.modal-footer').getByRole('button', { name: 'Close' }).click();

    await become(DEMO_PEOPLE.abel, 'direct messages');
    const told = message('Records checked').last();
    await eventually(() => told.innerText()).toContain(runId);
    expect(await told.innerText()).toContain(`${fileName}, just below`);
    expect(await told.innerText()).not.toContain('direct messages');
    const file = page.locator('.file', { hasText: 'Records check exceptions' }).last();
    await eventually(() => file.count()).toBe(1);
    await scrollTo(file);
    await screenshot('records-in-dm', 'reconcile-dm');
    const [download] = await Promise.all([page.waitForEvent('download'), file.locator('a.file-download').click()]);
    expect(download.suggestedFilename()).toBe(fileName);
    const rows = parse<Record<string, string>>(await readFile(await download.path(), 'utf8'), { bom: true, columns: true });
    expect(rows.map((row) => row.kind)).toEqual(['amount_difference', 'not_in_ledger', 'not_in_records']);
    expect(rows[1]).toMatchObject({
      reference: '',
      date: last,
      records_amount: expect.stringMatching(/^-12\.\d\d$/),
      currency: 'USD',
      note: 'Bank charges, not yet in the fleet account',
    });
    expect(
      sandbox()
        .transactions()
        .some((tx) => tx.reference === rows[2]!.reference!.replace(/^'/, '')),
    ).toBe(true);
  });
}

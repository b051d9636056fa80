/** The runway with its chart in Abel's direct messages, and an export he downloads from there. */
import { readFile } from 'node:fs/promises';
import { parse } from 'csv-parse/sync';
import { expect, it } from 'vitest';
import { DEMO_CHANNELS, DEMO_PEOPLE } from '../../../src/demo/people.js';
import { minorToPlain, toMinor } from '../../../../../src/core/money.js';
import type { BrowserSession } from './session.js';

export function runwayAndExportSteps(session: BrowserSession): void {
  const { sandbox, screenshot, showLogsOnFailure, message, eventually, scrollTo, run, become } = session;

  it("answers Abel's /fleet runway and shows him its chart in his direct messages, an image the workspace serves itself", async () => {
    showLogsOnFailure();
    const { page, demo } = session;
    const ledger = demo.bot.ledger!.reader;
    await eventually(async () => (await ledger.status()).historyComplete).toBe(true);
    await become(DEMO_PEOPLE.abel, { channelId: DEMO_CHANNELS.treasury.id });
    await run('/fleet runway');
    const reply = message('Runway: how long the money lasts');
    await eventually(() => reply.count()).toBe(1);
    for (const currency of Object.keys(sandbox().balances())) expect(await reply.innerText()).toContain(currency);
    await screenshot('runway-reply');

    await become(DEMO_PEOPLE.abel, 'direct messages');
    const chart = page.locator('figure.file-image img').last();
    await eventually(() => chart.count()).toBe(1);
    // Loaded from the page's own address, and drawn: a PNG at least 600 pixels wide.
    expect(await chart.getAttribute('src')).toMatch(/^\/workspace\/files\/F\w+\?as=U\w+&inline=1$/);
    const drawnWidth = () =>
      chart.evaluate((img) => {
        const image = img as unknown as { complete: boolean; naturalWidth: number };
        return image.complete ? image.naturalWidth : 0;
      });
    await eventually(drawnWidth).toBeGreaterThanOrEqual(600);
    await scrollTo(chart);
    await screenshot('runway-chart-in-dm');
  });

  it('sends Abel an export he downloads from his direct messages, one row per transaction in the ledger', async () => {
    showLogsOnFailure();
    const { page, demo } = session;
    const ledger = demo.bot.ledger!.reader;
    await eventually(async () => (await ledger.status()).historyComplete).toBe(true);
    await become(DEMO_PEOPLE.abel, { channelId: DEMO_CHANNELS.treasury.id });
    await run('/fleet export since:2000-01-01');
    const reply = message('sent to your direct messages');
    await eventually(() => reply.count()).toBe(1);
    const sent = Number(/(\d[\d,]*) transactions sent/.exec(await reply.innerText())?.[1]?.replace(/,/g, ''));
    await screenshot('export-sent');

    await become(DEMO_PEOPLE.abel, 'direct messages');
    const link = page.locator('.file a.file-download').last();
    await eventually(() => link.count()).toBe(1);
    await screenshot('export-in-dm');
    const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
    expect(download.suggestedFilename()).toMatch(/^fleet-transactions-2000-01-01_now\.csv$/);
    const text = await readFile(await download.path(), 'utf8');
    const rows = parse<Record<string, string>>(text, { bom: true, columns: true });
    expect(rows).toHaveLength(sent);
    const known = new Map(
      sandbox()
        .transactions()
        .map((tx) => [tx.reference, tx]),
    );
    for (const row of rows) {
      const tx = known.get(row.reference!.replace(/^'/, ''));
      expect(tx, row.reference).toBeDefined();
      expect(row.amount).toBe(minorToPlain(toMinor(tx!.amount, tx!.currency), tx!.currency));
      expect(row.date).toBe(tx!.date);
    }
    expect(rows.map((row) => row.date)).toEqual(rows.map((row) => row.date).sort());
  });
}

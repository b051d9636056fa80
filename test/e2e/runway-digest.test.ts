/**
 * The runway in the daily digest of the running bot, with the ledger on: the digest shows each
 * currency's runway, and the chart follows in its thread, retried when Slack fails the upload, with
 * the digest posted once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import type { Db } from '../../src/store/index.js';
import { blockText, CHANNELS, startHarness, type Harness } from '../support/bot-harness.js';
import { testDatabases } from '../support/databases.js';

const DIGEST_CHANNEL = CHANNELS.feed;
const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);

describe('the runway in the daily digest', () => {
  let db: Db;
  let h: Harness;
  let sandbox: Sandbox;

  beforeAll(async () => {
    db = await testDatabases()[0]!.open();
    await db.query('INSERT INTO digest_state (id, first_day) VALUES (1, $1)', [yesterday]);
    // A first run loads the ledger's history; the digest's replica starts on the same database after it.
    sandbox = await startSandbox({ seed: 7 });
    const loader = await startHarness({
      existingDb: db,
      existingSandbox: sandbox,
      env: { LEDGER_ENABLED: 'true', LEDGER_HISTORY_PAGE_DELAY_MS: '0', RUNWAY_ALERT_DAYS: '0' },
    });
    try {
      for (let tries = 0; !(await loader.bot.ledger!.reader.status()).historyComplete; tries += 1) {
        if (tries > 400) throw new Error('the ledger never loaded its history');
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    } finally {
      await loader.close();
    }
    h = await startHarness({
      existingDb: db,
      existingSandbox: sandbox,
      env: {
        DIGEST_CHANNEL_ID: DIGEST_CHANNEL,
        DIGEST_TIME: '00:00',
        DIGEST_TIMEZONE: 'UTC',
        LEDGER_ENABLED: 'true',
        LEDGER_POLL_SECONDS: '5',
        LEDGER_HISTORY_PAGE_DELAY_MS: '0',
        RUNWAY_ALERT_DAYS: '0',
      },
    });
    // The first upload into the thread fails: the scheduler tries again, and posts no second digest.
    h.slack.failNext('files.completeUploadExternal', { error: 'internal_error' });
  });
  afterAll(async () => {
    await h?.close();
    await sandbox?.close();
    await db?.close();
  });

  it('shows the runway per currency in the digest and shares the chart in its thread once Slack takes it', async () => {
    const digest = await h.slack.waitFor(() => h.slack.messages(DIGEST_CHANNEL).find((message) => message.text.includes('Daily digest')), {
      timeoutMs: 40_000,
    });
    const text = blockText(digest);
    expect(text).toContain('*Runway*');
    for (const currency of ['USD', 'EUR', 'CDF'])
      expect(text).toMatch(new RegExp(`\\*${currency}\\* [\\d,.]+ ${currency} · [-+][\\d,.]+ ${currency} a day · `));
    const chart = await h.slack.waitFor(
      () => h.slack.messages(DIGEST_CHANNEL).find((message) => message.threadTs === digest.ts && message.files?.some((file) => file.name.endsWith('.png'))),
      { timeoutMs: 30_000, message: "the runway chart in the digest's thread" },
    );
    expect(chart.text).toContain('Runway: the balance of each currency');
    const png = h.slack.file(chart.files![0]!.id)!.bytes!;
    expect(png.readUInt32BE(16)).toBeGreaterThanOrEqual(600);
    expect(h.logs.some((line) => line.includes('a follow-up in the thread failed; will try again'))).toBe(true);
    expect(h.slack.messages(DIGEST_CHANNEL).filter((message) => message.text.includes('Daily digest'))).toHaveLength(1);
    expect(h.slack.messages(DIGEST_CHANNEL).filter((message) => message.files?.length)).toHaveLength(1);
  });
});

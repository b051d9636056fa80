import { describe, expect, it } from 'vitest';
import { startHarness } from '../support/bot-harness.js';
import { testDatabases } from '../support/databases.js';

describe('the ledger in the running bot', () => {
  it('loads the sandbox history in the background, offers the reader, and gives the lease up on shutdown', async () => {
    const db = await testDatabases()[0]!.open();
    const harness = await startHarness({
      env: { LEDGER_ENABLED: 'true', LEDGER_HISTORY_PAGE_DELAY_MS: '0' },
      sandbox: { transactionCount: 260 },
      existingDb: db,
    });
    try {
      const ledger = harness.bot.ledger;
      expect(ledger).toBeDefined();
      for (let wait = 0; wait < 500 && !(await ledger!.reader.status()).historyComplete; wait += 1) await new Promise((resolve) => setTimeout(resolve, 20));
      const status = await ledger!.reader.status();
      expect(status).toMatchObject({ loaded: 260, historyComplete: true });
      const newest = harness.sandbox.transactions()[0]!;
      expect((await ledger!.reader.find({ words: [newest.reference] }, { offset: 0, limit: 5 })).entries.map((entry) => entry.reference)).toEqual([
        newest.reference,
      ]);
      expect((await db.query("SELECT 1 FROM app_leases WHERE name = 'ledger-sync'")).rowCount).toBe(1);
    } finally {
      await harness.close();
    }
    expect((await db.query("SELECT 1 FROM app_leases WHERE name = 'ledger-sync'")).rowCount).toBe(0);
    await db.close();
  });

  it('is absent when LEDGER_ENABLED=false', async () => {
    const harness = await startHarness();
    try {
      expect(harness.bot.ledger).toBeUndefined();
    } finally {
      await harness.close();
    }
  });
});

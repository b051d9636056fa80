import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db, Queryable } from '../../src/store/index.js';
import { PAYOUT_BATCH } from '../../src/slack/ids.js';
import { batchRow, checkBatch } from '../support/batch-flow.js';
import { CHANNELS, PEOPLE, startHarness, type Harness } from '../support/bot-harness.js';
import { testDatabases } from '../support/databases.js';
import { PAYOUT_ENV } from '../support/payout-flow.js';

/** Which statements went through the interactions' connections and which through the heavy jobs' (store/db.ts). */
interface Recorded {
  interactive: string[];
  heavy: string[];
}

function recording(db: Db, into: string[], heavy: () => Db): Db {
  const queryable = (target: Queryable): Queryable => ({
    query: (sql, params) => {
      into.push(sql);
      return target.query(sql, params);
    },
  });
  return {
    kind: db.kind,
    tenant: db.tenant,
    forTenant: (tenant) => db.forTenant(tenant),
    query: (sql, params) => queryable(db).query(sql, params),
    transaction: (work) => db.transaction((tx) => work(queryable(tx))),
    listen: (channel, handlers) => db.listen(channel, handlers),
    forHeavyWork: heavy,
    close: () => db.close(),
  };
}

describe.each(testDatabases())('heavy jobs in the running bot on $name', ({ open }) => {
  let db: Db;
  let h: Harness;
  const recorded: Recorded = { interactive: [], heavy: [] };

  beforeAll(async () => {
    db = await open();
    // On PGlite both sides are the one connection; recorded apart all the same, as the bot asks for them.
    const heavy = recording(db.forHeavyWork(), recorded.heavy, () => heavy);
    const interactive = recording(db, recorded.interactive, () => heavy);
    h = await startHarness({
      existingDb: interactive,
      env: {
        ...PAYOUT_ENV,
        LEDGER_ENABLED: 'true',
        LEDGER_HISTORY_PAGE_DELAY_MS: '0',
        LEDGER_POLL_SECONDS: '3600',
        LEDGER_SWEEP_MINUTES: '0',
        LEDGER_REWALK_HOURS: '0',
      },
    });
    for (let tries = 0; !(await h.bot.ledger!.reader.status()).historyComplete; tries += 1) {
      if (tries > 500) throw new Error('the ledger never loaded the sandbox history');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }, 30_000);
  afterAll(async () => {
    await h?.close();
    await db?.close();
  });

  const seen = (statements: string[], text: string) => statements.some((sql) => sql.includes(text));

  it("stores the ledger sync's entries through the heavy jobs' connections only", () => {
    expect(seen(recorded.heavy, 'INSERT INTO ledger_entries')).toBe(true);
    expect(seen(recorded.interactive, 'INSERT INTO ledger_entries')).toBe(false);
  });

  it("reads an export's rows and its lease through the heavy jobs' connections, and sends the file", async () => {
    const before = recorded.interactive.length;
    await h.slack.runCommand({ userId: PEOPLE.requester, channelId: CHANNELS.treasury, text: 'export since:2000-01-01' });
    await h.waitForMessage(PEOPLE.requester, 'sent to your direct messages');
    const file = h.slack.messages(`D${PEOPLE.requester.slice(1)}`).find((message) => message.files?.length);
    expect(file).toBeDefined();
    expect(seen(recorded.heavy, 'FROM ledger_entries')).toBe(true);
    expect(seen(recorded.heavy, 'app_leases')).toBe(true);
    const duringExport = recorded.interactive.slice(before);
    expect(duringExport.filter((sql) => sql.includes('FROM ledger_entries') || sql.includes('app_leases'))).toEqual([]);
  });

  it("checks a bulk file against the store through the heavy jobs' connections, and shows every row", async () => {
    const before = recorded.interactive.length;
    const ready = await checkBatch(
      h,
      Array.from({ length: 30 }, (_, index) => batchRow(index + 1)),
    );
    expect(ready.view.callback_id).toBe(PAYOUT_BATCH.readyView);
    expect(seen(recorded.heavy, 'reference = ANY')).toBe(true);
    expect(recorded.interactive.slice(before).filter((sql) => sql.includes('reference = ANY'))).toEqual([]);
  });
});

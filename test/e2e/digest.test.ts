import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/store/index.js';
import { blockText, CHANNELS, PEOPLE, startHarness, type Harness } from '../support/bot-harness.js';
import { testDatabases } from '../support/databases.js';
import { storePayout } from '../support/digest-doubles.js';

const DIGEST_CHANNEL = CHANNELS.feed;
const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
const env = { DIGEST_CHANNEL_ID: DIGEST_CHANNEL, DIGEST_TIME: '00:00', DIGEST_TIMEZONE: 'UTC' };

describe('the daily digest in the running bot', () => {
  let db: Db;
  let h: Harness;
  const digestsPosted = () => h.slack.messages(DIGEST_CHANNEL).filter((message) => message.text.includes('Daily digest'));

  beforeAll(async () => {
    db = await testDatabases()[0]!.open();
    // The app has been running since before yesterday, and one payout was sent yesterday.
    await db.query('INSERT INTO digest_state (id, first_day) VALUES (1, $1)', [yesterday]);
    await storePayout(db, { state: 'completed', amountMinor: 2_500, currency: 'USD', requestedAt: `${yesterday}T09:00:00Z` }, [
      ['completed', `${yesterday}T10:00:00Z`],
    ]);
    h = await startHarness({ existingDb: db, env });
  });
  afterAll(async () => {
    await h?.close();
    await db?.close();
  });

  it("posts yesterday's digest to its channel once, even with a second replica started on the same database", async () => {
    const posted = await h.slack.waitFor(() => digestsPosted()[0], { timeoutMs: 20_000, message: 'the digest in its channel' });
    expect(blockText(posted)).toContain('Sent: 1 payout (25.00 USD)');
    expect(blockText(posted)).toContain("debits the platform's wallet user and credits the fleet account");
    const replica = await startHarness({ existingDb: db, existingSlack: h.slack, existingSandbox: h.sandbox, env });
    try {
      await replica.slack.waitFor(() => replica.logs.find((line) => line.includes('daily digest scheduled')), { message: "the replica's scheduler" });
      // Its first check runs at once; give it time to find the day posted.
      await new Promise((resolve) => setTimeout(resolve, 1500));
      expect(digestsPosted()).toHaveLength(1);
      expect(replica.logs.some((line) => line.includes('daily digest posted'))).toBe(false);
    } finally {
      await replica.close();
      if (h.bot.eventsUrl) h.slack.setAppUrl(h.bot.eventsUrl);
    }
    expect(h.slack.limitViolations).toEqual([]);
  });

  it("shows a viewer any day's digest, only to them, under /fleet digest and /fleet résumé", async () => {
    await h.slack.runCommand({ userId: PEOPLE.approver, channelId: CHANNELS.treasury, text: 'digest' });
    const mine = await h.waitForMessage(PEOPLE.approver, 'Daily digest');
    expect(blockText(mine)).toContain('Sent: 1 payout (25.00 USD)');
    expect(h.visibleTo(PEOPLE.requester).some((message) => message.text.includes('Daily digest'))).toBe(false);
    await h.slack.runCommand({ userId: PEOPLE.requester, channelId: CHANNELS.treasury, text: 'résumé 2026-01-15' });
    const quiet = await h.waitForMessage(PEOPLE.requester, 'Daily digest');
    expect(blockText(quiet)).toContain('January 15, 2026');
    expect(blockText(quiet)).toContain('A quiet day');
  });

  it('writes the digest in the language the person chose', async () => {
    await h.slack.runCommand({ userId: PEOPLE.approver2, channelId: CHANNELS.treasury, text: 'language fr' });
    await h.waitForMessage(PEOPLE.approver2, 'Désormais, je vous écris en français.');
    await h.slack.runCommand({ userId: PEOPLE.approver2, channelId: CHANNELS.treasury, text: 'résumé' });
    const french = await h.waitForMessage(PEOPLE.approver2, 'Résumé quotidien');
    expect(blockText(french)).toContain('Envoyé : 1 paiement (25,00 USD)');
    expect(blockText(french)).toContain('crédite le compte de flotte');
    await h.slack.runCommand({ userId: PEOPLE.approver2, channelId: CHANNELS.treasury, text: 'language en' });
    await h.waitForMessage(PEOPLE.approver2, 'From now on I write to you in');
  });

  it('answers a day it cannot read with the usage, and refuses a non-viewer', async () => {
    await h.slack.runCommand({ userId: PEOPLE.approver2, channelId: CHANNELS.treasury, text: 'digest 2026-02-30' });
    const usage = await h.waitForMessage(PEOPLE.approver2, 'YYYY-MM-DD');
    expect(usage.text).toContain('`2026-02-30` is not a day');
    await h.slack.runCommand({ userId: PEOPLE.newcomer, channelId: CHANNELS.treasury, text: 'digest' });
    await h.waitForMessage(PEOPLE.newcomer, "don't have access");
    expect(h.visibleTo(PEOPLE.newcomer).some((message) => message.text.includes('Daily digest'))).toBe(false);
  });
});

describe("/fleet digest while a day's digest takes seconds to build", () => {
  let h: Harness;
  const digestShownTo = (userId: string, title: string) => h.visibleTo(userId).find((message) => message.text.includes(title));

  beforeAll(async () => {
    // With the ledger on, a day's first digest waits for two ledger polls after reading the balance: 5 to 10 s here.
    h = await startHarness({
      env: { LEDGER_ENABLED: 'true', LEDGER_HISTORY_PAGE_DELAY_MS: '0', LEDGER_POLL_SECONDS: '5' },
      sandbox: { transactionCount: 120 },
    });
    const ledger = h.bot.ledger!;
    for (let wait = 0; wait < 500 && !(await ledger.reader.status()).historyComplete; wait += 1) await new Promise((resolve) => setTimeout(resolve, 20));
  });
  afterAll(async () => {
    await h?.close();
  });

  it("answers at once that it is building the digest, then with the digest as a new reply, as a command's response_url allows", async () => {
    await h.slack.runCommand({ userId: PEOPLE.approver, channelId: CHANNELS.treasury, text: 'digest' });
    const building = await h.waitForMessage(PEOPLE.approver, 'Building the digest');
    expect(digestShownTo(PEOPLE.approver, 'Daily digest')).toBeUndefined();
    const digest = await h.slack.waitFor(() => digestShownTo(PEOPLE.approver, 'Daily digest'), {
      timeoutMs: 25_000,
      message: 'the digest below the building answer',
    });
    expect(Number(digest.ts)).toBeGreaterThan(Number(building.ts));
    expect(blockText(digest)).toContain('Closing balance');
    // The first answer stays, and says what happened: the digest follows it, not takes its place.
    expect(blockText(digestShownTo(PEOPLE.approver, 'Building the digest')!)).toContain('the digest follows in a new message');
  });

  it("says it is building the digest in the reader's language", async () => {
    await h.slack.runCommand({ userId: PEOPLE.approver2, channelId: CHANNELS.treasury, text: 'language fr' });
    await h.waitForMessage(PEOPLE.approver2, 'Désormais, je vous écris en français.');
    await h.slack.runCommand({ userId: PEOPLE.approver2, channelId: CHANNELS.treasury, text: 'résumé 2026-01-15' });
    await h.waitForMessage(PEOPLE.approver2, 'Je prépare le résumé du jeudi 15 janvier 2026');
    expect(digestShownTo(PEOPLE.approver2, 'Résumé quotidien')).toBeUndefined();
    await h.slack.waitFor(() => digestShownTo(PEOPLE.approver2, 'Résumé quotidien'), { timeoutMs: 25_000, message: 'the French digest' });
  });
});

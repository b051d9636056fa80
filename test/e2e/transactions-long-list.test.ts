/**
 * A ledger of more than 10,000 transactions through the real receiver: the list says "more than
 * 10,000" rather than counting them all, Next and Previous turn pages, and Last page shows the
 * oldest transactions, read from the other end, with Previous from there.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SlackMessage } from '@fleet-treasury-bot/local-slack';
import { ACTIONS } from '../../src/slack/ids.js';
import { blockText, CHANNELS, PEOPLE, startHarness, type Harness } from '../support/bot-harness.js';

const OLD = 10_050;
const references = (message: SlackMessage) => [...blockText(message).matchAll(/`(OLD-\d+)`/g)].map((match) => match[1]!);
const old = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, index) => `OLD-${String(from + index).padStart(5, '0')}`);

describe('a ledger of more than 10,000 transactions', () => {
  let h: Harness;
  const person = PEOPLE.requester;

  beforeAll(async () => {
    h = await startHarness({ env: { LEDGER_ENABLED: 'true', LEDGER_HISTORY_PAGE_DELAY_MS: '0' } });
    const reader = h.bot.ledger!.reader;
    for (let wait = 0; wait < 1500 && !(await reader.status()).historyComplete; wait += 1) await new Promise((resolve) => setTimeout(resolve, 20));
    expect((await reader.status()).historyComplete).toBe(true);
    // Older than anything the sandbox lists: OLD-00001 the newest of them, one a minute back from 2020.
    await h.bot.db.query(
      `INSERT INTO ledger_entries (entry_key, reference, occurrence, type, status, amount, amount_minor, currency, description, date_text, entry_at, first_seen_at, late, words)
       SELECT ref || '#1', ref, 1, 'PAYMENT', 'Completed', 1, 100, 'USD', 'Old entry', to_char(at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), at, now(), false, ARRAY[lower(ref), 'old', 'entry']
         FROM (SELECT 'OLD-' || lpad(i::text, 5, '0') AS ref, timestamptz '2020-01-01T00:00:00Z' - i * interval '1 minute' AS at FROM generate_series(1, $1::integer) AS i) g`,
      [OLD],
    );
  });
  afterAll(async () => h?.close());

  async function click(message: SlackMessage, direction: string, fragment: string): Promise<SlackMessage> {
    await h.slack.clickButton({ userId: person, channelId: CHANNELS.treasury, messageTs: message.ts, actionId: `${ACTIONS.transactionsPage}:${direction}` });
    return h.slack.waitFor(
      () => {
        const current = h.slack.message(CHANNELS.treasury, message.ts);
        return current?.text.includes(fragment) ? current : undefined;
      },
      { message: `the list after ${direction}, saying "${fragment}"` },
    );
  }

  it('says "more than 10,000", and reaches the oldest through Last page, read from the other end', async () => {
    const before = h.visibleTo(person).length;
    await h.slack.runCommand({ userId: person, channelId: CHANNELS.treasury, text: 'tx old' });
    const first = await h.slack.waitFor(() =>
      h
        .visibleTo(person)
        .slice(before)
        .find((message) => message.text.includes('matches')),
    );
    expect(first.text).toContain('More than 10,000 matches, showing 1–10, newest first.');
    expect(references(first)).toEqual(old(1, 10));

    const second = await click(first, 'next', 'showing 11–20');
    expect(references(second)).toEqual(old(11, 20));

    const last = await click(second, 'last', 'page 1 from the end');
    expect(last.text).toContain('More than 10,000 matches, showing page 1 from the end (the oldest last).');
    expect(references(last)).toEqual(old(OLD - 9, OLD));
    expect(blockText(last)).not.toContain('"Next"');

    const previous = await click(last, 'previous', 'page 2 from the end');
    expect(references(previous)).toEqual(old(OLD - 19, OLD - 10));
  });

  it('counts a search of fewer than 10,000 exactly, and numbers its last page', async () => {
    const before = h.visibleTo(person).length;
    await h.slack.runCommand({ userId: person, channelId: CHANNELS.treasury, text: 'tx old since:2019-12-31' });
    const first = await h.slack.waitFor(() =>
      h
        .visibleTo(person)
        .slice(before)
        .find((message) => message.text.includes('matches')),
    );
    // 2019-12-31 00:00 in UTC (the default LEDGER_TIMEZONE) to 2020-01-01 00:00: 1,440 minutes, the first excluded.
    expect(first.text).toContain('1,440 matches, showing 1–10, newest first.');
    const last = await click(first, 'last', 'showing 1,431–1,440');
    expect(references(last)).toEqual(old(1431, 1440));
  });
});

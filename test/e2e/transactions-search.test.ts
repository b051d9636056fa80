/**
 * Finding transactions through the real receiver, with the real ledger loaded from the sandbox:
 * filters and words, paging that keeps the search, the Filter modal, /fleet ledger, and refusals.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { SlackMessage } from '@fleet-treasury-bot/local-slack';
import type { Transaction } from '../../src/fleet/schemas.js';
import { ACTIONS, TRANSACTION_FILTER } from '../../src/slack/ids.js';
import { NO_ACCESS_MESSAGE } from '../../src/slack/viewers.js';
import { blockText, CHANNELS, PEOPLE, startHarness, type Harness } from '../support/bot-harness.js';

const ZONE = 'Europe/Paris';
const localDay = (iso: string) => new Date(iso).toLocaleDateString('en-CA', { timeZone: ZONE });
const references = (message: SlackMessage) =>
  [...blockText(message).matchAll(/`([^`]+)`/g)]
    .map((match) => match[1]!)
    .filter((text) => !['PAYMENT', 'B2B_JIT_FUNDING', 'Completed', '/fleet tx'].includes(text));

describe('finding transactions in the ledger', () => {
  let h: Harness;
  let all: Transaction[];
  const person = PEOPLE.requester;

  /** Runs `/fleet <text>` and waits for the next reply to `person` containing `fragment`. */
  async function ask(text: string, fragment: string, userId: string = person): Promise<SlackMessage> {
    const before = h.visibleTo(userId).length;
    await h.slack.runCommand({ userId, channelId: CHANNELS.treasury, text });
    return h.slack.waitFor(
      () =>
        h
          .visibleTo(userId)
          .slice(before)
          .find((message) => message.text.includes(fragment)),
      {
        message: `a reply to "${text}" containing "${fragment}"`,
      },
    );
  }

  beforeAll(async () => {
    h = await startHarness({ env: { LEDGER_ENABLED: 'true', LEDGER_HISTORY_PAGE_DELAY_MS: '0', LEDGER_TIMEZONE: ZONE } });
    const reader = h.bot.ledger!.reader;
    for (let wait = 0; wait < 1500 && !(await reader.status()).historyComplete; wait += 1) await new Promise((resolve) => setTimeout(resolve, 20));
    expect((await reader.status()).historyComplete).toBe(true);
    all = h.sandbox.transactions();
  });
  afterAll(async () => h?.close());

  it('finds money out in one currency, says how many match and keeps the search when paging', async () => {
    const expected = all.filter((tx) => tx.currency === 'USD' && tx.amount < 0).map((tx) => tx.reference);
    expect(expected.length).toBeGreaterThan(10);
    const first = await ask('tx currency:usd out', 'matches, showing 1–10');
    expect(first.text).toContain(`${expected.length.toLocaleString('en-US')} matches, showing 1–10, newest first.`);
    expect(blockText(first)).toContain('*Search:* in USD · money out');
    expect(blockText(first)).toContain(`Days are read in ${ZONE}.`);
    expect(references(first)).toEqual(expected.slice(0, 10));

    await h.slack.clickButton({ userId: person, channelId: CHANNELS.treasury, messageTs: first.ts, actionId: `${ACTIONS.transactionsPage}:next` });
    const second = await h.slack.waitFor(() => {
      const current = h.slack.message(CHANNELS.treasury, first.ts);
      return current?.text.includes('showing 11–') ? current : undefined;
    });
    expect(blockText(second)).toContain('*Search:* in USD · money out');
    expect(references(second)).toEqual(expected.slice(10, 20));
  });

  it('finds one transaction by its reference, and words in the description', async () => {
    const target = all[37]!;
    const reply = await ask(`tx ${target.reference}`, 'match');
    expect(references(reply)).toContain(target.reference);
    expect(blockText(reply)).toContain(`containing “${target.reference}”`);
  });

  it('reads calendar days in the ledger time zone, the last day included', async () => {
    const day = localDay(all[20]!.date);
    const expected = all.filter((tx) => localDay(tx.date) === day);
    const reply = await ask(`tx since:${day} until:${day} 1 25`, 'match');
    const count = expected.length;
    expect(reply.text).toContain(`${count.toLocaleString('en-US')} ${count === 1 ? 'match' : 'matches'}`);
    expect(references(reply)).toEqual(expected.slice(0, 25).map((tx) => tx.reference));
  });

  it('says so when nothing matches', async () => {
    const reply = await ask('tx "no such words anywhere at all"', 'No transaction matches');
    expect(blockText(reply)).toContain('containing “no such words anywhere at all”');
  });

  it('names a filter word it cannot read, without reading the ledger', async () => {
    const find = vi.spyOn(h.bot.ledger!.reader, 'find');
    try {
      const reply = await ask('tx colour:red', "I don't know the filter");
      expect(reply.text).toContain('`colour:red`');
      const date = await ask('tx until:2026-02-30', 'write a day as YYYY-MM-DD');
      expect(date.text).toContain('`until:2026-02-30`');
      expect(find).not.toHaveBeenCalled();
    } finally {
      find.mockRestore();
    }
  });

  it('refuses a search to a non-viewer without reading anything', async () => {
    const find = vi.spyOn(h.bot.ledger!.reader, 'find');
    const status = vi.spyOn(h.bot.ledger!.reader, 'status');
    try {
      const reply = await ask('tx currency:USD', "don't have access", PEOPLE.newcomer);
      expect(reply.text).toContain(NO_ACCESS_MESSAGE.slice(0, 40));
      const ledger = await ask('ledger', "don't have access", PEOPLE.newcomer);
      expect(ledger.ephemeralTo).toBe(PEOPLE.newcomer);
      expect(find).not.toHaveBeenCalled();
      expect(status).not.toHaveBeenCalled();
    } finally {
      find.mockRestore();
      status.mockRestore();
    }
  });

  it("runs the Filter modal's search into the same message, with field errors on the modal", async () => {
    const list = await ask('tx', 'transactions, showing 1–10');
    expect(JSON.stringify(list.blocks)).toContain(ACTIONS.transactionsFilter);
    await h.slack.clickButton({ userId: person, channelId: CHANNELS.treasury, messageTs: list.ts, actionId: ACTIONS.transactionsFilter });
    const modal = await h.slack.waitFor(() => h.slack.views(person).find((view) => view.view.callback_id === TRANSACTION_FILTER.view));
    const field = (block: string, value: string) => ({ [block]: { [TRANSACTION_FILTER.input]: value } });

    const wrong = await h.slack.submitView({
      userId: person,
      viewId: modal.id,
      values: { ...field(TRANSACTION_FILTER.min, 'lots'), ...field(TRANSACTION_FILTER.since, '2026-11-15'), ...field(TRANSACTION_FILTER.until, '2026-11-01') },
    });
    expect(wrong.status).toBe(200);
    const errors = h.slack.view(modal.id)?.errors ?? {};
    expect(errors[TRANSACTION_FILTER.min]).toContain('"lots"');
    expect(errors[TRANSACTION_FILTER.until]).toBe('This day comes before the first day.');

    const expected = all.filter((tx) => tx.currency === 'EUR' && tx.amount > 0 && Math.abs(tx.amount) >= 10);
    await h.slack.submitView({
      userId: person,
      viewId: modal.id,
      values: {
        ...field(TRANSACTION_FILTER.currency, 'EUR'),
        ...field(TRANSACTION_FILTER.direction, 'in'),
        ...field(TRANSACTION_FILTER.min, '10'),
        ...field(TRANSACTION_FILTER.since, ''),
        ...field(TRANSACTION_FILTER.until, ''),
      },
    });
    const answered = await h.slack.waitFor(() => {
      const current = h.slack.message(CHANNELS.treasury, list.ts);
      return current?.text.includes('match') ? current : undefined;
    });
    expect(blockText(answered)).toContain('*Search:* in EUR · money in · amount at least 10');
    expect(answered.text).toContain(`${expected.length} ${expected.length === 1 ? 'match' : 'matches'}`);
    expect(references(answered)).toEqual(expected.slice(0, 10).map((tx) => tx.reference));
  });

  it('tells how far the history is with /fleet ledger', async () => {
    const reply = await ask('ledger', 'History');
    expect(reply.text).toContain(`History: complete, ${all.length.toLocaleString('en-US')} transactions; up to date since`);
    expect(blockText(reply)).toContain(`Days in searches are read in ${ZONE}.`);
    expect(reply.ephemeralTo).toBe(person);
  });

  // Last: it adds transactions to the sandbox.
  it('keeps the pages it showed while transactions arrive, says how many are newer, and shares the very page shown', async () => {
    const first = await ask('tx', 'transactions, showing 1–10');
    expect(first.text).toContain(`${all.length.toLocaleString('en-US')} transactions, showing 1–10, newest first.`);
    expect(references(first)).toEqual(all.slice(0, 10).map((tx) => tx.reference));

    const arrived = h.sandbox.addTransactions(3);
    await h.bot.ledger!.pollOnce();
    expect((await h.bot.ledger!.reader.find({ words: [arrived[0]!.reference] }, { offset: 0, limit: 1 })).total).toBe(1);

    await h.slack.clickButton({ userId: person, channelId: CHANNELS.treasury, messageTs: first.ts, actionId: `${ACTIONS.transactionsPage}:next` });
    const second = await h.slack.waitFor(() => {
      const current = h.slack.message(CHANNELS.treasury, first.ts);
      return current?.text.includes('showing 11–20') ? current : undefined;
    });
    // Page 2 of the list as it was read, not shifted by the three new entries.
    expect(references(second)).toEqual(all.slice(10, 20).map((tx) => tx.reference));
    expect(blockText(second)).toContain('3 newer transactions arrived since this list was read');

    const before = h.slack.messages(CHANNELS.treasury).length;
    await h.slack.clickButton({ userId: person, channelId: CHANNELS.treasury, messageTs: first.ts, actionId: ACTIONS.transactionsShare });
    const shared = await h.slack.waitFor(() =>
      h.slack
        .messages(CHANNELS.treasury)
        .slice(before)
        .find((message) => !message.ephemeralTo && blockText(message).includes('shared by')),
    );
    expect(references(shared)).toEqual(all.slice(10, 20).map((tx) => tx.reference));
  });
});

describe('searching without a ledger', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => h?.close());

  it('explains that filters need the ledger, lists the plain pages as before, and offers no Filter button', async () => {
    await h.slack.runCommand({ userId: PEOPLE.requester, channelId: CHANNELS.treasury, text: 'tx currency:USD' });
    await h.waitForMessage(PEOPLE.requester, 'Filters and words search the ledger');
    await h.slack.runCommand({ userId: PEOPLE.requester, channelId: CHANNELS.treasury, text: 'tx 2 5' });
    const list = await h.waitForMessage(PEOPLE.requester, 'Showing 6–10');
    expect(JSON.stringify(list.blocks)).not.toContain(ACTIONS.transactionsFilter);
    await h.slack.runCommand({ userId: PEOPLE.requester, channelId: CHANNELS.treasury, text: 'registre' });
    await h.waitForMessage(PEOPLE.requester, 'The ledger is not turned on');
  });
});

/**
 * French and English side by side in one workspace, through the real receiver and the local Slack:
 * a person whose Slack runs in French gets French replies with amounts written the French way, an
 * English person's stay English, and the feed channel speaks CHANNEL_LOCALE (French here).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_USERS } from '@fleet-treasury-bot/local-slack';
import { formatMinor, fromMinor, toMinor } from '../../src/core/money.js';
import { ACTIONS } from '../../src/slack/ids.js';
import { blockText, CHANNELS, PEOPLE, startHarness, type Harness } from '../support/bot-harness.js';

const FABRICE = 'U0FABRICE';
const NNBSP = '\u202F';
const BALANCE_PATH = '/api/v1/b2b/account/balance';

describe('a French person and a French feed channel', () => {
  let h: Harness;
  let adjustmentMinor = 0;

  beforeAll(async () => {
    h = await startHarness({
      env: { FEED_CHANNEL_ID: CHANNELS.feed, FEED_POLL_INTERVAL_SECONDS: '5', CHANNEL_LOCALE: 'fr', FLEET_VIEWERS: `${PEOPLE.requester},${FABRICE}` },
      // Fabrice's Slack runs in French (fr-FR); so does the newcomer's here, who may not see account data.
      slack: { users: DEFAULT_USERS.map((user) => (user.id === PEOPLE.newcomer ? { ...user, locale: 'fr-FR' } : user)) },
    });
    for (let tries = 0; !(await h.bot.feed!.status()).started; tries += 1) {
      if (tries > 150) throw new Error('the feed never made its first poll');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    // Bring the USD balance to exactly 125,430.57 with one credit, which the feed then posts.
    adjustmentMinor = 12_543_057 - toMinor(h.sandbox.balances().USD ?? 0, 'USD');
    h.sandbox.addTransaction({ currency: 'USD', amount: fromMinor(adjustmentMinor, 'USD'), description: 'Approvisionnement' });
  });
  afterAll(async () => h?.close());

  it('answers /fleet balance in French, with amounts written the French way', async () => {
    await h.slack.runCommand({ userId: FABRICE, channelId: CHANNELS.treasury, text: 'solde' });
    const reply = await h.waitForMessage(FABRICE, 'Solde du compte de flotte');
    expect(reply.ephemeralTo).toBe(FABRICE);
    expect(reply.text).toContain(`USD : 125${NNBSP}430,57 USD`);
    expect(blockText(reply)).toContain(`*USD*\n125${NNBSP}430,57 USD`);
    expect(JSON.stringify(reply.blocks)).toContain('"Actualiser"');
    expect(blockText(reply)).not.toMatch(/Fleet account balance|Refresh|125,430\.57/);
    expect(h.slack.limitViolations).toEqual([]);

    // Refresh reads again and keeps the language of the person who pressed it.
    const reads = () => h.sandbox.requests.filter((request) => request.path === BALANCE_PATH).length;
    const before = reads();
    await h.slack.clickButton({ userId: FABRICE, channelId: CHANNELS.treasury, messageTs: reply.ts, actionId: ACTIONS.balanceRefresh });
    await h.slack.waitFor(() => reads() > before || undefined);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(h.slack.message(CHANNELS.treasury, reply.ts)?.text).toContain(`Solde du compte de flotte : CDF : `);
  });

  it('keeps answering an English person in English in the same workspace', async () => {
    await h.slack.runCommand({ userId: PEOPLE.requester, channelId: CHANNELS.treasury, text: 'balance' });
    const reply = await h.waitForMessage(PEOPLE.requester, 'Fleet account balance');
    expect(reply.text).toContain('USD: 125,430.57 USD');
    expect(h.visibleTo(PEOPLE.requester).some((message) => message.text.includes('Solde'))).toBe(false);
  });

  it('lists /fleet transactions for a French reader with every amount written the French way', async () => {
    await h.slack.runCommand({ userId: FABRICE, channelId: CHANNELS.treasury, text: 'transactions' });
    const list = await h.waitForMessage(FABRICE, 'Transactions du compte de flotte');
    const text = blockText(list);
    const amounts = [...text.matchAll(/:(?:large_green|red)_circle: \*([^*]+)\*/g)].map((match) => match[1]!);
    expect(amounts.length).toBeGreaterThan(0);
    for (const amount of amounts) expect(amount).toMatch(/^[+-]\d{1,3}(\u202F\d{3})*(,\d+)? [A-Z]{3}$/);
    // The newest entry is the credit that brought USD to 125 430,57.
    expect(amounts[0]).toBe(formatMinor(adjustmentMinor, 'USD', { signed: true, locale: 'fr' }));
    expect(text).not.toMatch(/\d,\d{3}\.\d\d|\d\.\d\d [A-Z]{3}/);
    expect(h.slack.limitViolations).toEqual([]);
  });

  it('refuses a French non-viewer in French, naming whom to ask', async () => {
    await h.slack.runCommand({ userId: PEOPLE.newcomer, channelId: CHANNELS.treasury, text: 'balance' });
    const refusal = await h.waitForMessage(PEOPLE.newcomer, 'Vous n’avez pas accès');
    expect(refusal.text).toContain('Demandez à votre administrateur Slack');
    expect(refusal.text).toContain('FLEET_VIEWERS');
  });

  it('lists the subcommands in French for a word it does not know', async () => {
    await h.slack.runCommand({ userId: FABRICE, channelId: CHANNELS.treasury, text: 'bonjour' });
    const help = await h.waitForMessage(FABRICE, 'Je ne connais pas');
    expect(help.text).toContain('Voici ce que je sais faire :');
    expect(help.text).toContain('Le solde du compte de flotte dans chaque devise');
    expect(help.text).toContain('Cette liste.');
  });

  it('tells a French viewer about the feed in French', async () => {
    await h.slack.runCommand({ userId: FABRICE, channelId: CHANNELS.treasury, text: 'flux' });
    const status = await h.waitForMessage(FABRICE, 'Flux des transactions');
    expect(blockText(status)).toContain(`dans <#${CHANNELS.feed}>`);
    expect(blockText(status)).toContain('*Dernière vérification réussie :*');
  });

  it("posts feed lines in the channels' language, French, with French amounts", async () => {
    const feedText = () =>
      h.slack
        .messages(CHANNELS.feed)
        .map((message) => `${message.text}\n${blockText(message)}`)
        .join('\n');
    await h.slack.waitFor(() => feedText().includes('Approvisionnement') || undefined, { timeoutMs: 20_000 });
    const text = feedText();
    const amount = formatMinor(adjustmentMinor, 'USD', { signed: true, locale: 'fr' });
    expect(amount).toMatch(/^[+-][\d\u202F]+,\d\d USD$/);
    // One new entry is one compact line, written the French way.
    expect(text).toContain(`Nouvelle transaction de la flotte : ${amount}`);
    expect(text).toContain(`${adjustmentMinor > 0 ? ':large_green_circle:' : ':red_circle:'} *${amount}* · `);
    expect(text).not.toMatch(/new fleet transaction|Totals:/i);
    expect(h.slack.limitViolations).toEqual([]);
  });
});

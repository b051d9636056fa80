/**
 * Each person's language through the real Bolt receiver and the local Slack workspace: the Slack
 * locale, `/fleet language` (`/fleet langue`), help in the reader's language with only what they
 * may use, and channel messages in CHANNEL_LOCALE.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_USERS } from '@fleet-treasury-bot/local-slack';
import type { Db } from '../../src/store/index.js';
import { blockText, CHANNELS, PEOPLE, startHarness, type Harness } from '../support/bot-harness.js';
import { testDatabases } from '../support/databases.js';

const FABRICE = 'U0FABRICE';
const PAULO = 'U0PAULO';

/** The `• \`/fleet word` lines of a help reply. */
function helpUsages(text: string): string[] {
  return [...text.matchAll(/^• `(\/fleet [\p{L}\d_-]+)/gmu)].map((match) => match[1] ?? '');
}

async function storedChoice(h: Harness, userId: string): Promise<string | undefined> {
  const { rows } = await h.bot.db.query<{ locale: string }>('SELECT locale FROM language_choices WHERE user_id = $1', [userId]);
  return rows[0]?.locale;
}

describe('languages through the real receiver', () => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness({
      env: {
        FLEET_VIEWERS: `${PEOPLE.requester},${FABRICE}`,
        FLEET_REQUESTERS: PEOPLE.requester,
        FLEET_APPROVERS: FABRICE,
        CHANNEL_LOCALE: 'fr',
      },
      slack: { users: [...DEFAULT_USERS, { id: PAULO, name: 'paulo', realName: 'Paulo', locale: 'pt-BR' }] },
    });
  });
  afterAll(async () => h?.close());

  /** Runs `/fleet <text>` as `userId` and waits for their next new reply. */
  const ask = async (userId: string, text: string) => {
    const before = h.visibleTo(userId).length;
    await h.slack.runCommand({ userId, channelId: CHANNELS.treasury, text });
    return h.slack.waitFor(() => h.visibleTo(userId)[before], { message: `a reply to /fleet ${text} for ${userId}` });
  };

  it('writes to a person whose Slack runs in French in French, and says why', async () => {
    const reply = await ask(FABRICE, 'langue');
    expect(reply.text).toContain('Je vous écris en français, la langue de votre Slack (`fr-FR`)');
    expect(h.slack.apiCalls.some((call) => call.method === 'users.info')).toBe(true);
  });

  it("answers the same balance reading in each reader's language, each with its Share button", async () => {
    const english = await ask(PEOPLE.requester, 'balance');
    const french = await ask(FABRICE, 'solde');
    const again = await ask(PEOPLE.requester, 'balance');
    expect(english.text).toContain('Fleet account balance');
    expect(french.text).toContain('Solde du compte');
    expect(again.text).toBe(english.text);
    const shareValue = (reply: typeof english) =>
      (reply.blocks ?? [])
        .flatMap((block) => (block as { elements?: Array<{ action_id?: string; value?: string }> }).elements ?? [])
        .find((element) => element.action_id === 'balance_share')?.value;
    expect(shareValue(english)).toBeDefined();
    expect(shareValue(french)).toBeDefined();
  });

  it('lists commands under their French names to a French reader, only those an approver may use', async () => {
    const reply = await ask(FABRICE, 'aide');
    expect(helpUsages(reply.text)).toEqual([
      '/fleet solde',
      '/fleet autonomie',
      '/fleet transactions',
      '/fleet paiements',
      '/fleet bénéficiaires',
      '/fleet planifiés',
      '/fleet flux',
      '/fleet registre',
      '/fleet export',
      '/fleet rapprochement',
      '/fleet rapprochement',
      '/fleet résumé',
      '/fleet langue',
      '/fleet aide',
    ]);
    expect(reply.text).toContain('`/fleet aide` — Cette liste.');
    expect(reply.text).toContain('`/fleet langue [fr|en|auto]` — La langue dans laquelle l’application vous écrit');
  });

  it('lists a requester the payout commands (the single form and the bulk form) under their English names', async () => {
    const reply = await ask(PEOPLE.requester, 'help');
    expect(helpUsages(reply.text)).toEqual([
      '/fleet balance',
      '/fleet runway',
      '/fleet transactions',
      '/fleet payout',
      '/fleet payout',
      '/fleet payouts',
      '/fleet recipients',
      '/fleet scheduled',
      '/fleet feed',
      '/fleet ledger',
      '/fleet export',
      '/fleet reconcile',
      '/fleet reconcile',
      '/fleet digest',
      '/fleet language',
      '/fleet help',
    ]);
  });

  it('lists a newcomer only what anyone may use', async () => {
    const reply = await ask(PEOPLE.newcomer, 'help');
    expect(helpUsages(reply.text)).toEqual(['/fleet language', '/fleet help']);
  });

  it('answers French subcommand names like the English ones', async () => {
    const reply = await ask(PEOPLE.newcomer, 'solde');
    // Nico may not see the balance: the same refusal as /fleet balance, not the help for an unknown word.
    expect(reply.text).not.toContain("I don't know");
    expect(reply.text).toContain('access');
  });

  it('keeps a chosen language, answers in it at once, and goes back to Slack on auto', async () => {
    const chosen = await ask(FABRICE, 'langue en');
    expect(chosen.text).toContain('From now on I write to you in English.');
    expect(await storedChoice(h, FABRICE)).toBe('en');

    const help = await ask(FABRICE, 'aide');
    expect(helpUsages(help.text)).toContain('/fleet balance');

    const current = await ask(FABRICE, 'language');
    expect(current.text).toContain('I write to you in English, as you chose.');

    const cleared = await ask(FABRICE, 'language auto');
    expect(cleared.text).toContain('Votre choix est effacé.');
    expect(cleared.text).toContain('Je vous écris en français, la langue de votre Slack');
    expect(await storedChoice(h, FABRICE)).toBeUndefined();
  });

  it('lets anyone choose their own language, even without access to account data', async () => {
    const reply = await ask(PEOPLE.newcomer, 'language fr');
    expect(reply.text).toContain('Désormais, je vous écris en français.');
    expect(await storedChoice(h, PEOPLE.newcomer)).toBe('fr');
    await ask(PEOPLE.newcomer, 'langue auto');
  });

  it('refuses a language it does not speak with the allowed values, changing nothing', async () => {
    const reply = await ask(PEOPLE.requester, 'language klingon');
    expect(reply.text).toContain('`klingon` is not a language I speak');
    for (const value of ['`/fleet language en`', '`/fleet language fr`', '`/fleet language auto`']) expect(reply.text).toContain(value);
    expect(await storedChoice(h, PEOPLE.requester)).toBeUndefined();
  });

  it('writes in the default language to a person whose Slack language it does not speak (pt-BR), and says so', async () => {
    const reply = await ask(PAULO, 'language');
    expect(reply.text).toContain('I write to you in English, the default language of this workspace: your Slack is in `pt-BR`');
  });

  it('answers in the default language when Slack cannot say which language a person reads', async () => {
    // Ada's Slack runs in English: the reply says it comes from the default, not from her Slack.
    h.slack.failNext('users.info', { error: 'internal_error' });
    const reply = await ask(PEOPLE.approver2, 'language');
    expect(reply.text).toContain('I write to you in English, the default language of this workspace.');
    expect(h.logs.some((line) => line.includes("could not read a person's Slack language") && line.includes('"level":40'))).toBe(true);
  });

  it('writes messages shared in a channel in CHANNEL_LOCALE, whoever shares them', async () => {
    const mine = await ask(PEOPLE.requester, 'tx');
    expect(mine.text).toContain('Fleet account transactions');
    await h.slack.clickButton({ userId: PEOPLE.requester, channelId: CHANNELS.treasury, messageTs: mine.ts, actionId: 'transactions_share' });
    const shared = await h.slack.waitFor(() =>
      h.visibleTo(PEOPLE.newcomer).find((message) => !message.ephemeralTo && blockText(message).includes('partagé par')),
    );
    expect(shared.text).toContain('Transactions du compte de flotte');
  });
});

describe("a person's language on a warm answer", () => {
  let h: Harness;
  let db: Db;
  const languageReads: string[] = [];

  beforeAll(async () => {
    const real = await testDatabases()[0]!.open();
    // The bot's database, noting each read of the language choices.
    db = {
      ...real,
      query: (sql, params) => {
        if (sql.includes('FROM language_choices')) languageReads.push(String(params?.[0]));
        return real.query(sql, params);
      },
    };
    h = await startHarness({ existingDb: db, env: { CHANNEL_LOCALE: 'fr' } });
  });
  afterAll(async () => {
    await h?.close();
    await db?.close();
  });

  const ask = async (userId: string, text: string) => {
    const before = h.visibleTo(userId).length;
    await h.slack.runCommand({ userId, channelId: CHANNELS.treasury, text });
    return h.slack.waitFor(() => h.visibleTo(userId)[before], { message: `a reply to /fleet ${text} for ${userId}` });
  };

  it('reads the chosen language from the database once, then answers /fleet balance from memory', async () => {
    await ask(PEOPLE.requester, 'balance');
    await ask(PEOPLE.requester, 'balance');
    const reply = await ask(PEOPLE.requester, 'balance');
    expect(reply.text).toContain('balance');
    expect(languageReads.filter((userId) => userId === PEOPLE.requester)).toHaveLength(1);
  });

  it('answers in a newly chosen language at once, still without reading it back', async () => {
    await ask(PEOPLE.requester, 'language fr');
    const reads = languageReads.length;
    const reply = await ask(PEOPLE.requester, 'solde');
    expect(reply.text).toContain('Solde');
    expect(languageReads).toHaveLength(reads);
  });
});

import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { systemClock } from '../../src/core/clock.js';
import type { LanguageChoices } from '../../src/i18n/language-choices.js';
import type { Locale } from '../../src/i18n/index.js';
import { createLogger } from '../../src/core/logger.js';
import { SlackPersonLanguages, surfaceFor } from '../../src/slack/locales.js';
import { SlackUsers, type UsersInfoClient } from '../../src/slack/people.js';

const TOKEN = 'xoxb-1111-2222-localestesttoken';

function memoryChoices(): LanguageChoices {
  const chosen = new Map<string, Locale>();
  return {
    get: (userId) => Promise.resolve(chosen.get(userId)),
    set: (userId, locale) => {
      if (locale) chosen.set(userId, locale);
      else chosen.delete(userId);
      return Promise.resolve();
    },
  };
}

/** A `users.info` that answers from a table of Slack locales, counting its calls; `fail` makes it throw. */
function slackWith(locales: Record<string, string | undefined>, behaviour: { fail?: Error; hang?: boolean } = {}) {
  const calls: Array<{ user: string; include_locale: boolean }> = [];
  const client: UsersInfoClient = {
    users: {
      info: (args) => {
        calls.push(args);
        if (behaviour.hang) return new Promise(() => undefined);
        if (behaviour.fail) return Promise.reject(behaviour.fail);
        return Promise.resolve({ user: { locale: locales[args.user] } });
      },
    },
  };
  return { client, calls };
}

function setUp(client: UsersInfoClient, options: { defaultLocale?: Locale; lookupTimeoutMs?: number } = {}) {
  const logs: string[] = [];
  const logger = createLogger({
    level: 'trace',
    destination: new Writable({
      write: (chunk: Buffer, _encoding, done) => {
        logs.push(chunk.toString());
        done();
      },
    }),
    secrets: [TOKEN],
  });
  const languages = new SlackPersonLanguages({
    users: new SlackUsers(client, options.lookupTimeoutMs ?? 2500),
    choices: memoryChoices(),
    defaultLocale: options.defaultLocale ?? 'en',
    logger,
    clock: systemClock,
  });
  return { languages, logs };
}

describe("a person's language", () => {
  it('follows their Slack language when they chose none, asking Slack for the locale', async () => {
    const slack = slackWith({ U0FABRICE: 'fr-FR' });
    const { languages } = setUp(slack.client);
    expect(await languages.explain('U0FABRICE')).toEqual({ locale: 'fr', source: 'slack', slackLocale: 'fr-FR' });
    expect(slack.calls).toEqual([{ user: 'U0FABRICE', include_locale: true }]);
    languages.close();
  });

  it('prefers their own choice to their Slack language, and goes back to Slack on auto', async () => {
    const slack = slackWith({ U0FABRICE: 'fr-FR' });
    const { languages } = setUp(slack.client);
    await languages.choose('U0FABRICE', 'en');
    expect(await languages.explain('U0FABRICE')).toEqual({ locale: 'en', source: 'choice' });
    await languages.choose('U0FABRICE', undefined);
    expect(await languages.forPerson('U0FABRICE')).toBe('fr');
    languages.close();
  });

  it('falls back to DEFAULT_LOCALE for a Slack language the app does not speak (pt-BR)', async () => {
    const { languages } = setUp(slackWith({ U0PAULO: 'pt-BR' }).client, { defaultLocale: 'fr' });
    expect(await languages.explain('U0PAULO')).toEqual({ locale: 'fr', source: 'default', slackLocale: 'pt-BR' });
    languages.close();
  });

  it('falls back to DEFAULT_LOCALE when Slack gives no locale', async () => {
    const { languages } = setUp(slackWith({}).client);
    expect(await languages.explain('U0NOLOCALE')).toEqual({ locale: 'en', source: 'default', slackLocale: undefined });
    languages.close();
  });

  it('answers in the default language when Slack fails, logging a warning without the token', async () => {
    const failure = Object.assign(new Error(`An API error occurred: ratelimited (${TOKEN})`), { code: 'slack_webapi_platform_error' });
    const { languages, logs } = setUp(slackWith({}, { fail: failure }).client, { defaultLocale: 'fr' });
    expect(await languages.forPerson('U0FABRICE')).toBe('fr');
    const warning = logs.map((line) => JSON.parse(line) as { level: number; msg: string }).find((line) => line.msg.includes('Slack language'));
    expect(warning?.level).toBe(40);
    expect(logs.join('')).not.toContain(TOKEN);
    languages.close();
  });

  it('answers in the default language when Slack does not answer in time, and asks again next time', async () => {
    const slack = slackWith({}, { hang: true });
    const { languages } = setUp(slack.client, { lookupTimeoutMs: 20 });
    expect(await languages.forPerson('U0FABRICE')).toBe('en');
    expect(await languages.forPerson('U0FABRICE')).toBe('en');
    expect(slack.calls).toHaveLength(2);
    languages.close();
  });

  it('keeps a refusal by Slack (missing_scope) a while, so that each command does not ask and warn again', async () => {
    const refusal = Object.assign(new Error('An API error occurred: missing_scope'), {
      code: 'slack_webapi_platform_error',
      data: { ok: false, error: 'missing_scope' },
    });
    const slack = slackWith({}, { fail: refusal });
    const { languages, logs } = setUp(slack.client, { defaultLocale: 'fr' });
    expect(await languages.forPerson('U0FABRICE')).toBe('fr');
    expect(await languages.forPerson('U0FABRICE')).toBe('fr');
    expect(slack.calls).toHaveLength(1);
    expect(logs.filter((line) => line.includes('missing_scope'))).toHaveLength(1);
    languages.close();
  });

  it('asks Slack once for a person while their language is cached', async () => {
    const slack = slackWith({ U0FABRICE: 'fr-FR' });
    const { languages } = setUp(slack.client);
    await Promise.all([languages.forPerson('U0FABRICE'), languages.forPerson('U0FABRICE')]);
    expect(await languages.forPerson('U0FABRICE')).toBe('fr');
    expect(slack.calls).toHaveLength(1);
    languages.close();
  });

  it('still answers when the stored choice cannot be read, from the Slack language', async () => {
    const { client } = slackWith({ U0FABRICE: 'fr-FR' });
    const languages = new SlackPersonLanguages({
      users: new SlackUsers(client),
      defaultLocale: 'en',
      clock: systemClock,
      logger: createLogger({ level: 'silent' }),
      choices: { get: () => Promise.reject(new Error('connection refused')), set: () => Promise.resolve() },
    });
    expect(await languages.forPerson('U0FABRICE')).toBe('fr');
    languages.close();
  });

  it("gives a reply's surface the person's language and keeps the sandbox mark", async () => {
    const { languages } = setUp(slackWith({ U0FABRICE: 'fr-FR' }).client);
    expect(await surfaceFor({ surface: { sandbox: true, locale: 'en' }, locales: languages }, 'U0FABRICE')).toEqual({ sandbox: true, locale: 'fr' });
    languages.close();
  });
});

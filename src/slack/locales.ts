/**
 * Which language a person reads: the seam every listener goes through (`surfaceFor`) so that a
 * reply, a DM or a modal is written in the language of the person it is for. Channel messages use
 * `ctx.surface`, whose locale is the channel's (CHANNEL_LOCALE).
 *
 * A person's language is, in order: the one they chose with `/fleet language` (cached in memory and
 * dropped on every replica when it changes: i18n/language-choices.ts); otherwise their Slack language (`users.info`
 * with `include_locale`, cached for an hour); otherwise DEFAULT_LOCALE.
 */
import NodeCache from 'node-cache';
import type { Clock } from '../core/clock.js';
import type { LanguageChoices } from '../i18n/language-choices.js';
import { localeFromSlack, type Locale } from '../i18n/index.js';
import type { Logger } from '../core/logger.js';
import type { SlackUsers } from './people.js';
import type { Surface } from './views/text.js';

export interface PersonLocales {
  /** The person's language; never fails (a Slack error falls back to the default). */
  forPerson(userId: string): Promise<Locale>;
}

/**
 * A person's language and where it comes from, as `/fleet language` tells them. With `default`,
 * `slackLocale` is the person's Slack language when the app does not speak it (e.g. `pt-BR`).
 */
export type PersonLanguage =
  | { locale: Locale; source: 'choice' }
  | { locale: Locale; source: 'slack'; slackLocale: string }
  | { locale: Locale; source: 'default'; slackLocale: string | undefined };

/** Each person's language, with the choice they can make and undo. */
export interface PersonLanguages extends PersonLocales {
  explain(userId: string): Promise<PersonLanguage>;
  /** Stores the person's choice; `undefined` (`auto`) goes back to their Slack language. */
  choose(userId: string, locale: Locale | undefined): Promise<void>;
}

/** Everyone reads `locale`. */
export function fixedLocale(locale: Locale): PersonLocales {
  return { forPerson: () => Promise.resolve(locale) };
}

/** The surface of a reply, DM or modal for one person. */
export async function surfaceFor(ctx: { surface: Surface; locales: PersonLocales }, userId: string): Promise<Surface> {
  return { ...ctx.surface, locale: await ctx.locales.forPerson(userId) };
}

export interface SlackPersonLanguagesOptions {
  /** Slack's `users.info`, shared with the export's names (people.ts). */
  users: SlackUsers;
  choices: LanguageChoices;
  /** DEFAULT_LOCALE. */
  defaultLocale: Locale;
  logger: Logger;
  clock: Clock;
  /** How long a person's Slack language is kept before Slack is asked again; default one hour. */
  cacheSeconds?: number;
}

// An empty string stands for "Slack gave no locale", so that it is cached too.
const NO_LOCALE = '';
const REFUSAL_CACHE_SECONDS = 300;

export class SlackPersonLanguages implements PersonLanguages {
  private readonly slackLocales: NodeCache;

  constructor(private readonly options: SlackPersonLanguagesOptions) {
    const ttl = options.cacheSeconds ?? 3600;
    this.slackLocales = new NodeCache({ stdTTL: ttl, checkperiod: Math.max(60, Math.floor(ttl / 4)), useClones: false });
  }

  async forPerson(userId: string): Promise<Locale> {
    return (await this.explain(userId)).locale;
  }

  async explain(userId: string): Promise<PersonLanguage> {
    const chosen = await this.options.choices.get(userId).catch((error: unknown) => {
      // A reply in the wrong language beats no reply: the store's own failure shows elsewhere.
      this.options.logger.warn({ userId, reason: reasonOf(error) }, "could not read a person's chosen language");
      return undefined;
    });
    if (chosen) return { locale: chosen, source: 'choice' };
    const slackLocale = await this.slackLocale(userId);
    const spoken = localeFromSlack(slackLocale);
    if (spoken && slackLocale) return { locale: spoken, source: 'slack', slackLocale };
    return { locale: this.options.defaultLocale, source: 'default', slackLocale };
  }

  async choose(userId: string, locale: Locale | undefined): Promise<void> {
    await this.options.choices.set(userId, locale, this.options.clock.now());
  }

  close(): void {
    this.slackLocales.close();
  }

  /** The person's Slack locale (`fr-FR`), cached; undefined when Slack gives none, fails or is slow. */
  private async slackLocale(userId: string): Promise<string | undefined> {
    const cached = this.slackLocales.get<string>(userId);
    if (cached !== undefined) return cached === NO_LOCALE ? undefined : cached;
    try {
      const locale = (await this.options.users.info(userId))?.locale?.trim() || undefined;
      this.slackLocales.set(userId, locale ?? NO_LOCALE);
      return locale;
    } catch (error) {
      // The error's code or message only, never the request. A refusal by Slack (`missing_scope` until
      // the app is reinstalled with users:read, `user_not_found`) is kept a few minutes so that each
      // command does not ask and warn again; a timeout or a network error is not kept.
      const refusal = slackRefusalOf(error);
      if (refusal) this.slackLocales.set(userId, NO_LOCALE, Math.min(REFUSAL_CACHE_SECONDS, this.options.cacheSeconds ?? 3600));
      this.options.logger.warn({ userId, reason: refusal ?? reasonOf(error) }, "could not read a person's Slack language; using the default");
      return undefined;
    }
  }
}

/** Slack's own error code when Slack answered `ok: false` (the Web API client's platform error). */
function slackRefusalOf(error: unknown): string | undefined {
  const code = (error as { data?: { error?: unknown } } | null)?.data?.error;
  return typeof code === 'string' ? code : undefined;
}

function reasonOf(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string') return code;
  return error instanceof Error ? error.message : String(error);
}

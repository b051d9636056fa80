/**
 * `/fleet language fr|en|auto` (`/fleet langue …`): each person chooses the language the app writes
 * to them in, or goes back to their Slack's. Not a money action: anyone in the workspace may set
 * their own.
 */
import { textsFor, type Locale, type Texts } from '../../i18n/index.js';
import type { SlackContext } from '../context.js';
import { failureText } from '../refusals/failures.js';
import type { PersonLanguage } from '../locales.js';
import type { Subcommand } from '../subcommands.js';
import { privateNotice } from '../views/notice.js';
import { codeSpan } from '../views/text.js';

/** What a person may type after `/fleet language`, in either language. */
const WORDS: ReadonlyMap<string, Locale | 'auto'> = new Map<string, Locale | 'auto'>([
  ['en', 'en'],
  ['english', 'en'],
  ['anglais', 'en'],
  ['fr', 'fr'],
  ['french', 'fr'],
  ['français', 'fr'],
  ['francais', 'fr'],
  ['auto', 'auto'],
]);

// What a person typed, quoted back in a code span.
const TYPED_MAX = 40;
// A Slack locale is a short tag (`fr-FR`); quoted in a code span all the same.
const SLACK_LOCALE_MAX = 20;

export function languageSubcommand(ctx: SlackContext): Subcommand {
  return {
    name: 'language',
    localNames: { fr: 'langue' },
    help: (t) => [{ usage: t('language.help.usage'), description: t('language.help.description') }],
    async run({ command, args, respond }) {
      const userId = command.user_id;
      const reply = async (locale: Locale, text: string) => respond(privateNotice({ ...ctx.surface, locale }, text));
      const word = args[0]?.toLowerCase();
      const wanted = word === undefined ? undefined : WORDS.get(word);
      if (word === undefined || wanted === undefined) {
        const current = await ctx.locales.explain(userId);
        const t = textsFor(current.locale);
        await reply(current.locale, word === undefined ? explanation(t, current) : t('language.unknown', { value: codeSpan(args[0] ?? '', TYPED_MAX) }));
        return;
      }
      try {
        await ctx.locales.choose(userId, wanted === 'auto' ? undefined : wanted);
      } catch (error) {
        const current = await ctx.locales.explain(userId);
        await reply(current.locale, failureText(current.locale, error, 'saveLanguage', ctx.logger));
        return;
      }
      ctx.logger.info({ userId, locale: wanted }, 'a person chose their language');
      if (wanted !== 'auto') {
        const t = textsFor(wanted);
        await reply(wanted, t('language.chosen', { language: t(`language.name.${wanted}`) }));
        return;
      }
      const now = await ctx.locales.explain(userId);
      const t = textsFor(now.locale);
      await reply(now.locale, `${t('language.cleared')} ${explanation(t, now)}`);
    },
  };
}

/** Which language the person reads, and why, in that language. */
function explanation(t: Texts, current: PersonLanguage): string {
  const language = t(`language.name.${current.locale}`);
  switch (current.source) {
    case 'choice':
      return t('language.current.choice', { language });
    case 'slack':
      return t('language.current.slack', { language, slackLocale: codeSpan(current.slackLocale, SLACK_LOCALE_MAX) });
    case 'default':
      return current.slackLocale
        ? t('language.current.unspoken', { language, slackLocale: codeSpan(current.slackLocale, SLACK_LOCALE_MAX) })
        : t('language.current.default', { language });
  }
}

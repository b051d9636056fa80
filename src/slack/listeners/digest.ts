/**
 * `/fleet digest [YYYY-MM-DD]` (`/fleet résumé`): any day's digest, shown only to the viewer who asks,
 * in their language: a "building…" answer at once, then the digest (or why it failed) as a new reply
 * when ready. A command's response_url cannot replace its earlier reply, so "building…" says the
 * digest follows rather than claiming to turn into it.
 */
import { dayIn, isCalendarDay, previousDay } from '../../digest/index.js';
import { textsFor } from '../../i18n/index.js';
import type { SlackContext } from '../context.js';
import { failureText } from '../refusals/failures.js';
import type { Subcommand } from '../subcommands.js';
import { notice, privateNotice, type Reply } from '../views/notice.js';
import { buildDigestBuildingMessage, buildDigestMessage } from '../views/digest.js';
import { codeSpan } from '../views/text.js';

export function digestSubcommand(ctx: SlackContext): Subcommand {
  return {
    name: 'digest',
    localNames: { fr: 'résumé' },
    // Also without accents, and the decomposed spelling some keyboards send.
    aliases: ['resume', 'résumé'.normalize('NFD')],
    audience: 'viewers',
    help: (t) => [{ usage: t('digest.help.usage'), description: t('digest.help.description') }],
    async run({ args, respond, readerSurface }) {
      const surface = await readerSurface();
      const [word, ...rest] = args;
      if ((word !== undefined && !isCalendarDay(word)) || rest.length > 0) {
        const typed = args.join(' ');
        await respond(privateNotice(surface, textsFor(surface.locale)('digest.usage', { word: codeSpan(typed, 40) })));
        return;
      }
      const digest = ctx.digest;
      if (!digest) throw new Error('the digest is not wired');
      const day = word ?? previousDay(dayIn(ctx.clock.now(), digest.timeZone));
      // A day's first digest waits for the ledger (seconds): say so at once, then answer again with the digest.
      await respond({ response_type: 'ephemeral', ...buildDigestBuildingMessage(surface, day) });
      let reply: Reply;
      try {
        reply = buildDigestMessage(surface, await digest.build(day));
      } catch (error) {
        reply = notice(surface, failureText(surface.locale, error, 'computeDigest', ctx.logger));
      }
      await respond({ response_type: 'ephemeral', ...reply });
    },
  };
}

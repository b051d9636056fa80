/** `/fleet digest [YYYY-MM-DD]` (`/fleet résumé`): any day's digest, shown only to the viewer who asks, in their language. */
import { dayIn, isCalendarDay, previousDay } from '../../digest/index.js';
import { textsFor } from '../../i18n/index.js';
import type { SlackContext } from '../context.js';
import { failureText } from '../failures.js';
import { surfaceFor } from '../locales.js';
import type { Subcommand } from '../subcommands.js';
import { notice } from '../views/common.js';
import { buildDigestMessage } from '../views/digest.js';
import { codeSpan } from '../views/text.js';
import { ensureViewer } from '../viewers.js';

export function digestSubcommand(ctx: SlackContext): Subcommand {
  return {
    name: 'digest',
    localNames: { fr: 'résumé' },
    // Also without accents, and the decomposed spelling some keyboards send.
    aliases: ['resume', 'résumé'.normalize('NFD')],
    audience: 'viewers',
    help: (t) => [{ usage: t('digest.help.usage'), description: t('digest.help.description') }],
    async run({ command, args, respond }) {
      const surface = await surfaceFor(ctx, command.user_id);
      const [word, ...rest] = args;
      if ((word !== undefined && !isCalendarDay(word)) || rest.length > 0) {
        const typed = args.join(' ');
        await respond({ response_type: 'ephemeral', ...notice(surface, textsFor(surface.locale)('digest.usage', { word: codeSpan(typed, 40) })) });
        return;
      }
      if (!(await ensureViewer(ctx, command.user_id, respond))) return;
      const digest = ctx.digest;
      if (!digest) throw new Error('the digest is not wired');
      const day = word ?? previousDay(dayIn(ctx.clock.now(), digest.timeZone));
      try {
        await respond({ response_type: 'ephemeral', ...buildDigestMessage(surface, await digest.build(day)) });
      } catch (error) {
        await respond({ response_type: 'ephemeral', ...notice(surface, failureText(surface.locale, error, 'computeDigest', ctx.logger)) });
      }
    },
  };
}

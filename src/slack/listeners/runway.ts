/**
 * `/fleet runway` (`/fleet autonomie`): per currency, the balance, its average daily net flow, the
 * days it lasts and the day it reaches zero, in the reader's language, shown to them alone.
 */
import type { SlackContext } from '../context.js';
import { failureText } from '../refusals/failures.js';
import type { Subcommand } from '../subcommands.js';
import { notice, type Reply } from '../views/notice.js';
import { buildRunwayMessage } from '../views/runway.js';

export function runwaySubcommand(ctx: SlackContext): Subcommand {
  return {
    name: 'runway',
    localNames: { fr: 'autonomie' },
    audience: 'viewers',
    help: (t) => [{ usage: t('runway.help.usage'), description: t('runway.help.description') }],
    async run({ respond, readerSurface }) {
      const surface = await readerSurface();
      let reply: Reply;
      try {
        reply = buildRunwayMessage(surface, await ctx.runway({ signal: AbortSignal.timeout(ctx.readTimeoutMs) }));
      } catch (error) {
        reply = notice(surface, failureText(surface.locale, error, 'computeRunway', ctx.logger));
      }
      await respond({ response_type: 'ephemeral', ...reply });
    },
  };
}

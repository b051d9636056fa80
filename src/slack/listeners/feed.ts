/** `/fleet feed`: tells viewers where the live feed posts and whether it is keeping up. */
import type { SlackContext } from '../context.js';
import { failureText } from '../refusals/failures.js';
import type { Subcommand } from '../subcommands.js';
import { privateNotice } from '../views/notice.js';
import { buildFeedStatusMessage } from '../views/feed-status.js';

export function feedSubcommand(ctx: SlackContext): Subcommand {
  return {
    name: 'feed',
    localNames: { fr: 'flux' },
    audience: 'viewers',
    help: (t) => [{ usage: t('feed.help.usage'), description: t('feed.help.description') }],
    async run({ respond, readerSurface }) {
      const surface = await readerSurface();
      try {
        const status = ctx.feed ? await ctx.feed.status() : undefined;
        const missing = ctx.invites?.list() ?? [];
        const invites = { missing, botUserId: missing.length > 0 ? await ctx.invites?.botUserId() : undefined };
        await respond({ response_type: 'ephemeral', ...buildFeedStatusMessage(surface, status, ctx.clock.now(), invites) });
      } catch (error) {
        await respond(privateNotice(surface, failureText(surface.locale, error, 'readFeedStatus', ctx.logger)));
      }
    },
  };
}

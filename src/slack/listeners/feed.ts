/** `/fleet feed`: tells viewers where the live feed posts and whether it is keeping up. */
import type { SlackContext } from '../context.js';
import { describeFailure } from '../failures.js';
import type { Subcommand } from '../subcommands.js';
import { notice } from '../views/common.js';
import { buildFeedStatusMessage } from '../views/feed-status.js';
import { ensureViewer } from '../viewers.js';

export function feedSubcommand(ctx: SlackContext): Subcommand {
  return {
    name: 'feed',
    localNames: { fr: 'flux' }, audience: 'viewers',
    help: () => [{ usage: '/fleet feed', description: 'Where the live transaction feed posts, its last check, and how far behind it is.' }],
    async run({ command, respond }) {
      if (!(await ensureViewer(ctx, command.user_id, respond))) return;
      try {
        const status = ctx.feed ? await ctx.feed.status() : undefined;
        await respond({ response_type: 'ephemeral', ...buildFeedStatusMessage(ctx.surface, status, ctx.clock.now()) });
      } catch (error) {
        await respond({ response_type: 'ephemeral', ...notice(ctx.surface, describeFailure(error, 'read the feed status', ctx.logger)) });
      }
    },
  };
}

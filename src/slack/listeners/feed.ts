/** `/fleet feed`: tells viewers where the live feed posts and whether it is keeping up. */
import type { Clock } from '../../clock.js';
import type { TransactionFeed } from '../../feed/index.js';
import type { SlackContext, Subcommand } from '../context.js';
import { describeFailure } from '../failures.js';
import { notice } from '../views/common.js';
import { buildFeedStatusMessage } from '../views/feed-status.js';
import { ensureViewer } from './account.js';

export function feedSubcommand(ctx: SlackContext, feed: TransactionFeed | undefined, clock: Clock): Subcommand {
  return {
    help: [{ usage: '/fleet feed', description: 'Where the live transaction feed posts, its last check, and how far behind it is.' }],
    async run({ command, respond }) {
      if (!(await ensureViewer(ctx, command.user_id, respond))) return;
      try {
        const status = feed ? await feed.status() : undefined;
        await respond({ response_type: 'ephemeral', ...buildFeedStatusMessage(ctx.surface, status, clock.now()) });
      } catch (error) {
        await respond({ response_type: 'ephemeral', ...notice(ctx.surface, describeFailure(error, 'read the feed status', ctx.logger)) });
      }
    },
  };
}

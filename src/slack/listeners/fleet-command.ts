/**
 * The one `/fleet` command: acknowledges at once (Slack allows 3 s), then routes the text to a
 * subcommand, which answers through `response_url`, so a slow Fleet API never times the command out.
 */
import type { App } from '@slack/bolt';
import { parseFleetCommand } from '../command-text.js';
import type { SlackContext, Subcommand } from '../context.js';
import { describeFailure } from '../failures.js';
import { COMMAND } from '../ids.js';
import { notice } from '../views/common.js';
import { ACCOUNT_HELP, buildHelpMessage } from '../views/help.js';
import { ensureViewer, replyWithBalance, replyWithTransactions } from './account.js';

export function registerFleetCommand(app: App, ctx: SlackContext, subcommands: Record<string, Subcommand>): void {
  const help = [...ACCOUNT_HELP.slice(0, -1), ...Object.values(subcommands).flatMap((sub) => sub.help), ...ACCOUNT_HELP.slice(-1)];

  app.command(COMMAND, async ({ ack, command, respond, client }) => {
    await ack();
    const parsed = parseFleetCommand(command.text);
    try {
      switch (parsed.name) {
        case 'help':
          await respond({ response_type: 'ephemeral', ...buildHelpMessage(ctx.surface, help) });
          return;
        case 'invalid':
          await respond({ response_type: 'ephemeral', ...notice(ctx.surface, parsed.message) });
          return;
        case 'balance':
          if (await ensureViewer(ctx, command.user_id, respond)) await replyWithBalance(ctx, respond);
          return;
        case 'transactions':
          if (await ensureViewer(ctx, command.user_id, respond)) {
            await replyWithTransactions(ctx, respond, { page: parsed.page, pageSize: parsed.pageSize });
          }
          return;
        case 'other': {
          // Own properties only: `/fleet constructor` must not reach Object.prototype.constructor.
          const subcommand = Object.hasOwn(subcommands, parsed.subcommand) ? subcommands[parsed.subcommand] : undefined;
          if (subcommand) await subcommand.run({ command, args: parsed.args, respond, client });
          else await respond({ response_type: 'ephemeral', ...buildHelpMessage(ctx.surface, help, parsed.subcommand) });
          return;
        }
      }
    } catch (error) {
      await respond({ response_type: 'ephemeral', ...notice(ctx.surface, describeFailure(error, 'answer that command', ctx.logger)) });
    }
  });
}

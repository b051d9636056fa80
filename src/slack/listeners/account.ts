/** Balance: the `/fleet balance` subcommand and its buttons. */
import type { App, BlockAction, ButtonAction, RespondArguments, RespondFn } from '@slack/bolt';
import { buildBalanceMessage } from '../views/balance.js';
import { notice } from '../views/common.js';
import { describeFailure } from '../failures.js';
import { ACTIONS } from '../ids.js';
import type { SlackContext } from '../context.js';
import type { Subcommand } from '../subcommands.js';
import { ensureViewer } from '../viewers.js';

export function balanceSubcommand(ctx: SlackContext): Subcommand {
  return {
    name: 'balance',
    aliases: ['bal'], localNames: { fr: 'solde' }, audience: 'viewers',
    help: () => [{ usage: '/fleet balance', description: 'The fleet account balance in every currency, with a Refresh button.' }],
    async run({ command, respond }) {
      if (await ensureViewer(ctx, command.user_id, respond)) await replyWithBalance(ctx, respond);
    },
  };
}

async function replyWithBalance(ctx: SlackContext, respond: RespondFn, options: { fresh?: boolean; replace?: boolean } = {}): Promise<void> {
  let reply: RespondArguments;
  try {
    const reading = await ctx.account.balance({ fresh: options.fresh, signal: AbortSignal.timeout(ctx.readTimeoutMs) });
    reply = buildBalanceMessage(ctx.surface, reading);
  } catch (error) {
    reply = notice(ctx.surface, describeFailure(error, 'read the balance', ctx.logger));
  }
  await respond({ response_type: 'ephemeral', replace_original: options.replace ?? false, ...reply });
}

export function registerAccountActions(app: App, ctx: SlackContext): void {
  app.action<BlockAction<ButtonAction>>(ACTIONS.balanceRefresh, async ({ ack, body, respond }) => {
    await ack();
    if (!(await ensureViewer(ctx, body.user.id, respond))) return;
    await replyWithBalance(ctx, respond, { fresh: true, replace: true });
  });

  app.action<BlockAction<ButtonAction>>(ACTIONS.balanceShare, async ({ ack, body, respond }) => {
    await ack();
    if (!(await ensureViewer(ctx, body.user.id, respond))) return;
    try {
      const reading = await ctx.account.balance({ signal: AbortSignal.timeout(ctx.readTimeoutMs) });
      await respond({ response_type: 'in_channel', replace_original: false, ...buildBalanceMessage(ctx.surface, reading, { sharedBy: body.user.id }) });
    } catch (error) {
      await respond({ response_type: 'ephemeral', replace_original: false, ...notice(ctx.surface, describeFailure(error, 'share the balance', ctx.logger)) });
    }
  });
}

/** Balance and transactions: the `/fleet balance` and `/fleet transactions` subcommands and their buttons. */
import type { App, BlockAction, ButtonAction, RespondArguments, RespondFn } from '@slack/bolt';
import { z } from 'zod';
import type { PageRequest } from '../views/transactions.js';
import { buildBalanceMessage } from '../views/balance.js';
import { buildTransactionsMessage } from '../views/transactions.js';
import { notice } from '../views/common.js';
import { parseTransactionArgs } from '../command-text.js';
import { describeFailure } from '../failures.js';
import { ACTIONS } from '../ids.js';
import type { SlackContext } from '../context.js';
import type { Subcommand } from '../subcommands.js';
import { ensureViewer } from '../viewers.js';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../../account/account-reader.js';

export function balanceSubcommand(ctx: SlackContext): Subcommand {
  return {
    name: 'balance',
    aliases: ['bal'],
    help: () => [{ usage: '/fleet balance', description: 'The fleet account balance in every currency, with a Refresh button.' }],
    async run({ command, respond }) {
      if (await ensureViewer(ctx, command.user_id, respond)) await replyWithBalance(ctx, respond);
    },
  };
}

export function transactionsSubcommand(ctx: SlackContext): Subcommand {
  return {
    name: 'transactions',
    aliases: ['tx', 'txs'],
    help: () => [{
      usage: '/fleet transactions [page] [size]',
      description: 'Transactions, newest first, 10 per page (up to 25). Alias `/fleet tx`. Example: `/fleet tx 2 25`.',
    }],
    async run({ command, args, respond }) {
      // Options that cannot be read are explained to anyone, before the viewer check.
      const request = parseTransactionArgs(args);
      if (!request.ok) {
        await respond({ response_type: 'ephemeral', ...notice(ctx.surface, request.message) });
        return;
      }
      if (await ensureViewer(ctx, command.user_id, respond)) {
        await replyWithTransactions(ctx, respond, { page: request.page, pageSize: request.pageSize });
      }
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

async function replyWithTransactions(ctx: SlackContext, respond: RespondFn, request: PageRequest, replace = false): Promise<void> {
  let reply: RespondArguments;
  try {
    const page = await ctx.account.transactions(request.page, request.pageSize, { signal: AbortSignal.timeout(ctx.readTimeoutMs) });
    reply = buildTransactionsMessage(ctx.surface, page);
  } catch (error) {
    reply = notice(ctx.surface, describeFailure(error, 'read the transactions', ctx.logger));
  }
  await respond({ response_type: 'ephemeral', replace_original: replace, ...reply });
}

// A button value comes back from the client: it only says which page to show, and is bounded here.
const pageValueSchema = z.object({
  page: z.number().int().min(1).max(1_000_000),
  size: z.number().int().min(1).max(MAX_PAGE_SIZE),
});

function readPageValue(value: string | undefined): PageRequest {
  try {
    const parsed = pageValueSchema.safeParse(JSON.parse(value ?? ''));
    if (parsed.success) return { page: parsed.data.page, pageSize: parsed.data.size };
  } catch {
    // fall through to the first page
  }
  return { page: 1, pageSize: DEFAULT_PAGE_SIZE };
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

  app.action<BlockAction<ButtonAction>>(new RegExp(`^${ACTIONS.transactionsPage}:`), async ({ ack, body, action, respond }) => {
    await ack();
    if (!(await ensureViewer(ctx, body.user.id, respond))) return;
    await replyWithTransactions(ctx, respond, readPageValue(action.value), true);
  });

  app.action<BlockAction<ButtonAction>>(ACTIONS.transactionsShare, async ({ ack, body, action, respond }) => {
    await ack();
    if (!(await ensureViewer(ctx, body.user.id, respond))) return;
    const request = readPageValue(action.value);
    try {
      const page = await ctx.account.transactions(request.page, request.pageSize, { signal: AbortSignal.timeout(ctx.readTimeoutMs) });
      await respond({ response_type: 'in_channel', replace_original: false, ...buildTransactionsMessage(ctx.surface, page, { sharedBy: body.user.id }) });
    } catch (error) {
      await respond({ response_type: 'ephemeral', replace_original: false, ...notice(ctx.surface, describeFailure(error, 'share the transactions', ctx.logger)) });
    }
  });
}

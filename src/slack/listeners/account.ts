/** Balance: the `/fleet balance` subcommand and its buttons. */
import type { BlockAction, ButtonAction, RespondArguments, RespondFn } from '@slack/bolt';
import { z } from 'zod';
import type { BalanceReading } from '../../account/account-reader.js';
import { textsFor } from '../../i18n/index.js';
import { buildBalanceMessage } from '../views/balance.js';
import { notice, privateNotice } from '../views/notice.js';
import type { Surface } from '../views/text.js';
import { failureText } from '../refusals/failures.js';
import { ACTIONS } from '../ids.js';
import type { SlackContext } from '../context.js';
import type { ListenerRouter } from '../transport/listener-router.js';
import { readerSurfaceOf } from '../transport/middleware.js';
import type { Subcommand } from '../subcommands.js';
import { ensureViewer } from '../viewers.js';

const sharedReadingSchema = z.object({ balances: z.record(z.string(), z.number()), readAt: z.string().datetime() });

export function balanceSubcommand(ctx: SlackContext): Subcommand {
  return {
    name: 'balance',
    aliases: ['bal'],
    localNames: { fr: 'solde' },
    audience: 'viewers',
    help: (t) => [{ usage: t('balance.help.usage'), description: t('balance.help.description') }],
    async run({ respond, readerSurface }) {
      await replyWithBalance(ctx, await readerSurface(), respond);
    },
  };
}

// Each cached reading's reply, per surface: the hundreds of answers one reading serves are rendered and sealed once.
const renderedReplies = new WeakMap<BalanceReading, Map<string, RespondArguments>>();

function balanceReply(ctx: SlackContext, surface: Surface, reading: BalanceReading): RespondArguments {
  const key = `${surface.locale}:${surface.sandbox}`;
  const replies = renderedReplies.get(reading) ?? new Map<string, RespondArguments>();
  renderedReplies.set(reading, replies);
  let reply = replies.get(key);
  if (!reply) {
    const shareValue = ctx.seal.seal({ balances: reading.balances, readAt: reading.readAt.toISOString() });
    reply = buildBalanceMessage(surface, reading, shareValue === undefined ? {} : { shareValue });
    replies.set(key, reply);
  }
  return reply;
}

async function replyWithBalance(ctx: SlackContext, surface: Surface, respond: RespondFn, options: { fresh?: boolean; replace?: boolean } = {}): Promise<void> {
  let reply: RespondArguments;
  try {
    const reading = await ctx.account.balance({ fresh: options.fresh, signal: AbortSignal.timeout(ctx.readTimeoutMs) });
    // Everyone who waited on one upstream read resumes at once: each answer in a turn of its own, so
    // that requests waiting for their ack are read between them.
    await ctx.turns.ownTurn();
    reply = balanceReply(ctx, surface, reading);
  } catch (error) {
    reply = notice(surface, failureText(surface.locale, error, 'readBalance', ctx.logger));
  }
  await respond({ response_type: 'ephemeral', replace_original: options.replace ?? false, ...reply });
}

export function registerAccountActions(router: ListenerRouter, ctx: SlackContext): void {
  router.action<BlockAction<ButtonAction>>(ACTIONS.balanceRefresh, async ({ ack, body, respond, context }) => {
    await ack();
    if (!(await ensureViewer(ctx, body.user.id, respond))) return;
    await replyWithBalance(ctx, await readerSurfaceOf(context, body.user.id)(), respond, { fresh: true, replace: true });
  });

  // Share posts the figures the person was shown, as the button carries them under the app's seal:
  // reading the API again could put other figures in the channel than the ones they looked at.
  router.action<BlockAction<ButtonAction>>(ACTIONS.balanceShare, async ({ ack, body, action, respond, context }) => {
    await ack();
    if (!(await ensureViewer(ctx, body.user.id, respond))) return;
    const shown = ctx.seal.open(action.value, sharedReadingSchema);
    if (!shown) {
      ctx.logger.info({ userId: body.user.id }, 'refused to share balance figures whose seal does not hold');
      const surface = await readerSurfaceOf(context, body.user.id)();
      await respond(privateNotice(surface, textsFor(surface.locale)('balance.shareExpired'), { replaceOriginal: false }));
      return;
    }
    const reading = { balances: shown.balances, readAt: new Date(shown.readAt) };
    try {
      // Shared into the channel: written in the channel's language.
      await respond({ response_type: 'in_channel', replace_original: false, ...buildBalanceMessage(ctx.surface, reading, { sharedBy: body.user.id }) });
    } catch (error) {
      const surface = await readerSurfaceOf(context, body.user.id)();
      await respond(privateNotice(surface, failureText(surface.locale, error, 'shareBalance', ctx.logger), { replaceOriginal: false }));
    }
  });
}

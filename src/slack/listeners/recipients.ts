/**
 * Saved recipients: `/fleet recipients [words]` lists and searches them for requesters and
 * approvers, its Remove button takes one off the list (requesters only, checked on the server), and
 * the payout form's select is answered with the recipients matching what the person types.
 */
import type { BlockAction, ButtonAction } from '@slack/bolt';
import { textsFor } from '../../i18n/index.js';
import type { SlackContext } from '../context.js';
import type { ListenerRouter } from '../transport/listener-router.js';
import { readerSurfaceOf } from '../transport/middleware.js';
import { failureText } from '../refusals/failures.js';
import { RECIPIENT_ACTIONS } from '../ids.js';
import type { Subcommand } from '../subcommands.js';
import { notice, privateNotice } from '../views/notice.js';
import { buildRecipientList, recipientNumber, recipientOptions } from '../views/saved-recipients.js';
import { escapeWithin, type Surface } from '../views/text.js';

const LISTED = 15;
const SUGGESTED = 20;

export function recipientsSubcommand(ctx: SlackContext): Subcommand {
  return {
    name: 'recipients',
    localNames: { fr: 'bénéficiaires' },
    audience: 'requesters-and-approvers',
    refusal: (t) => t('recipients.locked'),
    help: (t) => [{ usage: t('recipients.help.usage'), description: t('recipients.help.description') }],
    async run({ command, args, respond, readerSurface }) {
      const reader = await readerSurface();
      try {
        const words = args.map((arg) => arg.replace(/^["“«]|["”»]$/gu, '')).filter((arg) => arg.trim() !== '');
        await respond({ response_type: 'ephemeral', ...(await recipientList(ctx, reader, command.user_id, words)) });
      } catch (error) {
        await respond(privateNotice(reader, failureText(reader.locale, error, 'readPayouts', ctx.logger)));
      }
    },
  };
}

/** The list a person may see, with Remove buttons when they may remove; a notice when they may not see it. */
async function recipientList(ctx: SlackContext, reader: Surface, userId: string, words: string[], said?: string) {
  const found = await ctx.recipients.list(userId, words, LISTED);
  if (!found.ok) return notice(reader, textsFor(reader.locale)('recipients.locked'));
  const canRemove = await ctx.payouts.mayRequest(userId);
  return buildRecipientList(reader, found.recipients, { words, total: found.total }, { canRemove: canRemove.ok, ...(said ? { notice: said } : {}) });
}

export function registerRecipientListeners(router: ListenerRouter, ctx: SlackContext): void {
  const { logger } = ctx;

  // Slack waits 3 seconds for options; a failure answers none rather than an error the person cannot read.
  router.options(RECIPIENT_ACTIONS.pick, async ({ ack, body, context }) => {
    try {
      const surface = await readerSurfaceOf(context, body.user.id)();
      const found = await ctx.recipients.suggest(body.user.id, body.value.slice(0, 200), SUGGESTED);
      await ack({ options: recipientOptions(found, surface.locale) });
    } catch (error) {
      logger.error({ err: error }, 'could not suggest saved recipients');
      await ack({ options: [] });
    }
  });

  router.action<BlockAction<ButtonAction>>(RECIPIENT_ACTIONS.remove, async ({ ack, body, respond, context }) => {
    await ack();
    const reader = await readerSurfaceOf(context, body.user.id)();
    const t = textsFor(reader.locale);
    try {
      const removed = await ctx.recipients.remove(body.user.id, body.actions[0]?.value ?? '');
      if (!removed.ok) {
        const text = removed.code === 'not_found' ? t('recipients.notFound') : t('recipients.notRequester');
        await respond(privateNotice(reader, text, { replaceOriginal: false }));
        return;
      }
      const { recipient } = removed;
      const said = t('recipients.removed', {
        name: escapeWithin(recipient.recipient.name, 200, { oneLine: true }),
        number: escapeWithin(recipientNumber(recipient), 120, { oneLine: true }),
      });
      await respond({ response_type: 'ephemeral', replace_original: true, ...(await recipientList(ctx, reader, body.user.id, [], said)) });
    } catch (error) {
      await respond(privateNotice(reader, failureText(reader.locale, error, 'readPayouts', logger), { replaceOriginal: false }));
    }
  });
}

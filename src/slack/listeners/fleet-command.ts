/**
 * The one `/fleet` command: acknowledges at once (Slack allows 3 s), then hands the text to the
 * subcommand it names, which answers through `response_url`, so a slow Fleet API never times the
 * command out. Someone outside the subcommand's audience gets the audience's usual refusal instead,
 * before it runs. `/fleet help` (`/fleet aide`) and any word no subcommand answers to list those
 * the person may use, in their language.
 */
import { textsFor, type Texts } from '../../i18n/index.js';

import type { SlackContext } from '../context.js';
import type { ListenerRouter } from '../transport/listener-router.js';
import { readerSurfaceOf } from '../transport/middleware.js';
import { failureText } from '../refusals/failures.js';
import { refusalText } from '../refusals/payout-refusals.js';
import { COMMAND } from '../ids.js';
import { audiencesOf, isIn, splitFleetCommand, SubcommandRegistry, type Audience, type Roles, type Subcommand } from '../subcommands.js';
import { privateNotice } from '../views/notice.js';
import { buildHelpMessage } from '../views/help.js';
import type { Surface } from '../views/text.js';

export function registerFleetCommand(router: ListenerRouter, ctx: SlackContext, subcommands: readonly Subcommand[]): void {
  const help: Subcommand = {
    name: 'help',
    localNames: { fr: 'aide' },
    help: (t) => [{ usage: t('fleetCommand.help.usage'), description: t('fleetCommand.help.description') }],
    async run({ command, respond, readerSurface }) {
      await respond({ response_type: 'ephemeral', ...(await helpFor(command.user_id, await readerSurface())) });
    },
  };
  const registry = new SubcommandRegistry([...subcommands, help]);
  const { access, accessLists } = ctx;
  const may: Roles = {
    view: (userId: string) => access.allows(accessLists.viewers, userId),
    request: (userId: string) => access.allows(accessLists.requesters, userId),
    approve: (userId: string) => access.allows(accessLists.approvers, userId),
  };
  const helpFor = async (userId: string, surface: Surface, unknown?: string) =>
    buildHelpMessage(surface, registry.help(textsFor(surface.locale), surface.locale, await audiencesOf(userId, may)), unknown);

  router.command(COMMAND, async ({ ack, command, respond, client, context }) => {
    await ack();
    const readerSurface = readerSurfaceOf(context, command.user_id);
    const { word, args } = splitFleetCommand(command.text);
    const subcommand = registry.find(word);
    try {
      if (!subcommand) {
        await respond({ response_type: 'ephemeral', ...(await helpFor(command.user_id, await readerSurface(), word)) });
        ctx.metrics?.command('unknown', 'unknown_subcommand');
        return;
      }
      const audience = subcommand.audience ?? 'everyone';
      if (audience !== 'everyone' && !subcommand.checksAudienceItself && !(await isIn(audience, command.user_id, may))) {
        ctx.logger.info({ userId: command.user_id, subcommand: subcommand.name, audience }, 'refused a /fleet subcommand to someone outside its audience');
        const surface = await readerSurface();
        const t = textsFor(surface.locale);
        await respond(privateNotice(surface, subcommand.refusal?.(t) ?? usualRefusal(audience, t, surface), { replaceOriginal: false }));
      } else {
        await subcommand.run({ command, args, respond, client, readerSurface });
      }
      ctx.metrics?.command(subcommand.name, 'ok');
    } catch (error) {
      ctx.metrics?.command(subcommand?.name ?? 'unknown', 'error');
      const surface = await readerSurface();
      await respond(privateNotice(surface, failureText(surface.locale, error, 'answerCommand', ctx.logger)));
    }
  });
}

/** What someone outside an audience is told: the list they are not on. */
function usualRefusal(audience: Exclude<Audience, 'everyone'>, t: Texts, surface: Surface): string {
  switch (audience) {
    case 'viewers':
      return t('access.noViewer');
    case 'requesters':
      return refusalText({ code: 'not_requester', details: { action: 'request' } }, surface.locale);
    case 'requesters-and-approvers':
      return t('payoutRecords.locked');
  }
}

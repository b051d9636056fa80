/**
 * The one `/fleet` command: acknowledges at once (Slack allows 3 s), then hands the text to the
 * subcommand it names, which answers through `response_url`, so a slow Fleet API never times the
 * command out. `/fleet help` (`/fleet aide`) and any word no subcommand answers to list those the
 * person may use, in their language.
 */
import { textsFor } from '../../i18n/index.js';
import type { App } from '@slack/bolt';
import type { SlackContext } from '../context.js';
import { failureText } from '../refusals/failures.js';
import { COMMAND } from '../ids.js';
import { surfaceFor } from '../locales.js';
import { audiencesOf, splitFleetCommand, SubcommandRegistry, type Subcommand } from '../subcommands.js';
import { notice } from '../views/notice.js';
import { buildHelpMessage } from '../views/help.js';

export function registerFleetCommand(app: App, ctx: SlackContext, subcommands: readonly Subcommand[]): void {
  const help: Subcommand = {
    name: 'help',
    localNames: { fr: 'aide' },
    help: (t) => [{ usage: t('fleetCommand.help.usage'), description: t('fleetCommand.help.description') }],
    async run({ command, respond }) {
      await respond({ response_type: 'ephemeral', ...(await helpFor(command.user_id)) });
    },
  };
  const registry = new SubcommandRegistry([...subcommands, help]);
  const { access, accessLists } = ctx;
  const may = {
    view: (userId: string) => access.allows(accessLists.viewers, userId),
    request: (userId: string) => access.allows(accessLists.requesters, userId),
    approve: (userId: string) => access.allows(accessLists.approvers, userId),
  };
  const helpFor = async (userId: string, unknown?: string) => {
    const [surface, audiences] = await Promise.all([surfaceFor(ctx, userId), audiencesOf(userId, may)]);
    return buildHelpMessage(surface, registry.help(textsFor(surface.locale), surface.locale, audiences), unknown);
  };

  app.command(COMMAND, async ({ ack, command, respond, client }) => {
    await ack();
    const { word, args } = splitFleetCommand(command.text);
    const subcommand = registry.find(word);
    try {
      if (subcommand) await subcommand.run({ command, args, respond, client });
      else await respond({ response_type: 'ephemeral', ...(await helpFor(command.user_id, word)) });
      ctx.metrics?.command(subcommand?.name ?? 'unknown', subcommand ? 'ok' : 'unknown_subcommand');
    } catch (error) {
      ctx.metrics?.command(subcommand?.name ?? 'unknown', 'error');
      const surface = await surfaceFor(ctx, command.user_id);
      await respond({ response_type: 'ephemeral', ...notice(surface, failureText(surface.locale, error, 'answerCommand', ctx.logger)) });
    }
  });
}

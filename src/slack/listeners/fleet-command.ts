/**
 * The one `/fleet` command: acknowledges at once (Slack allows 3 s), then hands the text to the
 * subcommand it names, which answers through `response_url`, so a slow Fleet API never times the
 * command out. `/fleet help` and any word no subcommand answers to list them all.
 */
import { textsFor } from '../../i18n/index.js';
import type { App } from '@slack/bolt';
import { splitFleetCommand } from '../command-text.js';
import type { SlackContext } from '../context.js';
import { failureText } from '../failures.js';
import { COMMAND } from '../ids.js';
import { surfaceFor } from '../locales.js';
import { SubcommandRegistry, type Subcommand } from '../subcommands.js';
import { notice } from '../views/common.js';
import { buildHelpMessage } from '../views/help.js';

export function registerFleetCommand(app: App, ctx: SlackContext, subcommands: readonly Subcommand[]): void {
  const help: Subcommand = {
    name: 'help',
    help: (t) => [{ usage: t('help.help.usage'), description: t('help.help.description') }],
    async run({ command, respond }) {
      const surface = await surfaceFor(ctx, command.user_id);
      await respond({ response_type: 'ephemeral', ...buildHelpMessage(surface, registry.help(textsFor(surface.locale))) });
    },
  };
  const registry = new SubcommandRegistry([...subcommands, help]);

  app.command(COMMAND, async ({ ack, command, respond, client }) => {
    await ack();
    const { word, args } = splitFleetCommand(command.text);
    const subcommand = registry.find(word);
    try {
      if (subcommand) await subcommand.run({ command, args, respond, client });
      else {
        const surface = await surfaceFor(ctx, command.user_id);
        await respond({ response_type: 'ephemeral', ...buildHelpMessage(surface, registry.help(textsFor(surface.locale)), word) });
      }
      ctx.metrics?.command(subcommand?.name ?? 'unknown', subcommand ? 'ok' : 'unknown_subcommand');
    } catch (error) {
      ctx.metrics?.command(subcommand?.name ?? 'unknown', 'error');
      const surface = await surfaceFor(ctx, command.user_id);
      await respond({ response_type: 'ephemeral', ...notice(surface, failureText(surface.locale, error, 'answerCommand', ctx.logger)) });
    }
  });
}

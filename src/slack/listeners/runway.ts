/**
 * `/fleet runway` (`/fleet autonomie`): per currency, the balance, its average daily net flow, the
 * days it lasts and the day it reaches zero, in the reader's language, shown to them alone; then the
 * chart of it, uploaded to their DM with the app.
 */
import { textsFor } from '../../i18n/index.js';
import type { Runway } from '../../runway/index.js';
import type { SlackContext } from '../context.js';
import { FileUploadError } from '../files/file-upload.js';
import { sendPngToPerson } from '../files/png-share.js';
import { failureText } from '../refusals/failures.js';
import type { Subcommand } from '../subcommands.js';
import { notice, privateNotice, type Reply } from '../views/notice.js';
import { buildRunwayMessage } from '../views/runway.js';
import type { Surface } from '../views/text.js';
import type { WebClient } from '@slack/web-api';

export function runwaySubcommand(ctx: SlackContext): Subcommand {
  return {
    name: 'runway',
    localNames: { fr: 'autonomie' },
    audience: 'viewers',
    help: (t) => [{ usage: t('runway.help.usage'), description: t('runway.help.description') }],
    async run({ command, respond, readerSurface, client }) {
      const surface = await readerSurface();
      let reply: Reply;
      let runway: Runway | undefined;
      try {
        runway = await ctx.runway({ signal: AbortSignal.timeout(ctx.readTimeoutMs) });
        reply = buildRunwayMessage(surface, runway, { chartInDm: ctx.charts !== undefined });
      } catch (error) {
        reply = notice(surface, failureText(surface.locale, error, 'computeRunway', ctx.logger));
      }
      await respond({ response_type: 'ephemeral', ...reply });
      if (!runway?.known || runway.currencies.length === 0 || !ctx.charts) return;
      const problem = await sendChart(ctx, client, command.user_id, surface, runway);
      if (problem) await respond(privateNotice(surface, textsFor(surface.locale)('runway.chart.failed', { reason: problem })));
    },
  };
}

/** Draws the chart in the reader's language and shares it in their DM; the reason it failed, if it did. */
async function sendChart(ctx: SlackContext, client: WebClient, userId: string, surface: Surface, runway: Runway): Promise<string | undefined> {
  const t = textsFor(surface.locale);
  try {
    const chart = await ctx.charts!.render(runway, surface.locale);
    if (!chart) return undefined;
    await sendPngToPerson(client, userId, {
      filename: `runway-${runway.known ? runway.today : 'now'}.png`,
      title: t('runway.chart.title'),
      comment: t('runway.chart.comment'),
      png: chart.png,
    });
    return undefined;
  } catch (error) {
    const code = error instanceof FileUploadError ? error.code : (error as { data?: { error?: unknown } } | undefined)?.data?.error;
    ctx.logger.warn({ err: error, userId }, 'could not send the runway chart');
    return typeof code === 'string' ? code.replace(/[^\w.-]/g, '').slice(0, 60) : 'chart_failed';
  }
}

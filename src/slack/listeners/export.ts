/**
 * `/fleet export [filters]` (French `exporter`): the matching ledger entries as a CSV file sent to the
 * person's direct messages with the app. Viewers only; one export per person at a time. The command's
 * replies say that it started (and whether the history is fully loaded) and how it ended, each a new
 * reply: a command's response_url cannot replace an earlier one. Progress goes to the DM, one message
 * updated in place and ended with the outcome, so that no stale "written…" stays behind.
 */
import { randomUUID } from 'node:crypto';
import type { BlockAction, ButtonAction } from '@slack/bolt';
import type { WebClient } from '@slack/web-api';
import { MAX_PAGE_SIZE } from '../../account/account-reader.js';
import { textsFor } from '../../i18n/index.js';
import { exportFileName, lastFullMonth, type ExportJob } from '../../ledger/exporter.js';
import { ledgerFilterFor, parseSearchText, type TransactionSearch } from '../../ledger/query-text.js';
import type { SlackContext } from '../context.js';
import type { ListenerRouter } from '../transport/listener-router.js';
import { readerSurfaceOf } from '../transport/middleware.js';
import { HOME } from '../ids.js';
import { FileUploadError, uploadFile } from '../files/file-upload.js';
import type { Subcommand } from '../subcommands.js';
import { notice, type Reply } from '../views/notice.js';
import {
  buildExportEmptyMessage,
  buildExportProgressMessage,
  buildExportSentMessage,
  buildExportStartedMessage,
  buildExportTooManyMessage,
  exportFileComment,
  type ExportDescription,
} from '../views/export.js';
import type { Surface } from '../views/text.js';
import { problemText } from '../views/transactions.js';
import { ProgressPacer, type ProgressPace } from '../../runtime/progress-pacer.js';

/** A response_url takes 5 answers: the start, at most 3 progress updates, and the outcome. */
const EXPORT_PROGRESS: ProgressPace = { everyItems: 10_000, minMs: 2_000, maxReports: 3 };

export function exportSubcommand(ctx: SlackContext): Subcommand {
  return {
    name: 'export',
    aliases: ['exporter'],
    audience: 'viewers',
    help: (t) => [{ usage: t('export.help.usage'), description: t('export.help.description') }],
    async run({ command, respond, client, readerSurface }) {
      const userId = command.user_id;
      const surface = await readerSurface();
      const t = textsFor(surface.locale);
      const inDm = dmReplies(client, userId);
      let progressInDm = false;
      // A first answer goes to the channel; later ones (the progress) to the DM's one message.
      const reply = async (message: Reply, replace = false) => {
        if (!replace) return respond({ response_type: 'ephemeral', ...message });
        progressInDm = true;
        return inDm(message, true);
      };
      if (!ctx.exporter) {
        await reply(notice(surface, t('export.unavailable')));
        return;
      }
      const read = parseSearchText(command.text.trim().replace(/^\S+\s*/u, ''), { locale: surface.locale });
      if (!read.ok) {
        await reply(notice(surface, `${problemText(t, read.problem, { maxPageSize: MAX_PAGE_SIZE })}\n${t('export.usage')}`));
        return;
      }
      const job = await ctx.exporter.begin(userId);
      if (!job) {
        await reply(notice(surface, t('export.busy')));
        return;
      }
      let outcome: Reply;
      try {
        outcome = await runExport(ctx, { job, userId, surface, search: withDefaultPeriod(ctx, read.search), reply, client });
      } finally {
        await job.finish();
      }
      // Said once the lease is given back: whoever reads it may start the next export at once.
      if (progressInDm) await inDm(outcome, true).catch((error: unknown) => ctx.logger.warn({ err: error }, "could not end the export's progress message"));
      await respond({ response_type: 'ephemeral', ...outcome });
    },
  };
}

/**
 * The home tab's "Last month's export": the same export as `/fleet export` without filters, told in
 * the person's direct messages (the home has no conversation to answer in), its progress updating
 * the first message there.
 */
export function registerExportActions(router: ListenerRouter, ctx: SlackContext): void {
  router.action<BlockAction<ButtonAction>>(HOME.export, async ({ ack, body, client, context }) => {
    await ack();
    const userId = body.user.id;
    if (!(await ctx.access.allows(ctx.accessLists.viewers, userId))) return;
    const surface = await readerSurfaceOf(context, userId)();
    const t = textsFor(surface.locale);
    const reply = dmReplies(client, userId);
    try {
      const job = ctx.exporter && (await ctx.exporter.begin(userId));
      if (!ctx.exporter || !job) {
        await reply(notice(surface, t(ctx.exporter ? 'export.busy' : 'export.unavailable')));
        return;
      }
      let outcome: Reply;
      try {
        outcome = await runExport(ctx, { job, userId, surface, search: withDefaultPeriod(ctx, {}), reply, client });
      } finally {
        await job.finish();
      }
      await reply(outcome, true);
    } catch (error) {
      ctx.logger.warn({ err: error, userId }, 'could not run an export from the home tab');
    }
  });
}

/** Answers in the person's DM with the app: a new message, or (`replace`) an update of the last one posted. */
function dmReplies(client: WebClient, userId: string): (message: Reply, replace?: boolean) => Promise<unknown> {
  let shown: { channel: string; ts: string } | undefined;
  return async (message, replace = false) => {
    if (replace && shown) return client.chat.update({ ...shown, text: message.text, blocks: message.blocks });
    const posted = await client.chat.postMessage({ channel: userId, text: message.text, blocks: message.blocks, unfurl_links: false });
    if (posted.channel && posted.ts) shown = { channel: posted.channel, ts: posted.ts };
    return posted;
  };
}

/** Without a day in the search, the last full calendar month in LEDGER_TIMEZONE. */
function withDefaultPeriod(ctx: SlackContext, search: TransactionSearch): TransactionSearch {
  if (search.since || search.until) return search;
  return { ...search, ...lastFullMonth(ctx.clock.now(), ctx.ledgerTimeZone) };
}

interface ExportRun {
  job: ExportJob;
  userId: string;
  surface: Surface;
  search: TransactionSearch;
  reply: (message: Reply, replace?: boolean) => Promise<unknown>;
  client: WebClient;
}

/** Checks, writes and sends the export; resolves with the last reply (the outcome), which the caller sends. */
async function runExport(ctx: SlackContext, run: ExportRun): Promise<Reply> {
  const { job, surface, search, reply } = run;
  const t = textsFor(surface.locale);
  try {
    const filter = ledgerFilterFor(search, ctx.ledgerTimeZone);
    const check = await job.check(filter);
    const about: ExportDescription = { search, timeZone: ctx.ledgerTimeZone, status: check.status };
    if (check.kind === 'empty') return buildExportEmptyMessage(surface, about);
    if (check.kind === 'too_many') return buildExportTooManyMessage(surface, { ...about, count: check.count, maxRows: check.maxRows });

    const { count } = check;
    await reply(buildExportStartedMessage(surface, { ...about, count }));
    const pacer = new ProgressPacer(ctx.clock, EXPORT_PROGRESS);
    const fileName = exportFileName(search);
    const written = await job.write(filter, fileName, async (rows) => {
      if (!pacer.shouldReport(rows)) return;
      // Progress is a courtesy: a failed update must not stop the export.
      await reply(buildExportProgressMessage(surface, { ...about, count, rows }), true).catch((error: unknown) => {
        ctx.logger.warn({ err: error }, 'could not show export progress');
      });
    });

    const opened = await run.client.conversations.open({ users: run.userId });
    const channelId = opened.channel?.id;
    if (!channelId) throw new FileUploadError('complete', 'channel_not_found');
    await uploadFile(run.client, {
      path: written.path,
      filename: fileName,
      title: t('export.fileTitle'),
      channelId,
      initialComment: exportFileComment(surface, { count: written.rows, search, status: check.status }),
    });
    ctx.logger.info({ userId: run.userId, rows: written.rows }, 'ledger export sent');
    return buildExportSentMessage(surface, { ...about, count: written.rows, fileName });
  } catch (error) {
    return notice(surface, failureText(ctx, error, t));
  }
}

function failureText(ctx: SlackContext, error: unknown, t: ReturnType<typeof textsFor>): string {
  const code = error instanceof FileUploadError ? error.code : (error as { data?: { error?: unknown } } | undefined)?.data?.error;
  if (typeof code === 'string') {
    ctx.logger.warn({ err: error, code }, 'could not send an export');
    return t('export.uploadFailed', { code: code.replace(/[^\w.-]/g, '').slice(0, 60) });
  }
  const incident = randomUUID().slice(0, 8);
  ctx.logger.error({ err: error, incident }, 'ledger export failed');
  return t('export.failed', { incident });
}

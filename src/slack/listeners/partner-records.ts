/**
 * `/fleet reconcile` (French `rapprochement`): the form with a CSV file input, acknowledged at once
 * with a "checking…" screen, then the file read with the bulk file's download rules, matched
 * against the ledger, and the summary shown in the modal and sent to the person's DM with the
 * exceptions file. `/fleet reconcile history` lists the last runs, and their button sends a run's
 * file again. Viewers only, checked again on submission before any file is read.
 */
import { randomUUID } from 'node:crypto';
import type { BlockAction, ButtonAction, ViewSubmitAction } from '@slack/bolt';
import type { WebClient } from '@slack/web-api';
import type { ModalView } from '@slack/types';
import { textsFor } from '../../i18n/index.js';
import type { ExceptionRow, RecordsRun, RunSummary } from '../../partner-records/index.js';
import type { SlackContext } from '../context.js';
import type { ListenerRouter } from '../transport/listener-router.js';
import { readChosenFile } from '../files/batch-file-source.js';
import { sendCsvToPerson } from '../files/csv-to-person.js';
import { FileUploadError } from '../files/file-upload.js';
import { RECORDS } from '../ids.js';
import { readerSurfaceOf } from '../transport/middleware.js';
import { describeRecordsProblem } from '../refusals/partner-records-problems.js';
import type { Subcommand } from '../subcommands.js';
import { privateNotice } from '../views/notice.js';
import {
  buildRecordsChecking,
  buildRecordsHistory,
  buildRecordsResultMessage,
  buildRecordsResultModal,
  buildRecordsUploadModal,
  exceptionsFileName,
  exceptionsFileText,
  recordsNoticeModal,
  type ExceptionsFileOutcome,
} from '../views/partner-records.js';
import type { Surface } from '../views/text.js';

/** The words after `/fleet reconcile` that list the history. */
const HISTORY_WORDS: ReadonlySet<string> = new Set(['history', 'historique']);
const HISTORY_SHOWN = 10;

const safeCode = (code: string) => code.replace(/[^\w.-]/g, '').slice(0, 60);
const quotedName = (name: string) => `\`${name.replace(/[`<>&]/g, '_').slice(0, 80)}\``;

export function recordsSubcommand(ctx: SlackContext): Subcommand {
  return {
    name: 'reconcile',
    aliases: ['records'],
    localNames: { fr: 'rapprochement' },
    audience: 'viewers',
    help: (t) => [
      { usage: t('records.help.usage'), description: t('records.help.description') },
      { usage: t('records.history.help.usage'), description: t('records.history.help.description') },
    ],
    async run({ command, args, respond, client, readerSurface }) {
      const surface = await readerSurface();
      const t = textsFor(surface.locale);
      const reply = (text: string) => respond(privateNotice(surface, text, { replaceOriginal: false }));
      if (!ctx.records) {
        await reply(t('records.unavailable'));
        return;
      }
      const word = (args[0] ?? '').toLowerCase();
      if (HISTORY_WORDS.has(word)) {
        const id = (args[1] ?? '').toUpperCase();
        if (id !== '') {
          await reply(await sendRunFile(ctx, client, surface, command.user_id, id, isDirectMessage(command.channel_id)));
          return;
        }
        await respond({ response_type: 'ephemeral', replace_original: false, ...buildRecordsHistory(surface, await ctx.records.history(HISTORY_SHOWN)) });
        return;
      }
      const { settings } = ctx.records;
      await client.views.open({
        trigger_id: command.trigger_id,
        view: buildRecordsUploadModal(surface, {
          maxRows: settings.maxRows,
          maxBytes: settings.maxBytes,
          toleranceDays: settings.toleranceDays,
          timeZone: ctx.ledgerTimeZone,
        }),
      });
    },
  };
}

export function registerRecordsListeners(router: ListenerRouter, ctx: SlackContext): void {
  router.view<ViewSubmitAction>(RECORDS.uploadView, async ({ ack, body, view, client, context }) => {
    const userId = body.user.id;
    const surface = await readerSurfaceOf(context, userId)();
    const t = textsFor(surface.locale);
    // Asked again here: the form may have been opened before the person left FLEET_VIEWERS. No file is read for an outsider.
    if (!(await ctx.access.allows(ctx.accessLists.viewers, userId))) {
      await ack({ response_action: 'update', view: recordsNoticeModal(surface, t('access.noViewer')) });
      return;
    }
    if (!ctx.records) {
      await ack({ response_action: 'update', view: recordsNoticeModal(surface, t('records.unavailable')) });
      return;
    }
    const fileId = view.state.values[RECORDS.fileBlock]?.[RECORDS.input]?.files?.[0]?.id;
    if (!fileId) {
      await ack({ response_action: 'errors', errors: { [RECORDS.fileBlock]: t('records.nothingChosen') } });
      return;
    }
    const release = ctx.fileChecks.take(userId);
    if (!release) {
      await ack({ response_action: 'update', view: recordsNoticeModal(surface, t('common.fileCheckBusy')) });
      return;
    }
    let result: ModalView;
    try {
      // Reading and matching may take longer than Slack's 3 seconds: the person sees "checking…" meanwhile.
      await ack({ response_action: 'update', view: buildRecordsChecking(surface) });
      result = await checkRecords(ctx, client, surface, userId, fileId, `${view.id}:${fileId}`);
    } catch (error) {
      const incident = randomUUID().slice(0, 8);
      ctx.logger.error({ err: error, incident }, 'could not check a records file');
      result = recordsNoticeModal(surface, t('records.failed', { incident }));
    } finally {
      release();
    }
    await client.views.update({ view_id: view.id, view: result }).catch((error: unknown) => {
      ctx.logger.warn({ err: error }, 'could not show the records check');
    });
  });

  router.action<BlockAction<ButtonAction>>(RECORDS.exceptionsFile, async ({ ack, body, action, client, context, respond }) => {
    await ack();
    const userId = body.user.id;
    const surface = await readerSurfaceOf(context, userId)();
    const t = textsFor(surface.locale);
    const answer = (text: string) => respond(privateNotice(surface, text, { replaceOriginal: false }));
    if (!(await ctx.access.allows(ctx.accessLists.viewers, userId))) {
      await answer(t('access.noViewer'));
      return;
    }
    await answer(await sendRunFile(ctx, client, surface, userId, action.value ?? '', isDirectMessage(body.channel?.id)));
  });
}

async function checkRecords(ctx: SlackContext, client: WebClient, surface: Surface, userId: string, fileId: string, sourceKey: string): Promise<ModalView> {
  const t = textsFor(surface.locale);
  const records = ctx.records!;
  const file = await readChosenFile(client, fileId, records.settings.maxBytes);
  if (!file.ok) {
    if (file.problem === 'unavailable') {
      ctx.logger.warn({ code: file.code }, 'could not read a records file from Slack');
      return recordsNoticeModal(surface, t('records.problem.unavailable', { code: safeCode(file.code) }));
    }
    if (file.problem === 'not_on_slack') {
      ctx.logger.warn("a records file's private URL names a host other than Slack's: not downloaded, no token sent");
      return recordsNoticeModal(surface, t('records.problem.not_on_slack', { name: quotedName(file.name) }));
    }
    if (file.problem === 'too_large')
      return recordsNoticeModal(surface, describeRecordsProblem(surface.locale, { code: 'file_too_large', maxBytes: records.settings.maxBytes }));
    return recordsNoticeModal(surface, t('records.problem.not_csv', { name: quotedName(file.name) }));
  }
  const outcome = await records.check({ userId, fileName: file.name, content: file.bytes, sourceKey });
  if (!outcome.ok) return recordsNoticeModal(surface, describeRecordsProblem(surface.locale, outcome.problem));
  const { run } = outcome;
  const lastPollAt = run.gap === 'behind' ? (await ctx.ledger?.status())?.lastPollAt : undefined;
  const about = { run, timeZone: ctx.ledgerTimeZone, lastPollAt };
  // A submission delivered again shows its result without sending the DM twice.
  const fileOutcome = run.kept ? await sendResult(ctx, client, surface, userId, run, lastPollAt) : outcomeOf(run);
  ctx.logger.info({ userId, run: run.summary.id, records: run.summary.records, exceptions: run.exceptions.length, gap: run.gap }, 'records checked');
  return buildRecordsResultModal(surface, { ...about, file: fileOutcome });
}

const outcomeOf = (run: RecordsRun): ExceptionsFileOutcome => (run.exceptions.length === 0 ? { none: true } : { sent: exceptionsFileName(run.summary) });

/** The summary in the person's DM, then the exceptions file (when there are any). */
async function sendResult(
  ctx: SlackContext,
  client: WebClient,
  surface: Surface,
  userId: string,
  run: RecordsRun,
  lastPollAt: Date | undefined,
): Promise<ExceptionsFileOutcome> {
  const planned = outcomeOf(run);
  try {
    const message = buildRecordsResultMessage(surface, { run, timeZone: ctx.ledgerTimeZone, file: planned, lastPollAt });
    const opened = await client.conversations.open({ users: userId });
    const channel = opened.channel?.id;
    if (!channel) throw new FileUploadError('complete', 'channel_not_found');
    await client.chat.postMessage({ channel, text: message.text, blocks: message.blocks, unfurl_links: false });
    if ('none' in planned) return planned;
    await sendExceptions(ctx, client, surface, userId, run.summary, run.exceptions);
    return planned;
  } catch (error) {
    const slackError = (error as { data?: { error?: unknown } } | undefined)?.data?.error;
    const code = error instanceof FileUploadError ? error.code : typeof slackError === 'string' ? slackError : 'unknown_error';
    ctx.logger.warn({ err: error, code }, 'could not send a records check to the person');
    return { failed: safeCode(code) };
  }
}

/** The exceptions file in the person's DM; every text cell neutralised against spreadsheet formulas and the amounts left numbers, as in the export. */
async function sendExceptions(
  ctx: SlackContext,
  client: WebClient,
  surface: Surface,
  userId: string,
  summary: RunSummary,
  exceptions: readonly ExceptionRow[],
): Promise<string> {
  const t = textsFor(surface.locale);
  const filename = exceptionsFileName(summary);
  await sendCsvToPerson(client, userId, {
    filename,
    title: t('records.fileTitle'),
    comment: t('records.result.run', { id: summary.id }),
    text: await exceptionsFileText(exceptions, ctx.turns),
  });
  return filename;
}

/** A DM's channel id: there the answer is read beside the file it sent. */
const isDirectMessage = (channelId: string | undefined): boolean => (channelId ?? '').startsWith('D');

/** A kept run's exceptions file, written again from its stored rows and sent to the person; what to tell them, where they read it. */
async function sendRunFile(ctx: SlackContext, client: WebClient, surface: Surface, userId: string, id: string, inDm: boolean): Promise<string> {
  const t = textsFor(surface.locale);
  const found = await ctx.records?.run(id);
  const shownId = id.replace(/[^\w-]/g, '').slice(0, 12);
  if (!found) return t('records.history.unknown', { id: `\`${shownId}\`` });
  if (found.exceptions.length === 0) return t('records.history.noExceptions', { id: found.summary.id });
  try {
    const file = await sendExceptions(ctx, client, surface, userId, found.summary, found.exceptions);
    return t(inDm ? 'records.history.sentAbove' : 'records.history.sent', { id: found.summary.id, file: `\`${file}\`` });
  } catch (error) {
    const code = error instanceof FileUploadError ? error.code : 'unknown_error';
    ctx.logger.warn({ err: error, code }, "could not send a records check's exceptions file again");
    return t('records.result.fileFailed', { code: safeCode(code) });
  }
}

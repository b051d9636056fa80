/**
 * `/fleet reconcile` (French `rapprochement`): the form with a CSV file input and the import profile
 * to read it with (`profile:name`, or picked by the file's header), acknowledged at once with a
 * "checking…" screen, then the file read with the bulk file's download rules and previewed as the
 * profile reads it. The preview's button downloads it again, matches it against the ledger, and shows
 * the summary in the modal and in the person's DM with the exceptions file. `/fleet reconcile history`
 * lists the last runs, and their button sends a run's file again. Viewers only, checked again on every
 * submission before any file is read.
 */
import { randomUUID } from 'node:crypto';
import type { BlockAction, ButtonAction, ViewSubmitAction } from '@slack/bolt';
import type { WebClient } from '@slack/web-api';
import type { ModalView } from '@slack/types';
import { textsFor } from '../../i18n/index.js';
import type { ExceptionRow, RecordsRun, RunSummary } from '../../partner-records/index.js';
import { filterPair, tokenize } from '../../ledger/query-text.js';
import type { SlackContext } from '../context.js';
import type { ListenerRouter } from '../transport/listener-router.js';
import { downloadRecords, isModal, previewView, savedOrDefault } from '../files/records-file.js';
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
  profileOfSelect,
  recordsNoticeModal,
  type ExceptionsFileOutcome,
} from '../views/partner-records.js';
import { decodePreviewMetadata } from '../views/records-preview.js';
import { codeSpan, type Surface } from '../views/text.js';

/** The words after `/fleet reconcile` that list the history. */
const HISTORY_WORDS: ReadonlySet<string> = new Set(['history', 'historique']);
const HISTORY_SHOWN = 10;

/** The words that name a saved profile: `/fleet reconcile profile:tmb` (`profil:tmb`). */
const PROFILE_WORDS: ReadonlySet<string> = new Set(['profile', 'profil']);

const safeCode = (code: string) => code.replace(/[^\w.-]/g, '').slice(0, 60);

/** The profile named after `/fleet reconcile`, if any (quoted when it holds spaces: `profile:"Bank TMB"`). */
export function namedProfile(args: readonly string[]): string | undefined {
  for (const token of tokenize(args.join(' '))) {
    const pair = token.phrase ? undefined : filterPair(token.text);
    if (pair && PROFILE_WORDS.has(pair.key) && pair.value !== '') return pair.value.slice(0, 80);
  }
  return undefined;
}

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
      // One query on the app's own database: the trigger id is still fresh after it.
      const names = (await ctx.records.profiles.list()).map(({ profile }) => profile.name);
      const chosen = namedProfile(args);
      const known = chosen === undefined ? undefined : names.find((name) => name.toLowerCase() === chosen.toLowerCase());
      if (chosen !== undefined && known === undefined) {
        const name = codeSpan(chosen, 40);
        await reply(
          names.length === 0
            ? t('records.profile.noneSaved', { name })
            : t('records.profile.unknown', { name, names: names.map((saved) => codeSpan(saved, 40)).join(', ') }),
        );
        return;
      }
      await client.views.open({
        trigger_id: command.trigger_id,
        view: buildRecordsUploadModal(
          surface,
          { maxRows: settings.maxRows, maxBytes: settings.maxBytes, toleranceDays: settings.toleranceDays, timeZone: ctx.ledgerTimeZone },
          { names, ...(known === undefined ? {} : { chosen: known }) },
        ),
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
    const profileName = profileOfSelect(view.state.values[RECORDS.profileBlock]?.[RECORDS.input]?.selected_option?.value);
    // Reading may take longer than Slack's 3 seconds: the person sees "checking…" meanwhile.
    await inFileCheck(ctx, ack, client, surface, userId, view.id, () => previewRecords(ctx, client, surface, userId, fileId, profileName));
  });

  // The preview's button: the same file, downloaded again, read with the same profile and matched.
  router.view<ViewSubmitAction>(RECORDS.previewView, async ({ ack, body, view, client, context }) => {
    const userId = body.user.id;
    const surface = await readerSurfaceOf(context, userId)();
    const t = textsFor(surface.locale);
    if (!(await ctx.access.allows(ctx.accessLists.viewers, userId))) {
      await ack({ response_action: 'update', view: recordsNoticeModal(surface, t('access.noViewer')) });
      return;
    }
    const metadata = decodePreviewMetadata(view.private_metadata);
    if (!ctx.records || !metadata) {
      await ack({ response_action: 'update', view: recordsNoticeModal(surface, t('records.unavailable')) });
      return;
    }
    await inFileCheck(ctx, ack, client, surface, userId, view.id, () =>
      checkRecords(ctx, client, surface, userId, metadata.file, metadata.profile, `${view.id}:${metadata.file}`),
    );
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

type SubmissionAck = (answer: { response_action: 'update'; view: ModalView }) => Promise<void>;

/**
 * Runs `work` in the person's one file check: acknowledged with "checking…" (or with "wait" while a
 * check of theirs runs), then the modal updated with what `work` shows, or with an incident.
 */
async function inFileCheck(
  ctx: SlackContext,
  ack: SubmissionAck,
  client: WebClient,
  surface: Surface,
  userId: string,
  viewId: string,
  work: () => Promise<ModalView>,
): Promise<void> {
  const t = textsFor(surface.locale);
  const release = ctx.fileChecks.take(userId);
  if (!release) {
    await ack({ response_action: 'update', view: recordsNoticeModal(surface, t('common.fileCheckBusy')) });
    return;
  }
  let result: ModalView;
  try {
    await ack({ response_action: 'update', view: buildRecordsChecking(surface) });
    result = await work();
  } catch (error) {
    const incident = randomUUID().slice(0, 8);
    ctx.logger.error({ err: error, incident }, 'could not check a records file');
    result = recordsNoticeModal(surface, t('records.failed', { incident }));
  } finally {
    release();
  }
  await client.views.update({ view_id: viewId, view: result }).catch((error: unknown) => {
    ctx.logger.warn({ err: error }, 'could not show the records check');
  });
}

/** Downloads the file, picks its profile (the one named, else by its header), and shows it as read. */
async function previewRecords(
  ctx: SlackContext,
  client: WebClient,
  surface: Surface,
  userId: string,
  fileId: string,
  profileName: string | undefined,
): Promise<ModalView> {
  const records = ctx.records!;
  const file = await downloadRecords(ctx, client, surface, fileId);
  if (isModal(file)) return file;
  const pick = await records.pick(file.bytes, profileName);
  if (!pick.ok) return recordsNoticeModal(surface, textsFor(surface.locale)('records.profile.gone', { name: codeSpan(pick.unknown, 40) }));
  const shown = await previewView(ctx, client, surface, userId, file, fileId, { profile: pick.profile, by: pick.by });
  ctx.logger.info({ userId, profile: pick.by }, 'records file previewed');
  return shown;
}

/** Downloads the file again, reads it with the profile the preview used, matches it, and sends the result. */
async function checkRecords(
  ctx: SlackContext,
  client: WebClient,
  surface: Surface,
  userId: string,
  fileId: string,
  profileName: string | null,
  sourceKey: string,
): Promise<ModalView> {
  const records = ctx.records!;
  const profile = await savedOrDefault(ctx, surface, profileName);
  if (isModal(profile)) return profile;
  const file = await downloadRecords(ctx, client, surface, fileId);
  if (isModal(file)) return file;
  const outcome = await records.check({ userId, fileName: file.name, content: file.bytes, sourceKey, profile });
  if (!outcome.ok) return recordsNoticeModal(surface, describeRecordsProblem(surface.locale, outcome.problem, profile));
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

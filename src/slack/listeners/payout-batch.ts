/**
 * `/fleet payout bulk`: the form with a file input (CSV, text or .xlsx; its encoding chosen) or rows pasted, acknowledged at once with a
 * "checking…" screen, then updated with the file's check: its summary, or its problems (the first
 * ones in the modal, every one in a CSV sent to the person's DM). A refused file stores nothing.
 */
import { randomUUID } from 'node:crypto';
import type { ViewOutput, ViewSubmitAction } from '@slack/bolt';
import type { WebClient } from '@slack/web-api';
import type { ModalView } from '@slack/types';
import { BATCH_FILE_ENCODINGS, BATCH_FILE_MAX_BYTES, BATCH_ID_PATTERN, type BatchCheck, type BatchFileEncoding } from '../../payouts/index.js';
import { textsFor } from '../../i18n/index.js';
import { batchRefusalText, describeFileProblem, describeRowProblem } from '../refusals/batch-problems.js';
import { readChosenFile } from '../files/batch-file-source.js';
import type { SlackContext } from '../context.js';
import { openThenFill, type ModalOrRefusal } from '../open-then-fill.js';
import type { ListenerRouter } from '../transport/listener-router.js';
import { readerSurfaceOf } from '../transport/middleware.js';
import type { Subcommand } from '../subcommands.js';
import { csvText, sendCsvToPerson } from '../files/csv-to-person.js';
import { failureText } from '../refusals/failures.js';
import { FileUploadError } from '../files/file-upload.js';
import { PAYOUT_BATCH, PAYOUT_BATCH_ACTIONS } from '../ids.js';
import { refusalText } from '../refusals/payout-refusals.js';
import { loadingModal, noticeModal, noticeUpdate, privateNotice } from '../views/notice.js';
import { buildBatchChecking, buildBatchResult, inBatchModal, buildBatchUploadModal, type ErrorsFileOutcome } from '../views/payout-batch.js';
import { mentionChannel, type Surface } from '../views/text.js';

/** The words after `/fleet payout` (or `/fleet virement`) that open the bulk form. */
export const BULK_WORDS: ReadonlySet<string> = new Set(['bulk', 'groupé', 'groupe', 'groupés', 'groupes']);

/** Opens the bulk form for `/fleet payout bulk`, after the same checks as the single payout form. */
export function openBatchForm(ctx: SlackContext) {
  return async ({ command, respond, client, readerSurface }: Parameters<Subcommand['run']>[0]): Promise<void> => {
    let surface = ctx.surface;
    // The requester check may ask Slack for user-group members: a loading view opens first when it is slow.
    const lookups = async (): Promise<ModalOrRefusal> => {
      surface = await readerSurface();
      if (!ctx.payoutSettings.approvalChannelId) return { refusal: textsFor(surface.locale)('payoutRequest.notConfigured') };
      const decision = await ctx.payouts.mayRequest(command.user_id);
      return decision.ok ? { view: buildBatchUploadModal(surface, ctx.batches.maxRows) } : { refusal: refusalText(decision, surface.locale) };
    };
    try {
      const refused = await openThenFill(client, command.trigger_id, lookups(), {
        loading: () => {
          const { title, callbackId } = inBatchModal(surface);
          return loadingModal(surface, title, callbackId);
        },
        refusal: (text) => noticeModal(surface, { ...inBatchModal(surface), text }),
        failure: (error) => noticeModal(surface, { ...inBatchModal(surface), text: failureText(surface.locale, error, 'openPayoutForm', ctx.logger) }),
      });
      if (refused) await respond(privateNotice(surface, refused.refusal));
    } catch (error) {
      await respond(privateNotice(surface, failureText(surface.locale, error, 'openPayoutForm', ctx.logger)));
    }
  };
}

type Chosen = ({ fileId: string } | { pasted: string }) & { encoding?: BatchFileEncoding };

/** The file chosen or the rows pasted; a problem for the form when neither or both. */
function chosenInput(view: ViewOutput): Chosen | { missing: 'payoutBatch.nothingChosen' | 'payoutBatch.bothChosen' } {
  const files = view.state.values[PAYOUT_BATCH.fileBlock]?.[PAYOUT_BATCH.input]?.files ?? [];
  const pasted = (view.state.values[PAYOUT_BATCH.pasteBlock]?.[PAYOUT_BATCH.input]?.value ?? '').trim();
  const fileId = files[0]?.id;
  const selected = view.state.values[PAYOUT_BATCH.encodingBlock]?.[PAYOUT_BATCH.input]?.selected_option?.value;
  const encoding = BATCH_FILE_ENCODINGS.find((known) => known === selected);
  if (fileId && pasted !== '') return { missing: 'payoutBatch.bothChosen' };
  if (fileId) return { fileId, ...(encoding ? { encoding } : {}) };
  if (pasted !== '') return { pasted };
  return { missing: 'payoutBatch.nothingChosen' };
}

export function registerPayoutBatchListeners(router: ListenerRouter, ctx: SlackContext): void {
  router.view<ViewSubmitAction>(PAYOUT_BATCH.readyView, async ({ ack, body, view, context }) => {
    const surface = await readerSurfaceOf(context, body.user.id)();
    const t = textsFor(surface.locale);
    const confirmedDuplicate = (view.state.values[PAYOUT_BATCH_ACTIONS.confirmSameBlock]?.[PAYOUT_BATCH.input]?.selected_options ?? []).length > 0;
    // private_metadata only names the draft: the service checks who submits it and everything else again.
    const batchId = BATCH_ID_PATTERN.test(view.private_metadata) ? view.private_metadata : '';
    let answer: ModalView;
    try {
      const result = await ctx.batches.submit(body.user.id, batchId, { confirmedDuplicate });
      // With the tick box on screen, ask for the tick; without it (a repeat landed after the check), say so.
      const tickOnScreen = view.blocks.some((block) => block.block_id === PAYOUT_BATCH_ACTIONS.confirmSameBlock);
      if (!result.ok && result.code === 'duplicate_unconfirmed' && tickOnScreen) {
        await ack({ response_action: 'errors', errors: { [PAYOUT_BATCH_ACTIONS.confirmSameBlock]: t('payoutBatch.confirmSameRequired') } });
        return;
      }
      answer = result.ok
        ? noticeModal(surface, {
            ...inBatchModal(surface),
            text: t('payoutBatch.submitted', { id: result.batch.id, channel: mentionChannel(ctx.payoutSettings.approvalChannelId ?? '') }),
          })
        : noticeModal(surface, { ...inBatchModal(surface), text: `:no_entry: ${batchRefusalText(surface.locale, result)}` });
    } catch (error) {
      answer = noticeModal(surface, { ...inBatchModal(surface), text: failureText(surface.locale, error, 'storePayoutRequest', ctx.logger) });
    }
    await ack({ response_action: 'update', view: answer });
  });

  router.view<ViewSubmitAction>(PAYOUT_BATCH.uploadView, async ({ ack, body, view, client, context }) => {
    const surface = await readerSurfaceOf(context, body.user.id)();
    const chosen = chosenInput(view);
    if ('missing' in chosen) {
      await ack({ response_action: 'errors', errors: { [PAYOUT_BATCH.fileBlock]: textsFor(surface.locale)(chosen.missing) } });
      return;
    }
    const release = ctx.fileChecks.take(body.user.id);
    if (!release) {
      await ack(noticeUpdate(surface, { ...inBatchModal(surface), text: textsFor(surface.locale)('common.fileCheckBusy') }));
      return;
    }
    let result: ModalView;
    try {
      // Reading and checking may take longer than Slack's 3 seconds: the person sees "checking…" meanwhile.
      await ack({ response_action: 'update', view: buildBatchChecking(surface) });
      result = await checkChosen(ctx, client, surface, body.user.id, chosen);
    } catch (error) {
      const incident = randomUUID().slice(0, 8);
      ctx.logger.error({ err: error, incident }, 'could not check a bulk payout file');
      result = noticeModal(surface, { ...inBatchModal(surface), text: textsFor(surface.locale)('payoutBatch.failed', { incident }) });
    } finally {
      release();
    }
    // The screen's hash after an acknowledgement's update is not given to the app: the view id alone names it.
    await client.views.update({ view_id: view.id, view: result }).catch((error: unknown) => {
      ctx.logger.warn({ err: error }, 'could not show the check of a bulk payout file');
    });
  });
}

async function checkChosen(ctx: SlackContext, client: WebClient, surface: Surface, userId: string, chosen: Chosen): Promise<ModalView> {
  const t = textsFor(surface.locale);
  const decision = await ctx.payouts.mayRequest(userId);
  if (!decision.ok) return noticeModal(surface, { ...inBatchModal(surface), text: refusalText(decision, surface.locale) });
  let content: Uint8Array | string;
  let fileName: string | undefined;
  if ('fileId' in chosen) {
    const file = await readChosenFile(client, chosen.fileId, BATCH_FILE_MAX_BYTES);
    if (!file.ok) {
      if (file.problem === 'unavailable') {
        ctx.logger.warn({ code: file.code }, 'could not read a bulk payout file from Slack');
        return noticeModal(surface, { ...inBatchModal(surface), text: t('payoutBatch.unavailable', { code: file.code.replace(/[^\w.-]/g, '').slice(0, 60) }) });
      }
      if (file.problem === 'not_on_slack') {
        ctx.logger.warn("a bulk payout file's private URL names a host other than Slack's: not downloaded, no token sent");
        return noticeModal(surface, {
          ...inBatchModal(surface),
          text: t('payoutBatch.notOnSlack', { name: `\`${file.name.replace(/[`<>&]/g, '_').slice(0, 80)}\`` }),
        });
      }
      if (file.problem === 'too_large')
        return noticeModal(surface, {
          ...inBatchModal(surface),
          text: describeFileProblem(surface.locale, { code: 'file_too_large', maxBytes: BATCH_FILE_MAX_BYTES }),
        });
      return noticeModal(surface, {
        ...inBatchModal(surface),
        text: t('payoutBatch.notCsv', { name: `\`${file.name.replace(/[`<>&]/g, '_').slice(0, 80)}\`` }),
      });
    }
    content = file.bytes;
    fileName = file.name;
  } else {
    content = chosen.pasted;
  }
  // Pasted rows are text already: an encoding only applies to a file's bytes.
  const checked = await ctx.batches.check(userId, content, {
    ...(fileName === undefined ? {} : { fileName }),
    ...(chosen.encoding === undefined ? {} : { encoding: chosen.encoding }),
  });
  if (!checked.ok) return noticeModal(surface, { ...inBatchModal(surface), text: describeFileProblem(surface.locale, checked.problem) });
  if (checked.check.problems.length > 0)
    return buildBatchResult(surface, checked.check, await sendErrors(ctx, client, surface, userId, checked.batchId, checked.check));
  return buildBatchResult(surface, checked.check, undefined, { batchId: checked.batchId });
}

/** Every problem of the file as a CSV in the person's DM. */
async function sendErrors(
  ctx: SlackContext,
  client: WebClient,
  surface: Surface,
  userId: string,
  batchId: string,
  check: BatchCheck,
): Promise<ErrorsFileOutcome> {
  const t = textsFor(surface.locale);
  const filename = `${batchId.toLowerCase()}-problems.csv`;
  const rows = check.problems.map((entry) => [String(entry.rowNumber), entry.column ?? '', describeRowProblem(surface.locale, entry.problem, entry.column)]);
  try {
    await sendCsvToPerson(client, userId, {
      filename,
      title: t('payoutBatch.errorsFileTitle'),
      comment: t('payoutBatch.errorsFileComment', { count: check.problems.length }),
      text: csvText([t('payoutBatch.csv.row'), t('payoutBatch.csv.column'), t('payoutBatch.csv.problem')], rows),
    });
    return { sent: filename };
  } catch (error) {
    const code = error instanceof FileUploadError ? error.code : 'unknown_error';
    ctx.logger.warn({ err: error, code }, 'could not send the problems of a bulk payout file');
    return { failed: code.replace(/[^\w.-]/g, '').slice(0, 60) };
  }
}

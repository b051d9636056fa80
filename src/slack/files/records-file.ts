/**
 * A records file as `/fleet reconcile` and the profile builder read it: downloaded from Slack by its
 * id (the bulk file's download rules), its profile by name, and its preview as a profile reads it,
 * with the full list of problems sent to the person's DM when the modal cannot hold it.
 */
import type { WebClient } from '@slack/web-api';
import type { ModalView } from '@slack/types';
import { textsFor } from '../../i18n/index.js';
import { defaultProfile, type ImportProfile } from '../../partner-records/index.js';
import type { SlackContext } from '../context.js';
import { describeTableFileProblem } from '../refusals/table-file-problems.js';
import { recordsNoticeModal } from '../views/partner-records.js';
import {
  buildRecordsPreviewModal,
  encodePreviewMetadata,
  packProblems,
  problemLines,
  type PreviewProfile,
  type RecordsPreviewView,
} from '../views/records-preview.js';
import { codeSpan, type Surface } from '../views/text.js';
import { readChosenFile } from './batch-file-source.js';
import { csvText, sendCsvToPerson } from './csv-to-person.js';
import { FileUploadError } from './file-upload.js';

const safeCode = (code: string) => code.replace(/[^\w.-]/g, '').slice(0, 60);
const quotedName = (name: string) => `\`${name.replace(/[`<>&]/g, '_').slice(0, 80)}\``;

/** The file from Slack, or the notice that says why not. */
export async function downloadRecords(
  ctx: SlackContext,
  client: WebClient,
  surface: Surface,
  fileId: string,
): Promise<{ bytes: Uint8Array; name: string } | ModalView> {
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
      return recordsNoticeModal(surface, describeTableFileProblem(surface.locale, { code: 'file_too_large', maxBytes: records.settings.maxBytes }, 'records'));
    return recordsNoticeModal(surface, t('records.problem.not_csv', { name: quotedName(file.name) }));
  }
  return { bytes: file.bytes, name: file.name };
}

/** The saved profile of that name, the built-in one for null, or the notice that it is gone. */
export async function savedOrDefault(ctx: SlackContext, surface: Surface, name: string | null): Promise<ImportProfile | ModalView> {
  if (name === null) return defaultProfile(ctx.ledgerTimeZone);
  const saved = await ctx.records!.profiles.byName(name);
  return saved?.profile ?? recordsNoticeModal(surface, textsFor(surface.locale)('records.profile.gone', { name: codeSpan(name, 40) }));
}

export const isModal = (value: object): value is ModalView => 'type' in value && value.type === 'modal';

/**
 * The preview of `file` read with `profile`; the full list of problems sent to the person's DM when
 * the modal cannot hold it. The builder's submission shows its new profile's preview through it too.
 */
export async function previewView(
  ctx: SlackContext,
  client: WebClient,
  surface: Surface,
  userId: string,
  file: { bytes: Uint8Array; name: string },
  fileId: string,
  picked: { profile: ImportProfile; by: PreviewProfile['by'] },
): Promise<ModalView> {
  const { profile, by } = picked;
  const preview = await ctx.records!.preview(file.bytes, profile);
  const saved = by !== 'default';
  const view: RecordsPreviewView = {
    fileName: file.name,
    profile: { name: profile.name, by, saved, hints: profile },
    preview,
    privateMetadata: encodePreviewMetadata({ file: fileId, profile: saved ? profile.name : null }),
  };
  if (preview.ok && preview.problems.length > 0) {
    const lines = problemLines(surface, preview.problems, profile);
    if (packProblems(lines).shown < lines.length) view.problemsFile = await sendProblems(ctx, client, surface, userId, preview.problems, lines);
  }
  return buildRecordsPreviewModal(surface, view);
}

const PROBLEMS_FILE = 'fleet-records-problems.csv';

/** Every listed problem as a CSV file in the person's DM: row, column, what was found, the problem in words. */
async function sendProblems(
  ctx: SlackContext,
  client: WebClient,
  surface: Surface,
  userId: string,
  problems: ReadonlyArray<{ row: number; column: string; position: number; found: string }>,
  lines: readonly string[],
): Promise<{ sent: string } | { failed: string }> {
  const t = textsFor(surface.locale);
  const rows = problems.map((problem, index) => [
    String(problem.row),
    problem.column === '' && problem.position > 0 ? String(problem.position) : problem.column,
    problem.found,
    (lines[index] ?? '').replace(/^• /, ''),
  ]);
  try {
    await sendCsvToPerson(client, userId, {
      filename: PROBLEMS_FILE,
      title: t('records.preview.problemsFileTitle'),
      comment: t('records.preview.problemsFileComment'),
      text: csvText(['row', 'column', 'found', 'problem'], rows),
    });
    return { sent: PROBLEMS_FILE };
  } catch (error) {
    const code = error instanceof FileUploadError ? error.code : 'unknown_error';
    ctx.logger.warn({ err: error, code }, "could not send a records file's problems to the person");
    return { failed: safeCode(code) };
  }
}

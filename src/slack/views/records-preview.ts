/**
 * `/fleet reconcile`'s preview: the file as its import profile reads it, before anything is matched.
 * The profile used and how it was picked, the first records as read (money out shown as such), the
 * counts, the rows left out by status and every problem of every row as far as the modal holds them;
 * the match button only when there is no problem. Its metadata names the file and the profile.
 */
import type { Button, KnownBlock, ModalView } from '@slack/types';
import { z } from 'zod';
import { textsFor } from '../../i18n/index.js';
import { formatMinor } from '../../core/money.js';
import type { ProfileRowProblem, RecordsPreview } from '../../partner-records/index.js';
import { RECORDS } from '../ids.js';
import { describeRecordsProblem, describeRowProblem, type ProfileHints } from '../refusals/partner-records-problems.js';
import { codeSpan, cutMrkdwn, escapeWithin, plainText, sandboxFooter, type Surface } from './text.js';

/** What the preview's metadata carries back: the Slack file, and the saved profile's name (null: the built-in one). */
export const PREVIEW_METADATA = z.object({ file: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/), profile: z.string().min(1).max(40).nullable() });
export type PreviewMetadata = z.infer<typeof PREVIEW_METADATA>;

export const encodePreviewMetadata = (metadata: PreviewMetadata): string => JSON.stringify(metadata);

/** The metadata as the modal gave it back, or undefined when it does not read as the app wrote it. */
export function decodePreviewMetadata(text: string | undefined): PreviewMetadata | undefined {
  try {
    const read = PREVIEW_METADATA.safeParse(JSON.parse(text ?? ''));
    return read.success ? read.data : undefined;
  } catch {
    return undefined;
  }
}

/** Characters of problems the modal shows at most; the full list goes to the person's DM beyond. */
export const MODAL_PROBLEM_CHARS = 24_000;
const SECTION_CHARS = 3000;
const LEFT_OUT_STATUSES = 10;
const LEFT_OUT_ROWS = 10;

export interface PreviewProfile {
  name: string;
  /** How it was picked: named (in the command or the form), by the file's header, or the built-in one. */
  by: 'name' | 'header' | 'default';
  /** A saved profile (it can be edited); false for the built-in one. */
  saved: boolean;
  hints: ProfileHints;
}

export interface RecordsPreviewView {
  fileName: string;
  profile: PreviewProfile;
  preview: RecordsPreview;
  privateMetadata: string;
  /** The full list of problems sent to the person's DM (the file's name), or not (Slack's code). */
  problemsFile?: { sent: string } | { failed: string };
}

/** Each problem in words, one line each. */
export function problemLines(surface: Surface, problems: readonly ProfileRowProblem[], hints: ProfileHints): string[] {
  return problems.map((problem) => `• ${describeRowProblem(surface.locale, problem, hints)}`);
}

/** The lines packed into sections of at most 3000 characters, as many as `budget` characters hold; `shown` says how many. */
export function packProblems(lines: readonly string[], budget: number = MODAL_PROBLEM_CHARS): { sections: string[]; shown: number } {
  const sections: string[] = [];
  let current = '';
  let used = 0;
  let shown = 0;
  for (const line of lines) {
    const piece = cutMrkdwn(line, SECTION_CHARS);
    if (used + piece.length + 1 > budget) break;
    if (current !== '' && current.length + 1 + piece.length > SECTION_CHARS) {
      sections.push(current);
      current = '';
    }
    current = current === '' ? piece : `${current}\n${piece}`;
    used += piece.length + 1;
    shown += 1;
  }
  if (current !== '') sections.push(current);
  return { sections, shown };
}

const section = (text: string): KnownBlock => ({ type: 'section', text: { type: 'mrkdwn', text: cutMrkdwn(text, SECTION_CHARS) } });

function profileLine(surface: Surface, fileName: string, profile: PreviewProfile): string {
  const t = textsFor(surface.locale);
  const name = codeSpan(profile.name, 40);
  const how = t(profile.by === 'name' ? 'records.preview.byName' : profile.by === 'header' ? 'records.preview.byHeader' : 'records.preview.byDefault');
  return t('records.preview.profile', { file: escapeWithin(fileName, 100, { oneLine: true }), profile: name, how });
}

function leftOutText(surface: Surface, leftOut: ReadonlyArray<{ row: number; status: string }>): string {
  const t = textsFor(surface.locale);
  const byStatus = new Map<string, number[]>();
  for (const { row, status } of leftOut) byStatus.set(status, [...(byStatus.get(status) ?? []), row]);
  const lines = [t('records.preview.leftOutTitle')];
  for (const [status, rows] of [...byStatus].slice(0, LEFT_OUT_STATUSES)) {
    const listed = rows.slice(0, LEFT_OUT_ROWS).join(', ') + (rows.length > LEFT_OUT_ROWS ? ', …' : '');
    lines.push(
      t('records.preview.leftOutLine', { status: status === '' ? t('records.preview.noStatus') : codeSpan(status, 40), count: rows.length, rows: listed }),
    );
  }
  if (byStatus.size > LEFT_OUT_STATUSES) lines.push(t('records.preview.leftOutMore', { count: byStatus.size - LEFT_OUT_STATUSES }));
  return lines.join('\n');
}

function buttons(surface: Surface, profile: PreviewProfile): KnownBlock {
  const t = textsFor(surface.locale);
  const elements: Button[] = [{ type: 'button', action_id: RECORDS.makeProfile, text: plainText(t('records.preview.makeProfile'), 75) }];
  if (profile.saved) elements.push({ type: 'button', action_id: RECORDS.editProfile, text: plainText(t('records.preview.editProfile'), 75) });
  return { type: 'actions', elements };
}

/** The preview modal; with a problem (of the file or of any row) it has no match button. */
export function buildRecordsPreviewModal(surface: Surface, view: RecordsPreviewView): ModalView {
  const t = textsFor(surface.locale);
  const { preview, profile } = view;
  const blocks: KnownBlock[] = [section(profileLine(surface, view.fileName, profile))];
  let matchable = false;
  if (!preview.ok) {
    blocks.push(section(describeRecordsProblem(surface.locale, preview.problem, { ...profile.hints, name: profile.name })));
  } else {
    const problemCount = preview.problems.length + preview.moreProblems;
    blocks.push(
      section(
        [
          t('records.preview.read', { count: preview.records }),
          t('records.preview.leftOut', { count: preview.leftOut.length }),
          t('records.preview.problems', { count: problemCount }),
        ].join('\n'),
      ),
    );
    if (preview.first.length > 0) {
      const rows = preview.first.map((record) =>
        t('records.preview.row', {
          row: record.row,
          date: codeSpan(record.date, 40),
          amount: formatMinor(record.amountMinor, record.currency, { locale: surface.locale, signed: true }),
          direction: t(record.amountMinor < 0 ? 'records.preview.out' : 'records.preview.in'),
          reference: record.reference === '' ? t('records.preview.noReference') : codeSpan(record.reference, 60),
        }),
      );
      blocks.push(section([t('records.preview.firstRows', { count: preview.first.length }), ...rows].join('\n')));
    }
    if (preview.leftOut.length > 0) blocks.push(section(leftOutText(surface, preview.leftOut)));
    if (problemCount > 0) {
      const { sections, shown } = packProblems(problemLines(surface, preview.problems, profile.hints));
      blocks.push(section(t('records.preview.problemsTitle', { count: problemCount })), ...sections.map(section));
      const notes: string[] = [];
      if (problemCount > shown) notes.push(t('records.preview.problemsMore', { count: problemCount - shown }));
      if (view.problemsFile && 'sent' in view.problemsFile) notes.push(t('records.preview.problemsFile', { file: codeSpan(view.problemsFile.sent, 100) }));
      if (view.problemsFile && 'failed' in view.problemsFile) notes.push(t('records.preview.problemsFileFailed', { code: view.problemsFile.failed }));
      if (notes.length > 0) blocks.push(section(notes.join('\n')));
    } else if (preview.records === 0) {
      blocks.push(
        section(describeRecordsProblem(surface.locale, { code: 'file_no_records', leftOut: preview.leftOut.length }, { ...profile.hints, name: profile.name })),
      );
    } else {
      matchable = true;
      blocks.push({ type: 'context', elements: [{ type: 'mrkdwn', text: t('records.preview.ready') }] });
    }
  }
  blocks.push(buttons(surface, profile), ...sandboxFooter(surface));
  return {
    type: 'modal',
    callback_id: RECORDS.previewView,
    title: plainText(t('records.preview.title'), 24),
    ...(matchable ? { submit: plainText(t('records.preview.submit'), 24) } : {}),
    close: plainText(t('records.close'), 24),
    private_metadata: view.privateMetadata,
    blocks,
  };
}

/** `/fleet reconcile`: the form with its file input, the "checking…" screen, a run's summary (modal and DM) and the history of runs. */
import type { KnownBlock, ModalView } from '@slack/types';
import { textsFor } from '../../i18n/index.js';
import { formatMinor } from '../../core/money.js';
import {
  EXCEPTION_AMOUNT_COLUMNS,
  EXCEPTION_COLUMNS,
  exceptionCells,
  type ExceptionRow,
  type LedgerGap,
  type RecordsRun,
  type RunSummary,
} from '../../partner-records/index.js';
import type { BackgroundTurns } from '../../runtime/turns.js';
import { csvTextInSlices } from '../files/csv-to-person.js';
import { RECORDS } from '../ids.js';
import { mebibytes } from '../refusals/table-file-problems.js';
import { noticeModal, type Reply } from './notice.js';
import { codeSpan, cutMrkdwn, escapeWithin, mentionUser, plainText, sandboxFooter, sandboxMarked, type Surface } from './text.js';
import { slackDate } from './dates.js';

export interface RecordsFormLimits {
  maxRows: number;
  maxBytes: number;
  toleranceDays: number;
  /** LEDGER_TIMEZONE. */
  timeZone: string;
}

/** The saved profiles' names (newest first) the form offers, and the one the command named. */
export interface RecordsFormProfiles {
  names: readonly string[];
  chosen?: string;
}

/** The profile select's value for "by the file's header". */
export const PICK_BY_HEADER = 'auto';
const PROFILE_VALUE = 'profile:';

/** The profile name a select value names, or undefined for "by the file's header" (or a value the form never offered). */
export function profileOfSelect(value: string | undefined): string | undefined {
  return value?.startsWith(PROFILE_VALUE) ? value.slice(PROFILE_VALUE.length) : undefined;
}

function profileSelect(surface: Surface, profiles: RecordsFormProfiles): KnownBlock {
  const t = textsFor(surface.locale);
  const auto = { text: plainText(t('records.profileByHeader'), 75), value: PICK_BY_HEADER };
  const options = [auto, ...profiles.names.slice(0, 99).map((name) => ({ text: plainText(name, 75), value: `${PROFILE_VALUE}${name}`.slice(0, 75) }))];
  const chosen = options.find((option) => option.value.toLowerCase() === `${PROFILE_VALUE}${profiles.chosen ?? ''}`.toLowerCase()) ?? auto;
  return {
    type: 'input',
    block_id: RECORDS.profileBlock,
    label: plainText(t('records.profileLabel')),
    element: { type: 'static_select', action_id: RECORDS.input, options, initial_option: chosen },
  };
}

export function buildRecordsUploadModal(surface: Surface, limits: RecordsFormLimits, profiles: RecordsFormProfiles = { names: [] }): ModalView {
  const t = textsFor(surface.locale);
  const blocks: KnownBlock[] = [
    {
      type: 'section',
      text: {
        type: 'mrkdwn',
        text: t('records.intro', { zone: escapeWithin(limits.timeZone, 60, { oneLine: true }), rows: limits.maxRows, size: mebibytes(limits.maxBytes) }),
      },
    },
    {
      type: 'input',
      block_id: RECORDS.fileBlock,
      label: plainText(t('records.fileLabel')),
      element: { type: 'file_input', action_id: RECORDS.input, filetypes: ['csv', 'tsv', 'txt', 'xlsx'], max_files: 1 },
    },
    profileSelect(surface, profiles),
    {
      type: 'context',
      elements: [
        { type: 'mrkdwn', text: limits.toleranceDays === 0 ? t('records.matchRuleSameDay') : t('records.matchRule', { count: limits.toleranceDays }) },
      ],
    },
    ...sandboxFooter(surface),
  ];
  return {
    type: 'modal',
    callback_id: RECORDS.uploadView,
    title: plainText(t('records.title'), 24),
    submit: plainText(t('records.submit'), 24),
    close: plainText(t('records.close'), 24),
    blocks,
  };
}

/** A notice in the records modal (a refusal, a file's problem, a failure). */
export function recordsNoticeModal(surface: Surface, text: string, callbackId: string = RECORDS.resultView): ModalView {
  return noticeModal(surface, { title: textsFor(surface.locale)('records.title'), text, callbackId });
}

export function buildRecordsChecking(surface: Surface): ModalView {
  return recordsNoticeModal(surface, textsFor(surface.locale)('records.checking'), RECORDS.checkingView);
}

/** What became of the exceptions file: sent (its name), none to send, or not sent (Slack's code). */
export type ExceptionsFileOutcome = { sent: string } | { none: true } | { failed: string };

/** Why the ledger could not vouch for the period, in words. */
function gapText(surface: Surface, gap: LedgerGap, summary: RunSummary, lastPollAt: Date | undefined): string {
  const t = textsFor(surface.locale);
  if (gap === 'history') return t('records.gap.history', { from: summary.periodStart });
  if (gap === 'behind' && lastPollAt) return t('records.gap.behind', { time: slackDate(lastPollAt, undefined, surface) });
  return t('records.gap.not_polled');
}

/** The run's summary lines: the file and period, matched per currency, each kind of exception. */
export function recordsSummaryLines(surface: Surface, summary: RunSummary, timeZone: string): string[] {
  const t = textsFor(surface.locale);
  const lines = [
    t('records.result.headline', {
      file: escapeWithin(summary.fileName, 100, { oneLine: true }),
      count: summary.records,
      from: summary.periodStart,
      to: summary.periodEnd,
      zone: escapeWithin(timeZone, 60, { oneLine: true }),
    }),
    t('records.result.matched', { count: summary.matched }),
  ];
  for (const [currency, total] of summary.totals) {
    lines.push(
      t('records.result.total', { currency, count: total.count, total: formatMinor(total.minor, currency, { locale: surface.locale, signed: true }) }),
    );
  }
  lines.push(...bySumLines(surface, summary));
  lines.push(t('records.result.differences', { count: summary.differences }));
  if (summary.ledgerComplete) {
    lines.push(t('records.result.notInLedger', { count: summary.notInLedger }));
    lines.push(t('records.result.notInRecords', { count: summary.notInRecords }));
  } else {
    // The ledger may only be late: nothing is called missing, on either side.
    lines.push(t('records.result.notFoundYet', { count: summary.notInLedger }));
  }
  return lines;
}

/** The groups of records sharing a reference matched by their sum: the count, the first few named, the count of the rest. */
function bySumLines(surface: Surface, summary: RunSummary): string[] {
  const t = textsFor(surface.locale);
  const { groups, records, shown } = summary.bySum;
  if (groups === 0) return [];
  const lines = [t('records.result.bySum', { count: groups, records })];
  for (const group of shown) {
    lines.push(
      t('records.result.bySumGroup', {
        count: group.records,
        reference: codeSpan(group.reference, 40),
        total: formatMinor(group.minor, group.currency, { locale: surface.locale, signed: true }),
      }),
    );
  }
  if (groups > shown.length) lines.push(t('records.result.bySumMore', { count: groups - shown.length }));
  return lines;
}

export interface RecordsResultView {
  run: RecordsRun;
  /** Where it is read: the modal points to the DM; the DM itself says the file follows. */
  where?: 'modal' | 'dm';
  timeZone: string;
  file: ExceptionsFileOutcome;
  lastPollAt: Date | undefined;
}

function resultText(surface: Surface, result: RecordsResultView): string {
  const t = textsFor(surface.locale);
  const { summary, gap } = result.run;
  const lines = recordsSummaryLines(surface, summary, result.timeZone);
  if (gap) lines.push('', gapText(surface, gap, summary, result.lastPollAt));
  lines.push('');
  const fileKey = result.where === 'dm' ? 'records.result.fileBelow' : 'records.result.fileSent';
  if ('sent' in result.file) lines.push(t(fileKey, { file: codeSpan(result.file.sent, 100) }));
  else if ('none' in result.file) lines.push(t('records.result.noExceptions'));
  else lines.push(t('records.result.fileFailed', { code: result.file.failed }));
  lines.push(t('records.result.run', { id: summary.id }));
  return lines.join('\n');
}

/** The result in the modal. */
export function buildRecordsResultModal(surface: Surface, result: RecordsResultView): ModalView {
  return noticeModal(surface, { title: textsFor(surface.locale)('records.result.title'), text: resultText(surface, result), callbackId: RECORDS.resultView });
}

/** The result as a message (the person's DM), before the file. */
export function buildRecordsResultMessage(surface: Surface, result: RecordsResultView): Reply {
  const text = resultText(surface, { ...result, where: 'dm' });
  const title = textsFor(surface.locale)('records.result.title');
  return {
    text: `${sandboxMarked(surface, title)}: ${result.run.summary.id}`,
    blocks: [
      { type: 'header', text: plainText(title, 150) },
      { type: 'section', text: { type: 'mrkdwn', text: cutMrkdwn(text, 3000) } },
      ...sandboxFooter(surface),
    ],
  };
}

/** The last runs, newest first, each with a button that sends its exceptions file again. */
export function buildRecordsHistory(surface: Surface, runs: readonly RunSummary[]): Reply {
  const t = textsFor(surface.locale);
  const title = t('records.history.title');
  const blocks: KnownBlock[] = [{ type: 'header', text: plainText(title, 150) }];
  if (runs.length === 0) blocks.push({ type: 'section', text: { type: 'mrkdwn', text: t('records.history.empty') } });
  for (const run of runs) {
    const about = {
      id: run.id,
      when: slackDate(run.createdAt, undefined, surface),
      user: mentionUser(run.userId),
      file: escapeWithin(run.fileName, 80, { oneLine: true }),
      from: run.periodStart,
      to: run.periodEnd,
      matched: run.matched,
      differences: run.differences,
    };
    const text = run.ledgerComplete
      ? t('records.history.line', { ...about, notInLedger: run.notInLedger, notInRecords: run.notInRecords })
      : t('records.history.lineIncomplete', { ...about, notFound: run.notInLedger });
    const exceptions = run.differences + run.notInLedger + run.notInRecords;
    blocks.push({
      type: 'section',
      text: { type: 'mrkdwn', text: cutMrkdwn(text, 3000) },
      ...(exceptions > 0
        ? { accessory: { type: 'button', action_id: RECORDS.exceptionsFile, value: run.id, text: plainText(t('records.history.fileButton'), 75) } }
        : {}),
    });
  }
  blocks.push(...sandboxFooter(surface));
  return { text: sandboxMarked(surface, title), blocks };
}

/** `fleet-records-2026-11-01_2026-11-30-RC-7K3F9Q.csv`: the period and the run (as the summary writes its id) in the name, nothing typed by a person. */
export function exceptionsFileName(summary: RunSummary): string {
  return `fleet-records-${summary.periodStart}_${summary.periodEnd}-${summary.id}.csv`;
}

/** The exceptions file's text: every text cell neutralised against spreadsheet formulas, the amounts left numbers, as in the export. */
export function exceptionsFileText(exceptions: readonly ExceptionRow[], turns: BackgroundTurns): Promise<string> {
  return csvTextInSlices(EXCEPTION_COLUMNS, exceptions, exceptionCells, EXCEPTION_AMOUNT_COLUMNS, turns);
}

/**
 * The bulk payout modals: the form (a CSV file, or rows pasted), the "checking…" screen shown while
 * the rows are read, and the result: a refused file's reason, or the rows' summary with their problems.
 */
import type { KnownBlock, ModalView } from '@slack/types';
import { textsFor, type Locale } from '../../i18n/index.js';
import { formatMinor } from '../../core/money.js';
import {
  BATCH_FILE_ENCODINGS,
  isPossibleDuplicate,
  largestRows,
  type BatchCheck,
  type BatchRow,
  type EarlierPayout,
  type PayoutBatch,
} from '../../payouts/index.js';
import { earlierPayoutStateWord } from './payout-details.js';
import { rowProblemLine } from '../refusals/batch-problems.js';
import { PAYOUT_BATCH, PAYOUT_BATCH_ACTIONS } from '../ids.js';
import { noticeModal } from './notice.js';
import { batchTotalsText } from './payout-batch-message.js';
import { cutMrkdwn, escapeMrkdwn, escapeWithin, mentionUser, plainText, sandboxFooter, type Surface } from './text.js';

/** How many problems the modal lists; every one of them is in the errors file. */
const PROBLEMS_SHOWN = 20;
/** Row numbers listed in one line (new recipients, repeats) before "…". */
const ROWS_LISTED = 30;

export function buildBatchUploadModal(surface: Surface, maxRows: number): ModalView {
  const t = textsFor(surface.locale);
  const encodingOptions = BATCH_FILE_ENCODINGS.map((encoding) => ({ text: plainText(t(`payoutBatch.encoding.${encoding}`)), value: encoding }));
  const blocks: KnownBlock[] = [
    { type: 'section', text: { type: 'mrkdwn', text: t('payoutBatch.intro', { max: maxRows }) } },
    {
      type: 'input',
      block_id: PAYOUT_BATCH.fileBlock,
      optional: true,
      label: plainText(t('payoutBatch.fileLabel')),
      element: { type: 'file_input', action_id: PAYOUT_BATCH.input, filetypes: ['csv', 'tsv', 'txt', 'xlsx'], max_files: 1 },
    },
    {
      type: 'input',
      block_id: PAYOUT_BATCH.encodingBlock,
      optional: true,
      label: plainText(t('payoutBatch.encodingLabel')),
      hint: plainText(t('payoutBatch.encodingHint')),
      element: { type: 'static_select', action_id: PAYOUT_BATCH.input, options: encodingOptions, initial_option: encodingOptions[0]! },
    },
    {
      type: 'input',
      block_id: PAYOUT_BATCH.pasteBlock,
      optional: true,
      label: plainText(t('payoutBatch.pasteLabel')),
      element: { type: 'plain_text_input', action_id: PAYOUT_BATCH.input, multiline: true, max_length: 3000 },
    },
    ...sandboxFooter(surface),
  ];
  return {
    type: 'modal',
    callback_id: PAYOUT_BATCH.uploadView,
    title: plainText(t('payoutBatch.title'), 24),
    submit: plainText(t('payoutBatch.check'), 24),
    close: plainText(t('payoutBatch.close'), 24),
    blocks,
  };
}

/** An approver's rejection of a bulk payout: what is turned down, and the reason the requester will read. */
export function buildBatchRejectModal(surface: Surface, batch: PayoutBatch): ModalView {
  const { locale } = surface;
  const t = textsFor(locale);
  const asks = t('payoutBatch.message.asks', { user: mentionUser(batch.requestedBy), count: batch.rowCount, id: batch.id });
  const intro = t('payoutBatch.reject.intro', { id: batch.id, count: batch.rowCount, totals: escapeMrkdwn(batchTotalsText(batch, locale)) });
  return {
    type: 'modal',
    callback_id: PAYOUT_BATCH.rejectView,
    private_metadata: batch.id,
    title: plainText(t('payoutBatch.reject.title', { id: batch.id }), 24),
    submit: plainText(t('payoutBatch.reject.submit'), 24),
    close: plainText(t('payoutBatch.close'), 24),
    blocks: [
      { type: 'section', text: { type: 'mrkdwn', text: cutMrkdwn(`${asks}\n${intro}`, 3000) } },
      {
        type: 'input',
        block_id: PAYOUT_BATCH.rejectReasonBlock,
        label: plainText(t('payoutBatch.reject.reason')),
        hint: plainText(t('payoutBatch.reject.hint')),
        element: { type: 'plain_text_input', action_id: PAYOUT_BATCH.input, multiline: true, min_length: 3, max_length: 500 },
      },
      ...sandboxFooter(surface),
    ],
  };
}

/** The title and callback id of a notice in the bulk payout modal (a refusal, a failure, the outcome). */
export function inBatchModal(surface: Surface): { title: string; callbackId: string } {
  return { title: textsFor(surface.locale)('payoutBatch.title'), callbackId: PAYOUT_BATCH.resultView };
}

export function buildBatchChecking(surface: Surface): ModalView {
  return noticeModal(surface, { ...inBatchModal(surface), text: textsFor(surface.locale)('payoutBatch.checking'), callbackId: PAYOUT_BATCH.checkingView });
}

/** What became of the errors file: sent (with its name), or not (Slack's code). */
export type ErrorsFileOutcome = { sent: string } | { failed: string } | undefined;

/**
 * The rows' summary; with problems, the first `PROBLEMS_SHOWN` of them and where the rest went.
 * Without: `ready` names the stored draft, which the submit button asks approval for (after a
 * required tick when rows may pay someone twice).
 */
export function buildBatchResult(surface: Surface, check: BatchCheck, errorsFile: ErrorsFileOutcome, ready?: { batchId: string }): ModalView {
  const { locale } = surface;
  const t = textsFor(locale);
  const section = (text: string): KnownBlock => ({ type: 'section', text: { type: 'mrkdwn', text: cutMrkdwn(text, 3000) } });
  const blocks: KnownBlock[] = [section(summaryLines(locale, check).join('\n'))];
  if (check.problems.length > 0) {
    const shown = check.problems.slice(0, PROBLEMS_SHOWN);
    const lines = shown.map((problem) => `• ${escapeWithin(rowProblemLine(locale, problem), 300, { oneLine: true })}`);
    blocks.push(section(`${t('payoutBatch.problems', { count: check.problems.length })}\n${t('payoutBatch.firstProblems', { shown: shown.length })}`));
    blocks.push(section(lines.join('\n')));
    if (errorsFile && 'sent' in errorsFile) blocks.push(section(t('payoutBatch.errorsSent', { file: `\`${errorsFile.sent}\`` })));
    if (errorsFile && 'failed' in errorsFile) blocks.push(section(t('payoutBatch.errorsNotSent', { code: errorsFile.failed })));
  } else {
    blocks.push(section(t('payoutBatch.ready')));
    blocks.push({ type: 'context', elements: [{ type: 'mrkdwn', text: t('payoutBatch.moneyFlow') }] });
  }
  if (ready && check.rows.some(isPossibleDuplicate)) {
    blocks.push({
      type: 'input',
      block_id: PAYOUT_BATCH_ACTIONS.confirmSameBlock,
      label: plainText(t('payoutBatch.confirmSameRequired')),
      element: { type: 'checkboxes', action_id: PAYOUT_BATCH.input, options: [{ text: plainText(t('payoutBatch.confirmSame')), value: 'same' }] },
    });
  }
  blocks.push(...sandboxFooter(surface));
  const title = plainText(t('payoutBatch.title'), 24);
  if (ready && check.problems.length === 0) {
    return {
      type: 'modal',
      callback_id: PAYOUT_BATCH.readyView,
      title,
      private_metadata: ready.batchId,
      submit: plainText(t('payoutBatch.submit'), 24),
      close: plainText(t('payoutBatch.close'), 24),
      blocks,
    };
  }
  return { type: 'modal', callback_id: PAYOUT_BATCH.resultView, title, close: plainText(t('payoutBatch.close'), 24), blocks };
}

/** Rows, totals per currency, the largest row, new recipients and rows that may pay someone twice. */
function summaryLines(locale: Locale, check: BatchCheck): string[] {
  const t = textsFor(locale);
  const amount = (minor: number, currency: string) => formatMinor(minor, currency, { locale }).trim();
  const lines = [t('payoutBatch.rows', { count: check.rowCount })];
  if (check.totals.size > 0) lines.push(t('payoutBatch.totals', { totals: [...check.totals].map(([currency, minor]) => amount(minor, currency)).join(' · ') }));
  for (const [currency, row] of largestRows(check.rows)) {
    lines.push(
      t('payoutBatch.largest', {
        row: row.rowNumber,
        amount: amount(row.draft.amountMinor, currency),
        name: escapeWithin(row.draft.recipient.name, 100, { oneLine: true }),
      }),
    );
  }
  const fresh = check.rows.filter((row) => row.newRecipient).map((row) => row.rowNumber);
  if (fresh.length > 0) lines.push(t('payoutBatch.newRecipients', { count: fresh.length, rows: listed(fresh.map(String)) }));
  const repeats = check.rows.filter(isPossibleDuplicate).map((row) => repeatText(locale, row));
  if (repeats.length > 0) lines.push(t('payoutBatch.possibleDuplicates', { count: repeats.length, rows: listed(repeats) }));
  return lines;
}

/** What a row repeats: an earlier payout first (the money at stake), else the earlier row of the file. */
function repeatText(locale: Locale, row: BatchRow): string {
  const t = textsFor(locale);
  const earlier: EarlierPayout | undefined = row.duplicateOf;
  if (earlier?.kind === 'request') {
    return t('payoutBatch.repeatOfRequest', { row: row.rowNumber, id: earlier.requestId, state: earlierPayoutStateWord(earlier.state, locale) });
  }
  if (earlier?.kind === 'batch_row') return t('payoutBatch.repeatOfBatchRow', { row: row.rowNumber, batch: earlier.batchId, first: earlier.rowNumber });
  return t('payoutBatch.repeatOf', { row: row.rowNumber, first: row.repeatOf ?? 0 });
}

function listed(items: readonly string[]): string {
  return items.length <= ROWS_LISTED ? items.join(', ') : `${items.slice(0, ROWS_LISTED).join(', ')}, …`;
}

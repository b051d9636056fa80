/**
 * Checks every row of a bulk payout file with the single payout's rules (validation.ts), and sums up
 * what a person must see before asking for approval: totals per currency, the largest row, rows that
 * repeat another (duplicates.ts), rows to new recipients, and every problem with its row number. Pure.
 */
import { EventLoopTurns, Slices, type BackgroundTurns } from '../../runtime/turns.js';
import type { BatchCellProblem, BatchColumn, ColumnCountProblem, RawBatchRow } from './file.js';
import type { FieldProblem, PayoutDraft, PayoutFieldName, PayoutKind } from '../model.js';
import { duplicateKey, repeatsWithin, type EarlierPayout } from '../duplicates.js';
import { kindNamed, railOf } from '../rails/index.js';
import { validatePayoutForm, type PayoutFormFields, type PayoutValidationSettings } from '../validation.js';

/** A row that passed every check: what will be sent, once the batch is approved. */
export interface BatchRow {
  rowNumber: number;
  draft: PayoutDraft;
  /** Nobody was paid at this recipient before (as the caller's `isNewRecipient` said). */
  newRecipient: boolean;
  /** The first earlier row of the file with the same recipient, amount and currency (duplicates.ts). */
  repeatOf: number | undefined;
  /** The earlier payout this row may repeat (duplicates.ts), as the store said at the check. */
  duplicateOf: EarlierPayout | undefined;
}

/** A row that may pay someone twice: it repeats an earlier row of its file, or an earlier payout. */
export function isPossibleDuplicate(row: Pick<BatchRow, 'repeatOf' | 'duplicateOf'>): boolean {
  return row.repeatOf !== undefined || row.duplicateOf !== undefined;
}

/** Problems only a file can have, besides the single payout's field problems. */
export type BatchOnlyProblem =
  | { code: 'kind_unknown' }
  /** Amounts in a file are digits with an optional dot and decimals, nothing else (`1500.50`). */
  | { code: 'amount_format' }
  /** The same reference on an earlier row: each row is its own payout, with its own reference. */
  | { code: 'reference_repeated'; firstRow: number }
  /** A cell that could not be read as typed (a number in scientific notation, a workbook's formula without its result…). */
  | BatchCellProblem;

/** One problem of one row; `column` says which cell (undefined for the row as a whole). */
export interface BatchRowProblem {
  rowNumber: number;
  column: BatchColumn | undefined;
  problem: FieldProblem | BatchOnlyProblem | Omit<ColumnCountProblem, 'rowNumber'>;
}

export interface BatchCheck {
  /** Rows without a problem, in file order. */
  rows: BatchRow[];
  /** Every problem, by row number; a row may have several. */
  problems: BatchRowProblem[];
  /** Per currency, in minor units, over the rows without a problem; currencies in first-seen order. */
  totals: Map<string, number>;
  /** Rows counted, with or without problems. */
  rowCount: number;
}

export interface BatchCheckContext {
  settings: PayoutValidationSettings;
  now: Date;
  /** The batch's id: rows without a reference get `<batch id>-<row number>`. */
  batchId: string;
  /** Which drafts go to someone never paid before; none when not given. */
  isNewRecipient?: (draft: PayoutDraft) => boolean;
  /** The bot's turns of the event loop, so that this background work lets Slack's waiting requests go first; turns of its own by default (tests). */
  turns?: BackgroundTurns;
}

/** The file's column (the bulk vocabulary, also the workflow step's inputs) that holds each form field. */
export const FIELD_COLUMN: Record<PayoutFieldName, BatchColumn> = {
  phone: 'number',
  accountNumber: 'number',
  operator: 'provider',
  bankCode: 'provider',
  name: 'name',
  countryCode: 'country',
  amount: 'amount',
  currency: 'currency',
  reference: 'reference',
  note: 'note',
};

const PLAIN_AMOUNT = /^\d+(\.\d+)?$/;

/** The reference given to a row that has none: unique because the batch id is. */
function batchRowReference(batchId: string, rowNumber: number): string {
  return `${batchId}-${rowNumber}`;
}

/** Checks the rows read from a file; `columnProblems` are rows the reader could not line up. */
export function checkBatchRows(raw: readonly RawBatchRow[], columnProblems: readonly ColumnCountProblem[], context: BatchCheckContext): BatchCheck {
  const steps = checkingBatchRows(raw, columnProblems, context);
  let step = steps.next();
  while (!step.done) step = steps.next();
  return step.value;
}

/**
 * The same check, letting the event loop run between two rows once a slice's time has run: a
 * file's rows take about 0.3 ms each to check, a few thousand of them seconds.
 */
export async function checkBatchRowsInSlices(
  raw: readonly RawBatchRow[],
  columnProblems: readonly ColumnCountProblem[],
  context: BatchCheckContext,
): Promise<BatchCheck> {
  const slices = new Slices(context.turns ?? new EventLoopTurns());
  const steps = checkingBatchRows(raw, columnProblems, context);
  let step = steps.next();
  while (!step.done) {
    if (slices.due()) await slices.next();
    step = steps.next();
  }
  return step.value;
}

/** The check, pausing (`yield`) before each row. */
function* checkingBatchRows(
  raw: readonly RawBatchRow[],
  columnProblems: readonly ColumnCountProblem[],
  context: BatchCheckContext,
): Generator<void, BatchCheck> {
  const problems: BatchRowProblem[] = columnProblems.map(({ rowNumber, ...problem }) => ({ rowNumber, column: undefined, problem }));
  const rows: BatchRow[] = [];
  const references = new Map<string, number>();
  for (const row of raw) {
    yield;
    const checked = checkRow(row, context);
    if (!checked.ok) {
      problems.push(...checked.problems);
      continue;
    }
    const { draft } = checked;
    const earlier = references.get(draft.reference.toUpperCase());
    if (earlier !== undefined) {
      problems.push({ rowNumber: row.rowNumber, column: 'reference', problem: { code: 'reference_repeated', firstRow: earlier } });
      continue;
    }
    references.set(draft.reference.toUpperCase(), row.rowNumber);
    rows.push({ rowNumber: row.rowNumber, draft, newRecipient: context.isNewRecipient?.(draft) ?? false, repeatOf: undefined, duplicateOf: undefined });
  }
  const repeats = repeatsWithin(rows);
  for (const row of rows) row.repeatOf = repeats.get(row.rowNumber);
  problems.sort((a, b) => a.rowNumber - b.rowNumber || columnOrder(a.column) - columnOrder(b.column));
  return { rows, problems, totals: totalsOf(rows), rowCount: raw.length + columnProblems.length };
}

type RowResult = { ok: true; draft: PayoutDraft } | { ok: false; problems: BatchRowProblem[] };

/**
 * A row's cells in the bulk vocabulary as the single payout form's fields: the kind they name (none
 * for an unknown word) and whether the amount is written wrongly for a file (anything but `1500.50`).
 */
export function cellsToForm(cells: Partial<Record<BatchColumn, string>>): {
  kind: PayoutKind | undefined;
  fields: PayoutFormFields;
  amountShapeWrong: boolean;
} {
  const kind = kindNamed((cells.kind ?? '').trim(), (rail) => rail.bulkWords);
  const amount = (cells.amount ?? '').trim();
  const amountShapeWrong = amount !== '' && !amount.startsWith('-') && !PLAIN_AMOUNT.test(amount);
  const fields: PayoutFormFields = {
    name: cells.name,
    countryCode: cells.country,
    amount: cells.amount,
    currency: cells.currency,
    reference: cells.reference ?? '',
    note: cells.note ?? '',
    // Without a kind the cells are read as a wallet's; the kind's problem says what is wrong.
    ...railOf(kind ?? 'mobile_money').bulkFields(cells),
  };
  return { kind, fields, amountShapeWrong };
}

function checkRow(row: RawBatchRow, context: BatchCheckContext): RowResult {
  const { cells, rowNumber } = row;
  const { kind, fields, amountShapeWrong } = cellsToForm(cells);
  const problems: BatchRowProblem[] = [];
  if (!kind) problems.push({ rowNumber, column: 'kind', problem: { code: 'kind_unknown' } });
  if (amountShapeWrong && !row.cellProblems?.amount) problems.push({ rowNumber, column: 'amount', problem: { code: 'amount_format' } });
  const unreadable = Object.entries(row.cellProblems ?? {}) as Array<[BatchColumn, BatchCellProblem]>;
  for (const [column, problem] of unreadable) problems.push({ rowNumber, column, problem });
  const result = validatePayoutForm(kind ?? 'mobile_money', fields, {
    settings: context.settings,
    now: context.now,
    locale: 'en',
    newReference: () => batchRowReference(context.batchId, rowNumber),
  });
  if (!result.ok) {
    for (const [field, problem] of Object.entries(result.errors) as Array<[PayoutFieldName, FieldProblem]>) {
      const column = FIELD_COLUMN[field];
      // Without a kind, the number and provider cannot be judged; the kind's problem says enough.
      if (!kind && (column === 'number' || column === 'provider')) continue;
      if (amountShapeWrong && column === 'amount') continue;
      // A cell that could not be read has said so; its field's check would only repeat it.
      if (row.cellProblems?.[column]) continue;
      problems.push({ rowNumber, column, problem });
    }
  }
  if (problems.length > 0 || !result.ok) return { ok: false, problems };
  return { ok: true, draft: result.draft };
}

/**
 * What only the store knows, applied to a check: rows whose reference some payout already holds
 * become problems, rows to recipients never paid before are marked new, and rows that may repeat an
 * earlier payout (by `duplicateKey`) name it.
 */
export function withStoreFacts(
  check: BatchCheck,
  facts: { usedReferences: ReadonlySet<string>; isNewRecipient: (draft: PayoutDraft) => boolean; earlier?: ReadonlyMap<string, EarlierPayout> },
): BatchCheck {
  const problems = [...check.problems];
  const rows: BatchRow[] = [];
  for (const row of check.rows) {
    if (facts.usedReferences.has(row.draft.reference)) problems.push({ rowNumber: row.rowNumber, column: 'reference', problem: { code: 'reference_used' } });
    else rows.push({ ...row, newRecipient: facts.isNewRecipient(row.draft), duplicateOf: facts.earlier?.get(duplicateKey(row.draft)) });
  }
  const repeats = repeatsWithin(rows);
  problems.sort((a, b) => a.rowNumber - b.rowNumber || columnOrder(a.column) - columnOrder(b.column));
  return { ...check, rows: rows.map((row) => ({ ...row, repeatOf: repeats.get(row.rowNumber) })), problems, totals: totalsOf(rows) };
}

function totalsOf(rows: readonly BatchRow[]): Map<string, number> {
  const totals = new Map<string, number>();
  for (const { draft } of rows) totals.set(draft.currency, (totals.get(draft.currency) ?? 0) + draft.amountMinor);
  return totals;
}

/** The row with the largest amount in each currency (the first one on a tie). */
export function largestRows(rows: readonly BatchRow[]): Map<string, BatchRow> {
  const largest = new Map<string, BatchRow>();
  for (const row of rows) {
    const current = largest.get(row.draft.currency);
    if (!current || row.draft.amountMinor > current.draft.amountMinor) largest.set(row.draft.currency, row);
  }
  return largest;
}

const CANONICAL: readonly BatchColumn[] = ['kind', 'number', 'provider', 'name', 'country', 'amount', 'currency', 'reference', 'note'];

function columnOrder(column: BatchColumn | undefined): number {
  return column === undefined ? -1 : CANONICAL.indexOf(column);
}

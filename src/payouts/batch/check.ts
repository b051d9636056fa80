/**
 * Checks a bulk payout file against the rules and the store: the file's shape, every row with the
 * single payout's rules, references already used by any payout, recipients never paid before, and
 * rows that may repeat an earlier payout or row (duplicates.ts). Reads only: nothing is stored here.
 */
import type { BackgroundTurns } from '../../runtime/turns.js';
import type { Queryable } from '../../store/db.js';
import { readBatchFile, type BatchFileEncoding, type BatchFileProblem } from './file.js';
import { checkBatchRowsInSlices, withStoreFacts, type BatchCheck } from './rows.js';
import { duplicateKey, findEarlierPayouts, repeatsWithin, type EarlierPayout } from '../duplicates.js';
import type { PayoutDraft } from '../model.js';
import { findKnownRecipients, isNewRecipient, recipientIdentity } from '../recipients.js';
import type { PayoutValidationSettings } from '../validation.js';

export type BatchFileCheck = { ok: false; problem: BatchFileProblem } | { ok: true; check: BatchCheck };

export interface BatchFileCheckContext {
  settings: PayoutValidationSettings;
  maxRows: number;
  now: Date;
  batchId: string;
  /** PAYOUT_DUPLICATE_WINDOW_HOURS. */
  duplicateWindowHours: number;
  /** The encoding the person chose for a text file; UTF-8 when none. */
  encoding?: BatchFileEncoding;
  /** The bot's turns of the event loop, so that this background work lets Slack's waiting requests go first; turns of its own by default (tests). */
  turns?: BackgroundTurns;
}

export async function checkBatchFile(q: Queryable, content: Uint8Array | string, context: BatchFileCheckContext): Promise<BatchFileCheck> {
  const reading = await readBatchFile(content, {
    maxRows: context.maxRows,
    ...(context.encoding ? { encoding: context.encoding } : {}),
    ...(context.turns ? { turns: context.turns } : {}),
  });
  if (!reading.ok) return reading;
  const check = await checkBatchRowsInSlices(reading.rows, reading.columnProblems, context);
  const references = check.rows.map((row) => row.draft.reference);
  const used =
    references.length === 0
      ? []
      : (await q.query<{ reference: string }>('SELECT reference FROM payout_requests WHERE reference = ANY($1::text[])', [references])).rows;
  const known = await findKnownRecipients(
    q,
    check.rows.map((row) => recipientIdentity(row.draft)),
  );
  const earlier = await findEarlierPayouts(
    q,
    check.rows.map((row) => row.draft),
    { now: context.now, windowHours: context.duplicateWindowHours },
  );
  return {
    ok: true,
    check: withStoreFacts(check, {
      usedReferences: new Set(used.map((row) => row.reference)),
      isNewRecipient: (draft) => isNewRecipient(draft, known),
      earlier,
    }),
  };
}

/** A stored row that may pay someone twice, and what it repeats: an earlier row of its batch, or an earlier payout. */
export interface BatchDuplicate {
  rowNumber: number;
  repeatOf: number | undefined;
  duplicateOf: EarlierPayout | undefined;
}

/** The rows of batch `batchId` that may repeat another row of it or an earlier payout, as the store says now. */
export async function findBatchDuplicates(
  q: Queryable,
  batchId: string,
  rows: ReadonlyArray<{ rowNumber: number; draft: PayoutDraft }>,
  window: { now: Date; windowHours: number },
): Promise<BatchDuplicate[]> {
  const repeats = repeatsWithin(rows);
  const earlier = await findEarlierPayouts(
    q,
    rows.map((row) => row.draft),
    { ...window, exceptBatchId: batchId },
  );
  return rows
    .map((row) => ({ rowNumber: row.rowNumber, repeatOf: repeats.get(row.rowNumber), duplicateOf: earlier.get(duplicateKey(row.draft)) }))
    .filter((row) => row.repeatOf !== undefined || row.duplicateOf !== undefined);
}

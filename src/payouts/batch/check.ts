/**
 * Checks a bulk payout file against the rules and the store: the file's shape, every row with the
 * single payout's rules, references already used by any payout, and recipients never paid before.
 * Reads only: nothing is stored here.
 */
import type { Queryable } from '../../store/db.js';
import { readBatchFile, type BatchFileProblem } from './file.js';
import { checkBatchRows, withStoreFacts, type BatchCheck } from './rows.js';
import { findKnownRecipients, isNewRecipient, recipientIdentity } from '../recipients.js';
import type { PayoutValidationSettings } from '../validation.js';

export type BatchFileCheck = { ok: false; problem: BatchFileProblem } | { ok: true; check: BatchCheck };

export interface BatchFileCheckContext {
  settings: PayoutValidationSettings;
  maxRows: number;
  now: Date;
  batchId: string;
}

export async function checkBatchFile(q: Queryable, content: Uint8Array | string, context: BatchFileCheckContext): Promise<BatchFileCheck> {
  const reading = readBatchFile(content, { maxRows: context.maxRows });
  if (!reading.ok) return reading;
  const check = checkBatchRows(reading.rows, reading.columnProblems, context);
  const references = check.rows.map((row) => row.draft.reference);
  const used = references.length === 0
    ? []
    : (await q.query<{ reference: string }>('SELECT reference FROM payout_requests WHERE reference = ANY($1::text[])', [references])).rows;
  const known = await findKnownRecipients(q, check.rows.map((row) => recipientIdentity(row.draft)));
  return {
    ok: true,
    check: withStoreFacts(check, { usedReferences: new Set(used.map((row) => row.reference)), isNewRecipient: (draft) => isNewRecipient(draft, known) }),
  };
}

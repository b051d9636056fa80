/**
 * The single call that moves money, and how its answer maps to an outcome; plus the search that
 * settles an unknown outcome by looking for the payout in the Fleet API's transaction list.
 */
import { asFleetError } from '../fleet/errors.js';
import type { FleetApi, Transaction } from '../fleet/schemas.js';
import { fromMinor, toMinor } from '../money.js';
import type { PayoutDraft } from './model.js';

export type SendOutcome =
  | { outcome: 'completed'; transactionId: string | undefined; message: string | undefined }
  /** The service definitely did not act (it refused, or we never reached it). */
  | { outcome: 'failed'; reason: string; code: string }
  /** The request may have been processed: a timeout, dropped connection or 5xx after sending. */
  | { outcome: 'unknown'; reason: string; code: string };

/** Sends exactly one POST with the stored recipient, amount and reference; never retries. */
export async function sendPayout(fleet: FleetApi, draft: PayoutDraft): Promise<SendOutcome> {
  const common = { amount: fromMinor(draft.amountMinor, draft.currency), currency: draft.currency, reference: draft.reference };
  try {
    const result = draft.kind === 'mobile_money'
      ? await fleet.payoutMobileMoney({ recipient: { ...draft.recipient }, ...common, operator: draft.operator })
      : await fleet.payoutBankAccount({ recipient: { ...draft.recipient }, ...common });
    return { outcome: 'completed', transactionId: result.transactionId, message: result.message };
  } catch (thrown) {
    // Anything that is not a FleetError is treated as "may have been sent": the safe assumption.
    const error = asFleetError(thrown);
    // A conflict means the API already holds a payout with this reference (the spec does not say
    // how duplicates are answered): that earlier payout may have moved money, so "failed" would lie.
    if (error.status === 409) {
      return { outcome: 'unknown', reason: `${error.userMessage} A payout with this reference may already exist.`, code: 'conflict' };
    }
    return error.outcomeUnknown
      ? { outcome: 'unknown', reason: error.userMessage, code: error.code }
      : { outcome: 'failed', reason: error.userMessage, code: error.code };
  }
}

export interface FoundPayout {
  transaction: Transaction;
  matchedBy: 'transactionId' | 'reference' | 'description';
}

const PAGE_SIZE = 100;
const MAX_PAGES = 20;
// The Fleet API's clock and ours may differ; look a little further back than the send time.
const CLOCK_SKEW_MS = 5 * 60 * 1000;

/**
 * Pages through the transaction list (newest first) back to just before `sentAt`, looking for the
 * payout by its transaction id, or by its reference (in the reference or quoted in the description)
 * on a transaction of the same amount and currency.
 */
export async function findPayoutTransaction(
  fleet: FleetApi,
  payout: Pick<PayoutDraft, 'reference' | 'amountMinor' | 'currency'> & { transactionId: string | undefined },
  sentAt: Date,
): Promise<FoundPayout | undefined> {
  const oldest = sentAt.getTime() - CLOCK_SKEW_MS;
  const inDescription = referencePattern(payout.reference);
  // A reference people chose (an invoice number) may be quoted by other transactions too: only one
  // for this payout's amount and currency is taken as proof that it was sent. Either sign counts,
  // since the spec has a payout credit the fleet account.
  const sameMoney = (transaction: Transaction) =>
    transaction.currency === payout.currency && Math.abs(toMinor(transaction.amount, payout.currency)) === payout.amountMinor;
  for (let page = 0; page < MAX_PAGES; page += 1) {
    const { transactions, received } = await fleet.listTransactions({ limit: PAGE_SIZE, offset: page * PAGE_SIZE });
    for (const transaction of transactions) {
      if (payout.transactionId !== undefined && transaction.reference === payout.transactionId) return { transaction, matchedBy: 'transactionId' };
      if (!sameMoney(transaction)) continue;
      if (transaction.reference === payout.reference) return { transaction, matchedBy: 'reference' };
      if (inDescription.test(transaction.description)) return { transaction, matchedBy: 'description' };
    }
    const last = transactions.at(-1);
    if (received < PAGE_SIZE || !last || Date.parse(last.date) < oldest) return undefined;
  }
  return undefined;
}

// Whole-token match, so that reference INV1 is not found inside INV12.
function referencePattern(reference: string): RegExp {
  const escaped = reference.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(^|[^A-Za-z0-9_-])${escaped}($|[^A-Za-z0-9_-])`);
}

/**
 * The single call that moves money, and how its answer maps to an outcome; plus the search that
 * settles an unknown outcome by looking for the payout in the Fleet API's transaction list.
 */
import { createHash } from 'node:crypto';
import type { Clock } from '../core/clock.js';
import { asFleetError, FleetRejectedError } from '../fleet/errors.js';
import type { FleetApi, Transaction, TransactionListPage } from '../fleet/schemas.js';
import { fromMinor, toMinor } from '../core/money.js';
import { storedFleetFailure } from './failure-reasons.js';
import type { PayoutDraft } from './model.js';
import { railOf } from './rails/index.js';

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
    const result = await railOf(draft.kind).send(fleet, draft, common);
    return { outcome: 'completed', transactionId: result.transactionId, message: result.message };
  } catch (thrown) {
    // Anything that is not a FleetError is treated as "may have been sent": the safe assumption.
    const error = asFleetError(thrown);
    const apiMessage = error instanceof FleetRejectedError ? error.apiMessage : undefined;
    // A conflict means the API already holds a payout with this reference (the spec does not say
    // how duplicates are answered): that earlier payout may have moved money, so "failed" would lie.
    if (error.status === 409) {
      return { outcome: 'unknown', reason: storedFleetFailure({ code: 'conflict', apiMessage }), code: 'conflict' };
    }
    const reason = storedFleetFailure({ code: error.code, apiMessage });
    return error.outcomeUnknown ? { outcome: 'unknown', reason, code: error.code } : { outcome: 'failed', reason, code: error.code };
  }
}

/** What the search needs to know about the payout it looks for. */
export interface SearchedPayout {
  reference: string;
  amountMinor: number;
  currency: string;
  transactionId: string | undefined;
  /** A generated reference quoted in a description is proof; a typed one only a likely match. */
  referenceGenerated: boolean;
}

export type PayoutSearchResult =
  | { outcome: 'found'; transaction: Transaction; matchedBy: 'transactionId' | 'reference' | 'description' }
  /**
   * Only an entry quoting a person-typed reference in its description: an approver must say whether
   * it is this payout. `complete` says whether everything back to `since` was read besides.
   */
  | { outcome: 'likely_match'; transaction: Transaction; matchId: string; complete: boolean }
  /** Every entry back to `since` was read, and none is this payout. */
  | { outcome: 'not_found' }
  /** Part of the range could not be read (an error, a malformed entry, a list that moved, the time bound). */
  | { outcome: 'could_not_check'; reason: string };

export interface SearchRange {
  /** The search reads back to this moment (less a margin for clock skew). */
  since: Date;
  /** Likely matches already proposed for this payout (and perhaps turned down): not proposed again. */
  proposed: ReadonlySet<string>;
}

/**
 * Finds a payout of unknown outcome. The one seam between settlement and where transactions come
 * from: today the Fleet API's list, later a local ledger.
 */
export type PayoutTransactionSearch = (payout: SearchedPayout, range: SearchRange) => Promise<PayoutSearchResult>;

/** How long one search of the Fleet API's list may go on, and how gently it reads. */
export interface ListSearchLimits {
  /** Past this the search stops and answers "could not check" (default 2 minutes). */
  maxDurationMs: number;
  /** A generous guard against a list that never ends (default 5,000 pages, 500,000 entries). */
  maxPages: number;
  /** Pause between two pages, so that a long search does not hammer the API (default 100 ms). */
  pauseMs: number;
}

export const DEFAULT_SEARCH_LIMITS: ListSearchLimits = { maxDurationMs: 120_000, maxPages: 5_000, pauseMs: 100 };

const PAGE_SIZE = 100;
// The Fleet API's clock and ours may differ; look a little further back than the request time.
const CLOCK_SKEW_MS = 5 * 60 * 1000;

/** A stable name for one entry of the list: the same entry read twice gets the same id. */
function transactionEntryId(transaction: Transaction): string {
  const key = JSON.stringify([transaction.reference, transaction.date, transaction.amount, transaction.currency, transaction.description]);
  return createHash('sha256').update(key).digest('hex').slice(0, 24);
}

/**
 * Reads the Fleet API's transaction list (newest first, pages of 100) back to the request time. The
 * API has no filters, so on a busy account this can be many pages: it is bounded by time, and a
 * search cut short answers "could not check", never "not found". Consecutive pages overlap by one
 * entry: entries arriving meanwhile only make the next page repeat some (harmless), while entries
 * vanishing would make it skip some, which shows as the overlap entry missing.
 */
export function searchTransactionList(fleet: FleetApi, clock: Clock, limits: ListSearchLimits = DEFAULT_SEARCH_LIMITS): PayoutTransactionSearch {
  return async (payout, range) => {
    const started = clock.now().getTime();
    const oldest = range.since.getTime() - CLOCK_SKEW_MS;
    const inDescription = referencePattern(payout.reference);
    // A reference people chose (an invoice number) may be quoted by other transactions too: only one
    // for this payout's amount and currency is considered. Either sign counts, since the spec has a
    // payout credit the fleet account.
    const sameMoney = (transaction: Transaction) =>
      transaction.currency === payout.currency && Math.abs(toMinor(transaction.amount, payout.currency)) === payout.amountMinor;
    let likely: { transaction: Transaction; matchId: string } | undefined;
    let unreadable: string | undefined;
    const incomplete = (reason: string): PayoutSearchResult =>
      likely ? { outcome: 'likely_match', ...likely, complete: false } : { outcome: 'could_not_check', reason };

    let offset = 0;
    let overlap: string | undefined;
    for (let page = 0; ; page += 1) {
      if (page >= limits.maxPages || clock.now().getTime() - started > limits.maxDurationMs) {
        return incomplete('the transaction list is too long to read back to this payout in one go');
      }
      if (page > 0 && limits.pauseMs > 0) await clock.sleep(limits.pauseMs);
      let read: TransactionListPage;
      try {
        read = await fleet.listTransactions({ limit: PAGE_SIZE, offset });
      } catch (thrown) {
        return incomplete(asFleetError(thrown).userMessage);
      }
      const { transactions, received, malformed } = read;
      if (overlap !== undefined && !transactions.some((transaction) => transactionEntryId(transaction) === overlap)) {
        return incomplete('the transaction list changed while it was read');
      }
      // The entry that could not be read might be this payout.
      if (malformed > 0) unreadable = 'an entry of the transaction list could not be read';
      for (const transaction of transactions) {
        if (payout.transactionId !== undefined && transaction.reference === payout.transactionId)
          return { outcome: 'found', transaction, matchedBy: 'transactionId' };
        if (!sameMoney(transaction)) continue;
        if (transaction.reference === payout.reference) return { outcome: 'found', transaction, matchedBy: 'reference' };
        if (!inDescription.test(transaction.description)) continue;
        if (payout.referenceGenerated) return { outcome: 'found', transaction, matchedBy: 'description' };
        const matchId = transactionEntryId(transaction);
        if (!likely && !range.proposed.has(matchId)) likely = { transaction, matchId };
      }
      const last = transactions.at(-1);
      if (received < PAGE_SIZE || (last && Date.parse(last.date) < oldest)) break;
      overlap = last ? transactionEntryId(last) : undefined;
      offset += PAGE_SIZE - 1;
    }
    if (unreadable) return incomplete(unreadable);
    return likely ? { outcome: 'likely_match', ...likely, complete: true } : { outcome: 'not_found' };
  };
}

// Whole-token match, so that reference INV1 is not found inside INV12.
function referencePattern(reference: string): RegExp {
  const escaped = reference.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(^|[^A-Za-z0-9_-])${escaped}($|[^A-Za-z0-9_-])`);
}

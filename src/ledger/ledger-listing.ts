/**
 * The Fleet API's transaction list served from the ledger, for the live feed: when the ledger is
 * on, the ledger sync is the only reader of the API's list, and the feed reads the same newest-first
 * list (by date, then the API's own order within a millisecond) from the stored copy. An idle
 * moment then costs one API request in all (the sync's poll), and the feed's late sweep
 * compares what the ledger stored (`storedEntriesSince`) with what it posted. Balances and payouts
 * still go to the API.
 */
import type { Balances, FleetApi, PayoutKind, PayoutRequestOf, PayoutResult, Transaction, TransactionListPage } from '../fleet/schemas.js';
import { SourceNotReadyError } from '../fleet/errors.js';
import type { Queryable } from '../store/db.js';

/**
 * Thrown until the ledger's first poll, and for a read past the stored entries while the history is
 * still loading: a short page then means "not loaded yet", not "the end of the list".
 */
class LedgerNotReadyError extends SourceNotReadyError {
  constructor(message = 'the ledger has not read the Fleet API yet') {
    super(message);
    this.name = 'LedgerNotReadyError';
  }
}

interface ListedRow {
  reference: string;
  type: string;
  amount: string;
  currency: string;
  description: string;
  date_text: string;
  status: string;
}

const LISTED_COLUMNS = 'reference, type, amount::text AS amount, currency, description, date_text, status';

/** A stored entry as the API listed it: the feed keys what it posted on these fields, read one way everywhere. */
function asListed(row: ListedRow): Transaction {
  return {
    reference: row.reference,
    type: row.type,
    amount: Number(row.amount),
    currency: row.currency,
    description: row.description,
    date: row.date_text,
    status: row.status,
  };
}

/** An entry of the ledger with its place in the order the ledger stored entries (`seq`). */
export interface StoredListedEntry {
  position: number;
  transaction: Transaction;
}

/**
 * Entries stored after `afterPosition` (the ledger's insertion order) and dated at or after `fromMs`,
 * in insertion order, at most `limit`. Without a position, from the first entry dated at or after
 * `fromMs`: the date index finds it, so a first read does not walk the whole history.
 */
export async function storedEntriesSince(db: Queryable, afterPosition: number | undefined, fromMs: number, limit: number): Promise<StoredListedEntry[]> {
  const from = new Date(fromMs).toISOString();
  let after = afterPosition;
  if (after === undefined) {
    const { rows } = await db.query<{ first: string | number | null }>('SELECT min(seq) AS first FROM ledger_entries WHERE entry_at >= $1::timestamptz', [
      from,
    ]);
    if (rows[0]?.first === null || rows[0] === undefined) return [];
    after = Number(rows[0].first) - 1;
  }
  const { rows } = await db.query<ListedRow & { seq: string | number }>(
    `SELECT seq, ${LISTED_COLUMNS} FROM ledger_entries WHERE seq > $1 AND entry_at >= $2::timestamptz ORDER BY seq LIMIT $3`,
    [after, from, Math.max(1, Math.floor(limit))],
  );
  return rows.map((row) => ({ position: Number(row.seq), transaction: asListed(row) }));
}

export class LedgerListing implements FleetApi {
  private ready = false;
  private historyComplete = false;

  constructor(
    private readonly db: Queryable,
    private readonly fleet: FleetApi,
  ) {}

  async listTransactions(page: { limit?: number; offset?: number } = {}, options: { signal?: AbortSignal } = {}): Promise<TransactionListPage> {
    options.signal?.throwIfAborted();
    if (!this.ready) {
      const { rows } = await this.db.query<{ last_poll_at: unknown }>('SELECT last_poll_at FROM ledger_sync_state WHERE id = 1');
      if (rows[0]?.last_poll_at === null || rows[0] === undefined) throw new LedgerNotReadyError();
      this.ready = true;
    }
    const limit = Math.min(Math.max(Math.floor(page.limit ?? 50), 1), 100);
    const offset = Math.max(Math.floor(page.offset ?? 0), 0);
    // A poll stores a batch oldest first, so within a millisecond the later insertion is the newer, as in the API.
    const { rows } = await this.db.query<ListedRow>(
      `SELECT ${LISTED_COLUMNS} FROM ledger_entries ORDER BY entry_at DESC, seq DESC LIMIT ${limit} OFFSET ${offset}`,
    );
    const transactions = rows.map(asListed);
    if (transactions.length < limit && !(await this.isHistoryComplete())) {
      throw new LedgerNotReadyError('the ledger is still loading the history this far down the list');
    }
    return { transactions, received: transactions.length, malformed: 0 };
  }

  private async isHistoryComplete(): Promise<boolean> {
    if (!this.historyComplete) {
      const { rows } = await this.db.query<{ history_complete: boolean }>('SELECT history_complete FROM ledger_sync_state WHERE id = 1');
      this.historyComplete = rows[0]?.history_complete === true;
    }
    return this.historyComplete;
  }

  getBalance(options?: { signal?: AbortSignal }): Promise<Balances> {
    return this.fleet.getBalance(options);
  }

  payout<K extends PayoutKind>(kind: K, request: PayoutRequestOf<K>): Promise<PayoutResult> {
    return this.fleet.payout(kind, request);
  }
}

/**
 * The Fleet API's transaction list served from the ledger, for the live feed: when the ledger is
 * on, the ledger sync is the only reader of the API's list, and the feed reads the same newest-first
 * list (by date, then the API's own order within a millisecond) from the stored copy. An idle
 * moment then costs one small API request in all (the sync's poll), and the feed's late sweep
 * reads the ledger instead of the API. Balances and payouts still go to the API.
 */
import type { Balances, BankAccountPayoutRequest, FleetApi, MobileMoneyPayoutRequest, PayoutResult, TransactionListPage } from '../fleet/schemas.js';
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
    const { rows } = await this.db.query<{ reference: string; type: string; amount: string; currency: string; description: string; date_text: string; status: string }>(
      `SELECT reference, type, amount::text AS amount, currency, description, date_text, status
         FROM ledger_entries ORDER BY entry_at DESC, seq DESC LIMIT ${limit} OFFSET ${offset}`,
    );
    const transactions = rows.map((row) => ({
      reference: row.reference, type: row.type, amount: Number(row.amount), currency: row.currency,
      description: row.description, date: row.date_text, status: row.status,
    }));
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

  payoutMobileMoney(request: MobileMoneyPayoutRequest): Promise<PayoutResult> {
    return this.fleet.payoutMobileMoney(request);
  }

  payoutBankAccount(request: BankAccountPayoutRequest): Promise<PayoutResult> {
    return this.fleet.payoutBankAccount(request);
  }
}

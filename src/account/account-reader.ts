/**
 * Read side of the fleet account: the balance (cached briefly, with concurrent lookups sharing one
 * upstream call) and pages of the transaction list in the numbering people use (page 1, 2, …).
 */
import NodeCache from 'node-cache';
import type { Clock } from '../core/clock.js';
import type { Balances, FleetApi, Transaction } from '../fleet/schemas.js';

export interface BalanceReading {
  balances: Balances;
  readAt: Date;
}

export interface TransactionPage {
  page: number;
  pageSize: number;
  /** 1-based position of the first item shown; 0 when the page is empty. */
  firstItem: number;
  transactions: Transaction[];
  hasNext: boolean;
  readAt: Date;
}

export const MAX_PAGE_SIZE = 25;
export const DEFAULT_PAGE_SIZE = 10;

export class AccountReader {
  private readonly cache: NodeCache;
  private inFlight: Promise<BalanceReading> | undefined;

  constructor(
    private readonly fleet: FleetApi,
    private readonly clock: Clock,
    options: { balanceCacheSeconds?: number } = {},
  ) {
    this.cache = new NodeCache({ stdTTL: options.balanceCacheSeconds ?? 5, useClones: false });
  }

  /** A recent reading from the cache, or one shared upstream call; `fresh` skips the cache. */
  async balance(options: { fresh?: boolean; signal?: AbortSignal } = {}): Promise<BalanceReading> {
    if (!options.fresh) {
      const cached = this.cache.get<BalanceReading>('balance');
      if (cached) return cached;
    }
    // Only one upstream call at a time: everyone waiting shares its answer, fresh or not.
    this.inFlight ??= this.fleet
      .getBalance({ signal: options.signal })
      .then((balances) => {
        const reading = { balances, readAt: this.clock.now() };
        this.cache.set('balance', reading);
        return reading;
      })
      .finally(() => {
        this.inFlight = undefined;
      });
    return this.inFlight;
  }

  /** Page `page` (1-based) of the newest-first list; one extra item is read to know if a next page exists. */
  async transactions(page: number, pageSize: number, options: { signal?: AbortSignal } = {}): Promise<TransactionPage> {
    const size = Math.min(Math.max(Math.trunc(pageSize), 1), MAX_PAGE_SIZE);
    const number = Math.max(Math.trunc(page), 1);
    const offset = (number - 1) * size;
    const read = await this.fleet.listTransactions({ limit: size + 1, offset }, { signal: options.signal });
    const transactions = read.transactions.slice(0, size);
    return {
      page: number,
      pageSize: size,
      firstItem: transactions.length > 0 ? offset + 1 : 0,
      transactions,
      hasNext: read.received > size,
      readAt: this.clock.now(),
    };
  }

  close(): void {
    this.cache.close();
  }
}

/** The Fleet API over HTTP: one thin method per endpoint on top of the request core in http.ts. */
import type { Logger } from '../core/logger.js';
import { FleetHttp, type FleetHttpOptions } from './http.js';
import {
  balanceResponseSchema,
  PAYOUT_PATHS,
  PAYOUT_RESPONSE_SCHEMAS,
  transactionListResponseSchema,
  type Balances,
  type FleetApi,
  type PayoutKind,
  type PayoutRequestOf,
  type PayoutResult,
  type Transaction,
  type TransactionListPage,
  transactionSchema,
} from './schemas.js';

export type FleetClientOptions = FleetHttpOptions;
export { DEFAULT_FLEET_REQUESTS_PER_SECOND } from './budget.js';

const TRANSACTIONS_DEFAULT_LIMIT = 50;
const TRANSACTIONS_MAX_LIMIT = 100;

export class FleetClient implements FleetApi {
  private readonly http: FleetHttp;
  private readonly logger: Logger | undefined;

  constructor(options: FleetClientOptions) {
    this.http = new FleetHttp(options);
    this.logger = options.logger;
  }

  async getBalance(options: { signal?: AbortSignal } = {}): Promise<Balances> {
    const response = await this.http.request({
      method: 'GET',
      path: '/api/v1/b2b/account/balance',
      schema: balanceResponseSchema,
      signal: options.signal,
    });
    return response.balances;
  }

  async listTransactions(page: { limit?: number; offset?: number } = {}, options: { signal?: AbortSignal } = {}): Promise<TransactionListPage> {
    const offset = clampOffset(page.offset);
    const response = await this.http.request({
      method: 'GET',
      path: '/api/v1/b2b/account/transactions',
      query: { limit: clampLimit(page.limit), offset },
      schema: transactionListResponseSchema,
      signal: options.signal,
    });
    const transactions: Transaction[] = [];
    let malformed = 0;
    response.transactions.forEach((entry, index) => {
      const parsed = transactionSchema.safeParse(entry);
      if (parsed.success) {
        transactions.push(parsed.data);
        return;
      }
      malformed += 1;
      // Field names and zod's codes only: an entry's values may hold people's names and numbers.
      const problems = parsed.error.issues.slice(0, 5).map((issue) => `${issue.path.map(String).join('.') || 'entry'}: ${issue.code}`);
      this.logger?.warn({ position: offset + index, problems }, 'skipped a malformed transaction list entry');
    });
    return { transactions, received: response.transactions.length, malformed };
  }

  async payout<K extends PayoutKind>(kind: K, request: PayoutRequestOf<K>): Promise<PayoutResult> {
    const response = await this.http.request({
      method: 'POST',
      path: PAYOUT_PATHS[kind],
      body: request,
      schema: PAYOUT_RESPONSE_SCHEMAS[kind],
    });
    return { transactionId: response.transactionId, message: response.message };
  }

  /** Sends nothing more; waits for requests in flight, then closes its connections unless they are shared. */
  async close(): Promise<void> {
    await this.http.close();
  }
}

/** Whole numbers from 1 to 100; anything unusable falls back to the API's default of 50. */
export function clampLimit(limit: number | undefined): number {
  if (limit === undefined || !Number.isFinite(limit)) return TRANSACTIONS_DEFAULT_LIMIT;
  return Math.min(TRANSACTIONS_MAX_LIMIT, Math.max(1, Math.trunc(limit)));
}

function clampOffset(offset: number | undefined): number {
  if (offset === undefined || !Number.isFinite(offset)) return 0;
  return Math.max(0, Math.trunc(offset));
}

/**
 * One fleet account of the sandbox, reached by its API key: its ledger, payouts, request log and
 * faults, and the router that answers for it. One server may hold several, one per partner key.
 */
import { randomBytes } from 'node:crypto';
import type { Clock } from '../core/clock.js';
import type { Transaction } from '../fleet/schemas.js';
import { generateTransaction, seedLedger, seededRandom, uniqueTransaction, type GeneratorContext } from './data.js';
import type { Reply } from './replies.js';
import { createRouter, type RoutedRequest, type SandboxPayout } from './routes.js';

export interface SandboxAccountOptions {
  /** Generated as `sk_sandbox_…` when absent. */
  apiKey?: string;
  seed?: number;
  /** Seeded from `seed` when absent. */
  random?: () => number;
  /** Seeded transactions; 320 when absent. */
  transactionCount?: number;
}

export interface SandboxFault {
  match?: { method?: string; path?: string };
  latencyMs?: number;
  status?: number;
  retryAfterSeconds?: number;
  /** Never answer until close(). */
  hang?: boolean;
  /** For payouts: do the payout, then fail or hang the response. */
  afterProcessing?: boolean;
  /** Applies to this many matching requests, then clears itself; forever when absent. */
  times?: number;
}

export interface SandboxRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  body?: unknown;
  at: Date;
  status?: number;
}

/** What a test or the demo can see and do with one account. */
export interface SandboxFleetAccount {
  apiKey: string;
  balances(): Record<string, number>;
  /** Newest first; a copy. */
  transactions(): Transaction[];
  /** Adds one (random unless given) and moves the balance of its currency. */
  addTransaction(partial?: Partial<Transaction>): Transaction;
  addTransactions(n: number, partial?: Partial<Transaction>): Transaction[];
  /** A new entry with some fields replaced by values the spec does not allow (`{ amount: '1,50' }`); balances unchanged. */
  addMalformedTransaction(broken: Record<string, unknown>): void;
  /** A fault for the requests carrying this account's key only. */
  setFault(fault: SandboxFault | null): void;
  /** The requests carrying this account's key. */
  readonly requests: SandboxRequest[];
  payouts(): SandboxPayout[];
}

/** The account as the server holds it: what the public side sees, plus what serving needs. */
export interface OpenAccount {
  view: SandboxFleetAccount;
  faults: FaultSlot;
  route(request: RoutedRequest): Reply;
}

/** One fault at a time, matched by method and path prefix, counting itself down. */
export class FaultSlot {
  private fault: SandboxFault | null = null;

  set(next: SandboxFault | null): void {
    this.fault = next ? { ...next } : null;
  }

  take(method: string, path: string): SandboxFault | null {
    const current = this.fault;
    if (!current) return null;
    const { match } = current;
    if (match?.method && match.method.toUpperCase() !== method) return null;
    if (match?.path && !path.startsWith(match.path)) return null;
    if (current.times !== undefined) {
      const remaining = current.times - 1;
      this.fault = remaining > 0 ? { ...current, times: remaining } : null;
    }
    return current;
  }
}

export function openAccount(options: SandboxAccountOptions, shared: { clock: Clock; currencies: string[]; operators: string[] }): OpenAccount {
  const { clock } = shared;
  const apiKey = options.apiKey ?? `sk_sandbox_${randomBytes(18).toString('base64url')}`;
  const context: GeneratorContext = {
    random: options.random ?? seededRandom(options.seed ?? 20261121),
    currencies: shared.currencies,
    operators: shared.operators,
  };
  const ledger = seedLedger(context, clock.now(), options.transactionCount ?? 320);
  const requests: SandboxRequest[] = [];
  const payouts: SandboxPayout[] = [];
  const faults = new FaultSlot();
  let added = 0;

  const addTransaction = (partial: Partial<Transaction> = {}): Transaction => {
    // Generate in the requested currency and kind, so that the fields not given still fit together.
    const shaped = partial.currency ? { ...context, currencies: [partial.currency] } : context;
    const kind = partial.type === 'PAYMENT' || partial.type === 'B2B_JIT_FUNDING' ? partial.type : undefined;
    return ledger.add(uniqueTransaction(ledger, () => ({ ...generateTransaction(shaped, clock.now(), added++, kind), ...partial })));
  };

  return {
    faults,
    route: createRouter({ apiKey, ledger, context, clock, payouts }),
    view: {
      apiKey,
      requests,
      balances: () => ledger.balances(),
      transactions: () => ledger.transactions(),
      addTransaction,
      addTransactions: (n, partial) => Array.from({ length: n }, () => addTransaction(partial)),
      addMalformedTransaction: (broken) => ledger.addMalformed(generateTransaction(context, clock.now(), added++), broken),
      setFault: (next) => faults.set(next),
      payouts: () => payouts.map((done) => ({ ...done })),
    },
  };
}

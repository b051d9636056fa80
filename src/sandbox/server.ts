/**
 * A local stand-in for the Fleet API, faithful to the spec and strict where the spec is silent,
 * with seeded data, optional live activity and injectable faults for tests and demos.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { systemClock, type Clock } from '../core/clock.js';
import type { Transaction } from '../fleet/schemas.js';
import { generateTransaction, seedLedger, seededRandom, uniqueTransaction, type GeneratorContext } from './data.js';
import { errorReply, MAX_BODY_BYTES, readBody, type Reply } from './replies.js';
import { createRouter, type SandboxPayout } from './routes.js';

export interface SandboxOptions {
  /** 0 (the default) picks a free port. */
  port?: number;
  host?: string;
  /** Generated as `sk_sandbox_…` when absent. */
  apiKey?: string;
  seed?: number;
  transactionCount?: number;
  /** Dates of seeded and new transactions. Fault latency and activity use real timers. */
  clock?: Clock;
  /** Seeded from `seed` when absent. */
  random?: () => number;
  /** 0 = off; otherwise a new random PAYMENT or B2B_JIT_FUNDING every N ms. */
  activityIntervalMs?: number;
  operators?: string[];
  currencies?: string[];
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

export interface Sandbox {
  url: string;
  apiKey: string;
  close(): Promise<void>;
  balances(): Record<string, number>;
  /** Newest first; a copy. */
  transactions(): Transaction[];
  /** Adds one (random unless given) and moves the balance of its currency. */
  addTransaction(partial?: Partial<Transaction>): Transaction;
  addTransactions(n: number, partial?: Partial<Transaction>): Transaction[];
  /** A new entry with some fields replaced by values the spec does not allow (`{ amount: '1,50' }`); balances unchanged. */
  addMalformedTransaction(broken: Record<string, unknown>): void;
  setFault(fault: SandboxFault | null): void;
  readonly requests: SandboxRequest[];
  payouts(): SandboxPayout[];
}

const DEFAULT_OPERATORS = ['VODACOM_MPESA', 'ORANGE_MONEY', 'AIRTEL_MONEY', 'AFRICELL_MONEY'];
const DEFAULT_CURRENCIES = ['USD', 'EUR', 'CDF'];

export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const clock = options.clock ?? systemClock;
  const apiKey = options.apiKey ?? `sk_sandbox_${randomBytes(18).toString('base64url')}`;
  const context: GeneratorContext = {
    random: options.random ?? seededRandom(options.seed ?? 20261121),
    currencies: options.currencies ?? DEFAULT_CURRENCIES,
    operators: options.operators ?? DEFAULT_OPERATORS,
  };
  const ledger = seedLedger(context, clock.now(), options.transactionCount ?? 320);
  const requests: SandboxRequest[] = [];
  const payouts: SandboxPayout[] = [];
  const parked = new Set<ServerResponse>();
  const timers = new Set<NodeJS.Timeout>();
  let fault: SandboxFault | null = null;
  let added = 0;

  const addTransaction = (partial: Partial<Transaction> = {}): Transaction => {
    // Generate in the requested currency and kind, so that the fields not given still fit together.
    const shaped = partial.currency ? { ...context, currencies: [partial.currency] } : context;
    const kind = partial.type === 'PAYMENT' || partial.type === 'B2B_JIT_FUNDING' ? partial.type : undefined;
    return ledger.add(uniqueTransaction(ledger, () => ({ ...generateTransaction(shaped, clock.now(), added++, kind), ...partial })));
  };

  const takeFault = (method: string, path: string): SandboxFault | null => {
    const current = fault;
    if (!current) return null;
    const { match } = current;
    if (match?.method && match.method.toUpperCase() !== method) return null;
    if (match?.path && !path.startsWith(match.path)) return null;
    if (current.times !== undefined) {
      const remaining = current.times - 1;
      fault = remaining > 0 ? { ...current, times: remaining } : null;
    }
    return current;
  };

  const wait = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        timers.delete(timer);
        resolve();
      }, ms);
      timers.add(timer);
    });

  const route = createRouter({ apiKey, ledger, context, clock, payouts });

  const handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const url = new URL(request.url ?? '/', 'http://sandbox.local');
    const method = (request.method ?? 'GET').toUpperCase();
    const record: SandboxRequest = { method, path: url.pathname, query: Object.fromEntries(url.searchParams), at: clock.now() };
    requests.push(record);
    const send = (reply: Reply) => {
      record.status = reply.status;
      response.writeHead(reply.status, { 'content-type': 'application/json; charset=utf-8', ...reply.headers });
      response.end(JSON.stringify(reply.body));
    };
    const raw = await readBody(request);
    if (raw === null) return send(errorReply(413, `The body is larger than ${MAX_BODY_BYTES} bytes.`));
    let body: unknown;
    if (raw !== '') {
      try {
        body = JSON.parse(raw) as unknown;
      } catch {
        record.body = raw;
        return send(errorReply(400, 'The request body is not valid JSON.'));
      }
      record.body = body;
    }
    const active = takeFault(method, url.pathname);
    if (active?.latencyMs) await wait(active.latencyMs);
    const misbehave = (): boolean => {
      if (!active) return false;
      if (active.hang) {
        parked.add(response);
        response.on('close', () => parked.delete(response));
        return true;
      }
      if (active.status === undefined) return false;
      const reply = errorReply(active.status, `Sandbox fault: HTTP ${active.status}.`);
      if (active.retryAfterSeconds !== undefined) reply.headers = { 'retry-after': String(active.retryAfterSeconds) };
      send(reply);
      return true;
    };
    if (!active?.afterProcessing && misbehave()) return;
    const reply = route({ method, headers: request.headers, url, body });
    if (active?.afterProcessing && misbehave()) return;
    send(reply);
  };

  const server = createServer((request, response) => {
    handle(request, response).catch(() => {
      if (!response.headersSent) response.writeHead(500, { 'content-type': 'application/json' });
      response.end(JSON.stringify(errorReply(500, 'The sandbox failed unexpectedly.').body));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;

  if (options.activityIntervalMs && options.activityIntervalMs > 0) {
    const activity = setInterval(() => addTransaction(), options.activityIntervalMs);
    activity.unref();
    timers.add(activity);
  }

  let closing: Promise<void> | undefined;
  return {
    url: `http://${host}:${address.port}`,
    apiKey,
    requests,
    balances: () => ledger.balances(),
    transactions: () => ledger.transactions(),
    addTransaction,
    addTransactions: (n, partial) => Array.from({ length: n }, () => addTransaction(partial)),
    addMalformedTransaction: (broken) => ledger.addMalformed(generateTransaction(context, clock.now(), added++), broken),
    setFault: (next) => {
      fault = next ? { ...next } : null;
    },
    payouts: () => payouts.map((done) => ({ ...done })),
    close: () => {
      closing ??= new Promise<void>((resolve) => {
        for (const timer of timers) clearTimeout(timer);
        timers.clear();
        for (const response of parked) response.destroy();
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closing;
    },
  };
}

/**
 * A local stand-in for the Fleet API, faithful to the spec and strict where the spec is silent,
 * with seeded data, optional live activity and injectable faults for tests and demos.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { systemClock, type Clock } from '../core/clock.js';
import type { Transaction } from '../fleet/schemas.js';
import {
  FaultSlot,
  openAccount,
  type OpenAccount,
  type SandboxAccountOptions,
  type SandboxFault,
  type SandboxFleetAccount,
  type SandboxRequest,
} from './account.js';
import { authorized, errorReply, MAX_BODY_BYTES, readBody, type Reply } from './replies.js';
import type { SandboxPayout } from './routes.js';

export type { SandboxAccountOptions, SandboxFault, SandboxFleetAccount, SandboxRequest };

export interface SandboxOptions {
  /** 0 (the default) picks a free port. */
  port?: number;
  host?: string;
  /** The first account's key; generated as `sk_sandbox_…` when absent. */
  apiKey?: string;
  /** The first account's seed; a further account without one gets this plus its position. */
  seed?: number;
  /** The first account's seeded transactions (320 when absent). */
  transactionCount?: number;
  /**
   * Every fleet account the server serves, one per key, the first being the default one (`url`, `apiKey`,
   * `balances()`…); the fields above are the first account's defaults. One account when absent.
   */
  accounts?: SandboxAccountOptions[];
  /** Dates of seeded and new transactions. Fault latency and activity use real timers. */
  clock?: Clock;
  /** The first account's randomness; seeded from `seed` when absent. */
  random?: () => number;
  /** 0 = off; otherwise a new random PAYMENT or B2B_JIT_FUNDING in every account every N ms. */
  activityIntervalMs?: number;
  operators?: string[];
  currencies?: string[];
}

export interface Sandbox {
  url: string;
  /** The first account's key. */
  apiKey: string;
  close(): Promise<void>;
  /** The first account's balances. */
  balances(): Record<string, number>;
  /** The first account's transactions, newest first; a copy. */
  transactions(): Transaction[];
  /** Adds one to the first account (random unless given) and moves the balance of its currency. */
  addTransaction(partial?: Partial<Transaction>): Transaction;
  addTransactions(n: number, partial?: Partial<Transaction>): Transaction[];
  /** A new entry with some fields replaced by values the spec does not allow (`{ amount: '1,50' }`); balances unchanged. */
  addMalformedTransaction(broken: Record<string, unknown>): void;
  /** A fault for every request the server gets, whatever its key (each account also has one of its own). */
  setFault(fault: SandboxFault | null): void;
  /** Every request the server got, whatever its key. */
  readonly requests: SandboxRequest[];
  /** The first account's payouts. */
  payouts(): SandboxPayout[];
  /** Every account, the first (default) one first. */
  readonly accounts: readonly SandboxFleetAccount[];
  /** The account of this key; throws when no account has it. */
  account(apiKey: string): SandboxFleetAccount;
}

const DEFAULT_OPERATORS = ['VODACOM_MPESA', 'ORANGE_MONEY', 'AIRTEL_MONEY', 'AFRICELL_MONEY'];
const DEFAULT_CURRENCIES = ['USD', 'EUR', 'CDF'];
const DEFAULT_SEED = 20261121;

export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const clock = options.clock ?? systemClock;
  const shared = { clock, currencies: options.currencies ?? DEFAULT_CURRENCIES, operators: options.operators ?? DEFAULT_OPERATORS };
  const opened = accountOptions(options).map((each) => openAccount(each, shared));
  const keys = new Set(opened.map((each) => each.view.apiKey));
  if (keys.size !== opened.length) throw new Error('Each sandbox account needs a key of its own.');
  const [first] = opened;
  if (!first) throw new Error('The sandbox needs at least one account.');
  const requests: SandboxRequest[] = [];
  const parked = new Set<ServerResponse>();
  const timers = new Set<NodeJS.Timeout>();
  const serverFaults = new FaultSlot();

  // Compares the key with every account's, each in constant time, so the answer's timing names none.
  const accountOf = (header: string | undefined): OpenAccount | undefined => {
    let found: OpenAccount | undefined;
    for (const each of opened) if (authorized(header, each.view.apiKey)) found ??= each;
    return found;
  };

  const wait = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        timers.delete(timer);
        resolve();
      }, ms);
      timers.add(timer);
    });

  const handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const url = new URL(request.url ?? '/', 'http://sandbox.local');
    const method = (request.method ?? 'GET').toUpperCase();
    const record: SandboxRequest = { method, path: url.pathname, query: Object.fromEntries(url.searchParams), at: clock.now() };
    requests.push(record);
    const account = accountOf(request.headers.authorization);
    account?.view.requests.push(record);
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
    const active = serverFaults.take(method, url.pathname) ?? account?.faults.take(method, url.pathname) ?? null;
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
    const reply = account ? account.route({ method, headers: request.headers, url, body }) : errorReply(401, 'Missing or invalid API key.');
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
    const activity = setInterval(() => {
      for (const each of opened) each.view.addTransaction();
    }, options.activityIntervalMs);
    activity.unref();
    timers.add(activity);
  }

  let closing: Promise<void> | undefined;
  return {
    // The first account's helpers, except for the request log and the fault, which are the server's.
    ...first.view,
    url: `http://${host}:${address.port}`,
    requests,
    setFault: (next) => serverFaults.set(next),
    accounts: opened.map((each) => each.view),
    account: (apiKey) => {
      const found = opened.find((each) => each.view.apiKey === apiKey);
      if (!found) throw new Error('No sandbox account has this key.');
      return found.view;
    },
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

/** The accounts asked for, the top-level fields filling in the first one, and seeds that differ between accounts. */
function accountOptions(options: SandboxOptions): SandboxAccountOptions[] {
  const [first = {}, ...others] = options.accounts ?? [{}];
  const seed = first.seed ?? options.seed ?? DEFAULT_SEED;
  const defaults: SandboxAccountOptions = {
    ...(options.apiKey === undefined ? {} : { apiKey: options.apiKey }),
    ...(options.random === undefined ? {} : { random: options.random }),
    ...(options.transactionCount === undefined ? {} : { transactionCount: options.transactionCount }),
    ...first,
    seed,
  };
  return [defaults, ...others.map((each, index) => ({ ...each, seed: each.seed ?? seed + index + 1 }))];
}

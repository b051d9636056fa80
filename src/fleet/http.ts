/**
 * The Fleet API request core: keep-alive connections (its own, or shared by the clients of many
 * workspaces), the Bearer key, timeouts, zod parsing of every answer, typed errors, retries for reads
 * only (a payout POST is sent exactly once), and an optional request budget that every attempt waits for.
 */
import { Agent, type Dispatcher } from 'undici';
import type { z } from 'zod';
import { systemClock, type Clock } from '../core/clock.js';
import type { Logger } from '../core/logger.js';
import {
  FleetAuthError,
  FleetBadResponseError,
  FleetConnectionError,
  FleetNotFoundError,
  FleetRateLimitError,
  FleetRejectedError,
  FleetTimeoutError,
  FleetUnavailableError,
  type FleetError,
} from './errors.js';
import { RATE_LIMIT_PAUSE_MS, RequestBudget } from './budget.js';
import { backoffDelayMs, defaultRetryPolicy, parseRetryAfter, type RetryPolicy } from './retry.js';

export interface FleetHttpOptions {
  baseUrl: string;
  apiKey: string;
  logger?: Logger;
  clock?: Clock;
  random?: () => number;
  timeouts?: { connectMs?: number; headersMs?: number; bodyMs?: number };
  /**
   * Connections shared with other clients (`fleetConnectionPool()`), each still with its own key and
   * budget; their owner closes them. By default the client opens its own (connect timeout `timeouts.connectMs`).
   */
  connections?: Dispatcher;
  retry?: Partial<RetryPolicy>;
  /**
   * At most this many requests a second with this key (a token bucket, burst = the rate, first come first
   * served; retries count). Absent = no budget. A 429 pauses it for Retry-After (1 s when none, at most
   * `retry.maxRetryAfterMs`). The app passes FLEET_REQUESTS_PER_SECOND (default `DEFAULT_FLEET_REQUESTS_PER_SECOND`).
   */
  requestsPerSecond?: number;
  /** Told of every attempt once it ends: method, path (without query), HTTP status if one came, seconds. */
  observe?: (call: { method: string; path: string; status: number | undefined; seconds: number }) => void;
}

export interface FleetRequest<T> {
  method: 'GET' | 'POST';
  /** Path from the API root, such as `/api/v1/b2b/account/balance`. */
  path: string;
  query?: Record<string, string | number>;
  body?: unknown;
  schema: z.ZodType<T>;
  signal?: AbortSignal;
}

type Attempt<T> = { ok: true; value: T } | { ok: false; error: FleetError; retryable: boolean; retryAfterMs?: number; rateLimited?: boolean };

// Failures that happen before a single byte of the request left: the service cannot have acted on it.
const NEVER_SENT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'EADDRNOTAVAIL', 'UND_ERR_CONNECT_TIMEOUT']);
const RETRYABLE_STATUSES = new Set([502, 503, 504]);
const MAX_RESPONSE_BYTES = 4 * 1024 * 1024;
const API_MESSAGE_MAX_CHARS = 200;
// eslint-disable-next-line no-control-regex -- stripping control characters is the point
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]+/g;

/**
 * Keep-alive connections to the Fleet API for any number of clients: hosted mode's workspaces share
 * one per replica, so that a workspace's request finds a warm connection instead of opening its own
 * (one per workspace, each closed after 4 idle seconds between two polls). Carries no key.
 */
export function fleetConnectionPool(connectMs = 5000): Agent {
  return new Agent({ connect: { timeout: connectMs }, keepAliveTimeout: 4000, maxResponseSize: MAX_RESPONSE_BYTES });
}

export class FleetHttp {
  private readonly connections: Dispatcher;
  private readonly ownsConnections: boolean;
  private readonly origin: string;
  /** Attempts on the wire, waited for by `close()` (not a retry's wait between two). */
  private readonly inFlight = new Set<Promise<unknown>>();
  private readonly headersMs: number;
  private readonly bodyMs: number;
  private readonly pathPrefix: string;
  private readonly apiKey: string;
  private readonly logger: Logger | undefined;
  private readonly clock: Clock;
  private readonly random: () => number;
  private readonly retry: RetryPolicy;
  private readonly observe: FleetHttpOptions['observe'];
  private readonly budget: RequestBudget | undefined;
  private closing: Promise<void> | undefined;

  constructor(options: FleetHttpOptions) {
    let base: URL;
    try {
      base = new URL(options.baseUrl);
    } catch {
      throw new Error('The Fleet API base URL is not a valid URL.');
    }
    if (base.protocol !== 'http:' && base.protocol !== 'https:') throw new Error('The Fleet API base URL must be http(s).');
    // A key with line breaks would let the header be split; say so without echoing it.
    if (!options.apiKey || /[\r\n]/.test(options.apiKey)) throw new Error('The Fleet API key is empty or contains a line break.');
    this.apiKey = options.apiKey;
    this.pathPrefix = base.pathname.replace(/\/+$/, '');
    this.logger = options.logger;
    this.clock = options.clock ?? systemClock;
    this.random = options.random ?? Math.random;
    this.retry = { ...defaultRetryPolicy, ...options.retry };
    this.observe = options.observe;
    this.budget = options.requestsPerSecond === undefined ? undefined : new RequestBudget(options.requestsPerSecond, this.clock);
    this.origin = base.origin;
    this.headersMs = options.timeouts?.headersMs ?? 10_000;
    this.bodyMs = options.timeouts?.bodyMs ?? 10_000;
    this.ownsConnections = options.connections === undefined;
    this.connections = options.connections ?? fleetConnectionPool(options.timeouts?.connectMs);
  }

  async request<T>(request: FleetRequest<T>): Promise<T> {
    const maxAttempts = request.method === 'GET' ? Math.max(1, this.retry.maxAttempts) : 1;
    for (let attempt = 1; ; attempt++) {
      request.signal?.throwIfAborted();
      await this.budget?.take(request.signal);
      const result = await this.attempt(request, attempt);
      if (result.ok) return result.value;
      if (result.rateLimited && this.budget) {
        const pauseMs = Math.min(result.retryAfterMs ?? RATE_LIMIT_PAUSE_MS, this.retry.maxRetryAfterMs);
        this.budget.pause(pauseMs);
        this.logger?.warn({ method: request.method, path: request.path, pauseMs }, 'fleet api answered 429: this key waits before its next request');
      }
      if (!result.retryable || attempt >= maxAttempts) throw result.error;
      // With a budget, its pause already holds this retry (and every request behind it) for the Retry-After.
      if (this.budget && result.rateLimited) continue;
      await this.clock.sleep(result.retryAfterMs ?? backoffDelayMs(attempt, this.retry, this.random), request.signal);
    }
  }

  /**
   * Requests still waiting for the budget, and any asked for later, fail as never sent; those in
   * flight are waited for. Connections shared with other clients stay open. Safe to call twice.
   */
  close(): Promise<void> {
    this.budget?.close(closedError());
    this.closing ??= (async () => {
      await Promise.allSettled([...this.inFlight]);
      if (this.ownsConnections) await this.connections.close();
    })();
    return this.closing;
  }

  private async attempt<T>(request: FleetRequest<T>, attempt: number): Promise<Attempt<T>> {
    // Closed: nothing more leaves, even over connections other clients keep open.
    if (this.closing) return { ok: false, error: closedError(), retryable: false };
    const sent = this.exchange(request, attempt);
    this.inFlight.add(sent);
    try {
      return await sent;
    } finally {
      this.inFlight.delete(sent);
    }
  }

  private async exchange<T>(request: FleetRequest<T>, attempt: number): Promise<Attempt<T>> {
    const isPost = request.method === 'POST';
    const path = this.fullPath(request.path, request.query);
    const started = performance.now();
    const log = (fields: { status?: number; error?: string }) => {
      this.logger?.debug({ method: request.method, path, attempt, ms: Math.round(performance.now() - started), ...fields }, 'fleet api request');
      this.observe?.({ method: request.method, path: request.path, status: fields.status, seconds: (performance.now() - started) / 1000 });
    };

    let status: number;
    let headers: Record<string, string | string[] | undefined>;
    let text: string | undefined;
    try {
      const response = await this.connections.request({
        origin: this.origin,
        method: request.method,
        path,
        headersTimeout: this.headersMs,
        bodyTimeout: this.bodyMs,
        headers: {
          authorization: `Bearer ${this.apiKey}`,
          accept: 'application/json',
          ...(isPost ? { 'content-type': 'application/json' } : {}),
        },
        body: isPost ? JSON.stringify(request.body) : undefined,
        signal: request.signal,
      });
      status = response.statusCode;
      headers = response.headers;
      try {
        text = await response.body.text();
      } catch (error) {
        if (request.signal?.aborted) throw error;
        // The status line arrived; only a 2xx needs the body to be trusted.
        if (status >= 200 && status < 300) {
          log({ status, error: errorCode(error) });
          return { ok: false, error: transportError(error, isPost, true), retryable: !isPost };
        }
      }
    } catch (error) {
      if (request.signal?.aborted) throw request.signal.reason;
      log({ error: errorCode(error) });
      return { ok: false, error: transportError(error, isPost, false), retryable: !isPost };
    }
    log({ status });
    return this.interpret(request, status, headers, text);
  }

  private interpret<T>(request: FleetRequest<T>, status: number, headers: Record<string, string | string[] | undefined>, text: string | undefined): Attempt<T> {
    const isPost = request.method === 'POST';
    if (status >= 200 && status < 300) {
      const parsed = parseJson(text);
      if (!parsed.ok) return { ok: false, error: new FleetBadResponseError('not JSON', status, isPost), retryable: false };
      const result = request.schema.safeParse(parsed.value);
      if (!result.success) return { ok: false, error: new FleetBadResponseError(describeIssue(result.error, this.apiKey), status, isPost), retryable: false };
      return { ok: true, value: result.data };
    }
    if (status === 401 || status === 403) return { ok: false, error: new FleetAuthError(status), retryable: false };
    if (status === 404) return { ok: false, error: new FleetNotFoundError(status), retryable: false };
    const retryAfterMs = parseRetryAfter(headers['retry-after'], this.clock.now());
    if (status === 429) {
      const tooLong = retryAfterMs !== undefined && retryAfterMs > this.retry.maxRetryAfterMs;
      return { ok: false, error: new FleetRateLimitError(retryAfterMs), retryable: !isPost && !tooLong, retryAfterMs, rateLimited: true };
    }
    if (status >= 500) {
      const waitable = retryAfterMs === undefined || retryAfterMs <= this.retry.maxRetryAfterMs;
      return {
        ok: false,
        error: new FleetUnavailableError(status, isPost),
        retryable: !isPost && RETRYABLE_STATUSES.has(status) && waitable,
        retryAfterMs,
      };
    }
    if (status >= 400) {
      const apiError = readApiError(parseJson(text), this.apiKey);
      return { ok: false, error: new FleetRejectedError(status, apiError.message, apiError.code), retryable: false };
    }
    // 1xx/3xx: undici follows no redirects, and a payout must not be re-sent elsewhere anyway.
    return { ok: false, error: new FleetBadResponseError(`unexpected HTTP ${status}`, status, isPost), retryable: false };
  }

  private fullPath(path: string, query: Record<string, string | number> | undefined): string {
    const search = query ? new URLSearchParams(Object.entries(query).map(([key, value]): [string, string] => [key, String(value)])).toString() : '';
    return `${this.pathPrefix}${path}${search ? `?${search}` : ''}`;
  }
}

function closedError(): FleetConnectionError {
  return new FleetConnectionError(false, new Error('The Fleet client closed before this request was sent.'));
}

function errorCode(error: unknown): string {
  if (error && typeof error === 'object') {
    const { code, name } = error as { code?: unknown; name?: unknown };
    if (typeof code === 'string') return code;
    if (typeof name === 'string') return name;
  }
  return 'unknown';
}

/** True when every underlying failure happened while connecting (AggregateError comes from happy eyeballs). */
function neverSent(error: unknown): boolean {
  if (error instanceof AggregateError && error.errors.length > 0) return error.errors.every(neverSent);
  return NEVER_SENT_CODES.has(errorCode(error));
}

function transportError(error: unknown, isPost: boolean, afterHeaders: boolean): FleetError {
  const code = errorCode(error);
  const mayHaveActed = isPost && (afterHeaders || !neverSent(error));
  if (code === 'UND_ERR_RES_EXCEEDED_MAX_SIZE') return new FleetBadResponseError('response too large', undefined, isPost);
  if (code === 'UND_ERR_CONNECT_TIMEOUT' || code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT') {
    return new FleetTimeoutError(mayHaveActed, error);
  }
  return new FleetConnectionError(mayHaveActed, error);
}

function parseJson(text: string | undefined): { ok: true; value: unknown } | { ok: false } {
  if (text === undefined || text.trim() === '') return { ok: false };
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false };
  }
}

/**
 * Names where the answer went wrong (`transactions[3].amount`) without quoting any of it. Map keys are the
 * server's choice (an echoed key, mrkdwn): an odd-looking one shows as `[…]`, and a path holding the key is dropped.
 */
function describeIssue(error: z.ZodError, apiKey: string): string {
  const [first] = error.issues;
  if (!first) return 'unexpected shape';
  const path = first.path.reduce<string>((text, key) => (typeof key === 'number' ? `${text}[${key}]` : `${text}${text ? '.' : ''}${plainName(key)}`), '');
  const more = error.issues.length > 1 ? ` (and ${error.issues.length - 1} more)` : '';
  const described = `${path || 'body'}: ${first.message.slice(0, 100)}${more}`;
  return echoesKey(described, apiKey) ? `unexpected shape${more}` : described;
}

function plainName(key: PropertyKey): string {
  return typeof key === 'string' && /^[A-Za-z_]\w{0,31}$/.test(key) ? key : '[…]';
}

/** Finds the API's own message (`message`, `error`, or `error.message`) and its code, safe to show. */
function readApiError(parsed: ReturnType<typeof parseJson>, apiKey: string): { message?: string; code?: string } {
  if (!parsed.ok || !parsed.value || typeof parsed.value !== 'object') return {};
  const body = parsed.value as { message?: unknown; error?: unknown };
  const nested = body.error && typeof body.error === 'object' ? (body.error as { message?: unknown; code?: unknown }) : undefined;
  const raw =
    typeof body.message === 'string'
      ? body.message
      : typeof body.error === 'string'
        ? body.error
        : typeof nested?.message === 'string'
          ? nested.message
          : undefined;
  const code = typeof nested?.code === 'string' && /^[\w.-]{1,64}$/.test(nested.code) ? nested.code : undefined;
  const message = raw === undefined ? undefined : sanitizeApiMessage(raw, apiKey);
  return { ...(message ? { message } : {}), ...(code ? { code } : {}) };
}

function sanitizeApiMessage(raw: string, apiKey: string): string | undefined {
  const flat = raw.replace(CONTROL_CHARACTERS, ' ').replace(/\s+/g, ' ').trim();
  if (!flat || echoesKey(flat, apiKey)) return undefined;
  return flat.length > API_MESSAGE_MAX_CHARS ? `${flat.slice(0, API_MESSAGE_MAX_CHARS - 1)}…` : flat;
}

/** The whole key, or any 12-character run of it (a server may echo a truncated key). */
function echoesKey(text: string, apiKey: string): boolean {
  if (text.includes(apiKey)) return true;
  const run = 12;
  for (let start = 0; start + run <= apiKey.length; start++) {
    if (text.includes(apiKey.slice(start, start + run))) return true;
  }
  return false;
}

/**
 * `POST /api/<method>` as Slack serves it: form or JSON bodies, bearer-token auth, injected faults
 * (error codes, HTTP statuses, 429 with Retry-After), and a record of every call.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { SlackApiError, type ApiAuth, type ApiMethod } from './api-method.js';
import { isObject, type Json } from './blocks.js';
import type { TokenStatus } from './installation.js';
import type { ApiCall } from './types.js';

export interface Fault {
  error?: string;
  status?: number;
  retryAfterSeconds?: number;
}

export interface ApiEndpointOptions {
  /** Whether a bearer token is the workspace's bot token (or one it revoked: `token_revoked`). */
  botToken: (token: string | undefined) => TokenStatus;
  appToken: string | undefined;
  handlers: Record<string, ApiMethod>;
  /** The workflow step execution a function token (`xwfp-`) belongs to, while it is valid. */
  functionExecution?: (token: string | undefined) => string | undefined;
  /** `apps.connections.open`, answered only when Socket Mode is enabled. */
  openConnection: (() => string) | undefined;
  record: (call: ApiCall) => void;
  now: () => number;
  /** Slack's rate limits: the seconds to wait when this call is over its method's limit. */
  rateLimit?: (method: string, args: Json) => number | undefined;
  /** Waits as a round trip to Slack takes (the latency setting). */
  delay?: (() => Promise<void>) | undefined;
}

// Fields @slack/web-api sends as JSON strings inside a form body.
const JSON_FIELDS = new Set(['blocks', 'attachments', 'view', 'metadata', 'unfurls', 'files', 'outputs']);

export async function readBody(request: IncomingMessage): Promise<string> {
  return (await readBytes(request)).toString('utf8');
}

export async function readBytes(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

export function sendJson(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  response.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', ...headers });
  response.end(JSON.stringify(body));
}

export function parseArgs(raw: string, contentType: string): Json {
  if (contentType.startsWith('application/json')) {
    try {
      const parsed: unknown = JSON.parse(raw || '{}');
      return isObject(parsed) ? parsed : {};
    } catch {
      return {};
    }
  }
  const args: Json = {};
  for (const [key, value] of new URLSearchParams(raw)) {
    args[key] = JSON_FIELDS.has(key) && /^\s*[[{]/.test(value) ? tryJson(value) : value;
  }
  return args;
}

/** The caller's token: a bearer Authorization header, else the body's `token` field, as Slack reads it. */
export function bearerOf(request: IncomingMessage, bodyToken: unknown): string | undefined {
  return /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '')?.[1] ?? (typeof bodyToken === 'string' ? bodyToken : undefined);
}

/** The token a Web API call carries, read from its raw body and headers. */
export function callerToken(request: IncomingMessage, rawBody: string): string | undefined {
  return bearerOf(request, parseArgs(rawBody, request.headers['content-type'] ?? '').token);
}

function tryJson(value: string): unknown {
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}

export class ApiEndpoint {
  private readonly faults = new Map<string, Fault[]>();

  constructor(private readonly options: ApiEndpointOptions) {}

  failNext(method: string, fault: Fault, times = 1): void {
    const queue = this.faults.get(method) ?? [];
    for (let i = 0; i < times; i++) queue.push(fault);
    this.faults.set(method, queue);
  }

  /** One round trip's wait under the latency setting (none without it). */
  async roundTrip(): Promise<void> {
    await this.options.delay?.();
  }

  /** `rawBody` when the caller already read it (a grid of workspaces reads it to find whose token it is). */
  async handle(method: string, request: IncomingMessage, response: ServerResponse, rawBody?: string): Promise<void> {
    await this.roundTrip();
    const { token: bodyToken, ...args } = parseArgs(rawBody ?? (await readBody(request)), request.headers['content-type'] ?? '');
    const bearer = bearerOf(request, bodyToken);
    const record = (error?: string) => this.options.record({ method, args, at: this.options.now(), ...(error ? { error } : {}) });

    const appLevel = method === 'apps.connections.open';
    const functionExecutionId = appLevel ? undefined : this.options.functionExecution?.(bearer);
    const status = appLevel ? (this.options.appToken && bearer === this.options.appToken ? 'active' : undefined) : this.options.botToken(bearer);
    if (!functionExecutionId && status !== 'active') {
      // A function token past its 15 minutes, or of a step that completed, is revoked (bolt-js issue 2288); so is an uninstalled app's.
      const error = !bearer ? 'not_authed' : bearer.startsWith('xwfp-') || status === 'revoked' ? 'token_revoked' : 'invalid_auth';
      record(error);
      return sendJson(response, 200, { ok: false, error });
    }
    const fault = this.faults.get(method)?.shift();
    if (fault) return this.answerFault(fault, record, response);
    const retryAfterSeconds = this.options.rateLimit?.(method, args);
    if (retryAfterSeconds !== undefined) return this.answerFault({ retryAfterSeconds }, record, response);

    const answer = this.answer(method, args, functionExecutionId ? { functionExecutionId } : {});
    record(answer.ok === false ? String(answer.error) : undefined);
    sendJson(response, 200, answer);
  }

  private answer(method: string, args: Json, auth: ApiAuth): Json {
    if (method === 'apps.connections.open' && this.options.openConnection) return { ok: true, url: this.options.openConnection() };
    const handler = this.options.handlers[method];
    if (!handler) return { ok: false, error: 'unknown_method' };
    try {
      return handler(args, auth);
    } catch (error) {
      if (error instanceof SlackApiError) return { ok: false, error: error.code };
      throw error;
    }
  }

  private answerFault(fault: Fault, record: (error?: string) => void, response: ServerResponse): void {
    const status = fault.status ?? (fault.retryAfterSeconds !== undefined ? 429 : 200);
    const error = fault.error ?? (status === 429 ? 'ratelimited' : status === 200 ? 'internal_error' : `http_${status}`);
    record(status === 200 ? error : `http_${status}`);
    const headers: Record<string, string> = status === 429 ? { 'Retry-After': String(fault.retryAfterSeconds ?? 1) } : {};
    sendJson(response, status, { ok: false, error }, headers);
  }
}

/**
 * What an upload URL received: the raw body, or the file part of a multipart form (what
 * @slack/web-api's `filesUploadV2` sends). Slack takes either.
 */
export async function uploadedBytes(request: IncomingMessage): Promise<Buffer> {
  const raw = await readBytes(request);
  const contentType = request.headers['content-type'] ?? '';
  if (!contentType.startsWith('multipart/form-data')) return raw;
  const form = await new Response(raw, { headers: { 'content-type': contentType } }).formData();
  const part = [...form.values()].find((value): value is File => typeof value !== 'string');
  return part ? Buffer.from(await part.arrayBuffer()) : Buffer.alloc(0);
}

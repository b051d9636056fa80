/**
 * Delivering a request to the app over HTTP as Slack does: form-encoded (commands, interactions) or
 * JSON (Events API), signed with the v0 HMAC scheme, and given a fixed time to answer.
 */
import { createHmac } from 'node:crypto';
import type { AckResult } from './types.js';

export const FORM_CONTENT_TYPE = 'application/x-www-form-urlencoded';
export const JSON_CONTENT_TYPE = 'application/json';

/** `v0=<hex>`: HMAC-SHA256 over `v0:<timestamp>:<body>` keyed with the signing secret. */
export function signRequest(secret: string, timestampSeconds: number, body: string): string {
  return `v0=${createHmac('sha256', secret).update(`v0:${timestampSeconds}:${body}`).digest('hex')}`;
}

export interface SignedPost {
  url: string;
  body: string;
  secret: string;
  timestampSeconds: number;
  contentType?: string;
  /** Replaces the computed signature (forged-request tests). */
  signature?: string;
  timeoutMs: number;
}

export interface RawAnswer {
  /** 0 when the app did not answer in time or could not be reached. */
  status: number;
  contentType: string;
  text: string;
  elapsedMs: number;
}

export async function postSigned(request: SignedPost): Promise<RawAnswer> {
  const started = performance.now();
  try {
    const response = await fetch(request.url, {
      method: 'POST',
      headers: {
        'Content-Type': request.contentType ?? FORM_CONTENT_TYPE,
        'X-Slack-Request-Timestamp': String(request.timestampSeconds),
        'X-Slack-Signature': request.signature ?? signRequest(request.secret, request.timestampSeconds, request.body),
      },
      body: request.body,
      signal: AbortSignal.timeout(request.timeoutMs),
    });
    const text = await response.text();
    return { status: response.status, contentType: response.headers.get('content-type') ?? '', text, elapsedMs: performance.now() - started };
  } catch {
    return { status: 0, contentType: '', text: '', elapsedMs: performance.now() - started };
  }
}

/** JSON when it parses as JSON, else the text, else undefined (and `{}` counts as empty). */
export function parseAckBody(text: string): unknown {
  if (text === '') return undefined;
  try {
    return normalizeAckPayload(JSON.parse(text));
  } catch {
    return text;
  }
}

/** Socket Mode acks with `payload: {}` where HTTP answers an empty body; treat both as empty. */
export function normalizeAckPayload(payload: unknown): unknown {
  if (payload === null || payload === undefined) return undefined;
  if (typeof payload === 'object' && !Array.isArray(payload) && Object.keys(payload).length === 0) return undefined;
  return payload;
}

export function toAckResult(answer: RawAnswer): AckResult {
  return { status: answer.status, body: answer.status === 0 ? undefined : parseAckBody(answer.text), elapsedMs: answer.elapsedMs };
}

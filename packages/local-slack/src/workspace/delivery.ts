/**
 * Delivering a request to the app over HTTP as Slack does: form-encoded (commands, interactions) or
 * JSON (Events API), signed with the v0 HMAC scheme, and given a fixed time to answer.
 */
import { createHmac } from 'node:crypto';
import type { Json } from './blocks.js';
import { urlVerificationPayload } from './payloads.js';
import type { AckResult, RawAnswer, SignedPost } from './types.js';

export const FORM_CONTENT_TYPE = 'application/x-www-form-urlencoded';
export const JSON_CONTENT_TYPE = 'application/json';

/** `v0=<hex>`: HMAC-SHA256 over `v0:<timestamp>:<body>` keyed with the signing secret. */
export function signRequest(secret: string, timestampSeconds: number, body: string): string {
  return `v0=${createHmac('sha256', secret).update(`v0:${timestampSeconds}:${body}`).digest('hex')}`;
}

export type EnvelopeType = 'slash_commands' | 'interactive' | 'events_api';

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

/** An HTTP app's request URL, with what signs a post to it. */
export interface AppTarget {
  url: string;
  secret: string;
  timestampSeconds: number;
  timeoutMs: number;
}

/** An envelope signed to the app's URL: commands and interactions form-encoded, Events API callbacks as a JSON body. */
export async function postEnvelope(
  target: AppTarget,
  type: EnvelopeType,
  payload: Json,
  send: (request: SignedPost) => Promise<RawAnswer> = postSigned,
): Promise<AckResult> {
  const body =
    type === 'events_api'
      ? JSON.stringify(payload)
      : (type === 'slash_commands'
          ? new URLSearchParams(payload as Record<string, string>)
          : new URLSearchParams({ payload: JSON.stringify(payload) })
        ).toString();
  return toAckResult(await send({ ...target, body, contentType: type === 'events_api' ? JSON_CONTENT_TYPE : FORM_CONTENT_TYPE }));
}

/**
 * Slack's check of an HTTP app's request URL before it sends events: a signed `url_verification`
 * whose `challenge` the app must answer (as text, or as `{"challenge": …}`). Throws when it does not.
 */
export async function verifyRequestUrl(target: AppTarget, challenge: string): Promise<void> {
  const answer = await postSigned({ ...target, body: JSON.stringify(urlVerificationPayload(challenge)), contentType: JSON_CONTENT_TYPE });
  let answered: unknown = answer.text;
  try {
    answered = (JSON.parse(answer.text) as { challenge?: unknown }).challenge ?? answer.text;
  } catch {
    // a plain-text answer
  }
  if (answer.status !== 200 || answered !== challenge) {
    throw new Error(`the app's request URL did not answer Slack's url_verification challenge (HTTP ${answer.status}): Slack would not send it events`);
  }
}

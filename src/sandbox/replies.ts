/** The sandbox's small HTTP pieces: JSON error replies, the Bearer check, query integers and bounded bodies. */
import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

export interface Reply {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

export const MAX_BODY_BYTES = 64 * 1024;

const ERROR_CODES: Record<number, string> = {
  400: 'invalid_request',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  405: 'method_not_allowed',
  409: 'conflict',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  429: 'rate_limited',
  500: 'internal_error',
  502: 'bad_gateway',
  503: 'service_unavailable',
  504: 'gateway_timeout',
};

export function errorReply(status: number, message: string, code = ERROR_CODES[status] ?? 'error'): Reply {
  return { status, body: { success: false, error: { code, message } } };
}

export function methodNotAllowed(allowed: string): Reply {
  return { ...errorReply(405, `Use ${allowed} on this endpoint.`), headers: { allow: allowed } };
}

export function authorized(header: string | undefined, apiKey: string): boolean {
  const match = /^Bearer\s+(\S+)$/i.exec(header ?? '');
  if (!match?.[1]) return false;
  const given = Buffer.from(match[1]);
  const expected = Buffer.from(apiKey);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** A whole number within bounds, the fallback when absent, or undefined when unusable. */
export function integerParam(url: URL, name: string, fallback: number, min: number, max: number): number | undefined {
  const value = url.searchParams.get(name);
  if (value === null) return fallback;
  if (!/^-?\d+$/.test(value.trim())) return undefined;
  const parsed = Number(value);
  return parsed >= min && parsed <= max ? parsed : undefined;
}

/** The body as text, or null when it is too large. */
export async function readBody(request: IncomingMessage): Promise<string | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) return null;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

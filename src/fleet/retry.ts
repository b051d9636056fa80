/** When and how long the Fleet client waits before trying a read again: capped exponential backoff and Retry-After. */

export interface RetryPolicy {
  /** Attempts in total for a GET, the first included. POSTs always get exactly one. */
  maxAttempts: number;
  baseDelayMs: number;
  /** Cap on the computed backoff before jitter. */
  maxDelayMs: number;
  /** A Retry-After longer than this is not waited out: the call fails with a rate-limit error instead. */
  maxRetryAfterMs: number;
}

export const defaultRetryPolicy: RetryPolicy = {
  maxAttempts: 3,
  baseDelayMs: 250,
  maxDelayMs: 5000,
  maxRetryAfterMs: 30_000,
};

/**
 * "Full jitter": a uniform delay between 0 and the capped exponential step, so that many clients
 * failing together do not come back together. `attempt` is the attempt that just failed (1-based).
 */
export function backoffDelayMs(attempt: number, policy: RetryPolicy, random: () => number): number {
  const step = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, attempt - 1));
  return Math.floor(random() * step);
}

/**
 * Reads a Retry-After header, given either as seconds (fractions tolerated) or as an HTTP-date, as milliseconds from `now`.
 * Returns undefined when absent or unreadable; a date in the past counts as zero.
 */
export function parseRetryAfter(header: string | string[] | undefined, now: Date): number | undefined {
  const value = (Array.isArray(header) ? header[0] : header)?.trim();
  if (!value) return undefined;
  if (/^\d+(\.\d+)?$/.test(value)) return Math.ceil(Number(value) * 1000);
  // Only a real HTTP-date names a day or month: V8 would read "-1" or "2.5" as a date in 2001.
  if (!/[a-z]/i.test(value)) return undefined;
  const at = Date.parse(value);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - now.getTime());
}

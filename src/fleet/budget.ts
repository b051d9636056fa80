/**
 * A request budget for one Fleet API key: a token bucket (burst = the rate) served first come, first
 * served, which a 429 pauses so that every request waiting behind it waits too.
 */
import type { Clock } from '../core/clock.js';

/** The spec states no rate limit (§8), so the app keeps each key at this many requests a second unless told otherwise. */
export const DEFAULT_FLEET_REQUESTS_PER_SECOND = 10;

/** How long a 429 that names no Retry-After pauses the budget. */
export const RATE_LIMIT_PAUSE_MS = 1000;

interface Waiter {
  resolve: () => void;
  reject: (reason: unknown) => void;
  signal: AbortSignal | undefined;
  onAbort: () => void;
}

export class RequestBudget {
  private readonly burst: number;
  private tokens: number;
  private refilledAt: number | undefined;
  private pausedUntil = 0;
  // The latest moment a sleep of this budget ended: a clock whose `now` stands still (a test's) still moves on.
  private sleptUntil = 0;
  private readonly queue: Waiter[] = [];
  private pumping = false;
  private readonly closing = new AbortController();

  constructor(
    private readonly perSecond: number,
    private readonly clock: Clock,
  ) {
    if (!Number.isFinite(perSecond) || perSecond <= 0) throw new Error('The Fleet request budget must be a positive number of requests a second.');
    this.burst = Math.max(1, perSecond);
    this.tokens = this.burst;
  }

  /** Resolves when this request may be sent; rejects with the signal's reason when it aborts first, or when the budget is closed. */
  take(signal?: AbortSignal): Promise<void> {
    signal?.throwIfAborted();
    if (this.closing.signal.aborted) return Promise.reject(this.closing.signal.reason as Error);
    if (this.queue.length === 0 && this.ready() === 0) {
      this.tokens -= 1;
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      const waiter: Waiter = {
        resolve,
        reject,
        signal,
        onAbort: () => {
          const at = this.queue.indexOf(waiter);
          if (at !== -1) this.queue.splice(at, 1);
          reject(signal?.reason as Error);
        },
      };
      signal?.addEventListener('abort', waiter.onAbort, { once: true });
      this.queue.push(waiter);
      void this.pump();
    });
  }

  /** Holds every request of this key for `ms` (a 429's Retry-After); the bucket starts again with one token, not a burst. */
  pause(ms: number): void {
    const until = this.now() + Math.max(0, ms);
    if (until <= this.pausedUntil) return;
    this.pausedUntil = until;
    this.tokens = Math.min(this.tokens, 1);
    this.refilledAt = until;
  }

  /** Refuses every request still waiting, and any later one: they were never sent. */
  close(reason: Error): void {
    this.closing.abort(reason);
    for (const waiter of this.queue.splice(0)) {
      waiter.signal?.removeEventListener('abort', waiter.onAbort);
      waiter.reject(reason);
    }
  }

  private now(): number {
    return Math.max(this.clock.now().getTime(), this.sleptUntil);
  }

  /** Milliseconds until a token is free (0 = now), after adding what the time since the last refill earned. */
  private ready(): number {
    const now = this.now();
    if (this.refilledAt === undefined) this.refilledAt = now;
    if (now > this.refilledAt) {
      this.tokens = Math.min(this.burst, this.tokens + ((now - this.refilledAt) * this.perSecond) / 1000);
      this.refilledAt = now;
    }
    const paused = Math.max(0, this.pausedUntil - now);
    const refill = this.tokens >= 1 ? 0 : Math.ceil(((1 - this.tokens) * 1000) / this.perSecond);
    return Math.max(paused, refill, this.refilledAt - now);
  }

  /** One loop per budget hands tokens to the queue in order; it sleeps only as long as the head has to wait. */
  private async pump(): Promise<void> {
    if (this.pumping) return;
    this.pumping = true;
    try {
      while (this.queue.length > 0 && !this.closing.signal.aborted) {
        const wait = this.ready();
        if (wait > 0) {
          const target = this.now() + wait;
          await this.clock.sleep(wait, this.closing.signal).catch(() => undefined);
          this.sleptUntil = Math.max(this.sleptUntil, target);
          continue;
        }
        const head = this.queue.shift();
        if (!head) break;
        this.tokens -= 1;
        head.signal?.removeEventListener('abort', head.onAbort);
        head.resolve();
      }
    } finally {
      this.pumping = false;
    }
  }
}

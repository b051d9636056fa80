/**
 * At most one run per key per interval: a burst of `schedule(key)` calls becomes one run once the
 * interval has passed, and runs of one key never overlap (a schedule during a run makes one more
 * run after it). The timer is injected so that tests move time themselves.
 */
export interface Timers {
  set(run: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}

const realTimers: Timers = {
  set: (run, ms) => setTimeout(run, ms).unref(),
  clear: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

export class KeyedThrottle {
  private readonly waiting = new Map<string, unknown>();
  private readonly running = new Map<string, Promise<void>>();
  private closed = false;

  constructor(
    private readonly run: (key: string) => Promise<void>,
    private readonly intervalMs: number,
    private readonly timers: Timers = realTimers,
  ) {}

  /** Runs `key` once the interval has passed, unless a run is already waiting for it. */
  schedule(key: string): void {
    if (this.closed || this.waiting.has(key)) return;
    this.waiting.set(
      key,
      this.timers.set(() => void this.fire(key), this.intervalMs),
    );
  }

  /** Runs `key` now (after any run under way), taking the place of a waiting one. */
  now(key: string): Promise<void> {
    const handle = this.waiting.get(key);
    if (handle !== undefined) this.timers.clear(handle);
    return this.fire(key);
  }

  private fire(key: string): Promise<void> {
    this.waiting.delete(key);
    const next = (this.running.get(key) ?? Promise.resolve()).catch(() => undefined).then(() => this.run(key));
    this.running.set(key, next);
    void next
      .catch(() => undefined)
      .finally(() => {
        if (this.running.get(key) === next) this.running.delete(key);
      });
    return next;
  }

  /** Resolves once no run is under way (waiting ones are not waited for). */
  async idle(): Promise<void> {
    while (this.running.size > 0) await Promise.allSettled([...this.running.values()]);
  }

  /** Drops waiting runs and lets the ones under way finish. */
  async close(): Promise<void> {
    this.closed = true;
    for (const handle of this.waiting.values()) this.timers.clear(handle);
    this.waiting.clear();
    await this.idle();
  }
}

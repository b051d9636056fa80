/**
 * Long work on the main thread cut into slices of a few milliseconds: between two slices the event
 * loop runs (a Slack request is acknowledged, a timer fires), so that no slice holds it for long.
 * Slack's requests go first: while some wait for their turn, the next slice waits too (`requests-first.ts`).
 */
import { nextBackgroundTurn } from './requests-first.js';

/** How long one slice may run before the loop is let go, in milliseconds of the wall clock. */
export const SLICE_MS = 5;

/** Lets timers and I/O run before going on (awaiting a promise alone would keep the loop busy). */
export function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * Times the current slice: `due()` is true once it has run `budgetMs`, and `next()` yields to the
 * event loop (and to waiting Slack requests) and starts another (`if (slices.due()) await slices.next();` between two items of work). The wall clock counts the time the machine's load takes away too,
 * so a loaded machine gets shorter slices, never longer ones.
 */
export class Slices {
  private started: number;

  constructor(private readonly budgetMs: number = SLICE_MS, private readonly now: () => number = () => performance.now()) {
    this.started = now();
  }

  due(): boolean {
    return this.now() - this.started >= this.budgetMs;
  }

  async next(): Promise<void> {
    await nextBackgroundTurn();
    this.started = this.now();
  }
}

/**
 * Decides when a long job's progress is worth telling: every `everyItems` items, at least `minMs`
 * apart, and at most `maxReports` times, so that a fast job sends no burst of updates and a message
 * with a bounded number of answers (a `response_url` takes five) is never used up before the outcome.
 */
import type { Clock } from '../core/clock.js';

export interface ProgressPace {
  everyItems: number;
  minMs: number;
  maxReports: number;
}

export class ProgressPacer {
  private reports = 0;
  private lastAt: number;

  constructor(
    private readonly clock: Clock,
    private readonly pace: ProgressPace,
  ) {
    // The job's start was itself told: the first update waits `minMs` after it.
    this.lastAt = clock.now().getTime();
  }

  /** True when progress at `items` done should be told now; counts it as told. */
  shouldReport(items: number): boolean {
    const now = this.clock.now().getTime();
    if (items % this.pace.everyItems !== 0 || this.reports >= this.pace.maxReports || now - this.lastAt < this.pace.minMs) return false;
    this.reports += 1;
    this.lastAt = now;
    return true;
  }
}

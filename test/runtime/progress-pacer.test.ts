import { describe, expect, it } from 'vitest';
import { ProgressPacer } from '../../src/runtime/progress-pacer.js';
import { ManualClock } from '../support/payout-doubles.js';

describe('ProgressPacer', () => {
  const pace = { everyItems: 100, minMs: 2_000, maxReports: 3 };

  it('tells progress only on whole steps of items, once the pause since the last word has passed', () => {
    const clock = new ManualClock(new Date('2026-11-23T08:00:00Z'));
    const pacer = new ProgressPacer(clock, pace);
    expect(pacer.shouldReport(100)).toBe(false);
    clock.advance(2_000);
    expect(pacer.shouldReport(150)).toBe(false);
    expect(pacer.shouldReport(200)).toBe(true);
    expect(pacer.shouldReport(300)).toBe(false);
    clock.advance(1_999);
    expect(pacer.shouldReport(400)).toBe(false);
    clock.advance(1);
    expect(pacer.shouldReport(500)).toBe(true);
  });

  it('stops after the most reports it may make, however long the job runs', () => {
    const clock = new ManualClock(new Date('2026-11-23T08:00:00Z'));
    const pacer = new ProgressPacer(clock, pace);
    const told: number[] = [];
    for (let items = 100; items <= 10_000; items += 100) {
      clock.advance(5_000);
      if (pacer.shouldReport(items)) told.push(items);
    }
    expect(told).toEqual([100, 200, 300]);
  });
});

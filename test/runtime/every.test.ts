import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createLogger } from '../../src/core/logger.js';
import { every } from '../../src/runtime/every.js';
import { Shutdown } from '../../src/runtime/shutdown.js';
import { capturingLogger } from '../support/fleet-doubles.js';

const logger = createLogger({ level: 'silent' });

/** Work whose runs end only when the test says so. */
function heldWork() {
  const runs: Array<{ signal: AbortSignal; finish: () => void }> = [];
  const work = (signal: AbortSignal) => new Promise<void>((resolve) => runs.push({ signal, finish: resolve }));
  return { runs, work };
}

describe('every', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('runs the work each interval, and first at once only when asked to', async () => {
    let late = 0;
    let early = 0;
    const waiting = every('late', 1000, async () => void (late += 1), { logger });
    const eager = every('eager', 1000, async () => void (early += 1), { logger, runAtStart: true });
    await vi.advanceTimersByTimeAsync(0);
    expect([late, early]).toEqual([0, 1]);
    await vi.advanceTimersByTimeAsync(3000);
    expect([late, early]).toEqual([3, 4]);
    await Promise.all([waiting.stop(), eager.stop()]);
  });

  it('never starts a run while one is under way: a tick meanwhile is skipped', async () => {
    const { runs, work } = heldWork();
    const job = every('slow', 100, work, { logger });
    await vi.advanceTimersByTimeAsync(1000);
    expect(runs).toHaveLength(1);
    runs[0]!.finish();
    await vi.advanceTimersByTimeAsync(100);
    expect(runs).toHaveLength(2);
    runs[1]!.finish();
    await job.stop();
  });

  it('runs at once when woken, and once more right after a run under way when woken during it', async () => {
    const { runs, work } = heldWork();
    const job = every('woken', 60_000, work, { logger });
    job.wake();
    await vi.advanceTimersByTimeAsync(0);
    expect(runs).toHaveLength(1);
    job.wake();
    job.wake();
    await vi.advanceTimersByTimeAsync(0);
    expect(runs).toHaveLength(1);
    runs[0]!.finish();
    await vi.advanceTimersByTimeAsync(0);
    expect(runs).toHaveLength(2);
    runs[1]!.finish();
    await vi.advanceTimersByTimeAsync(0);
    expect(runs).toHaveLength(2);
    await job.stop();
  });

  it('stops by aborting the run under way and waiting for it, then runs nothing more', async () => {
    const { runs, work } = heldWork();
    const after = vi.fn();
    const job = every('stopping', 100, work, { logger, runAtStart: true, afterStop: after });
    await vi.advanceTimersByTimeAsync(0);
    let stopped = false;
    const stopping = job.stop().then(() => (stopped = true));
    await vi.advanceTimersByTimeAsync(0);
    expect(runs[0]!.signal.aborted).toBe(true);
    expect(stopped).toBe(false);
    expect(after).not.toHaveBeenCalled();
    runs[0]!.finish();
    await stopping;
    expect(after).toHaveBeenCalledOnce();
    job.wake();
    await vi.advanceTimersByTimeAsync(1000);
    expect(runs).toHaveLength(1);
  });

  it("logs a failed run under the job's name and goes on at the next interval", async () => {
    const { logger: capturing, lines } = capturingLogger();
    let calls = 0;
    const job = every(
      'flaky',
      100,
      async () => {
        calls += 1;
        if (calls === 1) throw new Error('database went away');
      },
      { logger: capturing, runAtStart: true, failure: 'flaky job failed' },
    );
    await vi.advanceTimersByTimeAsync(100);
    expect(calls).toBe(2);
    const logged = lines.map((line) => JSON.parse(line) as { msg: string; job: string; level: number; err: { message: string } });
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({ msg: 'flaky job failed', job: 'flaky', level: 50, err: { message: 'database went away' } });
    await job.stop();
  });

  it('is stopped by the shutdown, in its place', async () => {
    const { runs, work } = heldWork();
    const shutdown = new Shutdown(['first', 'loop', 'last'], logger);
    const order: string[] = [];
    shutdown.add('first', () => order.push('first'));
    shutdown.add('last', () => order.push('last'));
    every('loop', 100, work, { logger, runAtStart: true, shutdown, afterStop: () => order.push('loop') });
    await vi.advanceTimersByTimeAsync(0);
    const done = shutdown.run();
    await vi.advanceTimersByTimeAsync(0);
    expect(order).toEqual(['first']);
    runs[0]!.finish();
    await done;
    expect(order).toEqual(['first', 'loop', 'last']);
  });

  it('does not keep the process alive', async () => {
    vi.useRealTimers();
    const made = vi.spyOn(globalThis, 'setInterval');
    const job = every('background', 100, async () => undefined, { logger });
    const timer = made.mock.results[0]!.value as NodeJS.Timeout;
    made.mockRestore();
    expect(timer.hasRef()).toBe(false);
    await job.stop();
  });
});

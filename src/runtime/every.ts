/**
 * The one periodic job: `work` runs every `intervalMs` (and when woken), never two runs at once in
 * this process, its failures logged and the next run tried as usual. `stop()` lets no new run start,
 * aborts the run's signal and waits for the run under way, so that a job is never cut in half.
 */
import type { Logger } from '../core/logger.js';

export interface PeriodicJob {
  readonly name: string;
  /** Runs the work now; if a run is under way, once more as soon as it ends. Does nothing once stopped. */
  wake(): void;
  /** No new run; aborts the signal handed to the work, waits for the run under way, then `afterStop`. */
  stop(): Promise<void>;
}

export interface EveryOptions<Step extends string> {
  logger: Logger;
  /** A first run at once, as the job starts (a catch-up after downtime); otherwise the first run is one interval later. */
  runAtStart?: boolean;
  /** What a failed run logs; by default `<name> failed`. */
  failure?: string;
  /** The level of that line: `error` unless the job expects to fail now and then (`warn`). */
  failureLevel?: 'error' | 'warn';
  /** Where the job's stop is registered, under its name as the step. */
  shutdown?: { add(step: Step, closer: () => unknown): void };
  /** Run by `stop()` after the last run has ended (work the runs left in the background, say). */
  afterStop?: () => unknown;
}

/**
 * Starts `work` on a timer that does not keep the process alive. A tick that finds a run under way
 * is skipped; a `wake()` that finds one asks for one more run right after it.
 */
export function every<Step extends string>(
  name: Step,
  intervalMs: number,
  work: (signal: AbortSignal) => Promise<unknown>,
  options: EveryOptions<Step>,
): PeriodicJob {
  const { logger } = options;
  const stopping = new AbortController();
  let running: Promise<void> | undefined;
  let again = false;

  const run = (): void => {
    if (stopping.signal.aborted || running) return;
    running = Promise.resolve()
      .then(() => work(stopping.signal))
      .then(
        () => undefined,
        (error: unknown) => {
          logger[options.failureLevel ?? 'error']({ err: error, job: name }, options.failure ?? `${name} failed`);
        },
      )
      .finally(() => {
        running = undefined;
        if (again) {
          again = false;
          run();
        }
      });
  };

  const timer = setInterval(run, intervalMs);
  timer.unref();
  if (options.runAtStart) run();

  const job: PeriodicJob = {
    name,
    wake: () => {
      if (stopping.signal.aborted) return;
      if (running) again = true;
      else run();
    },
    stop: async () => {
      clearInterval(timer);
      again = false;
      if (!stopping.signal.aborted) stopping.abort(new Error(`${name} is stopping`));
      // A run that ends starts no other: `run` sees the signal aborted.
      while (running) await running;
      await options.afterStop?.();
    },
  };
  options.shutdown?.add(name, () => job.stop());
  return job;
}

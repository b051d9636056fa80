/** Runs the releaser on a timer (at once at start, which is the catch-up after downtime); returns the closer that stops it. */
import type { Logger } from '../../logger.js';
import type { ScheduleReleaser } from './release.js';

export function runScheduleReleases(releaser: ScheduleReleaser, logger: Logger, everyMs = 5_000): { stop: () => Promise<void>; wake: () => void } {
  let running: Promise<unknown> = Promise.resolve();
  let busy = false;
  let stopped = false;
  const round = () => {
    if (busy || stopped) return;
    busy = true;
    running = running
      .then(() => releaser.tick())
      .catch((error: unknown) => logger.error({ err: error }, 'releasing scheduled payouts failed'))
      .finally(() => {
        busy = false;
      });
  };
  round();
  const timer = setInterval(round, everyMs);
  timer.unref();
  return {
    wake: round,
    stop: async () => {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}

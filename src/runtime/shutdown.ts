/**
 * Stops the parts of a running app in an order declared once, top to bottom, whatever order they
 * started in: each part registers how to stop it under its step's name as it starts.
 */
import type { Logger } from '../core/logger.js';

export class Shutdown<Step extends string> {
  private readonly closers = new Map<Step, () => unknown>();

  constructor(
    private readonly order: readonly Step[],
    private readonly logger: Logger,
  ) {}

  /** How to stop `step`; it runs in the step's declared place. */
  add(step: Step, closer: () => unknown): void {
    this.closers.set(step, closer);
  }

  /** Runs each registered closer once, in the declared order; one that fails is logged and the rest still run. */
  async run(): Promise<void> {
    for (const step of this.order) {
      const closer = this.closers.get(step);
      if (!closer) continue;
      this.closers.delete(step);
      try {
        await closer();
      } catch (error) {
        this.logger.warn({ err: error, step }, 'error while stopping');
      }
    }
  }
}

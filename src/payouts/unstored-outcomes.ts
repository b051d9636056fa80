/**
 * Answers the Fleet API gave to a payout's POST that the database could not take (an outage): the
 * replica that holds one keeps it and tries to store it again, backing off up to a few seconds, so
 * that the request shows its outcome soon after the database is back instead of reading "sending"
 * until the recovery sweep looks for it in the transaction list. Nothing here sends anything: the
 * POST was made once; only its answer waits.
 */
import type { Clock } from '../core/clock.js';
import type { Logger } from '../core/logger.js';
import type { SendOutcome } from './dispatch.js';
import type { PayoutRequest } from './model.js';

/** First wait after a failed store, doubled after each further failure up to the longest. */
const FIRST_WAIT_MS = 250;
export const LONGEST_WAIT_MS = 5_000;

export interface UnstoredOutcomesOptions {
  /** Stores one answer (the same move as when the database answered at once); throws while it cannot. */
  store: (executing: PayoutRequest, sent: SendOutcome, actor: string | undefined) => Promise<void>;
  clock: Clock;
  logger: Logger;
}

interface Held {
  executing: PayoutRequest;
  sent: SendOutcome;
  actor: string | undefined;
}

export class UnstoredOutcomes {
  private readonly held = new Map<string, Held>();
  private readonly loops = new Set<Promise<void>>();
  private readonly abort = new AbortController();

  constructor(private readonly options: UnstoredOutcomesOptions) {}

  get size(): number {
    return this.held.size;
  }

  /** Holds `sent` for `executing` and starts storing it in the background. */
  keep(executing: PayoutRequest, sent: SendOutcome, actor: string | undefined, error: unknown): void {
    this.options.logger.error(
      { err: error, payoutId: executing.id, outcome: sent.outcome, transactionId: sent.outcome === 'completed' ? sent.transactionId : undefined },
      'the Fleet API answered the payout but the database did not take the answer; this replica keeps it and stores it once the database answers',
    );
    if (this.held.has(executing.id) || this.abort.signal.aborted) return;
    this.held.set(executing.id, { executing, sent, actor });
    const loop = this.storeWhenPossible(executing.id).finally(() => this.loops.delete(loop));
    this.loops.add(loop);
  }

  /** One last try for each answer held, then each one left is logged with what an operator needs to record it. */
  async stop(): Promise<void> {
    this.abort.abort(new Error('stopping'));
    await Promise.all([...this.loops]);
    for (const [id, { sent }] of this.held) {
      if (await this.tryStore(id)) continue;
      this.options.logger.error(
        { payoutId: id, outcome: sent.outcome, transactionId: sent.outcome === 'completed' ? sent.transactionId : undefined },
        'stopping with a payout answer the database never took: the recovery sweep will look for the payout in the transaction list',
      );
    }
  }

  private async storeWhenPossible(id: string): Promise<void> {
    let waitMs = FIRST_WAIT_MS;
    while (!this.abort.signal.aborted) {
      try {
        await this.options.clock.sleep(waitMs, this.abort.signal);
      } catch {
        return;
      }
      if (await this.tryStore(id)) return;
      waitMs = Math.min(waitMs * 2, LONGEST_WAIT_MS);
    }
  }

  private async tryStore(id: string): Promise<boolean> {
    const held = this.held.get(id);
    if (!held) return true;
    try {
      await this.options.store(held.executing, held.sent, held.actor);
    } catch {
      return false;
    }
    this.held.delete(id);
    this.options.logger.info({ payoutId: id, outcome: held.sent.outcome }, 'stored a payout answer held while the database was away');
    return true;
  }
}

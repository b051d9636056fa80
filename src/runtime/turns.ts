/**
 * Acks first: the turns of the event loop, shared by the Slack app and the background work of one
 * running bot (the wiring makes one `EventLoopTurns` and hands it to both). Slack's requests, taken
 * one per turn of the event loop (`slack/transport/request-turns.ts`), are counted while they wait for
 * their turn; work that can wait waits behind them, at most `REQUESTS_FIRST_MAX_MS`, so that it never
 * takes the time an ack needs:
 * - a listener's work after its ack (`behindWaitingRequests`), only while requests wait;
 * - background work between two of its slices (`nextBackgroundTurn`, `Slices`), always in turns: one
 *   piece of background work per turn of the event loop, whichever job it belongs to, so that the
 *   slices of an export, a bulk check and a sync never run back to back in one turn;
 * - replies that share one reading (`ownTurn`), each in a turn of its own, in the order asked.
 * What waited goes on one piece per turn, in the order it stopped. While requests come in a burst
 * (less than `BURST_GAP_MS` apart), it waits for the burst to end, not only for the queue to empty
 * for a moment: otherwise the first requests' answers (their API reads, lookups and replies) would
 * run between the acks of the last ones.
 */

/** The longest work waits behind Slack requests: it slows down under a stream of them, never stops. */
export const REQUESTS_FIRST_MAX_MS = 250;

/** Requests that come less than this apart are one burst: work that can wait waits until it has ended. */
export const BURST_GAP_MS = 20;

/** How long one slice may run before the loop is let go, in milliseconds of the wall clock. */
export const SLICE_MS = 5;

/** Lets timers and I/O run before going on (awaiting a promise alone would keep the loop busy). */
export function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** What long work needs of the turns: its next piece's turn. */
export interface BackgroundTurns {
  nextBackgroundTurn(maxWaitMs?: number): Promise<void>;
}

export class EventLoopTurns implements BackgroundTurns {
  private requestsWaiting = 0;
  private readonly parked: Array<() => void> = [];
  private releasing = false;
  private lastOwnTurn: Promise<void> = Promise.resolve();
  private lastArrival = Number.NEGATIVE_INFINITY;
  /** Until when the burst under way holds back what waits (`performance.now()` time). */
  private burstUntil = Number.NEGATIVE_INFINITY;

  /** Counts one Slack request waiting for its turn; `taken()` (once) when it is handed to the app. */
  waitingRequest(): { taken: () => void } {
    const now = performance.now();
    if (now - this.lastArrival < BURST_GAP_MS) this.burstUntil = now + BURST_GAP_MS;
    this.lastArrival = now;
    this.requestsWaiting += 1;
    let done = false;
    return {
      taken: () => {
        if (done) return;
        done = true;
        this.requestsWaiting -= 1;
        if (this.requestsWaiting === 0) this.releaseParked();
      },
    };
  }

  /** Resolves at once when no Slack request waits and no burst is under way; else once so (or after `maxWaitMs`), in turn. */
  behindWaitingRequests(maxWaitMs: number = REQUESTS_FIRST_MAX_MS): Promise<void> {
    return this.requestsWaiting === 0 && this.burstUntil <= performance.now() ? Promise.resolve() : this.park(maxWaitMs);
  }

  /** Background work's next piece: a turn of its own, after any Slack request waiting (at most `maxWaitMs`). */
  nextBackgroundTurn(maxWaitMs: number = REQUESTS_FIRST_MAX_MS): Promise<void> {
    return this.park(maxWaitMs);
  }

  /**
   * Resolves in a turn of the event loop of its own, after every earlier caller's: callbacks queued
   * with setImmediate in one turn all run in the next one, so each waits for the one before it.
   */
  ownTurn(): Promise<void> {
    const turn = this.lastOwnTurn.then(yieldToEventLoop);
    this.lastOwnTurn = turn;
    return turn;
  }

  /** Slices of `budgetMs` for one piece of long work, whose breaks are background turns. */
  slices(budgetMs: number = SLICE_MS, now?: () => number): Slices {
    return new Slices(this, budgetMs, now);
  }

  private park(maxWaitMs: number): Promise<void> {
    return new Promise<void>((resolve) => {
      const resume = () => {
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        const at = this.parked.indexOf(resume);
        if (at >= 0) this.parked.splice(at, 1);
        resolve();
      }, maxWaitMs);
      this.parked.push(resume);
      if (this.requestsWaiting === 0) this.releaseParked();
    });
  }

  /** One parked piece of work per turn (each in a `setImmediate` of its own), while no request waits, once a burst has ended. */
  private releaseParked(): void {
    if (this.releasing) return;
    this.releasing = true;
    const step = () => {
      if (this.requestsWaiting > 0 || this.parked.length === 0) {
        this.releasing = false;
        return;
      }
      const burstLeftMs = this.burstUntil - performance.now();
      if (burstLeftMs > 0) {
        setTimeout(step, burstLeftMs);
        return;
      }
      this.parked.shift()!();
      setImmediate(step);
    };
    setImmediate(step);
  }
}

/**
 * Long work on the main thread cut into slices of a few milliseconds: `due()` is true once the
 * current slice has run `budgetMs`, and `next()` yields to the event loop (and to waiting Slack
 * requests) and starts another (`if (slices.due()) await slices.next();` between two items of work).
 * The wall clock counts the time the machine's load takes away too, so a loaded machine gets shorter
 * slices, never longer ones.
 */
export class Slices {
  private started: number;

  constructor(
    private readonly turns: BackgroundTurns,
    private readonly budgetMs: number = SLICE_MS,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.started = now();
  }

  due(): boolean {
    return this.now() - this.started >= this.budgetMs;
  }

  async next(): Promise<void> {
    await this.turns.nextBackgroundTurn();
    this.started = this.now();
  }
}

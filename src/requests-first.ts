/**
 * Acks first. Slack's requests, taken one per turn of the event loop (`slack/transport/request-turns.ts`),
 * are counted while they wait for their turn; work that can wait waits behind them, at most
 * `REQUESTS_FIRST_MAX_MS`, so that it never takes the time an ack needs:
 * - a listener's work after its ack (`behindWaitingRequests`), only while requests wait;
 * - background work between two of its slices (`nextBackgroundTurn`), always in turns: one piece of
 *   background work per turn of the event loop, whichever job it belongs to, so that the slices of
 *   an export, a bulk check and a sync never run back to back in one turn.
 * What waited goes on one piece per turn, in the order it stopped.
 */

/** The longest work waits behind Slack requests: it slows down under a stream of them, never stops. */
export const REQUESTS_FIRST_MAX_MS = 250;

let requestsWaiting = 0;
const parked: Array<() => void> = [];
let releasing = false;

/** Counts one Slack request waiting for its turn; `taken()` (once) when it is handed to the app. */
export function waitingRequest(): { taken: () => void } {
  requestsWaiting += 1;
  let done = false;
  return {
    taken: () => {
      if (done) return;
      done = true;
      requestsWaiting -= 1;
      if (requestsWaiting === 0) releaseParked();
    },
  };
}

/** Resolves at once when no Slack request waits; else once none does (or after `maxWaitMs`), in turn. */
export function behindWaitingRequests(maxWaitMs: number = REQUESTS_FIRST_MAX_MS): Promise<void> {
  return requestsWaiting === 0 ? Promise.resolve() : park(maxWaitMs);
}

/** Background work's next piece: a turn of its own, after any Slack request waiting (at most `maxWaitMs`). */
export function nextBackgroundTurn(maxWaitMs: number = REQUESTS_FIRST_MAX_MS): Promise<void> {
  return park(maxWaitMs);
}

function park(maxWaitMs: number): Promise<void> {
  return new Promise<void>((resolve) => {
    const resume = () => {
      clearTimeout(timer);
      resolve();
    };
    const timer = setTimeout(() => {
      const at = parked.indexOf(resume);
      if (at >= 0) parked.splice(at, 1);
      resolve();
    }, maxWaitMs);
    parked.push(resume);
    if (requestsWaiting === 0) releaseParked();
  });
}

/** One parked piece of work per turn (each in a `setImmediate` of its own), while no request waits. */
function releaseParked(): void {
  if (releasing) return;
  releasing = true;
  const step = () => {
    if (requestsWaiting > 0 || parked.length === 0) {
      releasing = false;
      return;
    }
    parked.shift()!();
    setImmediate(step);
  };
  setImmediate(step);
}

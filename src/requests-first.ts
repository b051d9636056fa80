/**
 * Acks first. Slack's requests, taken one per turn of the event loop (`slack/request-turns.ts`),
 * are counted while they wait for their turn; work that can wait (a background job's next slice, a
 * listener's work after its ack) waits behind them, at most `REQUESTS_FIRST_MAX_MS`, so that it never
 * takes the time an ack needs. Once no request waits, what waited goes on one piece per turn, in the
 * order it stopped, so that it does not hold the loop all at once either.
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

/** Resolves at once when no Slack request waits; else once none does (or after `maxWaitMs`). */
export function behindWaitingRequests(maxWaitMs: number = REQUESTS_FIRST_MAX_MS): Promise<void> {
  if (requestsWaiting === 0 && parked.length === 0) return Promise.resolve();
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

/** One parked piece of work per turn, while no request waits. */
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

/**
 * Takes Slack's requests (POST /slack/events) one per turn of the event loop. A burst of requests
 * that arrive together would otherwise all be handled in the turn that reads them, hundreds of
 * milliseconds in which no timer fires and nothing else moves; taken in turns of their own, in the
 * order they came, the loop is let go between two of them and the burst costs the same CPU. While
 * some wait, background work pauses between its slices (`runtime/turns.ts`).
 */
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { yieldToEventLoop, type EventLoopTurns } from '../../runtime/turns.js';

const SLACK_EVENTS_PATH = '/slack/events';

export function oneSlackRequestPerTurn(listener: RequestListener, turns: EventLoopTurns): RequestListener {
  const waiting: Array<[IncomingMessage, ServerResponse, ReturnType<EventLoopTurns['waitingRequest']>]> = [];
  // One turn is booked whenever a request waits: the next one is booked before this one is handled.
  const takeNext = () => {
    const [request, response, counted] = waiting.shift()!;
    if (waiting.length > 0) void yieldToEventLoop().then(takeNext);
    counted.taken();
    listener(request, response);
  };
  return (request, response) => {
    // Any other request is handled at once: Bolt answers an unknown path by throwing here, to the server that called it.
    if (request.method !== 'POST' || (request.url ?? '').split('?')[0] !== SLACK_EVENTS_PATH) {
      listener(request, response);
      return;
    }
    // Counted until taken: background slices (an export, a bulk check) let the waiting requests go first.
    waiting.push([request, response, turns.waitingRequest()]);
    if (waiting.length === 1) void yieldToEventLoop().then(takeNext);
  };
}

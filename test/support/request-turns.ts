import type { IncomingMessage, ServerResponse } from 'node:http';
import { EventLoopTurns } from '../../src/runtime/turns.js';
import { oneSlackRequestPerTurn } from '../../src/slack/transport/request-turns.js';

/**
 * Slack requests fed to `oneSlackRequestPerTurn` as the HTTP server feeds them: `send('a', 'b')`
 * hands over POST /slack/events?a and ?b at once; `handled` lists the ids in the order the app got them.
 * The requests are counted in `turns` (new ones unless given) while they wait.
 */
export function slackRequestsInTurns(turns = new EventLoopTurns()): { send: (...ids: string[]) => void; handled: string[]; turns: EventLoopTurns } {
  const handled: string[] = [];
  const listener = oneSlackRequestPerTurn((request) => {
    handled.push((request.url ?? '').split('?')[1] ?? '');
  }, turns);
  const send = (...ids: string[]) => {
    for (const id of ids) listener({ method: 'POST', url: `/slack/events?${id}` } as IncomingMessage, {} as ServerResponse);
  };
  return { send, handled, turns };
}

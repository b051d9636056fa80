import type { IncomingMessage, ServerResponse } from 'node:http';
import { oneSlackRequestPerTurn } from '../../src/slack/transport/request-turns.js';

/**
 * Slack requests fed to `oneSlackRequestPerTurn` as the HTTP server feeds them: `send('a', 'b')`
 * hands over POST /slack/events?a and ?b at once; `handled` lists the ids in the order the app got them.
 */
export function slackRequestsInTurns(): { send: (...ids: string[]) => void; handled: string[] } {
  const handled: string[] = [];
  const listener = oneSlackRequestPerTurn((request) => {
    handled.push((request.url ?? '').split('?')[1] ?? '');
  });
  const send = (...ids: string[]) => {
    for (const id of ids) listener({ method: 'POST', url: `/slack/events?${id}` } as IncomingMessage, {} as ServerResponse);
  };
  return { send, handled };
}

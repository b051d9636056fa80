import type { IncomingMessage, ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { yieldToEventLoop } from '../../src/event-loop-slices.js';
import { oneSlackRequestPerTurn } from '../../src/slack/request-turns.js';

const slackRequest = (id: string) => ({ method: 'POST', url: `/slack/events?${id}` }) as IncomingMessage;
const response = {} as ServerResponse;

describe('oneSlackRequestPerTurn', () => {
  it('takes a burst of Slack requests in the order they came, one per turn of the event loop', async () => {
    const handled: string[] = [];
    const listener = oneSlackRequestPerTurn((req) => {
      handled.push(req.url!);
    });
    for (const id of ['a', 'b', 'c']) listener(slackRequest(id), response);
    expect(handled).toEqual([]);
    await yieldToEventLoop();
    expect(handled).toEqual(['/slack/events?a']);
    await yieldToEventLoop();
    expect(handled).toEqual(['/slack/events?a', '/slack/events?b']);
    await yieldToEventLoop();
    expect(handled).toEqual(['/slack/events?a', '/slack/events?b', '/slack/events?c']);
  });

  it('takes a Slack request that comes after a burst has been taken', async () => {
    const handled: string[] = [];
    const listener = oneSlackRequestPerTurn((req) => {
      handled.push(req.url!);
    });
    listener(slackRequest('a'), response);
    await yieldToEventLoop();
    await yieldToEventLoop();
    listener(slackRequest('b'), response);
    await yieldToEventLoop();
    expect(handled).toEqual(['/slack/events?a', '/slack/events?b']);
  });

  it('hands any other request over at once, so that what the listener throws reaches the server', () => {
    const listener = oneSlackRequestPerTurn(() => {
      throw new Error('unknown path');
    });
    expect(() => listener({ method: 'GET', url: '/metrics' } as IncomingMessage, response)).toThrow('unknown path');
  });
});

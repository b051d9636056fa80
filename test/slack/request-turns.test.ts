import type { IncomingMessage, ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { EventLoopTurns, yieldToEventLoop } from '../../src/runtime/turns.js';
import { oneSlackRequestPerTurn } from '../../src/slack/transport/request-turns.js';
import { slackRequestsInTurns } from '../support/request-turns.js';

const response = {} as ServerResponse;

describe('oneSlackRequestPerTurn', () => {
  it('takes a burst of Slack requests in the order they came, one per turn of the event loop', async () => {
    const { send, handled } = slackRequestsInTurns();
    send('a', 'b', 'c');
    expect(handled).toEqual([]);
    await yieldToEventLoop();
    expect(handled).toEqual(['a']);
    await yieldToEventLoop();
    expect(handled).toEqual(['a', 'b']);
    await yieldToEventLoop();
    expect(handled).toEqual(['a', 'b', 'c']);
  });

  it('takes a Slack request that comes after a burst has been taken', async () => {
    const { send, handled } = slackRequestsInTurns();
    send('a');
    await yieldToEventLoop();
    await yieldToEventLoop();
    send('b');
    await yieldToEventLoop();
    expect(handled).toEqual(['a', 'b']);
  });

  it('hands any other request over at once, so that what the listener throws reaches the server', () => {
    const listener = oneSlackRequestPerTurn(() => {
      throw new Error('unknown path');
    }, new EventLoopTurns());
    expect(() => listener({ method: 'GET', url: '/metrics' } as IncomingMessage, response)).toThrow('unknown path');
  });
});

import { describe, expect, it } from 'vitest';
import { yieldToEventLoop } from '../src/event-loop-slices.js';
import { behindWaitingRequests, nextBackgroundTurn, waitingRequest } from '../src/requests-first.js';
import { slackRequestsInTurns } from './support/request-turns.js';

describe('work behind waiting Slack requests', () => {
  it('waits until the last waiting request is taken', async () => {
    const { send, handled } = slackRequestsInTurns();
    send('a', 'b', 'c');
    await behindWaitingRequests();
    expect(handled).toEqual(['a', 'b', 'c']);
  });

  it('goes on after its longest wait while requests still wait', async () => {
    const stuck = waitingRequest();
    try {
      const started = performance.now();
      await behindWaitingRequests(30);
      expect(performance.now() - started).toBeGreaterThanOrEqual(25);
    } finally {
      stuck.taken();
    }
  });

  it('goes on at once when no request waits', async () => {
    let aTurnLater = false;
    setImmediate(() => (aTurnLater = true));
    await behindWaitingRequests();
    expect(aTurnLater).toBe(false);
  });

  it('lets what waited go on one piece per turn, in the order it stopped', async () => {
    const request = waitingRequest();
    const order: string[] = [];
    const pieces = ['first', 'second', 'third'].map((name) => behindWaitingRequests().then(() => order.push(name)));
    await yieldToEventLoop();
    expect(order).toEqual([]);
    request.taken();
    await yieldToEventLoop();
    expect(order).toEqual(['first']);
    await yieldToEventLoop();
    expect(order).toEqual(['first', 'second']);
    await Promise.all(pieces);
    expect(order).toEqual(['first', 'second', 'third']);
  });

  it('gives background work one piece per turn of the event loop, whichever job it belongs to', async () => {
    // A turn counter: a chain of setImmediate moves once per turn of the loop.
    let turn = 0;
    let counting = true;
    const count = () => {
      turn += 1;
      if (counting) setImmediate(count);
    };
    setImmediate(count);
    const turnsOf = async (pieces: number) => {
      const turns: number[] = [];
      for (let piece = 0; piece < pieces; piece += 1) {
        await nextBackgroundTurn();
        turns.push(turn);
      }
      return turns;
    };
    const [exportTurns, checkTurns] = await Promise.all([turnsOf(5), turnsOf(5)]);
    counting = false;
    expect(new Set([...exportTurns, ...checkTurns]).size).toBe(10);
  });
});

import { describe, expect, it } from 'vitest';
import { BURST_GAP_MS, EventLoopTurns, Slices, yieldToEventLoop } from '../../src/runtime/turns.js';
import { slackRequestsInTurns } from '../support/request-turns.js';

describe('work behind waiting Slack requests', () => {
  it('waits until the last waiting request is taken', async () => {
    const { send, handled, turns } = slackRequestsInTurns();
    send('a', 'b', 'c');
    await turns.behindWaitingRequests();
    expect(handled).toEqual(['a', 'b', 'c']);
  });

  it('goes on after its longest wait while requests still wait', async () => {
    const turns = new EventLoopTurns();
    turns.waitingRequest();
    const started = performance.now();
    await turns.behindWaitingRequests(30);
    expect(performance.now() - started).toBeGreaterThanOrEqual(25);
  });

  it('goes on at once when no request waits', async () => {
    let aTurnLater = false;
    setImmediate(() => (aTurnLater = true));
    await new EventLoopTurns().behindWaitingRequests();
    expect(aTurnLater).toBe(false);
  });

  it('lets what waited go on one piece per turn, in the order it stopped', async () => {
    const turns = new EventLoopTurns();
    const request = turns.waitingRequest();
    const order: string[] = [];
    const pieces = ['first', 'second', 'third'].map((name) => turns.behindWaitingRequests().then(() => order.push(name)));
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
    const turns = new EventLoopTurns();
    // A turn counter: a chain of setImmediate moves once per turn of the loop.
    let turn = 0;
    let counting = true;
    const count = () => {
      turn += 1;
      if (counting) setImmediate(count);
    };
    setImmediate(count);
    const turnsOf = async (pieces: number) => {
      const seen: number[] = [];
      for (let piece = 0; piece < pieces; piece += 1) {
        await turns.nextBackgroundTurn();
        seen.push(turn);
      }
      return seen;
    };
    const [exportTurns, checkTurns] = await Promise.all([turnsOf(5), turnsOf(5)]);
    counting = false;
    expect(new Set([...exportTurns, ...checkTurns]).size).toBe(10);
  });

  it("counts the requests of one bot only: another bot's waiting requests hold nothing back", async () => {
    const busy = new EventLoopTurns();
    busy.waitingRequest();
    let aTurnLater = false;
    setImmediate(() => (aTurnLater = true));
    await new EventLoopTurns().behindWaitingRequests();
    expect(aTurnLater).toBe(false);
  });

  it('waits for a burst to end, not only for its requests to be taken: its last ack goes before the first answer', async () => {
    const { send, handled, turns } = slackRequestsInTurns();
    send('a', 'b');
    await yieldToEventLoop();
    await yieldToEventLoop();
    expect(handled).toEqual(['a', 'b']);
    // Every request taken, but the burst may go on: the first request's answer waits.
    let answered = false;
    const answer = turns.behindWaitingRequests().then(() => (answered = true));
    setTimeout(() => send('c'), BURST_GAP_MS / 2);
    await new Promise((resolve) => setTimeout(resolve, BURST_GAP_MS / 2 + 5));
    expect(answered).toBe(false);
    expect(handled).toEqual(['a', 'b', 'c']);
    const started = performance.now();
    await answer;
    // Released once no request has come for the gap (timers may fire a millisecond early).
    expect(performance.now() - started).toBeGreaterThanOrEqual(BURST_GAP_MS / 2 - 6);
  });

  it('holds nothing after a lone request once it is taken', async () => {
    const { send, handled, turns } = slackRequestsInTurns();
    send('a');
    await turns.behindWaitingRequests();
    expect(handled).toEqual(['a']);
    let aTurnLater = false;
    setImmediate(() => (aTurnLater = true));
    await turns.behindWaitingRequests();
    expect(aTurnLater).toBe(false);
  });

  it('gives each caller of ownTurn a turn of its own, in the order they asked', async () => {
    const turns = new EventLoopTurns();
    let turn = 0;
    let counting = true;
    const count = () => {
      turn += 1;
      if (counting) setImmediate(count);
    };
    setImmediate(count);
    const seen = await Promise.all([1, 2, 3].map(() => turns.ownTurn().then(() => turn)));
    counting = false;
    expect(new Set(seen).size).toBe(3);
    expect([...seen].sort((a, b) => a - b)).toEqual(seen);
  });
});

describe('Slices', () => {
  it('asks for a break once its budget has run, and lets what waits on the event loop run in it', async () => {
    let now = 1_000;
    const slices = new Slices(new EventLoopTurns(), 5, () => now);
    now += 4.9;
    expect(slices.due()).toBe(false);
    now += 0.1;
    expect(slices.due()).toBe(true);
    let waiting = false;
    setImmediate(() => {
      waiting = true;
    });
    await slices.next();
    expect(waiting).toBe(true);
    // A new slice starts with the break.
    expect(slices.due()).toBe(false);
    now += 5;
    expect(slices.due()).toBe(true);
  });

  it('the next slice waits while Slack requests wait for their turn, and goes on once the last is taken', async () => {
    const { send, handled, turns } = slackRequestsInTurns();
    send('a', 'b', 'c');
    const slices = turns.slices(0);
    let handledWhenBack: string[] = [];
    await slices.next().then(() => {
      handledWhenBack = [...handled];
    });
    expect(handledWhenBack).toEqual(['a', 'b', 'c']);
  });
});

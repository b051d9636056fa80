import { describe, expect, it } from 'vitest';
import { Slices } from '../src/event-loop-slices.js';
import { slackRequestsInTurns } from './support/request-turns.js';

describe('Slices', () => {
  it('asks for a break once its budget has run, and lets what waits on the event loop run in it', async () => {
    let now = 1_000;
    const slices = new Slices(5, () => now);
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
});

describe('background slices behind waiting Slack requests', () => {
  it('the next slice waits while Slack requests wait for their turn, and goes on once the last is taken', async () => {
    const { send, handled } = slackRequestsInTurns();
    send('a', 'b', 'c');
    const slices = new Slices(0);
    let handledWhenBack: string[] = [];
    await slices.next().then(() => {
      handledWhenBack = [...handled];
    });
    expect(handledWhenBack).toEqual(['a', 'b', 'c']);
  });
});

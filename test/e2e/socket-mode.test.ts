import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blockText, CHANNELS, PEOPLE, startHarness, type Harness } from '../support/bot-harness.js';

describe('Socket Mode', () => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness({ socketMode: true });
  });
  afterAll(async () => h?.close());

  it('connects through apps.connections.open and answers /fleet balance over the socket', async () => {
    expect(h.bot.eventsUrl).toBeUndefined();
    expect(h.slack.apiCalls.some((call) => call.method === 'apps.connections.open')).toBe(true);
    const ack = await h.slack.runCommand({ userId: PEOPLE.requester, channelId: CHANNELS.treasury, text: 'balance' });
    expect(ack.status).toBe(200);
    const reply = await h.waitForMessage(PEOPLE.requester, 'Fleet account balance');
    expect(blockText(reply)).toContain('*EUR*');
  });
});

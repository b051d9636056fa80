import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blockText, CHANNELS, PEOPLE, startHarness, type Harness } from '../support/bot-harness.js';

describe('/fleet transactions when the Fleet API sends a malformed entry', () => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness({ env: { FLEET_VIEWERS: PEOPLE.requester } });
    h.sandbox.addTransaction({ reference: 'OLDER-GOOD' });
    h.sandbox.addMalformedTransaction({ date: 'yesterday-ish' });
    h.sandbox.addTransaction({ reference: 'NEWER-GOOD' });
  });
  afterAll(async () => h?.close());

  it('still lists the entries around it', async () => {
    await h.slack.runCommand({ userId: PEOPLE.requester, channelId: CHANNELS.treasury, text: 'transactions 1 5' });
    const reply = await h.waitForMessage(PEOPLE.requester, 'Fleet account transactions');
    expect(blockText(reply)).toContain('NEWER-GOOD');
    expect(blockText(reply)).toContain('OLDER-GOOD');
    expect(JSON.stringify(reply.blocks)).toContain('"text":"Next"');
  });
});

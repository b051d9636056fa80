import { describe, expect, it } from 'vitest';
import { startHarness } from '../support/bot-harness.js';

describe('start-up', () => {
  it('stops with a message naming SLACK_BOT_TOKEN when Slack refuses the token', async () => {
    await expect(startHarness({ slack: { botToken: 'xoxb-some-other-token' } })).rejects.toThrow(
      /^SLACK_BOT_TOKEN was refused by Slack \(invalid_auth\)/,
    );
  });
});

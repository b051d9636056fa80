/**
 * The runway alert in the running bot with the feed off: card funding drains EUR below
 * RUNWAY_ALERT_DAYS, and ALERT_CHANNEL_ID hears of it once, however many checks follow.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHANNELS, startHarness, type Harness } from '../support/bot-harness.js';

describe('the runway alert in the running bot, feed off', () => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness({
      env: { LEDGER_ENABLED: 'true', ALERT_CHANNEL_ID: CHANNELS.feed, RUNWAY_ALERT_DAYS: '30', LEDGER_HISTORY_PAGE_DELAY_MS: '0' },
      bot: { runwayAlertEveryMs: 100 },
    });
    // Card funding debits EUR far faster than it is credited: a few days left at this pace.
    h.sandbox.addTransaction({
      currency: 'EUR',
      type: 'B2B_JIT_FUNDING',
      amount: -60_000,
      date: new Date(Date.now() - 2 * 86_400_000).toISOString(),
      status: 'Completed',
    });
  });
  afterAll(async () => h?.close());

  it("posts once to ALERT_CHANNEL_ID when a currency's days left fall below the line", async () => {
    expect(h.bot.feed).toBeUndefined();
    const alert = await h.waitForMessage('U0REQUESTER', 'at this pace, below the 30-day line', CHANNELS.feed);
    expect(alert.text).toContain('*EUR* lasts');
    expect(alert.text).toContain('EUR a day, zero on');
    // Many more checks later, still the one message.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(h.visibleTo('U0REQUESTER', CHANNELS.feed).filter((message) => message.text.includes('*EUR* lasts'))).toHaveLength(1);
  });
});

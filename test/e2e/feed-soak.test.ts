/**
 * A short feed soak: the bot as deployed, in a process of its own, ledger and feed every
 * 5 s, the sandbox making an entry every 250 ms in real time (one in 17 Pending), and a person's
 * `/fleet balance` and `/fleet tx` every 2 s. The long soak is `bench/soak.ts`.
 */
import { describe, expect, it } from 'vitest';
import { referencesIn, runSoak } from '../../bench/soak.js';

describe('the feed under a steady flow of new entries', () => {
  it('reads the references a feed message carries from its code spans, once each', () => {
    const blocks = [
      { type: 'section', text: { type: 'mrkdwn', text: ':red_circle: *-$1.00*  ·  PAYMENT\n`TXN-ABC234`' } },
      { type: 'section', text: { type: 'mrkdwn', text: '`JIT-XYZ789`' } },
    ];
    expect(referencesIn({ text: 'New transactions: 2 (`TXN-ABC234`)', blocks })).toEqual(['TXN-ABC234', 'JIT-XYZ789']);
    expect(referencesIn({ text: '+$2.00 PAYMENT `TXN-ONLY22`', blocks: [] })).toEqual(['TXN-ONLY22']);
  });

  it('posts every entry made over 40 s exactly once, Pending ones too', async () => {
    const result = await runSoak({ store: 'embedded', minutes: 40 / 60, settleSeconds: 30, historyPageDelayMs: 0 });

    expect(result.entries_made).toBe(160);
    expect(result.pending_made).toBe(9);
    expect(result.missing_entries).toEqual([]);
    expect(result.repeated_entries).toEqual([]);
    expect(result.posted_not_made).toBe(0);
    expect(result.commands_not_acknowledged).toBe(0);
  }, 150_000);
});

import { describe, expect, it } from 'vitest';
import { DEMO_TIME_ZONE, digestTimeSoonAfter } from '../../src/demo/demo.js';
import { DEMO_CHANNELS, demoRoleEnv } from '../../src/demo/people.js';

describe('the daily digest in the demo', () => {
  it('posts to #treasury-digest, a channel of the demo workspace', () => {
    expect(demoRoleEnv().DIGEST_CHANNEL_ID).toBe(DEMO_CHANNELS.digest.id);
    expect(DEMO_CHANNELS.digest.name).toBe('treasury-digest');
  });

  it("sets DIGEST_TIME to the next minute after one minute from start, on the demo zone's clock", () => {
    // 10:00:30 UTC is 11:00:30 in Kinshasa: due at 11:01, thirty seconds later.
    expect(digestTimeSoonAfter(new Date('2026-11-21T10:00:30Z'), DEMO_TIME_ZONE)).toBe('11:01');
    // Just before midnight in Kinshasa, the digest time wraps to the next day's first minutes.
    expect(digestTimeSoonAfter(new Date('2026-11-21T22:59:10Z'), DEMO_TIME_ZONE)).toBe('00:00');
  });
});

import { afterEach, describe, expect, it } from 'vitest';
import { latencyDraws, latencySetting, REAL_LATENCY, startLocalSlack, type LocalSlack } from '../../src/workspace/index.js';

const BOT_TOKEN = 'xoxb-latency-test';

const quantile = (values: number[], q: number) => [...values].sort((a, b) => a - b)[Math.floor(q * (values.length - 1))]!;

describe('the latency setting of the local workspace', () => {
  let slack: LocalSlack | undefined;
  afterEach(async () => slack?.close());

  it('reads LOCAL_SLACK_LATENCY as real, numbers or off, the option first', () => {
    expect(latencySetting(undefined, 'real')).toEqual(REAL_LATENCY);
    expect(latencySetting(undefined, '100, 400')).toEqual({ medianMs: 100, p99Ms: 400 });
    expect(latencySetting(undefined, 'off')).toBeUndefined();
    expect(latencySetting(undefined, undefined)).toBeUndefined();
    expect(latencySetting(false, 'real')).toBeUndefined();
    expect(latencySetting({ medianMs: 5, p99Ms: 10 }, 'real')).toEqual({ medianMs: 5, p99Ms: 10 });
    expect(() => latencySetting(undefined, 'slow')).toThrow(/LOCAL_SLACK_LATENCY: write real, off, or <median ms>,<p99 ms>/);
  });

  it("draws round trips of Slack's shape, 150 ms median and 600 ms p99, the same ones for the same seed", () => {
    const draw = latencyDraws(REAL_LATENCY);
    const draws = Array.from({ length: 5000 }, draw);
    expect(quantile(draws, 0.5)).toBeGreaterThan(135);
    expect(quantile(draws, 0.5)).toBeLessThan(165);
    expect(quantile(draws, 0.99)).toBeGreaterThan(500);
    expect(quantile(draws, 0.99)).toBeLessThan(720);
    const again = latencyDraws(REAL_LATENCY);
    expect(Array.from({ length: 5 }, again)).toEqual(draws.slice(0, 5));
    expect(Array.from({ length: 5 }, latencyDraws({ ...REAL_LATENCY, seed: 7 }))).not.toEqual(draws.slice(0, 5));
  });

  it('delays every Web API call and every delivery to the app by a round trip', async () => {
    slack = await startLocalSlack({ signingSecret: 'latencytestsigningsecret', botToken: BOT_TOKEN, latency: { medianMs: 200, p99Ms: 200 } });
    const started = performance.now();
    const response = await fetch(`${slack.apiUrl}auth.test`, { method: 'POST', headers: { Authorization: `Bearer ${BOT_TOKEN}` } });
    expect(((await response.json()) as { ok: boolean }).ok).toBe(true);
    expect(performance.now() - started).toBeGreaterThanOrEqual(190);

    // No app listens here: the delivery fails, but only after its round trip.
    slack.setAppUrl('http://127.0.0.1:9/slack/events');
    const delivered = performance.now();
    await slack.runCommand({ userId: 'U0REQUESTER', channelId: 'C0TREASURY', text: 'balance' }).catch(() => undefined);
    expect(performance.now() - delivered).toBeGreaterThanOrEqual(190);
  });

  it('adds nothing by default', async () => {
    slack = await startLocalSlack({ signingSecret: 'latencytestsigningsecret', botToken: BOT_TOKEN, latency: false });
    const started = performance.now();
    await fetch(`${slack.apiUrl}auth.test`, { method: 'POST', headers: { Authorization: `Bearer ${BOT_TOKEN}` } });
    expect(performance.now() - started).toBeLessThan(150);
  });
});

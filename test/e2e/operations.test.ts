import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/store/index.js';
import { BOT_TOKEN, CHANNELS, PEOPLE, SIGNING_SECRET, startHarness, type Harness } from '../support/bot-harness.js';
import { testDatabases } from '../support/databases.js';
import { MOBILE_FIELDS, PAYOUT_ENV, approveAs, requestPayout } from '../support/payout-flow.js';

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/**
 * Reads Prometheus's text exposition format strictly: every line is a HELP or TYPE comment or a
 * sample `name{label="value",...} number`; every sample belongs to a family with a TYPE line.
 * Throws on the first line that is neither.
 */
function parsePrometheus(text: string): Sample[] {
  const typed = new Map<string, string>();
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '') continue;
    const comment = /^# (HELP|TYPE) ([a-zA-Z_:][a-zA-Z0-9_:]*) (.*)$/.exec(line);
    if (comment) {
      if (comment[1] === 'TYPE') {
        expect(['counter', 'gauge', 'histogram', 'summary', 'untyped'], line).toContain(comment[3]);
        typed.set(comment[2]!, comment[3]!);
      }
      continue;
    }
    const sample = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{((?:[a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\\n]|\\.)*",?)*)\})? (\S+)(?: -?\d+)?$/.exec(line);
    if (!sample) throw new Error(`not a Prometheus text line: ${line}`);
    const value = Number(sample[3] === '+Inf' ? Infinity : sample[3] === '-Inf' ? -Infinity : sample[3]);
    // Prometheus reads NaN in any case; prom-client writes `Nan` for an event-loop gauge with no sample yet.
    if (Number.isNaN(value) && sample[3]?.toLowerCase() !== 'nan') throw new Error(`not a sample value: ${line}`);
    const labels: Record<string, string> = {};
    for (const match of (sample[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) labels[match[1]!] = match[2]!;
    const family = sample[1]!.replace(/_(bucket|sum|count|total|created)$/, '');
    if (!typed.has(sample[1]!) && !typed.has(family)) throw new Error(`sample without a TYPE line: ${line}`);
    samples.push({ name: sample[1]!, labels, value });
  }
  return samples;
}

function valueOf(samples: Sample[], name: string, labels: Record<string, string>): number | undefined {
  return samples.find((sample) => sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value))?.value;
}

const originOf = (url: string) => new URL(url).origin;

async function get(url: string): Promise<{ status: number; type: string | null; body: string }> {
  const response = await fetch(url);
  return { status: response.status, type: response.headers.get('content-type'), body: await response.text() };
}

describe('GET /metrics in HTTP mode, on METRICS_PORT', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ env: { ...PAYOUT_ENV, LEDGER_ENABLED: 'true', LEDGER_POLL_SECONDS: '5', METRICS_PORT: '0' } });
  });
  afterAll(async () => {
    await h?.close();
  });

  it('counts a command, a Fleet API call and a payout transition, in Prometheus text with no secret or person in it', async () => {
    const origin = h.bot.opsUrl!;
    await h.slack.runCommand({ userId: PEOPLE.requester, channelId: CHANNELS.treasury, text: 'balance' });
    await h.waitForMessage(PEOPLE.requester, 'balance');
    await h.slack.runCommand({ userId: PEOPLE.requester, channelId: CHANNELS.treasury, text: 'no-such-thing' });
    const id = await requestPayout(h, 'mobile', MOBILE_FIELDS);
    await approveAs(h, PEOPLE.approver, id);

    const scrape = await get(`${origin}/metrics`);
    expect(scrape.status).toBe(200);
    expect(scrape.type).toMatch(/^text\/plain; version=0\.0\.4/);
    const samples = parsePrometheus(scrape.body);

    expect(valueOf(samples, 'fleet_bot_commands_total', { subcommand: 'balance', outcome: 'ok' })).toBe(1);
    // A word nobody registered is counted, but never becomes a label of its own.
    expect(valueOf(samples, 'fleet_bot_commands_total', { subcommand: 'unknown', outcome: 'unknown_subcommand' })).toBe(1);
    expect(
      valueOf(samples, 'fleet_bot_fleet_api_calls_total', { method: 'GET', endpoint: '/api/v1/b2b/account/balance', status: '200' }),
    ).toBeGreaterThanOrEqual(1);
    expect(valueOf(samples, 'fleet_bot_fleet_api_call_seconds_count', { method: 'GET', endpoint: '/api/v1/b2b/account/balance' })).toBeGreaterThanOrEqual(1);
    expect(valueOf(samples, 'fleet_bot_payout_transitions_total', { event: 'requested', state: 'pending' })).toBe(1);
    expect(samples.some((sample) => sample.name === 'fleet_bot_payout_transitions_total' && sample.labels.event === 'approved')).toBe(true);
    expect(valueOf(samples, 'fleet_bot_slack_ack_seconds_count', { route: '/slack/events' })).toBeGreaterThanOrEqual(4);
    expect(valueOf(samples, 'process_resident_memory_bytes', {})).toBeGreaterThan(0);

    // The ledger's gauges, read from the ledger itself at each scrape once its sync has polled.
    let ledgerStatus = await h.bot.ledger!.reader.status();
    for (let tries = 0; !(ledgerStatus.lastPollAt && ledgerStatus.loaded > 0); tries += 1) {
      if (tries === 200) throw new Error('the ledger never polled');
      await new Promise((resolve) => setTimeout(resolve, 50));
      ledgerStatus = await h.bot.ledger!.reader.status();
    }
    const ledgerSamples = parsePrometheus((await get(`${origin}/metrics`)).body);
    const lag = valueOf(ledgerSamples, 'fleet_bot_ledger_sync_lag_seconds', {});
    expect(lag).toBeGreaterThanOrEqual(0);
    expect(lag).toBeLessThan(60);
    expect(valueOf(ledgerSamples, 'fleet_bot_ledger_entries', {})).toBeGreaterThanOrEqual(ledgerStatus.loaded);
    expect(valueOf(ledgerSamples, 'fleet_bot_ledger_history_complete', {})).toBe(ledgerStatus.historyComplete ? 1 : 0);

    for (const secret of [BOT_TOKEN, SIGNING_SECRET, h.sandbox.apiKey, PEOPLE.requester, PEOPLE.approver, MOBILE_FIELDS.phone, MOBILE_FIELDS.name, id]) {
      expect(scrape.body).not.toContain(secret);
    }
  });

  it('keeps /healthz a plain liveness answer on both ports', async () => {
    expect(await get(`${originOf(h.bot.eventsUrl!)}/healthz`)).toMatchObject({ status: 200, body: '{"ok":true}' });
    expect(await get(`${h.bot.opsUrl!}/healthz`)).toMatchObject({ status: 200, body: '{"ok":true}' });
  });

  it('keeps /metrics and the checks of /readyz off the port that faces Slack, which answers /readyz with its status alone', async () => {
    const slackFacing = originOf(h.bot.eventsUrl!);
    expect((await get(`${slackFacing}/metrics`)).status).toBe(404);
    const ready = await get(`${slackFacing}/readyz`);
    expect(ready).toMatchObject({ status: 200, body: '{"ready":true}' });
    expect(JSON.parse((await get(`${h.bot.opsUrl!}/readyz`)).body)).toMatchObject({ ready: true, checks: { database: { ok: true } } });
    expect((await get(`${h.bot.opsUrl!}/slack/events`)).status).toBe(404);
  });

  it('binds the metrics port to 127.0.0.1 unless METRICS_HOST says otherwise', () => {
    expect(new URL(h.bot.opsUrl!).hostname).toBe('127.0.0.1');
  });
});

describe('HTTP mode with METRICS_HOST', () => {
  it('serves /metrics on that address alone, and none without METRICS_PORT', async () => {
    const h = await startHarness({ env: { METRICS_PORT: '0', METRICS_HOST: '127.0.0.2' } });
    try {
      const ops = new URL(h.bot.opsUrl!);
      expect(ops.hostname).toBe('127.0.0.2');
      expect((await get(`${ops.origin}/metrics`)).status).toBe(200);
      await expect(fetch(`http://127.0.0.1:${ops.port}/metrics`)).rejects.toThrow();
      const other = await startHarness({ existingSandbox: h.sandbox });
      try {
        expect(other.bot.opsUrl).toBeUndefined();
        expect((await get(`${originOf(other.bot.eventsUrl!)}/metrics`)).status).toBe(404);
      } finally {
        await other.close();
      }
    } finally {
      await h.close();
    }
  });
});

describe.each(testDatabases())('GET /readyz on $name', ({ open }) => {
  let h: Harness | undefined;
  let db: Db | undefined;
  afterEach(async () => {
    await h?.close();
    await db?.close();
  });

  it('is ready with every check passing, then names the database once it stops answering', async () => {
    db = await open();
    h = await startHarness({ existingDb: db, env: { METRICS_PORT: '0' } });
    const url = `${h.bot.opsUrl!}/readyz`;

    const ready = await get(url);
    expect(ready.status, ready.body).toBe(200);
    expect(JSON.parse(ready.body)).toMatchObject({
      ready: true,
      checks: { database: { ok: true }, slack: { ok: true }, fleet_api: { ok: true } },
    });

    await db.close();
    const stopped = await get(url);
    expect(stopped.status).toBe(503);
    const report = JSON.parse(stopped.body) as { ready: boolean; checks: Record<string, { ok: boolean; reason?: string }> };
    expect(report.ready).toBe(false);
    expect(report.checks.database).toMatchObject({ ok: false, reason: expect.stringMatching(/database/) });
    expect(report.checks.slack).toEqual({ ok: true });
    expect(report.checks.fleet_api?.ok).toBe(true);
    for (const secret of [BOT_TOKEN, SIGNING_SECRET, h.sandbox.apiKey, 'postgres://']) expect(stopped.body).not.toContain(secret);
    // The port that faces Slack says as much, and nothing of why.
    expect(await get(`${originOf(h.bot.eventsUrl!)}/readyz`)).toMatchObject({ status: 503, body: '{"ready":false}' });
  });

  it('names the Fleet API when it stops answering', async () => {
    db = await open();
    h = await startHarness({ existingDb: db, env: { METRICS_PORT: '0' } });
    const url = `${h.bot.opsUrl!}/readyz`;
    h.sandbox.setFault({ match: { path: '/api/v1/b2b/account/balance' }, status: 503 });
    await h.slack.runCommand({ userId: PEOPLE.requester, channelId: CHANNELS.treasury, text: 'balance' });
    await h.waitForMessage(PEOPLE.requester, 'Could not');

    const answer = await get(url);
    expect(answer.status).toBe(503);
    expect(JSON.parse(answer.body)).toMatchObject({
      ready: false,
      checks: { database: { ok: true }, fleet_api: { ok: false, reason: 'the Fleet API answered HTTP 503' } },
    });
  });
});

describe('Socket Mode with METRICS_PORT', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ socketMode: true, env: { METRICS_PORT: '0' } });
  });
  afterAll(async () => {
    await h?.close();
  });

  it('serves /healthz, /readyz and /metrics on a small server of its own', async () => {
    expect(h.bot.eventsUrl).toBeUndefined();
    const opsUrl = h.bot.opsUrl!;
    expect(await get(`${opsUrl}/healthz`)).toMatchObject({ status: 200, body: '{"ok":true}' });
    expect((await get(`${opsUrl}/readyz`)).status).toBe(200);
    await h.slack.runCommand({ userId: PEOPLE.requester, channelId: CHANNELS.treasury, text: 'balance' });
    await h.waitForMessage(PEOPLE.requester, 'balance');
    const samples = parsePrometheus((await get(`${opsUrl}/metrics`)).body);
    expect(valueOf(samples, 'fleet_bot_commands_total', { subcommand: 'balance', outcome: 'ok' })).toBe(1);
    expect((await get(`${opsUrl}/slack/events`)).status).toBe(404);
  });

  it('gives no server when METRICS_PORT is unset', async () => {
    const other = await startHarness({ socketMode: true, existingSandbox: h.sandbox });
    try {
      expect(other.bot.opsUrl).toBeUndefined();
    } finally {
      await other.close();
    }
  });
});

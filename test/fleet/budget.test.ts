import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { systemClock } from '../../src/core/clock.js';
import { DEFAULT_FLEET_REQUESTS_PER_SECOND, FleetClient, type FleetClientOptions } from '../../src/fleet/client.js';
import { FleetConnectionError, FleetRateLimitError } from '../../src/fleet/errors.js';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { capturingLogger, recordingClock } from '../support/fleet-doubles.js';

const KEY_A = 'sk_test_partnerA_Qm4Zt8Lw2Vn6';
const KEY_B = 'sk_test_partnerB_Hx7Rc3Pk9Js5';
const BALANCE = '/api/v1/b2b/account/balance';

let sandbox: Sandbox;
const clients: FleetClient[] = [];

function client(options: Partial<FleetClientOptions> = {}): FleetClient {
  const created = new FleetClient({ baseUrl: sandbox.url, apiKey: KEY_A, clock: systemClock, random: () => 0.5, ...options });
  clients.push(created);
  return created;
}

async function timed(work: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await work();
  return performance.now() - started;
}

const balanceReads = (fleet: FleetClient, count: number) => Promise.all(Array.from({ length: count }, () => fleet.getBalance()));

beforeAll(async () => {
  sandbox = await startSandbox({
    accounts: [
      { apiKey: KEY_A, transactionCount: 30 },
      { apiKey: KEY_B, transactionCount: 30 },
    ],
  });
});

afterEach(async () => {
  sandbox.setFault(null);
  for (const account of sandbox.accounts) account.setFault(null);
  await Promise.all(clients.splice(0).map((each) => each.close()));
});

afterAll(async () => {
  await sandbox.close();
});

describe('FleetClient request budget', () => {
  it('keeps each key at 10 requests a second by default in the app', () => {
    expect(DEFAULT_FLEET_REQUESTS_PER_SECOND).toBe(10);
  });

  it('spreads 20 balance reads at 5 a second over about 3 s, where an unbudgeted client sends them at once', async () => {
    const unbudgeted = client();
    const budgetedClient = client({ requestsPerSecond: 5 });
    await balanceReads(unbudgeted, 20);
    const free = await timed(() => balanceReads(unbudgeted, 20));
    // The budget has refilled by the time the second client starts: a burst of 5, then 15 more one every 200 ms.
    const start = sandbox.requests.length;
    const budgeted = await timed(() => balanceReads(budgetedClient, 20));
    expect(budgeted).toBeGreaterThanOrEqual(2900);
    expect(budgeted / Math.max(free, 1)).toBeGreaterThan(3);
    const arrivals = sandbox.requests.slice(start).map((each) => each.at.getTime() - (sandbox.requests[start]?.at.getTime() ?? 0));
    expect(arrivals.filter((ms) => ms < 150)).toHaveLength(5);
  });

  it('serves waiting requests in the order they were asked', async () => {
    const fleet = client({ requestsPerSecond: 4 });
    const start = sandbox.requests.length;
    await Promise.all(Array.from({ length: 8 }, (_, offset) => fleet.listTransactions({ limit: 1, offset })));
    // The burst of 4 may cross on the wire; the 4 that waited leave one by one, in order.
    expect(sandbox.requests.slice(start + 4).map((each) => each.query.offset)).toEqual(['4', '5', '6', '7']);
  });

  it('waits out a budget on a clock that stands still, once per request past the burst', async () => {
    const clock = recordingClock();
    await balanceReads(client({ requestsPerSecond: 2, clock }), 5);
    expect(clock.sleeps).toEqual([500, 500, 500]);
  });

  it('waits a 429 out once, in the budget, not twice', async () => {
    const clock = recordingClock();
    sandbox.account(KEY_A).setFault({ match: { path: BALANCE }, status: 429, retryAfterSeconds: 2, times: 1 });
    const start = sandbox.requests.length;
    expect(await client({ requestsPerSecond: 5, clock }).getBalance()).toEqual(sandbox.account(KEY_A).balances());
    expect(sandbox.requests.slice(start).map((each) => each.status)).toEqual([429, 200]);
    expect(clock.sleeps).toEqual([2000]);
  });

  it('holds every request of the key for Retry-After after a 429, then carries on', async () => {
    sandbox.account(KEY_A).setFault({ match: { path: BALANCE }, status: 429, retryAfterSeconds: 1, times: 1 });
    const start = sandbox.requests.length;
    const reads = await balanceReads(client({ requestsPerSecond: 2 }), 4);
    expect(reads).toHaveLength(4);
    // The burst of 2 went out together, one of them answered 429; everything after waited for Retry-After.
    const [first, second, ...after] = sandbox.requests.slice(start);
    const limited = [first, second].find((each) => each?.status === 429);
    if (!limited) throw new Error('expected the sandbox to answer one 429 in the burst');
    expect(after.map((each) => each.status)).toEqual([200, 200, 200]);
    for (const each of after) expect(each.at.getTime() - limited.at.getTime()).toBeGreaterThanOrEqual(990);
  });

  it('sends a payout answered 429 once, never again, and pauses the reads behind it', async () => {
    sandbox.account(KEY_A).setFault({ match: { method: 'POST' }, status: 429, retryAfterSeconds: 1, times: 1 });
    const { logger, lines } = capturingLogger();
    const fleet = client({ requestsPerSecond: 10, logger });
    const start = sandbox.requests.length;
    const payout = fleet.payout('mobile_money', {
      recipient: { phone: '243812345678', name: 'Amani Kabila', countryCode: 'CD' },
      amount: 40,
      currency: 'USD',
      reference: 'PAY-BUDGET-0001',
      operator: 'VODACOM_MPESA',
    });
    await expect(payout).rejects.toBeInstanceOf(FleetRateLimitError);
    const waited = await timed(() => fleet.getBalance());
    expect(sandbox.requests.slice(start).map((each) => [each.method, each.status])).toEqual([
      ['POST', 429],
      ['GET', 200],
    ]);
    expect(sandbox.account(KEY_A).payouts()).toEqual([]);
    expect(waited).toBeGreaterThanOrEqual(900);
    const told = lines.filter((line) => line.includes('answered 429'));
    expect(told).toHaveLength(1);
    expect(told[0]).toContain('"pauseMs":1000');
    expect(lines.join('\n')).not.toContain(KEY_A);
  });

  it("never makes one key's requests wait for another key's pause", async () => {
    sandbox.account(KEY_A).setFault({ match: { path: BALANCE }, status: 429, retryAfterSeconds: 2, times: 1 });
    const partnerA = client({ apiKey: KEY_A, requestsPerSecond: 5 });
    const partnerB = client({ apiKey: KEY_B, requestsPerSecond: 5 });
    const pausedRead = partnerA.getBalance();
    await vi.waitFor(() => expect(sandbox.account(KEY_A).requests.some((each) => each.status === 429)).toBe(true));
    const otherKey = await timed(() => balanceReads(partnerB, 5));
    expect(otherKey).toBeLessThan(1000);
    await pausedRead;
    const retryOfA = sandbox.account(KEY_A).requests.at(-1);
    expect(retryOfA?.status).toBe(200);
    for (const each of sandbox.account(KEY_B).requests.slice(-5)) expect(each.at.getTime()).toBeLessThan(retryOfA?.at.getTime() ?? 0);
  });

  it('drops a waiting read whose signal aborts, without sending it', async () => {
    const fleet = client({ requestsPerSecond: 1 });
    const start = sandbox.requests.length;
    await fleet.getBalance();
    const controller = new AbortController();
    const waiting = fleet.getBalance({ signal: controller.signal });
    controller.abort(new Error('the reader left'));
    await expect(waiting).rejects.toThrow('the reader left');
    expect(sandbox.requests.slice(start)).toHaveLength(1);
  });

  it('fails requests still waiting when the client closes, as never sent', async () => {
    const fleet = client({ requestsPerSecond: 1 });
    const start = sandbox.requests.length;
    await fleet.getBalance();
    const waiting = fleet.getBalance().then(
      () => undefined,
      (error: unknown) => error,
    );
    await fleet.close();
    const error = await waiting;
    expect(error).toBeInstanceOf(FleetConnectionError);
    expect((error as FleetConnectionError).outcomeUnknown).toBe(false);
    expect(sandbox.requests.slice(start)).toHaveLength(1);
  });

  it('refuses a budget that is not a positive number', () => {
    expect(() => client({ requestsPerSecond: 0 })).toThrow(/positive number/);
  });
});

import { afterEach, describe, expect, it } from 'vitest';
import { FleetClient } from '../../src/fleet/client.js';
import { FleetConnectionError } from '../../src/fleet/errors.js';
import { fleetConnectionPool } from '../../src/fleet/http.js';
import { json, recordingClock, startStubServer } from '../support/fleet-doubles.js';

// Hosted mode's workspaces share one replica's connections to the Fleet API, each client with its own key.
const KEY_A = 'sk_test_workspace_a_0000000000';
const KEY_B = 'sk_test_workspace_b_1111111111';
const balance = { success: true, balances: { USD: 10 } };

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

async function setUp(respond: Parameters<typeof startStubServer>[0] = (_request, response) => json(response, 200, balance)) {
  const stub = await startStubServer(respond);
  closers.push(() => stub.close());
  const pool = fleetConnectionPool(1000);
  closers.push(() => pool.close());
  const client = (apiKey: string) => {
    const made = new FleetClient({ baseUrl: stub.url, apiKey, clock: recordingClock(), random: () => 0.5, connections: pool });
    closers.push(() => made.close());
    return made;
  };
  return { stub, pool, client };
}

const payout = {
  recipient: { phone: '243812345678', name: 'Amani Kabila', countryCode: 'CD' },
  amount: 10,
  currency: 'USD',
  reference: 'PAY-20261129-0001',
  operator: 'VODACOM_MPESA',
} as const;

describe('Fleet clients sharing connections', () => {
  it('sends each client’s own key over one kept-alive connection', async () => {
    const { stub, client } = await setUp();
    const [a, b] = [client(KEY_A), client(KEY_B)];
    // A moment between two: the connection is back in the pool once its answer has been read to the end.
    for (const each of [a, b, a]) {
      await each.getBalance();
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(stub.requests.map((request) => request.headers.authorization)).toEqual([`Bearer ${KEY_A}`, `Bearer ${KEY_B}`, `Bearer ${KEY_A}`]);
    expect(new Set(stub.requests.map((request) => request.remotePort)).size).toBe(1);
  });

  it('leaves the connections open for the others when one client closes', async () => {
    const { stub, client } = await setUp();
    const [a, b] = [client(KEY_A), client(KEY_B)];
    await a.getBalance();
    await a.close();
    await expect(b.getBalance()).resolves.toEqual({ USD: 10 });
    expect(stub.requests).toHaveLength(2);
  });

  it('sends nothing once closed, a payout included, and says it was never sent', async () => {
    const { stub, client } = await setUp();
    const a = client(KEY_A);
    await a.close();
    const refused = await a.payout('mobile_money', payout).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(FleetConnectionError);
    expect((refused as FleetConnectionError).outcomeUnknown).toBe(false);
    await expect(a.getBalance()).rejects.toBeInstanceOf(FleetConnectionError);
    expect(stub.requests).toHaveLength(0);
  });

  it('waits for its request on the wire before its close resolves, and that request gets its answer', async () => {
    let answer: (() => void) | undefined;
    const { client } = await setUp((_request, response) => {
      answer = () => json(response, 200, balance);
    });
    const a = client(KEY_A);
    const reading = a.getBalance();
    await expect.poll(() => answer !== undefined).toBe(true);
    let closed = false;
    const closing = a.close().then(() => (closed = true));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(closed).toBe(false);
    answer!();
    await expect(reading).resolves.toEqual({ USD: 10 });
    await closing;
    expect(closed).toBe(true);
  });
});

describe('A Fleet client with connections of its own', () => {
  it('sends nothing once closed, and says it was never sent', async () => {
    const stub = await startStubServer((_request, response) => json(response, 200, balance));
    closers.push(() => stub.close());
    const own = new FleetClient({ baseUrl: stub.url, apiKey: KEY_A, clock: recordingClock() });
    await own.getBalance();
    await own.close();
    const refused = await own.payout('mobile_money', payout).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect((refused as FleetConnectionError).outcomeUnknown).toBe(false);
    expect(stub.requests).toHaveLength(1);
  });
});

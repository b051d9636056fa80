import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { FleetClient, type FleetClientOptions } from '../../src/fleet/client.js';
import {
  FleetAuthError,
  FleetBadResponseError,
  FleetConnectionError,
  FleetError,
  FleetNotFoundError,
  FleetRateLimitError,
  FleetRejectedError,
  FleetTimeoutError,
  FleetUnavailableError,
} from '../../src/fleet/errors.js';
import type { MobileMoneyPayoutRequest } from '../../src/fleet/schemas.js';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { capturingLogger, closedPort, json, recordingClock, startStubServer } from '../support/fleet-doubles.js';

const API_KEY = 'sk_test_Zq8vN3kLw7Rt2YpXc5Hd9Jf4';

let sandbox: Sandbox;
const clients: FleetClient[] = [];

function client(options: Partial<FleetClientOptions> = {}): FleetClient {
  const created = new FleetClient({
    baseUrl: sandbox.url,
    apiKey: API_KEY,
    clock: recordingClock(),
    random: () => 0.5,
    timeouts: { connectMs: 1000, headersMs: 2000, bodyMs: 2000 },
    ...options,
  });
  clients.push(created);
  return created;
}

let referenceCounter = 0;
function payoutRequest(overrides: Partial<MobileMoneyPayoutRequest> = {}): MobileMoneyPayoutRequest {
  return {
    recipient: { phone: '243812345678', name: 'Amani Kabila', countryCode: 'CD' },
    amount: 125.5,
    currency: 'USD',
    reference: `PAY-20261121-${String(++referenceCounter).padStart(4, '0')}`,
    operator: 'VODACOM_MPESA',
    ...overrides,
  };
}

async function failure(promise: Promise<unknown>): Promise<FleetError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!(error instanceof FleetError)) throw new Error(`expected a FleetError, got ${String(error)}`);
  return error;
}

function requestsSince(start: number) {
  return sandbox.requests.slice(start);
}

beforeAll(async () => {
  sandbox = await startSandbox({ apiKey: API_KEY, seed: 7 });
});

afterEach(async () => {
  sandbox.setFault(null);
  await Promise.all(clients.splice(0).map((each) => each.close()));
});

afterAll(async () => {
  await sandbox.close();
});

describe('FleetClient reading a transaction page with a malformed entry', () => {
  let damaged: Sandbox;
  beforeAll(async () => {
    damaged = await startSandbox({ apiKey: API_KEY, seed: 11, transactionCount: 30 });
    damaged.addMalformedTransaction({ amount: '1 234,50', description: 'Amani Kabila 243812345678' });
    damaged.addTransaction({ reference: 'NEWEST-OK' });
  });
  afterAll(async () => {
    await damaged.close();
  });

  it('returns every well-formed entry, counts the malformed one, and says how many the API sent', async () => {
    const page = await client({ baseUrl: damaged.url }).listTransactions({ limit: 10 });
    expect(page.received).toBe(10);
    expect(page.malformed).toBe(1);
    expect(page.transactions).toHaveLength(9);
    expect(page.transactions[0]?.reference).toBe('NEWEST-OK');
  });

  it('logs where the entry was and which field was wrong, never its values', async () => {
    const { logger, lines } = capturingLogger([API_KEY]);
    await client({ baseUrl: damaged.url, logger }).listTransactions({ limit: 5 });
    const warning = lines.find((line) => line.includes('malformed transaction'));
    expect(warning).toContain('"position":1');
    expect(warning).toContain('amount: invalid_type');
    expect(lines.join('\n')).not.toContain('243812345678');
    expect(lines.join('\n')).not.toContain('1 234,50');
  });
});

describe('FleetClient reading the account', () => {
  it('returns the balance of every currency the sandbox holds', async () => {
    expect(await client().getBalance()).toEqual(sandbox.balances());
  });

  it('returns the page asked for, newest first', async () => {
    const page = await client().listTransactions({ limit: 10, offset: 20 });
    expect(page.transactions.map((each) => each.reference)).toEqual(
      sandbox
        .transactions()
        .slice(20, 30)
        .map((each) => each.reference),
    );
  });

  it('asks for 50 from the start when no page is given', async () => {
    const start = sandbox.requests.length;
    const page = await client().listTransactions();
    expect(page.transactions).toHaveLength(50);
    expect(requestsSince(start)[0]?.query).toEqual({ limit: '50', offset: '0' });
  });

  it('clamps the limit to 1–100 and the offset to 0 or more, in whole numbers', async () => {
    const start = sandbox.requests.length;
    const fleet = client();
    expect((await fleet.listTransactions({ limit: 500 })).transactions).toHaveLength(100);
    expect((await fleet.listTransactions({ limit: 0, offset: -5 })).transactions).toHaveLength(1);
    expect((await fleet.listTransactions({ limit: 2.7, offset: 3.9 })).transactions).toHaveLength(2);
    expect(requestsSince(start).map((each) => each.query)).toEqual([
      { limit: '100', offset: '0' },
      { limit: '1', offset: '0' },
      { limit: '2', offset: '3' },
    ]);
  });

  it('sends the key as a Bearer token and asks for JSON, under a base URL with a path prefix', async () => {
    const stub = await startStubServer((_request, response) => json(response, 200, { success: true, balances: { USD: 1 } }));
    try {
      await client({ baseUrl: `${stub.url}/fleet/` }).getBalance();
      expect(stub.requests[0]?.url).toBe('/fleet/api/v1/b2b/account/balance');
      expect(stub.requests[0]?.headers.authorization).toBe(`Bearer ${API_KEY}`);
      expect(stub.requests[0]?.headers.accept).toBe('application/json');
    } finally {
      await stub.close();
    }
  });

  it('reuses kept-alive connections across calls instead of opening one per call', async () => {
    const stub = await startStubServer((_request, response) => json(response, 200, { success: true, balances: { USD: 1 } }));
    try {
      const fleet = client({ baseUrl: stub.url });
      const calls = 4;
      for (let call = 0; call < calls; call++) await fleet.getBalance();
      expect(new Set(stub.requests.map((each) => each.remotePort)).size).toBeLessThan(calls);
    } finally {
      await stub.close();
    }
  });

  it('reports a wrong key as an auth error without retrying', async () => {
    const start = sandbox.requests.length;
    const error = await failure(client({ apiKey: 'sk_wrong_key_000000000000' }).getBalance());
    expect(error).toBeInstanceOf(FleetAuthError);
    expect(error.status).toBe(401);
    expect(requestsSince(start)).toHaveLength(1);
  });

  it('reports an unknown address as not found', async () => {
    const error = await failure(client({ baseUrl: `${sandbox.url}/wrong-prefix` }).getBalance());
    expect(error).toBeInstanceOf(FleetNotFoundError);
  });

  it('names the field that does not match the schema and quotes none of the body', async () => {
    const stub = await startStubServer((_request, response) => json(response, 200, { success: true, balances: { USD: 10, CDF: 'twelve-francs-secretvalue' } }));
    try {
      const error = await failure(client({ baseUrl: stub.url }).getBalance());
      expect(error).toBeInstanceOf(FleetBadResponseError);
      expect(error.message).toContain('balances.CDF');
      expect(error.message).not.toContain('secretvalue');
      expect(stub.requests).toHaveLength(1);
    } finally {
      await stub.close();
    }
  });

  it('keeps names chosen by the server, such as an echoed key used as a currency, out of a bad-response error', async () => {
    const stub = await startStubServer((request, response) =>
      json(response, 200, {
        success: true,
        balances: !request.url.startsWith('/odd')
          ? { USD: 1, [request.headers.authorization?.replace('Bearer ', '') ?? '']: 'lots' }
          : { USD: 1, '<!channel>': 'x' },
      }),
    );
    try {
      const echoed = await failure(client({ baseUrl: stub.url }).getBalance());
      expect(echoed).toBeInstanceOf(FleetBadResponseError);
      expect(echoed.message).not.toContain(API_KEY.slice(8, 20));
      const odd = await failure(client({ baseUrl: `${stub.url}/odd` }).getBalance());
      expect(odd.message).toContain('balances.[…]');
      expect(odd.message).not.toContain('<!channel>');
    } finally {
      await stub.close();
    }
  });

  it('reports a 2xx answer that is not JSON as a bad response', async () => {
    const stub = await startStubServer((_request, response) => json(response, 200, '<html>maintenance</html>'));
    try {
      const error = await failure(client({ baseUrl: stub.url }).getBalance());
      expect(error).toBeInstanceOf(FleetBadResponseError);
      expect(error.message).not.toContain('maintenance');
    } finally {
      await stub.close();
    }
  });
});

describe('FleetClient retrying reads', () => {
  it('waits as long as Retry-After says on a 429, then succeeds', async () => {
    const clock = recordingClock();
    sandbox.setFault({ match: { path: '/api/v1/b2b/account/balance' }, status: 429, retryAfterSeconds: 2, times: 1 });
    const start = sandbox.requests.length;
    expect(await client({ clock }).getBalance()).toEqual(sandbox.balances());
    expect(requestsSince(start).map((each) => each.status)).toEqual([429, 200]);
    expect(clock.sleeps).toEqual([2000]);
  });

  it('honours Retry-After given as an HTTP date', async () => {
    const clock = recordingClock(new Date('2026-11-21T12:00:00.000Z'));
    let calls = 0;
    const stub = await startStubServer((_request, response) =>
      ++calls === 1
        ? json(response, 429, { error: 'slow down' }, { 'retry-after': 'Sat, 21 Nov 2026 12:00:03 GMT' })
        : json(response, 200, { success: true, balances: { USD: 5 } }),
    );
    try {
      expect(await client({ baseUrl: stub.url, clock }).getBalance()).toEqual({ USD: 5 });
      expect(clock.sleeps).toEqual([3000]);
    } finally {
      await stub.close();
    }
  });

  it('reads a Retry-After in fractional seconds as seconds, not as a date long past that means retry at once', async () => {
    const clock = recordingClock();
    let calls = 0;
    const stub = await startStubServer((_request, response) =>
      ++calls === 1 ? json(response, 503, { error: 'busy' }, { 'retry-after': '1.5' }) : json(response, 200, { success: true, balances: { USD: 5 } }),
    );
    try {
      expect(await client({ baseUrl: stub.url, clock }).getBalance()).toEqual({ USD: 5 });
      expect(clock.sleeps).toEqual([1500]);
    } finally {
      await stub.close();
    }
  });

  it('gives up at once when Retry-After is longer than it is willing to wait', async () => {
    const clock = recordingClock();
    sandbox.setFault({ status: 429, retryAfterSeconds: 120 });
    const start = sandbox.requests.length;
    const error = await failure(client({ clock }).getBalance());
    expect(error).toBeInstanceOf(FleetRateLimitError);
    expect(error.details.retryAfterMs).toBe(120_000);
    expect(requestsSince(start)).toHaveLength(1);
    expect(clock.sleeps).toEqual([]);
  });

  it('retries a 503 with growing jittered delays and then succeeds', async () => {
    const clock = recordingClock();
    sandbox.setFault({ status: 503, times: 2 });
    const start = sandbox.requests.length;
    const page = await client({ clock, retry: { maxAttempts: 3, baseDelayMs: 100, maxDelayMs: 1000 } }).listTransactions({ limit: 5 });
    expect(page.transactions).toHaveLength(5);
    expect(requestsSince(start).map((each) => each.status)).toEqual([503, 503, 200]);
    // random() = 0.5 takes half of each step: 100 ms, then 200 ms.
    expect(clock.sleeps).toEqual([50, 100]);
  });

  it('stops after the last attempt and reports the service as unavailable', async () => {
    sandbox.setFault({ status: 503 });
    const start = sandbox.requests.length;
    const error = await failure(client({ retry: { maxAttempts: 3 } }).getBalance());
    expect(error).toBeInstanceOf(FleetUnavailableError);
    expect(requestsSince(start)).toHaveLength(3);
  });

  it('retries a read that timed out waiting for headers', async () => {
    sandbox.setFault({ hang: true, times: 1 });
    const start = sandbox.requests.length;
    const balances = await client({ timeouts: { headersMs: 150 } }).getBalance();
    expect(balances).toEqual(sandbox.balances());
    expect(requestsSince(start)).toHaveLength(2);
  });

  it('reports a read that keeps timing out as a timeout', async () => {
    sandbox.setFault({ hang: true });
    const error = await failure(client({ timeouts: { headersMs: 100 }, retry: { maxAttempts: 1 } }).getBalance());
    expect(error).toBeInstanceOf(FleetTimeoutError);
  });

  it('stops a read when its signal aborts', async () => {
    sandbox.setFault({ hang: true });
    const controller = new AbortController();
    const start = sandbox.requests.length;
    const reading = client().getBalance({ signal: controller.signal });
    await vi.waitFor(() => expect(sandbox.requests.length).toBeGreaterThan(start));
    controller.abort(new Error('user left'));
    await expect(reading).rejects.toThrow('user left');
    expect(sandbox.requests.length).toBe(start + 1);
  });
});

describe('FleetClient sending payouts', () => {
  it('sends the payout as JSON and returns the service transaction id', async () => {
    const result = await client().payout('mobile_money', payoutRequest());
    const last = sandbox.payouts().at(-1);
    expect(result.transactionId).toBe(last?.transactionId);
    expect(result.transactionId).toMatch(/^PO-/);
  });

  it('sends a bank payout to its own endpoint', async () => {
    const result = await client().payout('bank_account', {
      recipient: { accountNumber: '00012345678901', bankCode: 'RAWBCDKI', name: 'Kivu Logistics SARL', countryCode: 'CD' },
      amount: 900,
      currency: 'EUR',
      reference: 'PAY-BANK-0001',
    });
    expect(sandbox.payouts().at(-1)).toMatchObject({ kind: 'bank_account', transactionId: result.transactionId });
  });

  it('shows the API message when a payout is refused as invalid', async () => {
    const error = await failure(client().payout('mobile_money', payoutRequest({ operator: 'MTN_MOMO' })));
    expect(error).toBeInstanceOf(FleetRejectedError);
    expect(error.status).toBe(400);
    expect(error.message).toContain('operator must be one of');
    expect(error.outcomeUnknown).toBe(false);
  });

  it('tells a duplicate reference apart by the API error code', async () => {
    const request = payoutRequest();
    await client().payout('mobile_money', request);
    const error = await failure(client().payout('mobile_money', request));
    expect(error).toBeInstanceOf(FleetRejectedError);
    expect((error as FleetRejectedError).apiCode).toBe('duplicate_reference');
  });

  it('never retries a payout on a 503 and marks its outcome unknown', async () => {
    const clock = recordingClock();
    sandbox.setFault({ match: { method: 'POST' }, status: 503 });
    const start = sandbox.requests.length;
    const error = await failure(client({ clock }).payout('mobile_money', payoutRequest()));
    expect(error).toBeInstanceOf(FleetUnavailableError);
    expect(error.outcomeUnknown).toBe(true);
    expect(requestsSince(start)).toHaveLength(1);
    expect(clock.sleeps).toEqual([]);
  });

  it('never retries a payout on a 429 either', async () => {
    sandbox.setFault({ match: { method: 'POST' }, status: 429, retryAfterSeconds: 1 });
    const start = sandbox.requests.length;
    const error = await failure(client().payout('mobile_money', payoutRequest()));
    expect(error).toBeInstanceOf(FleetRateLimitError);
    expect(requestsSince(start)).toHaveLength(1);
  });

  it('reports a payout that was processed but never answered as a timeout with unknown outcome', async () => {
    sandbox.setFault({ match: { path: '/api/v1/b2b/payouts/' }, afterProcessing: true, hang: true });
    const before = sandbox.payouts().length;
    const balanceBefore = sandbox.balances().USD ?? 0;
    const start = sandbox.requests.length;
    const error = await failure(client({ timeouts: { headersMs: 150 } }).payout('mobile_money', payoutRequest({ amount: 40 })));
    expect(error).toBeInstanceOf(FleetTimeoutError);
    expect(error.outcomeUnknown).toBe(true);
    expect(requestsSince(start)).toHaveLength(1);
    expect(sandbox.payouts()).toHaveLength(before + 1);
    expect(sandbox.balances().USD).toBeCloseTo(balanceBefore + 40, 2);
  });

  it('marks a payout whose 2xx answer is unreadable as outcome unknown', async () => {
    const stub = await startStubServer((_request, response) => json(response, 200, { success: true }));
    try {
      const error = await failure(client({ baseUrl: stub.url }).payout('mobile_money', payoutRequest()));
      expect(error).toBeInstanceOf(FleetBadResponseError);
      expect(error.message).toContain('transactionId');
      expect(error.outcomeUnknown).toBe(true);
      expect(stub.requests[0]?.headers['content-type']).toBe('application/json');
    } finally {
      await stub.close();
    }
  });

  it('knows a refused connection never reached the service', async () => {
    const port = await closedPort();
    const error = await failure(client({ baseUrl: `http://127.0.0.1:${port}` }).payout('mobile_money', payoutRequest()));
    expect(error).toBeInstanceOf(FleetConnectionError);
    expect(error.outcomeUnknown).toBe(false);
  });

  it('retries a refused connection for reads before giving up', async () => {
    const clock = recordingClock();
    const port = await closedPort();
    const error = await failure(client({ baseUrl: `http://127.0.0.1:${port}`, clock }).getBalance());
    expect(error).toBeInstanceOf(FleetConnectionError);
    expect(clock.sleeps).toHaveLength(2);
  });
});

describe('FleetClient keeping the key secret', () => {
  it('never puts the API key in an error, its causes, or a log line', async () => {
    const { logger, lines } = capturingLogger();
    const echo = await startStubServer((request, response) =>
      json(response, 400, { success: false, error: { code: 'bad', message: `Rejected ${request.headers.authorization ?? ''}` } }),
    );
    const port = await closedPort();
    const errors: FleetError[] = [];
    try {
      const options = { logger, timeouts: { headersMs: 150 }, retry: { maxAttempts: 1 } };
      errors.push(await failure(client({ ...options, baseUrl: echo.url }).getBalance()));
      errors.push(await failure(client({ ...options, baseUrl: `http://127.0.0.1:${port}` }).payout('mobile_money', payoutRequest())));
      sandbox.setFault({ hang: true });
      errors.push(await failure(client(options).getBalance()));
      sandbox.setFault({ status: 503 });
      errors.push(await failure(client(options).payout('mobile_money', payoutRequest())));
    } finally {
      await echo.close();
    }
    expect(errors[0]).toBeInstanceOf(FleetRejectedError);
    expect(lines).toHaveLength(4);
    for (const error of errors) {
      let link: unknown = error;
      while (link instanceof Error) {
        expect(`${link.message} ${link.stack ?? ''} ${JSON.stringify(link)}`).not.toContain(API_KEY);
        link = link.cause;
      }
      expect(error.userMessage).not.toContain(API_KEY);
    }
    expect(lines.join('\n')).not.toContain(API_KEY);
    expect(lines.join('\n')).not.toMatch(/authorization/i);
  });
});

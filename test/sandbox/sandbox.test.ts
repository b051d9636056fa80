import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { systemClock, type Clock } from '../../src/core/clock.js';
import type { Transaction } from '../../src/fleet/schemas.js';
import { currencyDecimals, toMinor } from '../../src/core/money.js';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';

const NOW = new Date('2026-11-21T12:00:00.000Z');
const fixedClock: Clock = { now: () => NOW, sleep: (ms, signal) => systemClock.sleep(ms, signal) };

let sandbox: Sandbox;

/** The sandbox's answers, loosely: each test reads the fields its endpoint sends. */
interface ApiBody {
  success?: boolean;
  balances?: Record<string, number>;
  transactions?: Transaction[];
  message?: string;
  transactionId?: string;
  error?: { code: string; message: string };
}

interface CallOptions {
  method?: string;
  key?: string | null;
  body?: unknown;
}

async function call(path: string, options: CallOptions = {}): Promise<{ status: number; body: ApiBody }> {
  const key = options.key === undefined ? sandbox.apiKey : options.key;
  const response = await fetch(`${sandbox.url}${path}`, {
    method: options.method ?? (options.body === undefined ? 'GET' : 'POST'),
    headers: {
      ...(key === null ? {} : { authorization: `Bearer ${key}` }),
      ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  return { status: response.status, body: (await response.json()) as ApiBody };
}

let referenceCounter = 0;
function mobilePayout(overrides: Record<string, unknown> = {}) {
  return {
    recipient: { phone: '243812345678', name: 'Amani Kabila', countryCode: 'CD' },
    amount: 250.75,
    currency: 'USD',
    reference: `PAY-20261121-S${String(++referenceCounter).padStart(3, '0')}`,
    operator: 'ORANGE_MONEY',
    ...overrides,
  };
}

beforeAll(async () => {
  sandbox = await startSandbox({ seed: 11, clock: fixedClock });
});

afterAll(async () => {
  await sandbox.close();
});

describe('sandbox authentication', () => {
  it('refuses a request without a key with a JSON error', async () => {
    const { status, body } = await call('/api/v1/b2b/account/balance', { key: null });
    expect(status).toBe(401);
    expect(body).toEqual({ success: false, error: { code: 'unauthorized', message: expect.any(String) } });
  });

  it('refuses a wrong key', async () => {
    expect((await call('/api/v1/b2b/account/balance', { key: `${sandbox.apiKey}x` })).status).toBe(401);
  });

  it('generates a sandbox key when none is given', () => {
    expect(sandbox.apiKey).toMatch(/^sk_sandbox_\S{16,}$/);
  });
});

describe('sandbox account', () => {
  it('answers the balance in USD, EUR and CDF, CDF in millions', async () => {
    const { status, body } = await call('/api/v1/b2b/account/balance');
    expect(status).toBe(200);
    expect(body.success).toBe(true);
    expect(Object.keys(body.balances!).sort()).toEqual(['CDF', 'EUR', 'USD']);
    expect(body.balances?.CDF).toBeGreaterThan(1_000_000);
    expect(body.balances).toEqual(sandbox.balances());
  });

  it('answers 50 transactions by default', async () => {
    const { body } = await call('/api/v1/b2b/account/transactions');
    expect(body.transactions).toHaveLength(50);
  });

  it.each([['limit=101'], ['limit=0'], ['limit=1.5'], ['limit=ten'], ['offset=-1'], ['offset=2.5']])(
    'refuses %s with a 400 that explains the bounds',
    async (query) => {
      const { status, body } = await call(`/api/v1/b2b/account/transactions?${query}`);
      expect(status).toBe(400);
      expect(body.error?.message).toMatch(/whole number/);
    },
  );

  it('covers every transaction exactly once when paging, newest first', async () => {
    const seen: Array<{ reference: string; date: string }> = [];
    for (let offset = 0; ; offset += 100) {
      const { body } = await call(`/api/v1/b2b/account/transactions?limit=100&offset=${offset}`);
      if (!body.transactions?.length) break;
      seen.push(...body.transactions);
    }
    const all = sandbox.transactions();
    expect(seen.map((each) => each.reference)).toEqual(all.map((each) => each.reference));
    expect(new Set(seen.map((each) => each.reference)).size).toBe(seen.length);
    const times = seen.map((each) => Date.parse(each.date));
    expect(times).toEqual([...times].sort((a, b) => b - a));
  });

  it('also answers the transaction path written without v1', async () => {
    const withV1 = await call('/api/v1/b2b/account/transactions?limit=7&offset=3');
    const withoutV1 = await call('/api/b2b/account/transactions?limit=7&offset=3');
    expect(withoutV1.body).toEqual(withV1.body);
  });

  it('answers an unknown path with a JSON 404 and a wrong method with a 405', async () => {
    expect(await call('/api/v1/b2b/account/statements')).toMatchObject({ status: 404, body: { success: false, error: { code: 'not_found' } } });
    expect((await call('/api/v1/b2b/payouts/mobile-money')).status).toBe(405);
  });
});

describe('sandbox seeded data', () => {
  it('looks like a real fleet account over the last four weeks', () => {
    const transactions = sandbox.transactions();
    expect(transactions.length).toBeGreaterThanOrEqual(320);
    const fourWeeksAgo = NOW.getTime() - 28 * 24 * 3600 * 1000;
    for (const each of transactions) {
      expect(new Date(each.date).toISOString()).toBe(each.date);
      expect(Date.parse(each.date)).toBeGreaterThanOrEqual(fourWeeksAgo);
      expect(Date.parse(each.date)).toBeLessThanOrEqual(NOW.getTime());
      expect(each.status).toBe('Completed');
      expect(Number(each.amount.toFixed(currencyDecimals(each.currency)))).toBe(each.amount);
      if (each.type === 'PAYMENT') expect(each.amount).toBeGreaterThan(0);
      else expect(each.amount).toBeLessThan(0);
      expect(each.reference).toMatch(/^(TXN|JIT|PO)-[A-Z0-9]+$/);
    }
    expect(new Set(transactions.map((each) => each.type))).toEqual(new Set(['PAYMENT', 'B2B_JIT_FUNDING']));
    expect(new Set(transactions.map((each) => each.currency))).toEqual(new Set(['USD', 'EUR', 'CDF']));
    expect(transactions.filter((each) => /[&<>]/.test(each.description)).length).toBeGreaterThanOrEqual(3);
  });

  it('gives the same account for the same seed and a different one for another seed', async () => {
    const [first, same, other] = await Promise.all([
      startSandbox({ seed: 5, clock: fixedClock, transactionCount: 40 }),
      startSandbox({ seed: 5, clock: fixedClock, transactionCount: 40 }),
      startSandbox({ seed: 6, clock: fixedClock, transactionCount: 40 }),
    ]);
    try {
      expect(same.transactions()).toEqual(first.transactions());
      expect(same.balances()).toEqual(first.balances());
      expect(other.transactions()).not.toEqual(first.transactions());
    } finally {
      await Promise.all([first.close(), same.close(), other.close()]);
    }
  });

  it('moves the balance when a transaction is added and lists it first', () => {
    const before = sandbox.balances().EUR ?? 0;
    const added = sandbox.addTransactions(2, { currency: 'EUR', amount: -12.3, type: 'B2B_JIT_FUNDING' });
    expect(sandbox.balances().EUR).toBeCloseTo(before - 24.6, 2);
    expect(
      sandbox
        .transactions()
        .slice(0, 2)
        .map((each) => each.reference),
    ).toEqual([added[1]?.reference, added[0]?.reference]);
  });
});

describe('sandbox payouts', () => {
  it('credits the balance and lists a PAYMENT carrying the partner reference', async () => {
    const before = sandbox.balances().USD ?? 0;
    const request = mobilePayout({ amount: 250.75 });
    const { status, body } = await call('/api/v1/b2b/payouts/mobile-money', { body: request });
    expect(status).toBe(200);
    expect(body).toEqual({ success: true, message: 'Payout processing initiated', transactionId: expect.stringMatching(/^PO-/) });
    expect(sandbox.balances().USD).toBeCloseTo(before + 250.75, 2);
    const [newest] = sandbox.transactions();
    expect(newest).toMatchObject({ reference: body.transactionId, type: 'PAYMENT', amount: 250.75, currency: 'USD', status: 'Completed' });
    expect(newest?.description).toBe(`Mobile money payout ${request.reference} to 243812345678`);
    expect(sandbox.payouts().at(-1)).toEqual({ kind: 'mobile_money', body: request, transactionId: body.transactionId });
  });

  it('pays out to a bank account with the same answer shape', async () => {
    const { status, body } = await call('/api/v1/b2b/payouts/bank-account', {
      body: {
        recipient: { accountNumber: '00012345678901', bankCode: 'RAWBCDKI', name: 'Kivu Logistics', countryCode: 'CD' },
        amount: 1500000,
        currency: 'CDF',
        reference: 'PAY-BANK-S001',
      },
    });
    expect(status).toBe(200);
    expect(body.transactionId).toMatch(/^PO-/);
    expect(sandbox.transactions()[0]?.description).toContain('PAY-BANK-S001');
  });

  it.each([
    [{ amount: 10.005 }, 'amount'],
    [{ amount: 0 }, 'amount'],
    [{ currency: 'XAF' }, 'currency'],
    [{ operator: 'MTN_MOMO' }, 'operator'],
    [{ reference: '  ' }, 'reference'],
    [{ recipient: { phone: '+243812345678', name: 'A', countryCode: 'CD' } }, 'recipient.phone'],
  ])('refuses %j with a 400 naming %s, and moves no money', async (overrides, field) => {
    const before = sandbox.balances();
    const payoutsBefore = sandbox.payouts().length;
    const { status, body } = await call('/api/v1/b2b/payouts/mobile-money', { body: mobilePayout(overrides) });
    expect(status).toBe(400);
    expect(body.error?.message).toContain(field);
    expect(sandbox.balances()).toEqual(before);
    expect(sandbox.payouts()).toHaveLength(payoutsBefore);
  });

  it('refuses a reference already used with a 409 duplicate_reference', async () => {
    const request = mobilePayout();
    expect((await call('/api/v1/b2b/payouts/mobile-money', { body: request })).status).toBe(200);
    const payoutsAfterFirst = sandbox.payouts().length;
    const again = await call('/api/v1/b2b/payouts/mobile-money', { body: { ...request, amount: 1 } });
    expect(again.status).toBe(409);
    expect(again.body.error?.code).toBe('duplicate_reference');
    expect(sandbox.payouts()).toHaveLength(payoutsAfterFirst);
  });
});

describe('sandbox balance', () => {
  it('answers a balance equal to the sum of its whole transaction list, per currency, also after payouts and new activity', async () => {
    const lively = await startSandbox({ seed: 21, transactionCount: 150, activityIntervalMs: 30 });
    const get = async (path: string) =>
      (await (await fetch(`${lively.url}${path}`, { headers: { authorization: `Bearer ${lively.apiKey}` } })).json()) as ApiBody;
    const wholeList = async () => {
      const all: Transaction[] = [];
      for (let offset = 0; ; offset += 100) {
        const page = (await get(`/api/v1/b2b/account/transactions?limit=100&offset=${offset}`)).transactions ?? [];
        all.push(...page);
        if (page.length < 100) return all;
      }
    };
    try {
      await vi.waitFor(() => expect(lively.transactions().length).toBeGreaterThanOrEqual(153), { timeout: 3000 });
      const payout = await fetch(`${lively.url}/api/v1/b2b/payouts/mobile-money`, {
        method: 'POST',
        headers: { authorization: `Bearer ${lively.apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify(mobilePayout({ amount: 99.99 })),
      });
      expect(payout.status).toBe(200);
      // Read the list on both sides of the balance, until no entry arrived in between.
      for (let attempt = 0; ; attempt += 1) {
        const before = await wholeList();
        const { balances } = await get('/api/v1/b2b/account/balance');
        const after = await wholeList();
        if (after.length !== before.length && attempt < 20) continue;
        const sums: Record<string, number> = {};
        for (const each of after) sums[each.currency] = (sums[each.currency] ?? 0) + toMinor(each.amount, each.currency);
        const balanceMinor = Object.fromEntries(Object.entries(balances ?? {}).map(([currency, amount]) => [currency, toMinor(amount, currency)]));
        expect(balanceMinor).toEqual(sums);
        break;
      }
    } finally {
      await lively.close();
    }
  });
});

describe('sandbox activity and faults', () => {
  it('adds transactions on its own when activity is on', async () => {
    const lively = await startSandbox({ seed: 3, transactionCount: 10, activityIntervalMs: 20 });
    try {
      await vi.waitFor(() => expect(lively.transactions().length).toBeGreaterThanOrEqual(13), { timeout: 2000 });
      expect(
        lively
          .transactions()
          .slice(0, 3)
          .every((each) => ['PAYMENT', 'B2B_JIT_FUNDING'].includes(each.type)),
      ).toBe(true);
    } finally {
      await lively.close();
    }
  });

  it('applies a fault the given number of times, then answers normally', async () => {
    sandbox.setFault({ match: { method: 'GET', path: '/api/v1/b2b/account/balance' }, status: 503, retryAfterSeconds: 1, times: 2 });
    const start = sandbox.requests.length;
    const statuses = [];
    for (let index = 0; index < 3; index++) statuses.push((await call('/api/v1/b2b/account/balance')).status);
    expect(statuses).toEqual([503, 503, 200]);
    expect(sandbox.requests.slice(start).map((each) => each.status)).toEqual([503, 503, 200]);
  });

  it('processes a payout and then fails the answer when asked to fail after processing', async () => {
    sandbox.setFault({ match: { path: '/api/v1/b2b/payouts' }, status: 500, afterProcessing: true, times: 1 });
    const before = sandbox.payouts().length;
    const { status } = await call('/api/v1/b2b/payouts/mobile-money', { body: mobilePayout() });
    expect(status).toBe(500);
    expect(sandbox.payouts()).toHaveLength(before + 1);
  });

  it('records each request with its query, body and status', async () => {
    const start = sandbox.requests.length;
    await call('/api/v1/b2b/account/transactions?limit=3&offset=1');
    expect(sandbox.requests.slice(start)).toEqual([
      { method: 'GET', path: '/api/v1/b2b/account/transactions', query: { limit: '3', offset: '1' }, at: NOW, status: 200 },
    ]);
  });

  it('releases a hanging request when it closes', async () => {
    const hanging = await startSandbox({ transactionCount: 5 });
    hanging.setFault({ hang: true });
    const pending = fetch(`${hanging.url}/api/v1/b2b/account/balance`, { headers: { authorization: `Bearer ${hanging.apiKey}` } });
    await vi.waitFor(() => expect(hanging.requests).toHaveLength(1));
    await hanging.close();
    await expect(pending).rejects.toThrow();
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Transaction } from '../../src/fleet/schemas.js';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';

const KEY_A = 'sk_sandbox_partner_a_4Rt9Lm2QwXz7';
const KEY_B = 'sk_sandbox_partner_b_8Hn3Vc6PkYs1';
const BALANCE = '/api/v1/b2b/account/balance';
const MOBILE_MONEY = '/api/v1/b2b/payouts/mobile-money';

interface ApiBody {
  balances?: Record<string, number>;
  transactions?: Transaction[];
  transactionId?: string;
  error?: { code: string };
}

let sandbox: Sandbox;

async function call(key: string, path: string, body?: unknown): Promise<{ status: number; body: ApiBody }> {
  const response = await fetch(`${sandbox.url}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as ApiBody };
}

function mobilePayout(reference: string) {
  return {
    recipient: { phone: '243812345678', name: 'Amani Kabila', countryCode: 'CD' },
    amount: 80,
    currency: 'USD',
    reference,
    operator: 'ORANGE_MONEY',
  };
}

beforeAll(async () => {
  sandbox = await startSandbox({
    seed: 3,
    accounts: [
      { apiKey: KEY_A, transactionCount: 40 },
      { apiKey: KEY_B, transactionCount: 25 },
    ],
  });
});

afterAll(async () => {
  await sandbox.close();
});

describe('sandbox with several fleet accounts', () => {
  it('serves the first account as the default one, and each account by its key', () => {
    expect(sandbox.apiKey).toBe(KEY_A);
    expect(sandbox.accounts.map((each) => each.apiKey)).toEqual([KEY_A, KEY_B]);
    expect(sandbox.account(KEY_B).apiKey).toBe(KEY_B);
    expect(sandbox.balances()).toEqual(sandbox.account(KEY_A).balances());
    expect(() => sandbox.account('sk_sandbox_nobody')).toThrow(/No sandbox account/);
  });

  it('answers each key with its own account: transactions and balances never cross', async () => {
    const a = await call(KEY_A, '/api/v1/b2b/account/transactions?limit=100');
    const b = await call(KEY_B, '/api/v1/b2b/account/transactions?limit=100');
    expect(a.body.transactions).toEqual(sandbox.account(KEY_A).transactions());
    expect(b.body.transactions).toEqual(sandbox.account(KEY_B).transactions());
    expect(a.body.transactions).toHaveLength(40);
    expect(b.body.transactions).toHaveLength(25);
    const referencesOfA = new Set(a.body.transactions?.map((each) => each.reference));
    expect(b.body.transactions?.filter((each) => referencesOfA.has(each.reference))).toEqual([]);
    expect((await call(KEY_A, BALANCE)).body.balances).toEqual(sandbox.account(KEY_A).balances());
    expect((await call(KEY_B, BALANCE)).body.balances).toEqual(sandbox.account(KEY_B).balances());
    expect(sandbox.account(KEY_A).balances()).not.toEqual(sandbox.account(KEY_B).balances());
  });

  it('moves only the account a transaction is added to', () => {
    const before = sandbox.account(KEY_A).balances();
    const added = sandbox.account(KEY_B).addTransaction({ currency: 'USD', amount: 12.5, type: 'PAYMENT' });
    expect(sandbox.account(KEY_B).transactions()[0]).toEqual(added);
    expect(sandbox.account(KEY_A).balances()).toEqual(before);
    expect(
      sandbox
        .account(KEY_A)
        .transactions()
        .some((each) => each.reference === added.reference),
    ).toBe(false);
  });

  it('pays out the same reference once on each account: two independent payouts', async () => {
    const beforeA = sandbox.account(KEY_A).balances().USD ?? 0;
    const beforeB = sandbox.account(KEY_B).balances().USD ?? 0;
    const onA = await call(KEY_A, MOBILE_MONEY, mobilePayout('PAY-SHARED-0001'));
    const onB = await call(KEY_B, MOBILE_MONEY, mobilePayout('PAY-SHARED-0001'));
    expect([onA.status, onB.status]).toEqual([200, 200]);
    expect(onA.body.transactionId).not.toBe(onB.body.transactionId);
    expect(
      sandbox
        .account(KEY_A)
        .payouts()
        .map((each) => each.transactionId),
    ).toEqual([onA.body.transactionId]);
    expect(
      sandbox
        .account(KEY_B)
        .payouts()
        .map((each) => each.transactionId),
    ).toEqual([onB.body.transactionId]);
    expect(sandbox.account(KEY_A).balances().USD).toBeCloseTo(beforeA + 80, 2);
    expect(sandbox.account(KEY_B).balances().USD).toBeCloseTo(beforeB + 80, 2);
    // Within one account the reference is still used up.
    const again = await call(KEY_B, MOBILE_MONEY, mobilePayout('PAY-SHARED-0001'));
    expect(again.status).toBe(409);
    expect(sandbox.account(KEY_B).payouts()).toHaveLength(1);
  });

  it('refuses a key no account has with a 401', async () => {
    const { status, body } = await call('sk_sandbox_partner_c_0000000000', BALANCE);
    expect(status).toBe(401);
    expect(body.error?.code).toBe('unauthorized');
  });

  it("logs each request under its key's account, and every request on the server", async () => {
    const startAll = sandbox.requests.length;
    const startA = sandbox.account(KEY_A).requests.length;
    const startB = sandbox.account(KEY_B).requests.length;
    await call(KEY_B, '/api/v1/b2b/account/transactions?limit=2');
    await call('sk_sandbox_wrong', BALANCE);
    expect(sandbox.account(KEY_A).requests.slice(startA)).toEqual([]);
    expect(
      sandbox
        .account(KEY_B)
        .requests.slice(startB)
        .map((each) => [each.query, each.status]),
    ).toEqual([[{ limit: '2' }, 200]]);
    expect(sandbox.requests.slice(startAll).map((each) => each.status)).toEqual([200, 401]);
  });

  it("faults one account without touching the other's answers, while a server fault hits every key", async () => {
    sandbox.account(KEY_A).setFault({ status: 429, retryAfterSeconds: 1 });
    try {
      expect((await call(KEY_A, BALANCE)).status).toBe(429);
      expect((await call(KEY_B, BALANCE)).status).toBe(200);
    } finally {
      sandbox.account(KEY_A).setFault(null);
    }
    sandbox.setFault({ status: 503, times: 2 });
    expect([(await call(KEY_A, BALANCE)).status, (await call(KEY_B, BALANCE)).status]).toEqual([503, 503]);
    expect((await call(KEY_A, BALANCE)).status).toBe(200);
  });

  it('seeds accounts without a seed of their own differently, and refuses two accounts with one key', async () => {
    const two = await startSandbox({ seed: 5, transactionCount: 10, accounts: [{}, { transactionCount: 10 }] });
    try {
      const [first, second] = two.accounts;
      expect(first?.apiKey).not.toBe(second?.apiKey);
      expect(first?.transactions()).not.toEqual(second?.transactions());
    } finally {
      await two.close();
    }
    await expect(startSandbox({ accounts: [{ apiKey: KEY_A }, { apiKey: KEY_A }] })).rejects.toThrow(/key of its own/);
  });
});

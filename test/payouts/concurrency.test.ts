import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FleetTimeoutError } from '../../src/fleet/errors.js';
import type { Db } from '../../src/store/db.js';
import { openDatabase } from '../../src/store/index.js';
import { createTestSchema, testDatabases, testPostgresUrl } from '../support/databases.js';
import { APPROVER, createService, mobileForm, REQUESTER, submitted, usePayoutDatabase } from '../support/payout-doubles.js';

const approvers = Array.from({ length: 20 }, (_, index) => `UAPPROVER${index + 1}`);

describe.each(testDatabases())('PayoutService under concurrent clicks on $name', ({ open }) => {
  let db: Db;
  usePayoutDatabase(open, (opened) => {
    db = opened;
  });

  it('makes exactly one payout call when 20 approvers approve at once', async () => {
    const { service, fleet } = createService(db);
    const request = await submitted(service);
    const results = await Promise.all(approvers.map((userId) => service.approve(request.id, userId)));
    expect(fleet.payoutCalls).toHaveLength(1);
    expect(results.filter((result) => result.ok)).toHaveLength(1);
    expect(new Set(results.flatMap((result) => (result.ok ? [] : [result.code])))).toEqual(new Set(['not_pending']));
    const stored = await service.get(request.id);
    expect(stored).toMatchObject({ state: 'completed', transactionId: 'TX-1' });
    expect(stored?.approvals).toHaveLength(1);
  });

  it('makes exactly one payout call when the same approver submits 20 times at once', async () => {
    const { service, fleet } = createService(db);
    const request = await submitted(service);
    const results = await Promise.all(approvers.map(() => service.approve(request.id, APPROVER)));
    expect(fleet.payoutCalls).toHaveLength(1);
    expect(results.filter((result) => result.ok)).toHaveLength(1);
    expect((await service.history(request.id)).filter((event) => event.event === 'approved')).toHaveLength(1);
  });

  it('takes exactly two different approvers, and one payout call, when 20 approve a dual-approval request at once', async () => {
    const { service, fleet } = createService(db);
    const request = await submitted(service, { ...mobileForm, amount: '5000' });
    const results = await Promise.all(approvers.map((userId) => service.approve(request.id, userId)));
    expect(fleet.payoutCalls).toHaveLength(1);
    expect(results.filter((result) => result.ok)).toHaveLength(2);
    const stored = await service.get(request.id);
    expect(stored?.state).toBe('completed');
    expect(new Set(stored?.approvals.map((approval) => approval.userId)).size).toBe(2);
  });

  it('lets either a cancel or an approval win, never both', async () => {
    const { service, fleet } = createService(db);
    const request = await submitted(service);
    const [cancelled, approved] = await Promise.all([service.cancel(request.id, REQUESTER), service.approve(request.id, APPROVER)]);
    expect([cancelled.ok, approved.ok].filter(Boolean)).toHaveLength(1);
    const stored = await service.get(request.id);
    expect(stored?.state).toBe(cancelled.ok ? 'cancelled' : 'completed');
    expect(fleet.payoutCalls).toHaveLength(cancelled.ok ? 0 : 1);
  });

  it('stores only what fits the daily limit when one requester submits several at once', async () => {
    const { service } = createService(db);
    const drafts = [];
    for (let index = 0; index < 5; index += 1) {
      const validation = await service.validate('mobile_money', { ...mobileForm, amount: '30000' });
      if (!validation.ok) throw new Error('expected a valid form');
      drafts.push(validation.draft);
    }
    const results = await Promise.all(drafts.map((draft) => service.submit(REQUESTER, draft)));
    expect(results.filter((result) => result.ok)).toHaveLength(3);
    expect(results.filter((result) => !result.ok && result.code === 'over_daily_limit')).toHaveLength(2);
  });

  it('records one reconciliation when two checks find the payout at once', async () => {
    const { service, fleet, clock } = createService(db);
    fleet.willAnswer(new FleetTimeoutError(true));
    const request = await submitted(service);
    await service.approve(request.id, APPROVER);
    fleet.addTransaction({ reference: 'FLT-1', description: `Payout ${request.reference}`, date: clock.now().toISOString() });
    await Promise.all([service.settle(request.id), service.settle(request.id), service.runMaintenance()]);
    const events = (await service.history(request.id)).map((event) => event.event);
    expect(events.filter((event) => event === 'reconciled')).toHaveLength(1);
    expect((await service.get(request.id))?.state).toBe('completed');
  });
});

/** Two app instances over one database: two pools on one Postgres schema, or (PGlite) two services on one database. */
function replicaPairs(): Array<{ name: string; open: () => Promise<{ a: Db; b: Db; close: () => Promise<void> }> }> {
  const pairs = [
    {
      name: 'pglite',
      open: async () => {
        const db = await openDatabase({ dataDir: ':memory:' });
        return { a: db, b: db, close: () => db.close() };
      },
    },
  ];
  const baseUrl = testPostgresUrl;
  if (baseUrl) {
    pairs.push({
      name: 'postgres',
      open: async () => {
        const schema = await createTestSchema(baseUrl);
        const a = await openDatabase({ databaseUrl: schema.databaseUrl });
        const b = await openDatabase({ databaseUrl: schema.databaseUrl });
        return {
          a,
          b,
          close: async () => {
            await a.close();
            await b.close();
            await schema.drop();
          },
        };
      },
    });
  }
  return pairs;
}

describe.each(replicaPairs())('PayoutService on two replicas sharing one database on $name', ({ open: openPair }) => {
  let replicas: Awaited<ReturnType<typeof openPair>>;
  beforeAll(async () => {
    replicas = await openPair();
  });
  afterAll(async () => {
    await replicas.close();
  });

  it('makes one payout call in total when approvals reach both replicas at once', async () => {
    const a = createService(replicas.a);
    const b = createService(replicas.b);
    const request = await submitted(a.service);
    const results = await Promise.all(approvers.map((userId, index) => (index % 2 === 0 ? a : b).service.approve(request.id, userId)));
    expect(a.fleet.payoutCalls.length + b.fleet.payoutCalls.length).toBe(1);
    expect(results.filter((result) => result.ok)).toHaveLength(1);
    expect((await b.service.get(request.id))?.state).toBe('completed');
  });
});

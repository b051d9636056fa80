import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FleetClient } from '../../src/fleet/client.js';
import type { PayoutKind } from '../../src/payouts/model.js';
import type { PayoutService } from '../../src/payouts/service.js';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import type { Db } from '../../src/store/db.js';
import { openDatabase } from '../../src/store/index.js';
import { APPROVER, bankForm, createService, ManualClock, mobileForm, REQUESTER, resetPayouts } from '../support/payout-doubles.js';

// Against the real sandbox over HTTP: the domain, the client and the sandbox agree on what is sent.
describe('payouts against the sandbox Fleet API', () => {
  let db: Db;
  let sandbox: Sandbox;
  let fleet: FleetClient;
  const clock = new ManualClock(new Date('2025-03-14T10:00:00Z'));

  beforeAll(async () => {
    db = await openDatabase({ dataDir: ':memory:' });
  });
  afterAll(async () => {
    await db.close();
  });
  beforeEach(async () => {
    await resetPayouts(db);
    sandbox = await startSandbox({ clock, transactionCount: 150 });
    fleet = new FleetClient({ baseUrl: sandbox.url, apiKey: sandbox.apiKey, timeouts: { headersMs: 300, bodyMs: 300 } });
  });
  afterEach(async () => {
    await fleet.close();
    await sandbox.close();
  });

  async function approvedPayout(service: PayoutService, kind: PayoutKind, fields: Record<string, string>) {
    const validation = await service.validate(kind, fields);
    if (!validation.ok) throw new Error(JSON.stringify(validation.errors));
    const submitted = await service.submit(REQUESTER, validation.draft);
    if (!submitted.ok) throw new Error(submitted.code);
    return { request: submitted.request, result: await service.approve(submitted.request.id, APPROVER) };
  }

  it('moves money once for a mobile money payout requested by one person and approved by another', async () => {
    const { service } = createService(db, { fleet, clock });
    const { request, result } = await approvedPayout(service, 'mobile_money', mobileForm);
    const [payout] = sandbox.payouts();
    expect(sandbox.payouts()).toHaveLength(1);
    expect(payout?.body).toEqual({
      recipient: { phone: '243812345678', name: 'Amani Kabila', countryCode: 'CD' },
      amount: 150,
      currency: 'USD',
      reference: request.reference,
      operator: 'VODACOM_MPESA',
    });
    expect(result).toMatchObject({ ok: true, request: { state: 'completed', transactionId: payout?.transactionId } });
    expect(await service.approve(request.id, 'UAPPROVER2')).toMatchObject({ ok: false, code: 'not_pending' });
    expect(sandbox.payouts()).toHaveLength(1);
  });

  it('moves money once for a bank payout', async () => {
    const { service } = createService(db, { fleet, clock });
    const { result } = await approvedPayout(service, 'bank_account', bankForm);
    expect(sandbox.payouts()).toMatchObject([{ kind: 'bank_account' }]);
    expect(result).toMatchObject({ ok: true, request: { state: 'completed', transactionId: sandbox.payouts()[0]?.transactionId } });
  });

  it('settles a payout whose answer was lost after processing by finding it in the transaction list', async () => {
    const { service } = createService(db, { fleet, clock });
    sandbox.setFault({ match: { method: 'POST', path: '/api/v1/b2b/payouts' }, status: 502, afterProcessing: true, times: 1 });
    const { request, result } = await approvedPayout(service, 'mobile_money', mobileForm);
    const posts = sandbox.requests.filter((entry) => entry.method === 'POST');
    expect(posts).toHaveLength(1);
    expect(result).toMatchObject({ ok: true, request: { state: 'completed', transactionId: sandbox.payouts()[0]?.transactionId } });
    expect((await service.history(request.id)).map((event) => event.event)).toEqual(['requested', 'approved', 'executing', 'unknown', 'reconciled']);
  });

  it('settles a payout whose response never came (timeout) without sending it twice', async () => {
    const { service } = createService(db, { fleet, clock });
    sandbox.setFault({ match: { method: 'POST', path: '/api/v1/b2b/payouts' }, hang: true, afterProcessing: true, times: 1 });
    const { result } = await approvedPayout(service, 'mobile_money', mobileForm);
    expect(sandbox.requests.filter((entry) => entry.method === 'POST')).toHaveLength(1);
    expect(result).toMatchObject({ ok: true, request: { state: 'completed', transactionId: sandbox.payouts()[0]?.transactionId } });
  });

  it('marks a payout failed with the reason when the sandbox refuses it', async () => {
    const { service } = createService(db, { fleet, clock });
    sandbox.setFault({ match: { method: 'POST' }, status: 422, times: 1 });
    const { result } = await approvedPayout(service, 'mobile_money', mobileForm);
    expect(sandbox.payouts()).toEqual([]);
    expect(result).toMatchObject({ ok: true, request: { state: 'failed', failureReason: expect.stringMatching(/^fleet:rejected:/) as string } });
  });
});

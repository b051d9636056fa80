import { describe, expect, it } from 'vitest';
import type { PayoutService } from '../../src/payouts/service.js';
import type { PayoutRequest } from '../../src/payouts/model.js';
import type { Db } from '../../src/store/db.js';
import { testDatabases } from '../support/databases.js';
import { APPROVER, createService, mobileForm, REQUESTER, REQUESTER_APPROVER, submitted, usePayoutDatabase } from '../support/payout-doubles.js';

describe.each(testDatabases())('correcting a rejected request on $name', ({ open }) => {
  let db: Db;
  usePayoutDatabase(open, (opened) => {
    db = opened;
  });

  async function rejected(service: PayoutService, fields: Record<string, string> = mobileForm, by = REQUESTER): Promise<PayoutRequest> {
    const request = await submitted(service, fields, by);
    const result = await service.reject(request.id, APPROVER, 'Wrong amount');
    if (!result.ok) throw new Error(`expected the rejection: ${result.code}`);
    return result.request;
  }

  async function resubmit(service: PayoutService, old: PayoutRequest, changes: Record<string, string>, by = REQUESTER): Promise<PayoutRequest> {
    const validation = await service.validate(old.kind, { ...mobileForm, ...changes });
    if (!validation.ok) throw new Error(JSON.stringify(validation.errors));
    const result = await service.submit(by, validation.draft, { resubmitOf: old.id });
    if (!result.ok) throw new Error(result.code);
    return result.request;
  }

  it("links the new request to the requester's own rejected request, in the request and its history, and leaves the old one rejected", async () => {
    const { service } = createService(db);
    const old = await rejected(service, { ...mobileForm, reference: 'INV-7001' });
    const offered = await service.resubmission(old.id, REQUESTER);
    expect(offered).toMatchObject({ ok: true, reference: 'INV-7001-2' });
    const fresh = await resubmit(service, old, { reference: 'INV-7001-2', amount: '1500' });
    expect(fresh).toMatchObject({ state: 'pending', resubmitOf: old.id, reference: 'INV-7001-2' });
    // Measured as any new request: 1,500 USD needs two approvers where the old 150 USD needed one.
    expect([old.requiredApprovals, fresh.requiredApprovals]).toEqual([1, 2]);
    expect((await service.history(fresh.id))[0]?.details).toMatchObject({ resubmitOf: old.id });
    expect((await service.get(old.id))?.state).toBe('rejected');
  });

  it('offers the next free suffix, continues the numbering of a correction, and no reference for a generated one', async () => {
    const { service } = createService(db);
    const old = await rejected(service, { ...mobileForm, reference: 'INV-7002' });
    await submitted(service, { ...mobileForm, reference: 'INV-7002-2' });
    expect(await service.resubmission(old.id, REQUESTER)).toMatchObject({ ok: true, reference: 'INV-7002-3' });
    const corrected = await resubmit(service, old, { reference: 'INV-7002-3' });
    await service.reject(corrected.id, APPROVER, 'Still wrong');
    expect(await service.resubmission(corrected.id, REQUESTER)).toMatchObject({ ok: true, reference: 'INV-7002-4' });
    const generated = await rejected(service);
    expect(await service.resubmission(generated.id, REQUESTER)).toMatchObject({ ok: true, reference: '' });
  });

  it("refuses someone else's request and one that is not rejected, and never links them", async () => {
    const { service } = createService(db);
    const theirs = await rejected(service, mobileForm, REQUESTER_APPROVER);
    const pending = await submitted(service);
    expect(await service.resubmission(theirs.id, REQUESTER)).toMatchObject({ ok: false, code: 'not_own' });
    expect(await service.resubmission(pending.id, REQUESTER)).toMatchObject({ ok: false, code: 'not_rejected' });
    expect(await service.resubmission('PR-ZZZZZZ', REQUESTER)).toMatchObject({ ok: false, code: 'not_found' });
    expect((await resubmit(service, theirs, {})).resubmitOf).toBeUndefined();
    expect((await resubmit(service, pending, {})).resubmitOf).toBeUndefined();
  });
});

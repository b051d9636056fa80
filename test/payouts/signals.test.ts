import { describe, expect, it } from 'vitest';
import { unusualAmount } from '../../src/payouts/signals.js';
import type { PayoutRequest } from '../../src/payouts/model.js';
import type { PayoutService } from '../../src/payouts/service.js';
import type { Db } from '../../src/store/db.js';
import { testDatabases } from '../support/databases.js';
import { APPROVER, createService, HOUR, mobileForm, REQUESTER, SECOND_APPROVER, settings, submitted, usePayoutDatabase } from '../support/payout-doubles.js';

const DAY = 24 * HOUR;

describe('an unusual amount', () => {
  it('is at least 3 times the median of at least 3 completed payouts, cut to one decimal', () => {
    expect(unusualAmount(30_000, { payouts: 3, medianMinor: 10_000 })).toEqual({ times: 3, usualMinor: 10_000, payouts: 3 });
    expect(unusualAmount(29_999, { payouts: 3, medianMinor: 10_000 })).toBeUndefined();
    expect(unusualAmount(30_000, { payouts: 2, medianMinor: 10_000 })).toBeUndefined();
    expect(unusualAmount(45_999, { payouts: 7, medianMinor: 10_000 })?.times).toBe(4.5);
    expect(unusualAmount(30_000, { payouts: 0, medianMinor: undefined })).toBeUndefined();
  });
});

describe.each(testDatabases())('what an approver should notice on $name', ({ open }) => {
  let db: Db;
  usePayoutDatabase(open, (opened) => {
    db = opened;
  });

  async function completed(service: PayoutService, amount: string): Promise<PayoutRequest> {
    const request = await submitted(service, { ...mobileForm, amount });
    const result = await service.approve(request.id, APPROVER, { duplicateChecked: true });
    if (!result.ok || result.request.state !== 'completed') throw new Error(`expected ${request.id} to complete`);
    return result.request;
  }

  it('says nothing of an ordinary payout but its day totals', async () => {
    const { service } = createService(db);
    await submitted(service, { ...mobileForm, amount: '40' });
    const request = await submitted(service, { ...mobileForm, amount: '150', phone: '+243 899 999 999' });
    expect(await service.signals(request)).toEqual({
      duplicateOf: undefined,
      unusualAmount: undefined,
      dayTotals: { currency: 'USD', requesterMinor: 19_000, recipientMinor: 15_000 },
    });
  });

  it("totals the team's day (TEAM_TIMEZONE), the day the policy counts, not the UTC day", async () => {
    const { service, clock } = createService(db, { settings: { ...settings, timeZone: 'Asia/Tokyo' } });
    // 19:00 in Tokyo on the 14th…
    await submitted(service, { ...mobileForm, amount: '40' });
    // …then 01:00 in Tokyo on the 15th, the same UTC day.
    clock.advance(6 * HOUR);
    const request = await submitted(service, { ...mobileForm, amount: '150', phone: '+243 899 999 999' });
    expect((await service.signals(request)).dayTotals).toEqual({ currency: 'USD', requesterMinor: 15_000, recipientMinor: 15_000 });
    expect((await service.previewSignals(REQUESTER, { ...request, reference: 'NEW-REF-1' })).dayTotals).toEqual({
      currency: 'USD',
      requesterMinor: 30_000,
      recipientMinor: 30_000,
    });
  });

  it('finds the earlier request within the window, at its very edge, and not a moment past it', async () => {
    const { service, clock } = createService(db);
    const first = await submitted(service, mobileForm);
    clock.advance(72 * HOUR);
    const atEdge = await submitted(service, mobileForm);
    expect((await service.signals(atEdge)).duplicateOf).toEqual({ kind: 'request', requestId: first.id, reference: first.reference, state: 'pending' });
    // The first one never repeats the later one.
    expect((await service.signals(first)).duplicateOf).toBeUndefined();
    clock.advance(1);
    const past = await submitted(service, { ...mobileForm, amount: '151' });
    const pastFirst = await service.signals(past);
    expect(pastFirst.duplicateOf).toBeUndefined();
    await service.reject(atEdge.id, APPROVER, 'paid by hand');
    expect((await service.previewSignals(REQUESTER, { ...atEdge })).duplicateOf).toBeUndefined();
  });

  it('needs the tick to approve a possible duplicate, changes nothing without it, and records it', async () => {
    const { service, fleet, clock } = createService(db);
    const first = await submitted(service, mobileForm);
    clock.advance(HOUR);
    const again = await submitted(service, mobileForm);
    expect(await service.approve(again.id, APPROVER)).toMatchObject({ ok: false, code: 'duplicate_unchecked' });
    expect(await service.approve(again.id, APPROVER, { duplicateChecked: false })).toMatchObject({ ok: false, code: 'duplicate_unchecked' });
    expect((await service.get(again.id))?.approvals).toEqual([]);
    expect(fleet.payoutCalls).toHaveLength(0);
    // The first of the two needs no tick.
    expect(await service.approve(first.id, SECOND_APPROVER)).toMatchObject({ ok: true, request: { state: 'completed' } });
    expect(await service.approve(again.id, APPROVER, { duplicateChecked: true })).toMatchObject({ ok: true, request: { state: 'completed' } });
    const approved = (await service.history(again.id)).find((event) => event.event === 'approved');
    expect(approved).toMatchObject({ userId: APPROVER, details: { duplicateChecked: { kind: 'request', requestId: first.id } } });
    const plain = (await service.history(first.id)).find((event) => event.event === 'approved');
    expect(plain?.details).not.toHaveProperty('duplicateChecked');
  });

  it('says how many times the usual amount, from 3 completed payouts of the last 90 days, at 3 times and not below', async () => {
    const { service, clock } = createService(db);
    await completed(service, '90');
    clock.advance(4 * DAY);
    await completed(service, '100');
    clock.advance(4 * DAY);
    const twoOnly = await submitted(service, { ...mobileForm, amount: '400' });
    expect((await service.signals(twoOnly)).unusualAmount).toBeUndefined();
    await service.reject(twoOnly.id, APPROVER, 'not yet');
    await completed(service, '110');
    clock.advance(4 * DAY);
    const atThree = await submitted(service, { ...mobileForm, amount: '300' });
    expect((await service.signals(atThree)).unusualAmount).toEqual({ times: 3, usualMinor: 10_000, payouts: 3 });
    const below = await submitted(service, { ...mobileForm, amount: '299.99' });
    expect((await service.signals(below)).unusualAmount).toBeUndefined();
    // In another currency, the recipient has no usual amount.
    const euros = await submitted(service, { ...mobileForm, amount: '900', currency: 'EUR' });
    expect((await service.signals(euros)).unusualAmount).toBeUndefined();
    // 90 days on, the first payout no longer counts: two are left.
    clock.advance(78 * DAY + 1);
    const later = await submitted(service, { ...mobileForm, amount: '301' });
    expect((await service.signals(later)).unusualAmount).toBeUndefined();
  });
});

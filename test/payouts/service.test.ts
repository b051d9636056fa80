import { describe, expect, it } from 'vitest';
import { FleetRejectedError } from '../../src/fleet/errors.js';
import type { PayoutDraft } from '../../src/payouts/model.js';
import type { PayoutService } from '../../src/payouts/service.js';
import type { Db } from '../../src/store/db.js';
import { testDatabases } from '../support/databases.js';
import {
  APPROVER,
  bankForm,
  createService,
  HOUR,
  mobileForm,
  OUTSIDER,
  REQUESTER,
  REQUESTER_APPROVER,
  usePayoutDatabase,
  SECOND_APPROVER,
  settings,
  submitted,
} from '../support/payout-doubles.js';

describe.each(testDatabases())('PayoutService requests and approvals on $name', ({ open }) => {
  let db: Db;
  usePayoutDatabase(open, (opened) => {
    db = opened;
  });

  async function draftFrom(
    service: PayoutService,
    fields: Record<string, string> = mobileForm,
    kind: 'mobile_money' | 'bank_account' = 'mobile_money',
  ): Promise<PayoutDraft> {
    const result = await service.validate(kind, fields);
    if (!result.ok) throw new Error(`expected a valid form: ${JSON.stringify(result.errors)}`);
    return result.draft;
  }

  it('stores a submitted request as pending, with a readable id, the expiry and the requested event', async () => {
    const { service, notifications } = createService(db);
    const request = await submitted(service);
    expect(request).toMatchObject({
      kind: 'mobile_money',
      recipient: { phone: '243812345678', name: 'Amani Kabila', countryCode: 'CD' },
      operator: 'VODACOM_MPESA',
      amountMinor: 15000,
      currency: 'USD',
      state: 'pending',
      requiredApprovals: 1,
      approvals: [],
      requestedBy: REQUESTER,
      expiresAt: new Date('2025-03-15T10:00:00Z'),
      needsReview: false,
    });
    expect(request.id).toMatch(/^PR-[0-9A-Z]{6}$/);
    expect(request.reference).toMatch(/^PAY-20250314-[0-9A-Z]{6}$/);
    expect(await service.get(request.id.toLowerCase())).toEqual(request);
    expect((await service.history(request.id)).map((event) => [event.event, event.userId])).toEqual([['requested', REQUESTER]]);
    expect(notifications).toEqual([{ id: request.id, state: 'pending', event: 'requested', actor: REQUESTER }]);
  });

  it('acts on a request named by its id in lower case, as it reads it', async () => {
    const { service, fleet } = createService(db);
    const sent = await submitted(service);
    expect(await service.approve(sent.id.toLowerCase(), APPROVER)).toMatchObject({ ok: true, request: { id: sent.id, state: 'completed' } });
    const rejected = await submitted(service);
    expect(await service.reject(` ${rejected.id.toLowerCase()}`, APPROVER, 'Not this month')).toMatchObject({ ok: true, request: { state: 'rejected' } });
    const cancelled = await submitted(service);
    expect(await service.cancel(cancelled.id.toLowerCase(), REQUESTER)).toMatchObject({ ok: true, request: { state: 'cancelled' } });
    expect(fleet.payoutCalls).toHaveLength(1);
  });

  it('refuses a submission from someone who may not request payouts', async () => {
    const { service } = createService(db);
    const result = await service.submit(OUTSIDER, await draftFrom(service));
    expect(result).toMatchObject({ ok: false, code: 'not_requester' });
    expect(await service.listRecent()).toEqual([]);
  });

  it('refuses a reference that was already used, when validating and when submitting', async () => {
    const { service } = createService(db);
    const first = await draftFrom(service, { ...mobileForm, reference: 'INV-2025-031' });
    expect((await service.submit(REQUESTER, first)).ok).toBe(true);
    expect(await service.validate('mobile_money', { ...mobileForm, reference: 'INV-2025-031' })).toEqual({
      ok: false,
      errors: { reference: { code: 'reference_used' } },
    });
    // Said at the first Review, beside any other field's problem, not only once the rest is right.
    const alsoWrong = await service.validate('mobile_money', { ...mobileForm, phone: 'not a phone', reference: ' INV-2025-031 ' });
    expect(alsoWrong).toMatchObject({ ok: false, errors: { phone: expect.anything(), reference: { code: 'reference_used' } } });
    const again = await service.submit(REQUESTER, first);
    expect(again).toMatchObject({ ok: false, code: 'duplicate_reference', errors: { reference: { code: 'reference_used' } } });
    expect(await service.listRecent()).toHaveLength(1);
  });

  it("answers a second submission of a review that used up the day's allowance as a used reference, and finds the stored request by it", async () => {
    const { service } = createService(db);
    // The limit is 100,000 USD a day, the maximum 50,000 a payout: the second review takes what is left.
    await submitted(service, { ...mobileForm, amount: '50000' });
    const last = await draftFrom(service, { ...mobileForm, amount: '50000', reference: 'LAST-OF-DAY' });
    const first = await service.submit(REQUESTER, last);
    expect(first.ok).toBe(true);
    const again = await service.submit(REQUESTER, last);
    expect(again).toMatchObject({ ok: false, code: 'duplicate_reference' });
    expect(await service.getByReference('LAST-OF-DAY')).toEqual(first.ok ? first.request : undefined);
    expect(await service.getByReference('NOT-USED')).toBeUndefined();
  });

  it('answers a review submitted twice with the request the first stored, only for the same person and the same draft', async () => {
    const { service } = createService(db);
    const draft = await draftFrom(service, { ...mobileForm, reference: 'TWICE-1' });
    const first = await service.submitReview(REQUESTER, draft);
    expect(first).toMatchObject({ ok: true, request: { reference: 'TWICE-1', requestedBy: REQUESTER } });
    expect(await service.submitReview(REQUESTER, draft)).toEqual(first);
    expect(await service.submitReview(REQUESTER, { ...draft, note: 'changed' })).toMatchObject({ ok: false, code: 'duplicate_reference' });
    expect(await service.submitReview(REQUESTER_APPROVER, draft)).toMatchObject({ ok: false, code: 'duplicate_reference' });
    expect(await service.listRecent()).toHaveLength(1);
  });

  it('hands a reviewed draft with a schedule to the schedules, and one without to approval now', async () => {
    const { service } = createService(db);
    const draft = await draftFrom(service, { ...mobileForm, reference: 'LATER-1' });
    const input = { firstDay: '2025-03-20', time: { hour: 9, minute: 0 }, repeat: 'once' as const };
    const asked: unknown[] = [];
    const schedules = {
      request: async (...args: unknown[]) => {
        asked.push(args);
        return { ok: false as const, code: 'schedule_invalid' as const, problems: [] };
      },
    };
    expect(await service.submitReview(REQUESTER, draft, { resubmitOf: 'PR-AAAAAA', schedule: { input, schedules } })).toEqual({
      ok: false,
      code: 'schedule_invalid',
      problems: [],
    });
    expect(asked).toEqual([[REQUESTER, draft, input, { filledFrom: undefined, resubmitOf: 'PR-AAAAAA' }]]);
    expect(await service.listRecent()).toHaveLength(0);
    expect(await service.submitReview(REQUESTER, draft)).toMatchObject({ ok: true, request: { state: 'pending', reference: 'LATER-1' } });
  });

  it('refuses a draft tampered on its way back with an amount over the maximum', async () => {
    const { service } = createService(db);
    const draft = await draftFrom(service);
    const result = await service.submit(REQUESTER, { ...draft, amountMinor: 5_000_001 });
    expect(result).toMatchObject({ ok: false, code: 'invalid', errors: { amount: { code: 'amount_over_maximum', maxMinor: 5_000_000, currency: 'USD' } } });
  });

  it('needs two approvals above the dual-approval threshold', async () => {
    const { service } = createService(db);
    const small = await submitted(service, { ...mobileForm, amount: '1000' });
    expect(small).toMatchObject({ requiredApprovals: 1, dualApproval: undefined });
    const request = await submitted(service, { ...mobileForm, amount: '1000.01', currency: 'EUR' });
    expect(request).toMatchObject({ requiredApprovals: 2, dualApproval: { rule: 'amount', totalMinor: 100_001, thresholdMinor: 100_000 } });
  });

  it('counts the daily limit per requester, per currency, per UTC day, leaving out rejected, cancelled, expired and failed requests', async () => {
    const { service, clock, fleet } = createService(db, { settings: { ...settings, requestTtlHours: 1 } });
    // The limit is 100,000 USD a day; only the first 40,000 below still counts.
    const expiring = await submitted(service, { ...mobileForm, amount: '20000' });
    clock.advance(HOUR);
    expect((await service.expireDue()).map((request) => request.id)).toEqual([expiring.id]);
    await submitted(service, { ...mobileForm, amount: '40000' });
    const rejected = await submitted(service, { ...mobileForm, amount: '40000' });
    expect((await service.reject(rejected.id, APPROVER, 'Duplicate of an earlier request')).ok).toBe(true);
    const cancelled = await submitted(service, { ...mobileForm, amount: '10000' });
    expect((await service.cancel(cancelled.id, REQUESTER)).ok).toBe(true);
    fleet.willAnswer(new FleetRejectedError(422, 'invalid phone'));
    const failed = await submitted(service, { ...mobileForm, amount: '10000' });
    await service.approve(failed.id, APPROVER);
    expect(await service.approve(failed.id, SECOND_APPROVER)).toMatchObject({ ok: true, request: { state: 'failed' } });
    // Another requester, and another currency, have allowances of their own.
    await submitted(service, { ...mobileForm, amount: '50000' }, REQUESTER_APPROVER);
    await submitted(service, { ...mobileForm, amount: '50000', currency: 'EUR' });

    await submitted(service, { ...mobileForm, amount: '50000' });
    expect(await service.validate('mobile_money', { ...mobileForm, amount: '10000.01' }, REQUESTER)).toEqual({
      ok: false,
      errors: {
        amount: { code: 'refused', refusal: { code: 'over_daily_limit', details: { limitMinor: 10_000_000, leftMinor: 1_000_000, currency: 'USD' } } },
      },
    });
    const over = await service.submit(REQUESTER, await draftFrom(service, { ...mobileForm, amount: '10000.01' }));
    expect(over).toMatchObject({
      ok: false,
      code: 'over_daily_limit',
      details: { limitMinor: 10_000_000, leftMinor: 1_000_000, currency: 'USD' },
      errors: { amount: { code: 'refused', refusal: { code: 'over_daily_limit', details: { leftMinor: 1_000_000 } } } },
    });
    await submitted(service, { ...mobileForm, amount: '10000' });

    clock.set(new Date('2025-03-15T00:00:00Z'));
    expect((await service.submit(REQUESTER, await draftFrom(service, { ...mobileForm, amount: '50000' }))).ok).toBe(true);
  });

  it('refuses an approval by the requester even when they are an approver, and changes nothing', async () => {
    const { service, fleet } = createService(db);
    const request = await submitted(service, mobileForm, REQUESTER_APPROVER);
    const result = await service.approve(request.id, REQUESTER_APPROVER);
    expect(result).toMatchObject({ ok: false, code: 'own_request', details: { action: 'approve' } });
    expect(await service.get(request.id)).toEqual(request);
    expect(fleet.payoutCalls).toEqual([]);
  });

  it('refuses an approval by someone who is not an approver', async () => {
    const { service, fleet } = createService(db);
    const request = await submitted(service);
    expect(await service.approve(request.id, OUTSIDER)).toMatchObject({ ok: false, code: 'not_approver' });
    expect((await service.get(request.id))?.state).toBe('pending');
    expect(fleet.payoutCalls).toEqual([]);
  });

  it('sends exactly one payout with the stored recipient, amount and reference once approved', async () => {
    const { service, fleet, notifications } = createService(db);
    const request = await submitted(service);
    const result = await service.approve(request.id, APPROVER);
    expect(result).toMatchObject({ ok: true, request: { state: 'completed', transactionId: 'TX-1', approvals: [{ userId: APPROVER }] } });
    expect(fleet.payoutCalls).toEqual([
      {
        kind: 'mobile_money',
        body: {
          recipient: { phone: '243812345678', name: 'Amani Kabila', countryCode: 'CD' },
          amount: 150,
          currency: 'USD',
          reference: request.reference,
          operator: 'VODACOM_MPESA',
        },
      },
    ]);
    expect(notifications.map((note) => `${note.event}:${note.state}`)).toEqual([
      'requested:pending',
      'approved:approved',
      'executing:executing',
      'completed:completed',
    ]);
    expect((await service.history(request.id)).map((event) => event.event)).toEqual(['requested', 'approved', 'executing', 'completed']);
  });

  it('sends a bank payout with the cleaned account number and no operator', async () => {
    const { service, fleet } = createService(db);
    const request = await submitted(service, bankForm);
    await service.approve(request.id, APPROVER);
    expect(fleet.payoutCalls).toEqual([
      {
        kind: 'bank_account',
        body: {
          recipient: { accountNumber: '000123456789', bankCode: 'BCDCCDKI', name: 'Ndaya Logistics SARL', countryCode: 'CD' },
          amount: 750.5,
          currency: 'EUR',
          reference: request.reference,
        },
      },
    ]);
  });

  it('waits for a second, different approver above the threshold', async () => {
    const { service, fleet } = createService(db);
    const request = await submitted(service, { ...mobileForm, amount: '2000' });
    expect(await service.approve(request.id, APPROVER)).toMatchObject({ ok: true, request: { state: 'pending', approvals: [{ userId: APPROVER }] } });
    expect(await service.approve(request.id, APPROVER)).toMatchObject({ ok: false, code: 'already_approved' });
    expect(fleet.payoutCalls).toEqual([]);
    const result = await service.approve(request.id, SECOND_APPROVER);
    expect(result).toMatchObject({ ok: true, request: { state: 'completed' } });
    expect(result.ok && result.request.approvals.map((approval) => approval.userId)).toEqual([APPROVER, SECOND_APPROVER]);
    expect(fleet.payoutCalls).toHaveLength(1);
  });

  it('marks a payout failed with the plain-words reason when the Fleet API refuses it', async () => {
    const { service, fleet } = createService(db);
    fleet.willAnswer(new FleetRejectedError(422, 'recipient.phone is not a wallet'));
    const request = await submitted(service);
    const result = await service.approve(request.id, APPROVER);
    expect(result).toMatchObject({ ok: true, request: { state: 'failed', failureReason: 'fleet:rejected:recipient.phone is not a wallet' } });
    expect(fleet.payoutCalls).toHaveLength(1);
    expect(await service.approve(request.id, SECOND_APPROVER)).toMatchObject({
      ok: false,
      code: 'not_pending',
      details: { payoutId: request.id, state: 'failed' },
    });
    expect(fleet.payoutCalls).toHaveLength(1);
  });

  it('rejects with a reason that is kept for the requester, and refuses a rejection without one', async () => {
    const { service, fleet } = createService(db);
    const request = await submitted(service);
    expect(await service.reject(request.id, APPROVER, ' ')).toMatchObject({ ok: false, code: 'reason_required' });
    expect(await service.reject(request.id, REQUESTER, 'Changed my mind')).toMatchObject({ ok: false, code: 'not_approver' });
    const result = await service.reject(request.id, APPROVER, '  Wrong recipient ');
    expect(result).toMatchObject({ ok: true, request: { state: 'rejected', rejectedBy: APPROVER, rejectReason: 'Wrong recipient' } });
    expect(await service.approve(request.id, SECOND_APPROVER)).toMatchObject({
      ok: false,
      code: 'not_pending',
      details: { payoutId: request.id, state: 'rejected' },
    });
    expect(fleet.payoutCalls).toEqual([]);
    const events = await service.history(request.id);
    expect(events.at(-1)).toMatchObject({ event: 'rejected', userId: APPROVER, details: { reason: 'Wrong recipient' } });
  });

  it('lets only the requester cancel, and only before any approval', async () => {
    const { service } = createService(db);
    const request = await submitted(service);
    expect(await service.cancel(request.id, APPROVER)).toMatchObject({ ok: false, code: 'not_cancellable' });
    expect(await service.cancel(request.id, REQUESTER)).toMatchObject({ ok: true, request: { state: 'cancelled' } });
    expect(await service.cancel(request.id, REQUESTER)).toMatchObject({ ok: false, code: 'not_pending' });

    const dual = await submitted(service, { ...mobileForm, amount: '2000' });
    await service.approve(dual.id, APPROVER);
    expect(await service.cancel(dual.id, REQUESTER)).toMatchObject({ ok: false, code: 'not_cancellable', details: { cause: 'has_approval' } });
    expect((await service.get(dual.id))?.state).toBe('pending');
  });

  it('refuses to approve an expired request even before maintenance has marked it', async () => {
    const { service, clock, fleet } = createService(db);
    const request = await submitted(service);
    clock.advance(24 * HOUR);
    expect(await service.approve(request.id, APPROVER)).toMatchObject({ ok: false, code: 'expired' });
    expect(fleet.payoutCalls).toEqual([]);
  });

  it('says so when a request does not exist', async () => {
    const { service } = createService(db);
    expect(await service.approve('PR-NOPE22', APPROVER)).toEqual({ ok: false, code: 'not_found', details: { payoutId: 'PR-NOPE22' } });
    expect(await service.get('PR-NOPE22')).toBeUndefined();
  });

  it('lists recent requests newest first and remembers the approval message', async () => {
    const { service, clock } = createService(db);
    const first = await submitted(service);
    clock.advance(HOUR);
    const second = await submitted(service, bankForm);
    expect((await service.listRecent({ limit: 10 })).map((request) => request.id)).toEqual([second.id, first.id]);
    expect((await service.listRecent({ limit: 1 })).map((request) => request.id)).toEqual([second.id]);
    const updated = await service.setApprovalMessage(first.id, 'C0APPROVALS', '1710410400.000100');
    expect(updated?.approvalMessage).toEqual({ channel: 'C0APPROVALS', ts: '1710410400.000100' });
    expect((await service.get(first.id))?.approvalMessage).toEqual({ channel: 'C0APPROVALS', ts: '1710410400.000100' });
    // A second message for the same request (another replica's) is not remembered over the first.
    expect(await service.setApprovalMessage(first.id, 'C0APPROVALS', '1710410400.000200')).toBeUndefined();
    expect((await service.get(first.id))?.approvalMessage).toEqual({ channel: 'C0APPROVALS', ts: '1710410400.000100' });
  });

  it('keeps a change when the notifier fails', async () => {
    const { service } = createService(db, { notifiers: [{ changed: () => Promise.reject(new Error('Slack is down')) }] });
    const request = await submitted(service);
    expect(await service.approve(request.id, APPROVER)).toMatchObject({ ok: true, request: { state: 'completed' } });
  });

  it('tells requesters and approvers apart from everyone else', async () => {
    const { service } = createService(db);
    expect(await service.canView(REQUESTER)).toBe(true);
    expect(await service.canView(APPROVER)).toBe(true);
    expect(await service.canView(OUTSIDER)).toBe(false);
  });
});

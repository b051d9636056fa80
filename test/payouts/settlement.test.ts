import { describe, expect, it } from 'vitest';
import { FleetConnectionError, FleetRejectedError, FleetTimeoutError, FleetUnavailableError } from '../../src/fleet/errors.js';
import { INTERRUPTED_FAILURE } from '../../src/payouts/failure-reasons.js';
import type { PayoutRequest } from '../../src/payouts/model.js';
import type { PayoutService } from '../../src/payouts/service.js';
import type { Db } from '../../src/store/db.js';
import { testDatabases } from '../support/databases.js';
import {
  APPROVER,
  createService,
  HOUR,
  MINUTE,
  mobileForm,
  REQUESTER,
  REQUESTER_APPROVER,
  usePayoutDatabase,
  SECOND_APPROVER,
  submitted,
} from '../support/payout-doubles.js';

describe.each(testDatabases())('PayoutService outcomes, reconciliation and maintenance on $name', ({ open }) => {
  let db: Db;
  usePayoutDatabase(open, (opened) => {
    db = opened;
  });

  function events(service: PayoutService, id: string) {
    return service.history(id).then((list) => list.map((event) => event.event));
  }

  /** A payout whose POST timed out and that was not found within the window: it needs review. */
  async function needingReview(setup: ReturnType<typeof createService>): Promise<PayoutRequest> {
    const { service, clock } = setup;
    const request = await submitted(service);
    await service.approve(request.id, APPROVER);
    clock.advance(11 * MINUTE);
    await service.runMaintenance();
    return request;
  }

  it('turns a timed-out payout into unknown, then completed once the transaction appears in the list', async () => {
    const { service, fleet, clock, notifications } = createService(db);
    fleet.willAnswer(new FleetTimeoutError(true));
    const request = await submitted(service);
    const approved = await service.approve(request.id, APPROVER);
    expect(approved).toMatchObject({ ok: true, request: { state: 'unknown', needsReview: false, failureReason: 'fleet:timeout' } });
    expect(fleet.listCalls.length).toBeGreaterThan(0);

    // The partner processed it after all: the transaction shows up with our reference.
    fleet.addTransaction({ reference: 'FLT-98765', description: `Payout ${request.reference} to 243812345678`, date: clock.now().toISOString() });
    clock.advance(MINUTE);
    const report = await service.runMaintenance();
    expect(report.settled.map((item) => [item.id, item.state, item.transactionId])).toEqual([[request.id, 'completed', 'FLT-98765']]);
    expect(fleet.payoutCalls).toHaveLength(1);
    expect(await events(service, request.id)).toEqual(['requested', 'approved', 'executing', 'unknown', 'reconciled']);
    const reconciled = (await service.history(request.id)).at(-1);
    expect(reconciled?.details).toMatchObject({ transactionId: 'FLT-98765', matchedBy: 'description' });
    expect(notifications.at(-1)).toEqual({ id: request.id, state: 'completed', event: 'reconciled', actor: undefined });
  });

  it('finds an unknown payout by its reference in the reference field', async () => {
    const { service, fleet, clock } = createService(db);
    fleet.willAnswer(new FleetUnavailableError(502, true));
    const request = await submitted(service);
    fleet.addTransaction({ reference: 'ZZZ-OTHER', date: clock.now().toISOString() });
    fleet.addTransaction({ reference: request.reference, date: clock.now().toISOString() });
    const result = await service.approve(request.id, APPROVER);
    expect(result).toMatchObject({ ok: true, request: { state: 'completed', transactionId: request.reference } });
  });

  it('does not mistake a longer reference in a description for this one', async () => {
    const { service, fleet, clock } = createService(db);
    fleet.willAnswer(new FleetTimeoutError(true));
    const request = await submitted(service, { ...mobileForm, reference: 'INV1' });
    fleet.addTransaction({ reference: 'FLT-1', description: 'Payout INV12 to 243812345678', date: clock.now().toISOString() });
    expect(await service.approve(request.id, APPROVER)).toMatchObject({ ok: true, request: { state: 'unknown' } });
  });

  it('does not take another transaction that quotes the reference, for another amount or currency, as this payout', async () => {
    const { service, fleet, clock } = createService(db);
    fleet.willAnswer(new FleetTimeoutError(true));
    const request = await submitted(service, { ...mobileForm, reference: 'INV-42' });
    fleet.addTransaction({ reference: 'FLT-IN', amount: 99, description: 'Customer payment for INV-42', date: clock.now().toISOString() });
    fleet.addTransaction({ reference: 'INV-42', currency: 'EUR', date: clock.now().toISOString() });
    expect(await service.approve(request.id, APPROVER)).toMatchObject({ ok: true, request: { state: 'unknown', transactionId: undefined } });

    // Same amount and currency, but the typed reference is only quoted: an approver must confirm it.
    fleet.addTransaction({
      reference: 'FLT-OUT',
      amount: 150,
      currency: 'USD',
      description: 'Mobile money payout INV-42 to 243812345678',
      date: clock.now().toISOString(),
    });
    expect(await service.settle(request.id)).toMatchObject({ ok: true, request: { state: 'unknown', likelyMatch: { reference: 'FLT-OUT' } } });
  });

  it('asks for review when the payout is not found within the window, then a retry sends once more with the same reference', async () => {
    const { service, fleet, clock, notifications } = createService(db);
    fleet.willAnswer(new FleetTimeoutError(true));
    const request = await submitted(service);
    await service.approve(request.id, APPROVER);

    expect(await service.retryUnknown(request.id, SECOND_APPROVER)).toMatchObject({ ok: false, code: 'not_retryable' });
    clock.advance(5 * MINUTE);
    expect((await service.runMaintenance()).settled.map((item) => item.needsReview)).toEqual([false]);
    clock.advance(5 * MINUTE);
    const report = await service.runMaintenance();
    expect(report.settled.map((item) => [item.state, item.needsReview])).toEqual([['unknown', true]]);
    expect(notifications.at(-1)).toMatchObject({ event: 'needs_review', state: 'unknown' });
    // Nobody checks a request under review on their own any more; an approver decides.
    const listed = fleet.listCalls.length;
    clock.advance(HOUR);
    expect((await service.runMaintenance()).settled).toEqual([]);
    expect(fleet.listCalls).toHaveLength(listed);

    expect(await service.retryUnknown(request.id, REQUESTER)).toMatchObject({ ok: false, code: 'not_approver' });
    const retried = await service.retryUnknown(request.id, SECOND_APPROVER);
    expect(retried).toMatchObject({ ok: true, request: { state: 'completed', transactionId: 'TX-1', attempts: 2, needsReview: false } });
    expect(fleet.payoutCalls.map((call) => call.body.reference)).toEqual([request.reference, request.reference]);
    expect(await service.retryUnknown(request.id, SECOND_APPROVER)).toMatchObject({ ok: false, code: 'not_retryable' });
    expect(fleet.payoutCalls).toHaveLength(2);
    expect(await events(service, request.id)).toEqual([
      'requested',
      'approved',
      'executing',
      'unknown',
      'needs_review',
      'retry_approved',
      'retried',
      'completed',
    ]);
    expect((await service.history(request.id)).find((event) => event.event === 'retried')).toMatchObject({ userId: SECOND_APPROVER, details: { attempt: 2 } });
  });

  it('does not send again when the last look before a retry finds the first payout', async () => {
    const setup = createService(db);
    const { service, fleet, clock } = setup;
    fleet.willAnswer(new FleetTimeoutError(true));
    const request = await needingReview(setup);
    expect((await service.get(request.id))?.needsReview).toBe(true);
    fleet.addTransaction({ reference: 'FLT-LATE', description: `Payout ${request.reference}`, date: clock.now().toISOString() });
    const result = await service.retryUnknown(request.id, SECOND_APPROVER);
    expect(result).toMatchObject({ ok: true, request: { state: 'completed', transactionId: 'FLT-LATE' } });
    expect(fleet.payoutCalls).toHaveLength(1);
  });

  it('still finds the first attempt after a retry whose outcome is unknown too, however many transactions came since', async () => {
    const setup = createService(db);
    const { service, fleet, clock } = setup;
    const firstSentAt = clock.now();
    fleet.willAnswer(new FleetTimeoutError(true), async () => {
      // While the retry is on its way, the first attempt shows up, dated when it was sent, under a
      // full page of other transactions from the minutes after it.
      fleet.addTransaction({ reference: 'FLT-FIRST', description: `Payout ${request.reference}`, date: firstSentAt.toISOString() });
      for (let index = 0; index < 100; index += 1) {
        fleet.addTransaction({ reference: `FLT-OTHER-${index}`, amount: 7, date: new Date(firstSentAt.getTime() + 2 * MINUTE).toISOString() });
      }
      throw new FleetTimeoutError(true);
    });
    const request = await needingReview(setup);
    const retried = await service.retryUnknown(request.id, SECOND_APPROVER);
    expect(retried).toMatchObject({ ok: true, request: { state: 'completed', transactionId: 'FLT-FIRST', attempts: 2 } });
    expect(fleet.payoutCalls).toHaveLength(2);
  });

  it('sends once when the same retry click arrives twice, and tells the second where the payout is', async () => {
    const setup = createService(db);
    const { service, fleet } = setup;
    fleet.willAnswer(new FleetTimeoutError(true));
    const request = await needingReview(setup);
    // Both deliveries pass every check and take their last look before either sends.
    const list = fleet.listTransactions.bind(fleet);
    let arrived = 0;
    let bothLooking: () => void = () => {};
    const barrier = new Promise<void>((resolve) => {
      bothLooking = resolve;
    });
    fleet.listTransactions = async (page) => {
      arrived += 1;
      if (arrived === 2) bothLooking();
      await barrier;
      return list(page);
    };
    const results = await Promise.all([service.retryUnknown(request.id, SECOND_APPROVER), service.retryUnknown(request.id, SECOND_APPROVER)]);
    expect(fleet.payoutCalls).toHaveLength(2);
    expect(results.filter((result) => result.ok)).toHaveLength(1);
    const second = results.find((result) => !result.ok);
    expect(second).toMatchObject({ ok: false, details: { payoutId: request.id, state: expect.stringMatching(/^(executing|completed)$/) as string } });
  });

  it("tells the second retry click where the payout is when the first sent it during the second's last look", async () => {
    const setup = createService(db);
    const { service, fleet } = setup;
    fleet.willAnswer(new FleetTimeoutError(true));
    const request = await needingReview(setup);
    // The first look goes through; the second waits until the first has sent, then reads the list.
    const list = fleet.listTransactions.bind(fleet);
    let arrived = 0;
    let firstSent: () => void = () => {};
    const sent = new Promise<void>((resolve) => {
      firstSent = resolve;
    });
    fleet.listTransactions = async (page) => {
      arrived += 1;
      if (arrived === 2) await sent;
      return list(page);
    };
    const payout = fleet.payout.bind(fleet);
    fleet.payout = async (kind, body) => {
      try {
        return await payout(kind, body);
      } finally {
        firstSent();
      }
    };
    const results = await Promise.all([service.retryUnknown(request.id, SECOND_APPROVER), service.retryUnknown(request.id, SECOND_APPROVER)]);
    expect(fleet.payoutCalls).toHaveLength(2);
    expect(results.filter((result) => result.ok)).toHaveLength(1);
    expect(results.find((result) => !result.ok)).toMatchObject({ ok: false, code: 'not_retryable', details: { payoutId: request.id } });
  });

  it('sends nothing again when the transaction list cannot be read before a retry', async () => {
    const setup = createService(db);
    const { service, fleet } = setup;
    fleet.willAnswer(new FleetTimeoutError(true));
    const request = await needingReview(setup);
    fleet.listFailure = new FleetConnectionError(false);
    const result = await service.retryUnknown(request.id, SECOND_APPROVER);
    expect(result).toMatchObject({ ok: false, code: 'could_not_check', details: { action: 'retry', payoutId: request.id } });
    expect(fleet.payoutCalls).toHaveLength(1);
    expect((await service.get(request.id))?.state).toBe('unknown');
  });

  it('marks a payout failed, not unknown, when the connection was refused before sending', async () => {
    const { service, fleet } = createService(db);
    fleet.willAnswer(new FleetConnectionError(false));
    const request = await submitted(service);
    expect(await service.approve(request.id, APPROVER)).toMatchObject({ ok: true, request: { state: 'failed', failureReason: 'fleet:connection' } });
  });

  it('treats a conflict on the reference as unknown, never as failed, since an earlier payout may exist', async () => {
    const { service, fleet } = createService(db);
    fleet.willAnswer(new FleetRejectedError(409, 'reference already used', 'duplicate_reference'));
    const request = await submitted(service);
    const result = await service.approve(request.id, APPROVER);
    expect(result).toMatchObject({ ok: true, request: { state: 'unknown' } });
    expect(fleet.payoutCalls).toHaveLength(1);
  });

  it('treats an unexpected exception from the client as an unknown outcome', async () => {
    const { service, fleet } = createService(db);
    fleet.willAnswer(() => Promise.reject(new TypeError('socket hang up')));
    const request = await submitted(service);
    expect(await service.approve(request.id, APPROVER)).toMatchObject({ ok: true, request: { state: 'unknown' } });
  });

  it('turns a payout left executing by a dead process into unknown, then reconciles it', async () => {
    const first = createService(db);
    // The process dies in the middle of the POST: the promise never settles.
    first.fleet.willAnswer(() => new Promise(() => {}));
    const request = await submitted(first.service);
    void first.service.approve(request.id, APPROVER);
    await waitUntil(async () => (await first.service.get(request.id))?.state === 'executing');

    const restarted = createService(db);
    restarted.clock.set(first.clock.now());
    expect(await restarted.service.recoverInterrupted()).toEqual([]);
    restarted.clock.advance(5 * MINUTE);
    restarted.fleet.addTransaction({ reference: 'FLT-777', description: `Payout ${request.reference}`, date: first.clock.now().toISOString() });
    const recovered = await restarted.service.recoverInterrupted();
    expect(recovered.map((item) => [item.id, item.state, item.transactionId])).toEqual([[request.id, 'completed', 'FLT-777']]);
    expect(restarted.fleet.payoutCalls).toEqual([]);
    expect(await events(restarted.service, request.id)).toEqual(['requested', 'approved', 'executing', 'unknown', 'reconciled']);
  });

  it('recovers an executing row at once when told no other replica can be mid-payout', async () => {
    const first = createService(db);
    first.fleet.willAnswer(() => new Promise(() => {}));
    const request = await submitted(first.service);
    void first.service.approve(request.id, APPROVER);
    await waitUntil(async () => (await first.service.get(request.id))?.state === 'executing');
    const restarted = createService(db);
    const recovered = await restarted.service.recoverInterrupted({ staleAfterMs: 0 });
    expect(recovered).toMatchObject([{ id: request.id, state: 'unknown', failureReason: INTERRUPTED_FAILURE }]);
  });

  it('sends an approved payout that a dead process never started sending', async () => {
    const { service, fleet, clock } = createService(db);
    const request = await submitted(service);
    await db.query('INSERT INTO payout_approvals (request_id, user_id, approved_at) VALUES ($1, $2, $3)', [request.id, APPROVER, clock.now()]);
    await db.query("UPDATE payout_requests SET state = 'approved' WHERE id = $1", [request.id]);
    clock.advance(5 * MINUTE);
    const recovered = await service.recoverInterrupted();
    expect(recovered).toMatchObject([{ id: request.id, state: 'completed' }]);
    expect(fleet.payoutCalls).toHaveLength(1);
  });

  it('never sends an approved payout that has no standing approval: recovery passes the gate, which holds it for an approver', async () => {
    const { service, fleet, clock } = createService(db);
    const request = await submitted(service);
    await db.query("UPDATE payout_requests SET state = 'approved' WHERE id = $1", [request.id]);
    clock.advance(5 * MINUTE);
    const recovered = await service.recoverInterrupted();
    expect(recovered).toMatchObject([{ id: request.id, state: 'pending', hold: 'needs_approvers' }]);
    expect(fleet.payoutCalls).toHaveLength(0);
    expect((await service.history(request.id)).at(-1)).toMatchObject({ event: 'held', details: { reason: 'needs_approvers', via: 'recovery' } });
  });

  it('expires pending requests after the TTL with the injected clock, and only those', async () => {
    const { service, clock, fleet, notifications } = createService(db);
    const old = await submitted(service);
    clock.advance(2 * HOUR);
    const recent = await submitted(service);
    clock.advance(22 * HOUR - 1);
    expect(await service.expireDue()).toEqual([]);
    clock.advance(1);
    const expired = await service.expireDue();
    expect(expired.map((item) => [item.id, item.state])).toEqual([[old.id, 'expired']]);
    expect(await service.expireDue()).toEqual([]);
    expect((await service.get(recent.id))?.state).toBe('pending');
    expect(await service.approve(old.id, APPROVER)).toMatchObject({ ok: false, code: 'not_pending', details: { payoutId: old.id, state: 'expired' } });
    expect(fleet.payoutCalls).toEqual([]);
    expect(notifications.at(-1)).toEqual({ id: old.id, state: 'expired', event: 'expired', actor: undefined });
    expect(await events(service, old.id)).toEqual(['requested', 'expired']);
  });

  it('keeps the audit log append-only', async () => {
    const { service } = createService(db);
    const request = await submitted(service);
    await expect(db.query('DELETE FROM payout_events WHERE request_id = $1', [request.id])).rejects.toThrow(/append-only/);
    await expect(db.query("UPDATE payout_events SET event = 'completed' WHERE request_id = $1", [request.id])).rejects.toThrow(/append-only/);
    expect(await events(service, request.id)).toEqual(['requested']);
  });

  it('records every event in order with who and when', async () => {
    const { service, clock } = createService(db);
    const request = await submitted(service, { ...mobileForm, amount: '2000' });
    clock.advance(MINUTE);
    await service.approve(request.id, APPROVER);
    clock.advance(MINUTE);
    await service.approve(request.id, REQUESTER_APPROVER);
    const history = await service.history(request.id);
    expect(history.map((event) => [event.event, event.userId, event.at.toISOString()])).toEqual([
      ['requested', REQUESTER, '2025-03-14T10:00:00.000Z'],
      ['approved', APPROVER, '2025-03-14T10:01:00.000Z'],
      ['approved', REQUESTER_APPROVER, '2025-03-14T10:02:00.000Z'],
      ['executing', REQUESTER_APPROVER, '2025-03-14T10:02:00.000Z'],
      ['completed', REQUESTER_APPROVER, '2025-03-14T10:02:00.000Z'],
    ]);
    expect(history[1]?.details).toEqual({ approvals: 1, required: 2 });
    expect(history[2]?.details).toEqual({ approvals: 2, required: 2 });
    expect(history.map((event) => event.id)).toEqual([...history.map((event) => event.id)].sort((a, b) => a - b));
  });
});

async function waitUntil(condition: () => Promise<boolean>): Promise<void> {
  for (let tries = 0; tries < 200; tries += 1) {
    if (await condition()) return;
    await new Promise((resolve) => setImmediate(resolve));
  }
  throw new Error('condition not reached');
}

/**
 * A one-off scheduled payout is sent as the scheduled request itself, with the reference typed for
 * it, once; one stored as a numbered copy before that still is sent once as `-1`.
 */
import { describe, expect, it } from 'vitest';
import type { Db } from '../../../src/store/db.js';
import { testDatabases } from '../../support/databases.js';
import { APPROVER, MINUTE, mobileForm, REQUESTER, SECOND_APPROVER, usePayoutDatabase } from '../../support/payout-doubles.js';
import { scheduling } from './support.js';

// The clock starts at 2025-03-14T10:00Z (createService).
const TOMORROW_NINE = { firstDay: '2025-03-15', time: { hour: 9, minute: 0 }, repeat: 'once' as const };
const DUE = new Date('2025-03-15T09:00:00Z');

describe.each(testDatabases())('a one-off scheduled payout on $name', ({ open }) => {
  let db: Db;
  usePayoutDatabase(open, (opened) => {
    db = opened;
  });

  it('is sent at its time with the reference typed, as the request itself, once, whoever looks again', async () => {
    const { schedule, service, clock, fleet, releaser, releaserFor, told } = scheduling(db);
    const request = await schedule(TOMORROW_NINE, { ...mobileForm, reference: 'INV-204' });
    await service.approve(request.id, APPROVER);
    clock.set(DUE);
    await Promise.all([releaser.releaseDue(), releaserFor('replica-b').releaseDue()]);
    expect(fleet.payoutCalls.map((call) => call.body.reference)).toEqual(['INV-204']);
    expect(await service.get(request.id)).toMatchObject({
      state: 'completed',
      reference: 'INV-204',
      attempts: 1,
      schedule: { occurrences: [{ state: 'released', payoutId: request.id }] },
    });
    expect(await service.getByReference('INV-204-1')).toBeUndefined();
    expect(told.map((entry) => entry.event)).toEqual(['released']);
    // A redelivered release, another replica, the recovery sweep: nothing more is sent.
    const occurrence = (await service.get(request.id))!.schedule!.occurrences[0]!;
    expect(await releaserFor('replica-c').release({ ...occurrence, state: 'scheduled' })).toEqual({ kind: 'none' });
    await service.recoverInterrupted({ staleAfterMs: 0 });
    expect(fleet.payoutCalls).toHaveLength(1);
  });

  it('is sent once by recovery when the process died between its release and the call', async () => {
    const { schedule, service, clock, fleet, releaserFor } = scheduling(db);
    const request = await schedule(TOMORROW_NINE, { ...mobileForm, reference: 'INV-205' });
    await service.approve(request.id, APPROVER);
    clock.set(DUE);
    await releaserFor('replica-a', {
      beforeSend: async () => {
        throw new Error('SIGKILL');
      },
    }).releaseDue();
    await releaserFor('replica-b').releaseDue();
    // Not before it has stood still as long as any approved request a process left behind.
    await service.recoverInterrupted();
    expect(fleet.payoutCalls).toHaveLength(0);
    clock.advance(10 * MINUTE);
    await Promise.all([service.recoverInterrupted(), service.recoverInterrupted()]);
    expect(fleet.payoutCalls.map((call) => call.body.reference)).toEqual(['INV-205']);
    expect(await service.get(request.id)).toMatchObject({ state: 'completed', attempts: 1 });
  });

  it('holds its typed reference from request time and keeps no numbered one', async () => {
    const { schedule, service } = scheduling(db);
    const request = await schedule(TOMORROW_NINE, { ...mobileForm, reference: 'INV-206' });
    await service.approve(request.id, APPROVER);
    const same = await service.validate('mobile_money', { ...mobileForm, amount: '20', reference: 'INV-206' });
    expect(same).toMatchObject({ ok: false, errors: { reference: { code: 'reference_used' } } });
    expect(await service.validate('mobile_money', { ...mobileForm, amount: '20', reference: 'INV-206-1' })).toMatchObject({ ok: true });
  });

  it('counts on its day once released, so that a later payout that day sees it among the totals', async () => {
    const { schedule, service, clock, fleet, releaser } = scheduling(db);
    const request = await schedule(TOMORROW_NINE, { ...mobileForm, amount: '900' });
    await service.approve(request.id, APPROVER);
    clock.set(DUE);
    await releaser.releaseDue();
    expect(fleet.payoutCalls).toHaveLength(1);
    const draft = ((await service.validate('mobile_money', { ...mobileForm, amount: '200', reference: 'INV-207' })) as { ok: true; draft: never }).draft;
    expect(await service.previewApprovals(REQUESTER, draft)).toMatchObject({ required: 2, reason: { rule: 'requester_total', totalMinor: 110_000 } });
  });

  it('is held back for another approver by the gate when its day now needs one, then sent as itself once approved', async () => {
    const { schedule, service, clock, fleet, releaser } = scheduling(db);
    const request = await schedule(TOMORROW_NINE, { ...mobileForm, amount: '600', reference: 'INV-208' });
    await service.approve(request.id, APPROVER);
    clock.set(new Date('2025-03-15T08:00:00Z'));
    const other = ((await service.validate('mobile_money', { ...mobileForm, phone: '+243 899 000 001', amount: '600' })) as { ok: true; draft: never }).draft;
    const second = await service.submit(REQUESTER, other);
    if (!second.ok) throw new Error('expected the other request to be stored');
    await service.approve(second.request.id, APPROVER);
    await service.approve(second.request.id, SECOND_APPROVER);
    clock.set(DUE);
    await releaser.releaseDue();
    expect(await service.get(request.id)).toMatchObject({
      state: 'pending',
      hold: 'needs_approvers',
      requiredApprovals: 2,
      dualApproval: { rule: 'requester_total', totalMinor: 120_000 },
    });
    expect(fleet.payoutCalls).toHaveLength(1);
    expect(await service.approve(request.id, SECOND_APPROVER)).toMatchObject({ ok: true, request: { state: 'completed', reference: 'INV-208' } });
    expect(fleet.payoutCalls.map((call) => call.body.reference)).toEqual([second.request.reference, 'INV-208']);
  });

  it('missed, is approved again on Send now and then sent as itself', async () => {
    const { schedule, service, clock, fleet, releaser, schedules } = scheduling(db, { catchUpMinutes: 60 });
    const request = await schedule(TOMORROW_NINE, { ...mobileForm, reference: 'INV-209' });
    await service.approve(request.id, APPROVER);
    clock.set(new Date('2025-03-15T11:00:00Z'));
    await releaser.releaseDue();
    expect((await service.get(request.id))?.schedule?.occurrences[0]).toMatchObject({ state: 'missed' });
    expect(await schedules.sendNow(request.id, 1, REQUESTER)).toMatchObject({
      ok: true,
      occurrence: { state: 'released' },
      payout: { request: { id: request.id, state: 'pending', hold: 'missed' } },
    });
    expect(await schedules.sendNow(request.id, 1, REQUESTER)).toMatchObject({ ok: false, code: 'moved_on' });
    expect(fleet.payoutCalls).toHaveLength(0);
    expect(await service.approve(request.id, APPROVER)).toMatchObject({ ok: true, request: { state: 'completed' } });
    expect(fleet.payoutCalls.map((call) => call.body.reference)).toEqual(['INV-209']);
  });

  it('stored as a numbered copy before, is still sent once as its reference followed by -1, which stays kept for it', async () => {
    const { schedule, service, clock, fleet, releaser, releaserFor } = scheduling(db);
    const request = await schedule(TOMORROW_NINE, { ...mobileForm, reference: 'INV-210' });
    // As a one-off was stored before: its occurrence names no payout while it waits.
    await db.query('UPDATE payout_occurrences SET payout_id = NULL WHERE request_id = $1', [request.id]);
    await service.approve(request.id, APPROVER);
    expect(await service.validate('mobile_money', { ...mobileForm, amount: '20', reference: 'INV-210-1' })).toMatchObject({
      ok: false,
      errors: { reference: { code: 'reference_reserved' } },
    });
    clock.set(DUE);
    await Promise.all([releaser.releaseDue(), releaserFor('replica-b').releaseDue()]);
    await service.recoverInterrupted({ staleAfterMs: 0 });
    expect(fleet.payoutCalls.map((call) => call.body.reference)).toEqual(['INV-210-1']);
    const payoutId = (await service.get(request.id))?.schedule?.occurrences[0]?.payoutId;
    expect(payoutId).not.toBe(request.id);
    expect(await service.get(payoutId!)).toMatchObject({ state: 'completed', reference: 'INV-210-1' });
    expect(await service.get(request.id)).toMatchObject({ state: 'approved' });
  });
});

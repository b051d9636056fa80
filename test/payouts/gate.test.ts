/**
 * What the gate before sending closes, each as a person would meet it:
 * through the service, the schedule releaser and the recovery sweep, with no test hook.
 */
import { describe, expect, it } from 'vitest';
import { FleetTimeoutError } from '../../src/fleet/errors.js';
import { createLogger } from '../../src/core/logger.js';
import { PayoutBatchService } from '../../src/payouts/batch/service.js';
import { BatchSender } from '../../src/payouts/batch/sender.js';
import type { PayoutRoles } from '../../src/payouts/roles.js';
import type { Db } from '../../src/store/db.js';
import { testDatabases } from '../support/databases.js';
import {
  APPROVER,
  changingRoles,
  createService,
  HOUR,
  MINUTE,
  mobileForm,
  REQUESTER,
  REQUESTER_APPROVER,
  rolesFor,
  SECOND_APPROVER,
  settings,
  submitted,
  usePayoutDatabase,
} from '../support/payout-doubles.js';
import { scheduling } from './schedule/support.js';

const SENIOR = 'USENIOR01';
// Two approvers above 1,000.00 USD; a senior approval above 2,000.00 USD.
const tiered = { ...settings, seniorApprovalAbove: new Map([['USD', 200_000]]) };
const TOMORROW_NINE = { firstDay: '2025-03-15', time: { hour: 9, minute: 0 }, repeat: 'once' as const };
const DUE = new Date('2025-03-15T09:00:00Z');
const DAY = 24 * HOUR;
const HEADER = 'kind,number,provider,name,country,amount,currency,reference,note';

/** Roles a test may change; every lookup sees the change at once. */
function team() {
  const approvers = new Set([APPROVER, SECOND_APPROVER, SENIOR]);
  const seniors = new Set([SENIOR]);
  const roles: PayoutRoles = {
    canRequest: async (userId) => userId === REQUESTER,
    canApprove: async (userId) => approvers.has(userId),
    isSenior: async (userId) => seniors.has(userId) && approvers.has(userId),
  };
  return { roles, approvers, seniors };
}

describe.each(testDatabases())('the gate before sending on $name', ({ open }) => {
  let db: Db;
  usePayoutDatabase(open, (opened) => {
    db = opened;
  });

  it('holds a scheduled payout above the senior tier whose senior approver was removed before its time, and sends it once a senior approves', async () => {
    const people = team();
    const { schedule, service, clock, fleet, releaser } = scheduling(db, { roles: people.roles, settings: tiered });
    const request = await schedule(TOMORROW_NINE, { ...mobileForm, amount: '3000' });
    await service.approve(request.id, APPROVER);
    expect(await service.approve(request.id, SENIOR)).toMatchObject({ ok: true, request: { state: 'approved' } });
    people.seniors.delete(SENIOR);
    clock.set(DUE);
    await releaser.releaseDue();
    expect(fleet.payoutCalls).toHaveLength(0);
    const payoutId = (await service.get(request.id))?.schedule?.occurrences[0]?.payoutId;
    const held = await service.get(payoutId!);
    expect(held).toMatchObject({ state: 'pending', hold: 'needs_senior' });
    // The released copy keeps who gave the senior approval.
    expect(held?.approvals.find((approval) => approval.userId === SENIOR)).toMatchObject({ senior: true });
    people.seniors.add(SENIOR);
    expect(await service.approve(payoutId!, SENIOR)).toMatchObject({ ok: true, request: { state: 'completed' } });
    expect(fleet.payoutCalls).toHaveLength(1);
  });

  it('asks for a senior approver when two requests to one wallet take its day above the tier, as one request would', async () => {
    const people = team();
    const { service, fleet } = createService(db, { roles: people.roles, settings: tiered });
    const first = await submitted(service, { ...mobileForm, amount: '1500' });
    await service.approve(first.id, APPROVER);
    expect(await service.approve(first.id, SECOND_APPROVER)).toMatchObject({ ok: true, request: { state: 'completed' } });
    const second = await submitted(service, { ...mobileForm, amount: '1500.01' });
    await service.approve(second.id, APPROVER);
    expect(await service.mayApprove((await service.get(second.id))!, SECOND_APPROVER)).toMatchObject({ ok: false, code: 'needs_senior' });
    expect(await service.approve(second.id, SECOND_APPROVER)).toMatchObject({ ok: false, code: 'needs_senior' });
    expect(fleet.payoutCalls).toHaveLength(1);
    expect(await service.approve(second.id, SENIOR)).toMatchObject({ ok: true, request: { state: 'completed' } });
    expect(fleet.payoutCalls).toHaveLength(2);
  });

  it("asks for a senior approver on a bulk payout whose row takes its wallet's day above the tier", async () => {
    const people = team();
    const { service, clock } = createService(db, { roles: people.roles, settings: tiered });
    const batches = new PayoutBatchService({
      db,
      clock,
      settings: tiered,
      batchSettings: { maxRows: 50, ratePerSecond: 1000 },
      roles: people.roles,
      logger: createLogger({ level: 'silent' }),
    });
    const first = await submitted(service, { ...mobileForm, amount: '1500' });
    await service.approve(first.id, APPROVER);
    await service.approve(first.id, SECOND_APPROVER);
    const checked = await batches.check(REQUESTER, `${HEADER}\nmobile,243812345678,VODACOM_MPESA,Amani Kabila,CD,1500.01,USD,,\n`);
    if (!checked.ok) throw new Error('expected a checked file');
    expect(await batches.submit(REQUESTER, checked.batchId, { confirmedDuplicate: false })).toMatchObject({ ok: true });
    await batches.approve(checked.batchId, APPROVER);
    expect(await batches.approve(checked.batchId, SECOND_APPROVER)).toMatchObject({ ok: false, code: 'needs_senior' });
    expect(await batches.approve(checked.batchId, SENIOR)).toMatchObject({ ok: true, batch: { state: 'sending' } });
  });

  it('waits for a senior approver before "Retry with the same reference" sends a payout above the tier again', async () => {
    const people = team();
    const { service, fleet, clock } = createService(db, { roles: people.roles, settings: tiered });
    const request = await submitted(service, { ...mobileForm, amount: '3000' });
    fleet.willAnswer(new FleetTimeoutError(true));
    await service.approve(request.id, APPROVER);
    await service.approve(request.id, SENIOR);
    clock.advance(11 * MINUTE);
    expect(await service.settle(request.id)).toMatchObject({ ok: true, request: { state: 'unknown', needsReview: true } });
    await service.retryUnknown(request.id, APPROVER);
    expect(await service.retryUnknown(request.id, SECOND_APPROVER)).toMatchObject({ ok: true, request: { state: 'unknown', hold: 'needs_senior' } });
    expect(fleet.payoutCalls).toHaveLength(1);
    expect(await service.retryUnknown(request.id, SENIOR)).toMatchObject({ ok: true, request: { state: 'completed', hold: undefined } });
    expect(fleet.payoutCalls).toHaveLength(2);
  });

  it('drops the hold of a retry the gate held once the first attempt shows up in the transactions', async () => {
    const people = team();
    const { service, fleet, clock } = createService(db, { roles: people.roles, settings: tiered });
    const request = await submitted(service, { ...mobileForm, amount: '3000' });
    fleet.willAnswer(new FleetTimeoutError(true));
    await service.approve(request.id, APPROVER);
    await service.approve(request.id, SENIOR);
    clock.advance(11 * MINUTE);
    await service.settle(request.id);
    await service.retryUnknown(request.id, APPROVER);
    expect(await service.retryUnknown(request.id, SECOND_APPROVER)).toMatchObject({ ok: true, request: { state: 'unknown', hold: 'needs_senior' } });
    fleet.addTransaction({ reference: request.reference, amount: 3000, currency: 'USD' });
    expect(await service.settle(request.id)).toMatchObject({ ok: true, request: { state: 'completed', hold: undefined } });
    expect(fleet.payoutCalls).toHaveLength(1);
  });

  it('checks again in the recovery sweep: an approved request whose approver was removed meanwhile waits for another approver', async () => {
    const people = team();
    const { service, fleet, clock } = createService(db, { roles: people.roles, settings: tiered });
    const request = await submitted(service);
    await db.query('INSERT INTO payout_approvals (request_id, user_id, approved_at) VALUES ($1, $2, $3)', [request.id, APPROVER, clock.now()]);
    await db.query("UPDATE payout_requests SET state = 'approved' WHERE id = $1", [request.id]);
    people.approvers.delete(APPROVER);
    clock.advance(6 * MINUTE);
    expect(await service.recoverInterrupted()).toMatchObject([{ id: request.id, state: 'pending', hold: 'needs_approvers' }]);
    expect(fleet.payoutCalls).toHaveLength(0);
    expect(await service.approve(request.id, SECOND_APPROVER)).toMatchObject({ ok: true, request: { state: 'completed' } });
    expect(fleet.payoutCalls).toHaveLength(1);
  });

  it('holds a scheduled payout when the same payout went to its wallet outside its series since it was approved, and sends it once an approver ticks', async () => {
    const { schedule, service, clock, fleet, releaser } = scheduling(db);
    const request = await schedule({ firstDay: '2025-04-15', time: { hour: 9, minute: 0 }, repeat: 'once' });
    await service.approve(request.id, APPROVER);
    // The day before, another requester pays the same wallet the same amount; the schedule, approved a month ago, is outside that payout's window.
    clock.set(new Date('2025-04-14T12:00:00Z'));
    const other = await submitted(service, mobileForm, REQUESTER_APPROVER);
    expect(await service.approve(other.id, APPROVER)).toMatchObject({ ok: true, request: { state: 'completed' } });
    clock.set(new Date('2025-04-15T09:00:00Z'));
    await releaser.releaseDue();
    expect(fleet.payoutCalls).toHaveLength(1);
    const payoutId = (await service.get(request.id))?.schedule?.occurrences[0]?.payoutId;
    const held = await service.get(payoutId!);
    expect(held).toMatchObject({ state: 'pending', hold: 'duplicate_unchecked' });
    expect((await service.signals(held!)).duplicateOf).toMatchObject({ kind: 'request', requestId: other.id });
    expect(await service.approve(payoutId!, APPROVER)).toMatchObject({ ok: false, code: 'duplicate_unchecked' });
    expect(await service.approve(payoutId!, APPROVER, { duplicateChecked: true })).toMatchObject({ ok: true, request: { state: 'completed' } });
    expect(fleet.payoutCalls).toHaveLength(2);
  });

  it('does not send at start what was approved before an outage longer than the catch-up window: it is missed until an approver approves again', async () => {
    const { service, fleet, clock } = createService(db);
    const request = await submitted(service);
    await db.query('INSERT INTO payout_approvals (request_id, user_id, approved_at) VALUES ($1, $2, $3)', [request.id, APPROVER, clock.now()]);
    await db.query("UPDATE payout_requests SET state = 'approved' WHERE id = $1", [request.id]);
    clock.advance(2 * DAY);
    expect(await service.recoverInterrupted({ staleAfterMs: 0 })).toMatchObject([{ id: request.id, state: 'pending', hold: 'missed' }]);
    expect(fleet.payoutCalls).toHaveLength(0);
    expect(await service.approve(request.id, APPROVER)).toMatchObject({ ok: true, request: { state: 'completed' } });
    expect(fleet.payoutCalls).toHaveLength(1);
  });

  it('does not send a held scheduled payout retried weeks later on its old approvals: it waits to be approved again', async () => {
    const people = changingRoles();
    const { schedule, service, clock, fleet, releaser, schedules } = scheduling(db, { roles: people.roles });
    const request = await schedule(TOMORROW_NINE);
    await service.approve(request.id, APPROVER);
    people.failLookups(true);
    clock.set(DUE);
    await releaser.releaseDue();
    people.failLookups(false);
    clock.advance(21 * DAY);
    expect(await schedules.retry(request.id, 1, REQUESTER)).toMatchObject({ ok: true, occurrence: { state: 'released' } });
    expect(fleet.payoutCalls).toHaveLength(0);
    const payoutId = (await service.get(request.id))?.schedule?.occurrences[0]?.payoutId;
    expect(await service.get(payoutId!)).toMatchObject({ state: 'pending', hold: 'missed' });
    expect(await service.approve(payoutId!, APPROVER)).toMatchObject({ ok: true, request: { state: 'completed' } });
    expect(fleet.payoutCalls).toHaveLength(1);
  });

  it('never takes a payout on its way for one approved long ago, even with PAYOUT_SCHEDULE_CATCH_UP_MINUTES=0', async () => {
    const { service, fleet, clock } = createService(db, { catchUpMinutes: 0 });
    const request = await submitted(service);
    expect(await service.approve(request.id, APPROVER)).toMatchObject({ ok: true, request: { state: 'completed' } });
    // A bulk payout approved an hour before its row is taken (a long file at its pace) still sends it.
    const batches = new PayoutBatchService({
      db,
      clock,
      settings,
      batchSettings: { maxRows: 50, ratePerSecond: 1000 },
      roles: rolesFor([REQUESTER], [APPROVER]),
      logger: createLogger({ level: 'silent' }),
    });
    const sender = new BatchSender({
      db,
      clock,
      logger: createLogger({ level: 'silent' }),
      ratePerSecond: 1000,
      announce: async () => undefined,
      send: (row) => service.sendApproved(row, 'bulk'),
    });
    const checked = await batches.check(REQUESTER, `${HEADER}\nmobile,243899000002,VODACOM_MPESA,Bora Ilunga,CD,75,USD,,\n`);
    if (!checked.ok) throw new Error('expected a checked file');
    await batches.submit(REQUESTER, checked.batchId, { confirmedDuplicate: false });
    await batches.approve(checked.batchId, APPROVER);
    clock.advance(HOUR);
    await sender.sendDue();
    expect(fleet.payoutCalls).toHaveLength(2);
  });

  it('keeps a bulk payout sending while a row the gate held waits for its approver, and finishes it once that row is sent', async () => {
    const people = team();
    const { service, fleet, clock } = createService(db, { roles: people.roles, settings: tiered });
    const batches = new PayoutBatchService({
      db,
      clock,
      settings: tiered,
      batchSettings: { maxRows: 50, ratePerSecond: 1000 },
      roles: people.roles,
      logger: createLogger({ level: 'silent' }),
    });
    const sender = new BatchSender({
      db,
      clock,
      logger: createLogger({ level: 'silent' }),
      ratePerSecond: 1000,
      announce: async () => undefined,
      send: (row) => service.sendApproved(row, 'bulk'),
    });
    const checked = await batches.check(
      REQUESTER,
      `${HEADER}\nmobile,243899000003,VODACOM_MPESA,Bora Ilunga,CD,75,USD,,\nmobile,243899000004,VODACOM_MPESA,Ada Kasa,CD,80,USD,,\n`,
    );
    if (!checked.ok) throw new Error('expected a checked file');
    await batches.submit(REQUESTER, checked.batchId, { confirmedDuplicate: false });
    await batches.approve(checked.batchId, APPROVER);
    people.approvers.delete(APPROVER);
    await sender.sendDue();
    expect(fleet.payoutCalls).toHaveLength(0);
    expect((await batches.get(checked.batchId))?.state).toBe('sending');
    const held = (await batches.rows(checked.batchId)).map((row) => row.requestId);
    for (const id of held) expect(await service.get(id!)).toMatchObject({ state: 'pending', hold: 'needs_approvers', batch: { id: checked.batchId } });
    for (const id of held) expect(await service.approve(id!, SECOND_APPROVER)).toMatchObject({ ok: true, request: { state: 'completed' } });
    await sender.finishDone();
    expect((await batches.get(checked.batchId))?.state).toBe('done');
    expect(fleet.payoutCalls).toHaveLength(2);
  });
});

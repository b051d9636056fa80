import { describe, expect, it } from 'vitest';
import type { PayoutDraft } from '../../../src/payouts/model.js';
import type { Db } from '../../../src/store/db.js';
import { testDatabases } from '../../support/databases.js';
import {
  APPROVER,
  changingRoles,
  ManualClock,
  MINUTE,
  mobileForm,
  REQUESTER,
  SECOND_APPROVER,
  submitted,
  usePayoutDatabase,
} from '../../support/payout-doubles.js';
import { scheduling } from './support.js';
import { refusalMessage, type RefusalFacts } from '../../../src/slack/refusals/payout-refusals.js';
import { scheduledOn } from '../../../src/digest/scheduled-day.js';

// The clock starts at 2025-03-14T10:00Z (createService).
const TOMORROW_NINE = { firstDay: '2025-03-15', time: { hour: 9, minute: 0 }, repeat: 'once' as const };
const DUE = new Date('2025-03-15T09:00:00Z');

describe.each(testDatabases())('scheduled payouts are released once, at their time, on $name', ({ open }) => {
  let db: Db;
  usePayoutDatabase(open, (opened) => {
    db = opened;
  });

  it('approves a series ahead, sends nothing before the time, then sends once with the numbered reference and tells the requester', async () => {
    const { schedule, service, clock, fleet, releaser, told } = scheduling(db);
    const request = await schedule({ ...TOMORROW_NINE, repeat: 'weekly', count: 2 }, { ...mobileForm, reference: 'INV-42' });
    expect(await service.approve(request.id, APPROVER)).toMatchObject({ ok: true, request: { state: 'approved' } });
    expect(await releaser.tick()).toBe(0);
    clock.set(new Date(DUE.getTime() - 1000));
    await releaser.tick();
    expect(fleet.payoutCalls).toHaveLength(0);

    clock.set(DUE);
    expect(await releaser.tick()).toBe(1);
    await releaser.tick();
    expect(fleet.payoutCalls.map((call) => call.body.reference)).toEqual(['INV-42-1']);
    const stored = await service.get(request.id);
    const occurrence = stored?.schedule?.occurrences[0];
    expect(occurrence).toMatchObject({ state: 'released', number: 1 });
    expect(await service.get(occurrence!.payoutId!)).toMatchObject({
      state: 'completed',
      scheduledFrom: { requestId: request.id, number: 1, of: 2 },
      approvals: [{ userId: APPROVER }],
    });
    // The requester was reminded before the time (PAYOUT_SCHEDULED_NOTICE_MINUTES), then told of the outcome.
    expect(told.map((entry) => entry.event)).toEqual(['noticed', 'released']);
    // Recovery never sends the approved scheduled request itself.
    await service.recoverInterrupted({ staleAfterMs: 0 });
    expect(fleet.payoutCalls).toHaveLength(1);
  });

  it("counts an occurrence on its release day only, so today's limit and totals are untouched", async () => {
    const { schedule, service } = scheduling(db);
    await schedule(TOMORROW_NINE, { ...mobileForm, amount: '900' });
    // 900 today would need two approvers with 900 more to the same wallet; tomorrow's does not count today.
    const today = await service.previewApprovals(
      REQUESTER,
      ((await service.validate('mobile_money', { ...mobileForm, amount: '900' })) as { ok: true; draft: never }).draft,
    );
    expect(today.required).toBe(1);
    const second = await schedule(TOMORROW_NINE, { ...mobileForm, amount: '900' });
    expect(second).toMatchObject({ requiredApprovals: 2, dualApproval: { rule: 'requester_total', totalMinor: 180_000 } });
  });

  it('releases at most once when two replicas look at the same second', async () => {
    const { schedule, service, clock, fleet, releaserFor } = scheduling(db);
    const request = await schedule(TOMORROW_NINE);
    await service.approve(request.id, APPROVER);
    clock.set(DUE);
    const [a, b] = [releaserFor('replica-a'), releaserFor('replica-b')];
    await Promise.all([a.releaseDue(), b.releaseDue(), a.releaseDue(), b.releaseDue()]);
    expect(fleet.payoutCalls).toHaveLength(1);
    // Only one replica holds the lease at a time (database clock).
    expect([await a.tick(), await b.tick()]).toEqual([0, 0]);
  });

  it('sends once after a crash between the release and the POST: recovery sends the approved payout, the occurrence is not released again', async () => {
    const { schedule, service, clock, fleet, releaserFor } = scheduling(db);
    const request = await schedule(TOMORROW_NINE);
    await service.approve(request.id, APPROVER);
    clock.set(DUE);
    const crashing = releaserFor('replica-a', {
      beforeSend: async () => {
        throw new Error('SIGKILL');
      },
    });
    await crashing.releaseDue();
    expect(fleet.payoutCalls).toHaveLength(0);
    await releaserFor('replica-b').releaseDue();
    expect(fleet.payoutCalls).toHaveLength(0);
    clock.advance(10 * MINUTE);
    await service.recoverInterrupted();
    expect(fleet.payoutCalls).toHaveLength(1);
  });

  it('holds an occurrence whose approver lost the role, tells why, and releases it on Retry once the role is back', async () => {
    const people = changingRoles();
    const { schedule, service, clock, fleet, releaser, schedules, told } = scheduling(db, { roles: people.roles });
    const request = await schedule(TOMORROW_NINE);
    await service.approve(request.id, APPROVER);
    people.approvers.delete(APPROVER);
    clock.set(DUE);
    await releaser.releaseDue();
    expect(fleet.payoutCalls).toHaveLength(0);
    expect(told).toEqual([expect.objectContaining({ event: 'held', hold: 'approver_removed', state: 'held' })]);

    expect(await schedules.retry(request.id, 1, REQUESTER)).toMatchObject({ ok: true, occurrence: { state: 'held', hold: 'approver_removed' } });
    people.approvers.add(APPROVER);
    expect(await schedules.retry(request.id, 1, REQUESTER)).toMatchObject({ ok: true, occurrence: { state: 'released' } });
    expect(await schedules.retry(request.id, 1, REQUESTER)).toMatchObject({ ok: false, code: 'moved_on' });
    expect(fleet.payoutCalls).toHaveLength(1);
    expect((await schedules.history(request.id)).map((event) => event.event)).toEqual(['scheduled', 'held', 'retried', 'held', 'retried', 'released']);
  });

  it('holds when the requester may no longer request', async () => {
    const people = changingRoles();
    const { schedule, service, clock, fleet, releaser } = scheduling(db, { roles: people.roles });
    const request = await schedule(TOMORROW_NINE);
    await service.approve(request.id, APPROVER);
    people.requesters.delete(REQUESTER);
    clock.set(DUE);
    await releaser.releaseDue();
    expect(fleet.payoutCalls).toHaveLength(0);
    expect((await service.get(request.id))?.schedule?.occurrences[0]).toMatchObject({ state: 'held', hold: 'requester_not_allowed' });
  });

  it('makes an occurrence wait for a second approver when its release day now needs one, and sends it once approved', async () => {
    const { schedule, service, clock, fleet, releaser } = scheduling(db);
    const request = await schedule(TOMORROW_NINE, { ...mobileForm, amount: '600' });
    await service.approve(request.id, APPROVER);
    clock.set(new Date('2025-03-15T08:00:00Z'));
    // That morning another 600 USD goes to the same wallet: with the occurrence, the day's total is 1,200 USD.
    const other = await service.submit(
      REQUESTER,
      ((await service.validate('mobile_money', { ...mobileForm, amount: '600' })) as { ok: true; draft: never }).draft,
    );
    const otherId = (other as { request: { id: string; requiredApprovals: number } }).request;
    expect(otherId.requiredApprovals).toBe(2);
    // The same amount to the same wallet as the approved schedule: a possible duplicate, approved with the tick.
    await service.approve(otherId.id, APPROVER, { duplicateChecked: true });
    await service.approve(otherId.id, SECOND_APPROVER, { duplicateChecked: true });
    expect(fleet.payoutCalls).toHaveLength(1);

    clock.set(DUE);
    await releaser.releaseDue();
    const payoutId = (await service.get(request.id))?.schedule?.occurrences[0]?.payoutId;
    // The reason is the release day's, as the approvers are told it.
    expect(await service.get(payoutId!)).toMatchObject({
      state: 'pending',
      requiredApprovals: 2,
      approvals: [{ userId: APPROVER }],
      dualApproval: { rule: 'requester_total', totalMinor: 120_000 },
    });
    expect(fleet.payoutCalls).toHaveLength(1);
    expect(await service.approve(payoutId!, SECOND_APPROVER)).toMatchObject({ ok: false });
    expect(fleet.payoutCalls).toHaveLength(1);
    expect(await service.approve(payoutId!, SECOND_APPROVER, { duplicateChecked: true })).toMatchObject({ ok: true, request: { state: 'completed' } });
    expect(fleet.payoutCalls).toHaveLength(2);
  });

  it('says what changed from the saved recipient picked on a scheduled request, and again on an occurrence that waits for approval', async () => {
    const { schedules, service, clock, releaser } = scheduling(db);
    const draftOf = async (fields: Record<string, string>) => ((await service.validate('mobile_money', fields)) as { ok: true; draft: PayoutDraft }).draft;
    const paid = await service.submit(REQUESTER, await draftOf({ ...mobileForm, amount: '10' }));
    if (!paid.ok) throw new Error(paid.code);
    await service.approve(paid.request.id, APPROVER);
    const edited = { ...mobileForm, phone: '+243 812 345 679', amount: '600' };
    const scheduled = await schedules.request(REQUESTER, await draftOf(edited), TOMORROW_NINE, { filledFrom: 'mobile:243812345678:VODACOM_MPESA' });
    if (!scheduled.ok) throw new Error(scheduled.code);
    const changed = {
      saved: { identity: 'mobile:243812345678:VODACOM_MPESA', name: 'Amani Kabila' },
      changes: [{ field: 'phone', from: '243812345678', to: '243812345679' }],
    };
    expect(scheduled.request.changedDetails).toMatchObject(changed);
    await service.approve(scheduled.request.id, APPROVER);
    // That morning another 600 USD goes to the edited wallet: the release day now needs a second approver.
    clock.set(new Date('2025-03-15T08:00:00Z'));
    const other = await service.submit(REQUESTER, await draftOf({ ...edited, amount: '600' }));
    if (!other.ok) throw new Error(other.code);
    clock.set(DUE);
    await releaser.releaseDue();
    const payoutId = (await service.get(scheduled.request.id))?.schedule?.occurrences[0]?.payoutId;
    expect(await service.get(payoutId!)).toMatchObject({ state: 'pending', changedDetails: changed });
  });

  it('never takes an occurrence for a possible duplicate of the schedule it was released from', async () => {
    const { schedule, service, clock, fleet, releaser } = scheduling(db);
    const request = await schedule(TOMORROW_NINE, { ...mobileForm, amount: '600' });
    await service.approve(request.id, APPROVER);
    clock.set(new Date('2025-03-15T08:00:00Z'));
    // Another amount to the same wallet that morning: the release day now needs two approvers, and nothing repeats the occurrence but its own schedule.
    const other = await service.submit(
      REQUESTER,
      ((await service.validate('mobile_money', { ...mobileForm, amount: '700' })) as { ok: true; draft: never }).draft,
    );
    const otherId = (other as { request: { id: string } }).request.id;
    await service.approve(otherId, APPROVER);
    await service.approve(otherId, SECOND_APPROVER);
    clock.set(DUE);
    await releaser.releaseDue();
    const payoutId = (await service.get(request.id))?.schedule?.occurrences[0]?.payoutId;
    expect((await service.signals((await service.get(payoutId!))!)).duplicateOf).toBeUndefined();
    expect(await service.approve(payoutId!, SECOND_APPROVER)).toMatchObject({ ok: true, request: { state: 'completed' } });
    expect(fleet.payoutCalls).toHaveLength(2);
  });

  it('releases on start what fell due within the catch-up window and marks older ones missed; Send now goes through approval again', async () => {
    const { schedule, service, clock, fleet, releaser, schedules, told } = scheduling(db, { catchUpMinutes: 60 });
    const series = await schedule({ firstDay: '2025-03-15', time: { hour: 9, minute: 0 }, repeat: 'weekly', count: 3 });
    await service.approve(series.id, APPROVER);
    // Down from before the first until 30 minutes after the second: the first is missed, the second caught up.
    clock.set(new Date('2025-03-22T09:30:00Z'));
    await releaser.releaseDue();
    expect(fleet.payoutCalls.map((call) => call.body.reference)).toEqual([`${series.reference}-2`]);
    const occurrences = (await service.get(series.id))?.schedule?.occurrences;
    expect(occurrences?.map((occurrence) => occurrence.state)).toEqual(['missed', 'released', 'scheduled']);
    expect(told.filter((entry) => entry.event === 'missed')).toHaveLength(1);

    const sent = await schedules.sendNow(series.id, 1, REQUESTER);
    expect(sent).toMatchObject({
      ok: true,
      occurrence: { state: 'released' },
      payout: { ok: true, request: { state: 'pending', reference: `${series.reference}-1` } },
    });
    expect(fleet.payoutCalls).toHaveLength(1);
  });

  it('skips the next occurrence and cancels the rest of a series, for the requester or an approver only, each in the history', async () => {
    const { schedule, service, clock, fleet, releaser, schedules } = scheduling(db);
    const series = await schedule({ firstDay: '2025-03-31', time: { hour: 9, minute: 0 }, repeat: 'monthly', count: 4 });
    await service.approve(series.id, APPROVER);
    expect(await schedules.skipNext(series.id, 'UOUTSIDER')).toMatchObject({ ok: false, code: 'not_allowed' });
    expect(await schedules.skipNext(series.id, REQUESTER)).toMatchObject({ ok: true, occurrence: { number: 1, state: 'skipped' } });
    clock.set(new Date('2025-04-30T09:00:00Z'));
    await releaser.releaseDue();
    expect(fleet.payoutCalls).toHaveLength(1);
    expect(await schedules.cancel(series.id, SECOND_APPROVER)).toMatchObject({ ok: true });
    expect(await schedules.cancel(series.id, SECOND_APPROVER)).toMatchObject({ ok: false, code: 'moved_on' });
    clock.set(new Date('2025-05-31T09:00:00Z'));
    await releaser.releaseDue();
    expect(fleet.payoutCalls).toHaveLength(1);
    const occurrences = (await service.get(series.id))?.schedule?.occurrences;
    expect(occurrences?.map((occurrence) => [occurrence.dueAt.toISOString().slice(0, 10), occurrence.state])).toEqual([
      ['2025-03-31', 'skipped'],
      ['2025-04-30', 'released'],
      ['2025-05-31', 'cancelled'],
      ['2025-06-30', 'cancelled'],
    ]);
    expect((await schedules.history(series.id)).map((event) => [event.event, event.userId])).toEqual([
      ['scheduled', REQUESTER],
      ['skipped', REQUESTER],
      ['released', undefined],
      ['cancelled', SECOND_APPROVER],
    ]);
  });

  it('cancels with its series an occurrence released and still waiting for approval, so that nobody can approve it after', async () => {
    const { schedule, service, clock, fleet, releaser, schedules } = scheduling(db);
    const series = await schedule({ firstDay: '2025-03-15', time: { hour: 9, minute: 0 }, repeat: 'weekly', count: 3 }, { ...mobileForm, amount: '600' });
    await service.approve(series.id, APPROVER);
    clock.set(new Date('2025-03-15T08:00:00Z'));
    // That morning another 600 USD goes to the same wallet: the occurrence released at 09:00 waits for a second approver.
    const other = await service.submit(
      REQUESTER,
      ((await service.validate('mobile_money', { ...mobileForm, amount: '600' })) as { ok: true; draft: never }).draft,
    );
    const otherId = (other as { request: { id: string } }).request.id;
    await service.approve(otherId, APPROVER, { duplicateChecked: true });
    await service.approve(otherId, SECOND_APPROVER, { duplicateChecked: true });
    clock.set(new Date('2025-03-15T09:00:00Z'));
    await releaser.releaseDue();
    const waiting = (await service.get(series.id))?.schedule?.occurrences[0]?.payoutId;
    expect(await service.get(waiting!)).toMatchObject({ state: 'pending' });

    expect(await schedules.cancel(series.id, REQUESTER)).toMatchObject({ ok: true });
    expect(await service.get(waiting!)).toMatchObject({ state: 'cancelled' });
    expect(await service.approve(waiting!, SECOND_APPROVER, { duplicateChecked: true })).toMatchObject({ ok: false });
    expect(fleet.payoutCalls).toHaveLength(1);
    expect((await service.get(series.id))?.schedule?.occurrences.map((occurrence) => occurrence.state)).toEqual(['released', 'cancelled', 'cancelled']);
  });

  it('releases an approved series on time though more due occurrences of unapproved series come before it', async () => {
    const { schedule, service, clock, fleet, releaser } = scheduling(db);
    // Three series nobody approved yet, due at 08:00, 08:30 and 08:45; then an approved one due at 09:00.
    for (const [minute, amount] of [
      [0, '11'],
      [30, '12'],
      [45, '13'],
    ] as const) {
      await schedule({ firstDay: '2025-03-15', time: { hour: 8, minute }, repeat: 'once' }, { ...mobileForm, amount });
    }
    const approved = await schedule(TOMORROW_NINE, { ...mobileForm, amount: '14' });
    await service.approve(approved.id, APPROVER);
    clock.set(DUE);
    // A round takes two occurrences: the unapproved ones (not yet missed) must not take their places.
    await releaser.releaseDue(2);
    expect(fleet.payoutCalls.map((call) => call.body.amount)).toEqual([14]);
    expect((await service.get(approved.id))?.schedule?.occurrences[0]?.state).toBe('released');
  });

  it("decides what is due on the database's clock, so two replicas whose clocks are hours apart release the same occurrences", async () => {
    const { schedule, service, clock, fleet, releaserFor } = scheduling(db);
    const HOUR = 60 * MINUTE;
    const dbNow = Math.floor(Date.now() / MINUTE) * MINUTE;
    const at = (ms: number) => {
      const when = new Date(ms);
      return { firstDay: when.toISOString().slice(0, 10), time: { hour: when.getUTCHours(), minute: when.getUTCMinutes() }, repeat: 'once' as const };
    };
    // Requested and approved three hours before the database's now.
    clock.set(new Date(dbNow - 3 * HOUR));
    const past = await schedule(at(dbNow - 2 * HOUR), { ...mobileForm, amount: '21', reference: 'INV-PAST' });
    const future = await schedule(at(dbNow + 2 * HOUR), { ...mobileForm, amount: '22', reference: 'INV-LATER' });
    await service.approve(past.id, APPROVER);
    await service.approve(future.id, APPROVER);
    // One replica's clock is three hours behind the database's, the other's three hours ahead.
    const behind = releaserFor('replica-a', { clock: new ManualClock(new Date(dbNow - 3 * HOUR)), databaseNow: undefined });
    const ahead = releaserFor('replica-b', { clock: new ManualClock(new Date(dbNow + 3 * HOUR)), databaseNow: undefined });
    await behind.releaseDue();
    await ahead.releaseDue();
    await behind.sendNotices();
    expect(fleet.payoutCalls.map((call) => call.body.reference)).toEqual(['INV-PAST']);
    expect((await service.get(future.id))?.schedule?.occurrences[0]?.state).toBe('scheduled');
  });

  it('sends the heads-up of an approved series though more series nobody approved are due sooner', async () => {
    const { schedule, service, clock, told, releaser } = scheduling(db);
    for (const [minute, amount] of [
      [0, '11'],
      [15, '12'],
      [30, '13'],
    ] as const) {
      await schedule({ firstDay: '2025-03-15', time: { hour: 8, minute }, repeat: 'once' }, { ...mobileForm, amount });
    }
    const approved = await schedule(TOMORROW_NINE, { ...mobileForm, amount: '14' });
    await service.approve(approved.id, APPROVER);
    // An hour before 08:00: every occurrence is within the hour's notice by 08:01.
    clock.set(new Date('2025-03-15T08:01:00Z'));
    expect(await releaser.sendNotices(2)).toBe(1);
    expect(told.filter((entry) => entry.event === 'noticed').map((entry) => entry.id)).toEqual([approved.id]);
  });

  it("gives a scheduled request's approval message the totals of its busiest day, this payout included, not those of the day it was requested", async () => {
    const { schedule, service } = scheduling(db);
    // Weekly on the 15th and the 22nd; another payout to the same wallet waits for the 22nd.
    await schedule({ firstDay: '2025-03-22', time: { hour: 8, minute: 0 }, repeat: 'once' }, { ...mobileForm, amount: '300' });
    const series = await schedule({ firstDay: '2025-03-15', time: { hour: 9, minute: 0 }, repeat: 'weekly', count: 2 }, { ...mobileForm, amount: '400' });
    expect((await service.signals(series)).dayTotals).toEqual({ currency: 'USD', requesterMinor: 70_000, recipientMinor: 70_000, day: '2025-03-22' });
  });

  it('keeps the numbered references of an approved series: a payout typed with one is refused, saying whose, and the series still sends it', async () => {
    const { schedule, service, clock, fleet, releaser } = scheduling(db);
    const series = await schedule({ ...TOMORROW_NINE, repeat: 'weekly', count: 3 }, { ...mobileForm, reference: 'INV-42' });
    await service.approve(series.id, APPROVER);
    expect(await service.validate('mobile_money', { ...mobileForm, amount: '20', reference: 'INV-42-3' })).toEqual({
      ok: false,
      errors: { reference: { code: 'reference_reserved', reservedFor: { kind: 'series', requestId: series.id, number: 3 } } },
    });
    const other = await service.validate('mobile_money', { ...mobileForm, amount: '20', reference: 'INV-43' });
    if (!other.ok) throw new Error('expected a valid form');
    const refused = await service.submit(REQUESTER, { ...other.draft, reference: 'INV-42-3' });
    expect(refused).toMatchObject({ ok: false, code: 'duplicate_reference', details: { reservedFor: { kind: 'series', requestId: series.id, number: 3 } } });
    expect(refusalMessage(refused as RefusalFacts, 'en')).toBe(
      `This reference is kept for payout #3 of the scheduled request ${series.id}: choose another, or leave it empty.`,
    );
    for (const day of ['2025-03-15', '2025-03-22', '2025-03-29']) {
      clock.set(new Date(`${day}T09:00:00Z`));
      await releaser.releaseDue();
    }
    expect(fleet.payoutCalls.map((call) => call.body.reference)).toEqual(['INV-42-1', 'INV-42-2', 'INV-42-3']);
  });

  it('gives lists a scheduled request with its schedule, so that they can say it waits for its time', async () => {
    const { schedule, service } = scheduling(db);
    const series = await schedule(TOMORROW_NINE, { ...mobileForm, amount: '15' });
    await service.approve(series.id, APPROVER);
    const plain = await submitted(service, { ...mobileForm, amount: '16' });
    const listed = [
      await service.listRecent({ limit: 10 }),
      await service.requestedBy(REQUESTER, { limit: 10 }),
      (await service.search([series.reference], { limit: 10 })).requests,
    ];
    for (const requests of listed) {
      expect(requests.find((request) => request.id === series.id)).toMatchObject({ state: 'approved', schedule: { repeat: 'once' } });
    }
    expect((await service.listRecent({ limit: 10 })).find((request) => request.id === plain.id)?.schedule).toBeUndefined();
  });

  it('checks a series against the daily limit of each of its days, refusing when one would go over', async () => {
    const { schedules, service } = scheduling(db);
    // Each request has a reference of its own: a fresh review of the same form.
    const form = async () => ((await service.validate('mobile_money', { ...mobileForm, amount: '40000' })) as { ok: true; draft: never }).draft;
    const at = (day: string, hour: number) => ({ firstDay: day, time: { hour, minute: 0 }, repeat: 'once' as const });
    expect(await schedules.request(REQUESTER, await form(), at('2025-03-20', 9))).toMatchObject({ ok: true });
    expect(await schedules.request(REQUESTER, await form(), at('2025-03-20', 10))).toMatchObject({ ok: true });
    // Today (the 14th) holds nothing, but the 20th would reach 120,000 USD with the limit at 100,000.
    expect(await schedules.request(REQUESTER, await form(), { ...at('2025-03-20', 11), repeat: 'weekly', count: 2 })).toMatchObject({
      ok: false,
      code: 'over_daily_limit',
    });
    expect(await schedules.request(REQUESTER, await form(), { ...at('2025-03-21', 11), repeat: 'weekly', count: 2 })).toMatchObject({ ok: true });
  });

  it('gives the digest the total still scheduled on a day, without held-back series', async () => {
    const { schedule, service } = scheduling(db);
    const approved = await schedule(TOMORROW_NINE, { ...mobileForm, amount: '120' });
    await service.approve(approved.id, APPROVER);
    await schedule({ ...TOMORROW_NINE, time: { hour: 11, minute: 0 } }, { ...mobileForm, amount: '80' });
    expect(await scheduledOn(db, new Date('2025-03-15T00:00:00Z'), new Date('2025-03-16T00:00:00Z'))).toEqual([
      { currency: 'USD', totalMinor: 12_000, count: 1 },
    ]);
  });
});

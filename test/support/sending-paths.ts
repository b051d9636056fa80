/**
 * Every way a request reaches sending, for the gate's matrix (`test/payouts/gate-matrix.test.ts`): a
 * world of services over one database whose roles and settings a case may change, and per sending
 * path the steps up to the one that would send.
 */
import { expect } from 'vitest';
import { FleetTimeoutError } from '../../src/fleet/errors.js';
import { createLogger } from '../../src/core/logger.js';
import { PayoutBatchService } from '../../src/payouts/batch/service.js';
import { BatchSender } from '../../src/payouts/batch/sender.js';
import type { SendingPath } from '../../src/payouts/gate.js';
import type { PayoutDraft, PayoutRequest } from '../../src/payouts/model.js';
import type { PayoutRoles } from '../../src/payouts/roles.js';
import { ScheduleReleaser } from '../../src/payouts/schedule/release.js';
import { PayoutSchedules } from '../../src/payouts/schedule/service.js';
import type { PayoutSettings } from '../../src/payouts/settings.js';
import type { Db } from '../../src/store/db.js';
import {
  APPROVER,
  createService,
  MINUTE,
  mobileForm,
  REQUESTER,
  REQUESTER_APPROVER,
  SECOND_APPROVER,
  settings as baseSettings,
  submitted,
} from './payout-doubles.js';

export const SENIOR = 'USENIOR01';
const HEADER = 'kind,number,provider,name,country,amount,currency,reference,note';
const TOMORROW_NINE = { firstDay: '2025-03-15', time: { hour: 9, minute: 0 }, repeat: 'once' as const };
const DUE = new Date('2025-03-15T09:00:00Z');
// A series: each occurrence is sent as a payout request of its own (a one-off is sent as the request itself).
const WEEKLY_TWICE = { ...TOMORROW_NINE, repeat: 'weekly' as const, count: 2 };

/** Roles that change during a case; a lookup that cannot be answered fails, as Slack's would. */
function team() {
  const requesters = new Set([REQUESTER, REQUESTER_APPROVER]);
  const approvers = new Set([APPROVER, SECOND_APPROVER, SENIOR, REQUESTER_APPROVER]);
  const seniors = new Set([SENIOR]);
  let unreadable = false;
  const answer = (members: Set<string>, userId: string, lookup?: { fresh?: boolean }) =>
    lookup?.fresh && unreadable ? Promise.reject(new Error('usergroups.users.list failed')) : Promise.resolve(members.has(userId));
  const roles: PayoutRoles = {
    canRequest: (userId, lookup) => answer(requesters, userId, lookup),
    canApprove: (userId, lookup) => answer(approvers, userId, lookup),
    isSenior: async (userId, lookup) => (await answer(seniors, userId, lookup)) && approvers.has(userId),
  };
  return {
    roles,
    requesters,
    approvers,
    seniors,
    failLookups: (fail: boolean) => {
      unreadable = fail;
    },
  };
}

/** Settings of their own per case, so that a case may change them "as configured now". Two approvers above 1,000 USD, a senior above 3,000 USD. */
type ChangingSettings = PayoutSettings & Record<'maxAmount' | 'dailyLimit' | 'dualApprovalAbove' | 'seniorApprovalAbove', Map<string, number>>;

function freshSettings(): ChangingSettings {
  return {
    ...baseSettings,
    currencies: [...baseSettings.currencies],
    operators: [...baseSettings.operators],
    maxAmount: new Map(baseSettings.maxAmount),
    dailyLimit: new Map(baseSettings.dailyLimit),
    dualApprovalAbove: new Map(baseSettings.dualApprovalAbove),
    seniorApprovalAbove: new Map([['USD', 300_000]]),
  };
}

export type World = ReturnType<typeof world>;

export function world(db: Db) {
  const people = team();
  const settings = freshSettings();
  const reached: SendingPath[] = [];
  let armed: (() => Promise<void>) | undefined;
  const made = createService(db, {
    roles: people.roles,
    settings,
    beforeGate: async (_request, via) => {
      reached.push(via);
      const breaker = armed;
      armed = undefined;
      await breaker?.();
    },
  });
  const logger = createLogger({ level: 'silent' });
  const scheduleSettings = { timeZone: 'UTC', catchUpMinutes: 360, noticeMinutes: 0 };
  const batches = new PayoutBatchService({ db, clock: made.clock, settings, batchSettings: { maxRows: 50, ratePerSecond: 1000 }, roles: people.roles, logger });
  const sender = new BatchSender({
    db,
    clock: made.clock,
    logger,
    ratePerSecond: 1000,
    announce: async () => undefined,
    send: (request) => made.service.sendApproved(request, 'bulk'),
  });
  const releaser = new ScheduleReleaser({
    db,
    clock: made.clock,
    roles: people.roles,
    logger,
    payoutSettings: settings,
    settings: scheduleSettings,
    payouts: made.service,
    notifiers: [],
    holder: 'replica-a',
    databaseNow: async () => made.clock.now(),
  });
  const schedules = new PayoutSchedules({ db, clock: made.clock, roles: people.roles, payouts: made.service, releaser, settings: scheduleSettings });
  return {
    ...made,
    ...people,
    settings,
    batches,
    sender,
    releaser,
    schedules,
    reached,
    db,
    /** The next move to sending runs `breaker` first (once). */
    arm(breaker: () => Promise<void>) {
      armed = breaker;
    },
    /** What dies with a process between approval and sending: the next move to sending never happens. */
    die() {
      armed = async () => {
        throw new Error('SIGKILL');
      };
    },
  };
}

/** What a case sets up: the amount and who approves (in order). */
export interface Setup {
  amount: string;
  approvers: string[];
}

export const ORDINARY: Setup = { amount: '150', approvers: [APPROVER] };
export const ABOVE_SENIOR_TIER: Setup = { amount: '3500', approvers: [APPROVER, SENIOR] };

/** One way in, up to the step that would send: `send` takes that step; `request` finds the request it moved. */
export interface PathRun {
  send: () => Promise<unknown>;
  request: () => Promise<PayoutRequest | undefined>;
  /** Where a held request waits. */
  waitsIn: 'pending' | 'unknown';
}

export async function draftOf(w: World, amount: string): Promise<PayoutDraft> {
  const validation = await w.service.validate('mobile_money', { ...mobileForm, amount });
  if (!validation.ok) throw new Error(JSON.stringify(validation.errors));
  return validation.draft;
}

async function scheduledAndApproved(w: World, setup: Setup, rule: typeof TOMORROW_NINE | typeof WEEKLY_TWICE = TOMORROW_NINE): Promise<PayoutRequest> {
  const scheduled = await w.schedules.request(REQUESTER, await draftOf(w, setup.amount), rule);
  if (!scheduled.ok) throw new Error(JSON.stringify(scheduled));
  for (const approver of setup.approvers) expect(await w.service.approve(scheduled.request.id, approver)).toMatchObject({ ok: true });
  w.clock.set(DUE);
  return scheduled.request;
}

async function occurrencePayout(w: World, scheduledId: string): Promise<PayoutRequest | undefined> {
  const payoutId = (await w.service.get(scheduledId))?.schedule?.occurrences[0]?.payoutId;
  return payoutId ? w.service.get(payoutId) : undefined;
}

export const PATHS: Record<SendingPath, (w: World, setup: Setup) => Promise<PathRun>> = {
  async approval(w, setup) {
    const request = await submitted(w.service, { ...mobileForm, amount: setup.amount });
    for (const approver of setup.approvers.slice(0, -1)) await w.service.approve(request.id, approver);
    return { send: () => w.service.approve(request.id, setup.approvers.at(-1)!), request: () => w.service.get(request.id), waitsIn: 'pending' };
  },
  async bulk(w, setup) {
    const checked = await w.batches.check(REQUESTER, `${HEADER}\nmobile,+243 812 345 678,VODACOM_MPESA,Amani Kabila,CD,${setup.amount},USD,,\n`);
    if (!checked.ok || checked.check.problems.length > 0) throw new Error('expected a file without problems');
    expect(await w.batches.submit(REQUESTER, checked.batchId, { confirmedDuplicate: false })).toMatchObject({ ok: true });
    for (const approver of setup.approvers) expect(await w.batches.approve(checked.batchId, approver)).toMatchObject({ ok: true });
    expect((await w.batches.get(checked.batchId))?.state).toBe('sending');
    return {
      send: () => w.sender.sendDue(),
      request: async () => {
        const { rows } = await w.db.query<{ request_id: string | null }>('SELECT request_id FROM payout_batch_rows WHERE batch_id = $1', [checked.batchId]);
        return rows[0]?.request_id ? w.service.get(rows[0].request_id) : undefined;
      },
      waitsIn: 'pending',
    };
  },
  async schedule(w, setup) {
    const scheduled = await scheduledAndApproved(w, setup);
    return { send: () => w.releaser.releaseDue(), request: () => occurrencePayout(w, scheduled.id), waitsIn: 'pending' };
  },
  async schedule_retry(w, setup) {
    const scheduled = await scheduledAndApproved(w, setup);
    // Slack could not answer at its time: the occurrence is held, and Retry releases it.
    w.failLookups(true);
    await w.releaser.releaseDue();
    w.failLookups(false);
    expect((await w.service.get(scheduled.id))?.schedule?.occurrences[0]).toMatchObject({ state: 'held', hold: 'roles_unavailable' });
    return { send: () => w.schedules.retry(scheduled.id, 1, REQUESTER), request: () => occurrencePayout(w, scheduled.id), waitsIn: 'pending' };
  },
  async retry_unknown(w, setup) {
    const request = await submitted(w.service, { ...mobileForm, amount: setup.amount });
    w.fleet.willAnswer(new FleetTimeoutError(true));
    for (const approver of setup.approvers) await w.service.approve(request.id, approver);
    w.clock.advance(11 * MINUTE);
    expect(await w.service.settle(request.id)).toMatchObject({ ok: true, request: { state: 'unknown', needsReview: true } });
    for (const approver of setup.approvers.slice(0, -1)) await w.service.retryUnknown(request.id, approver);
    return { send: () => w.service.retryUnknown(request.id, setup.approvers.at(-1)!), request: () => w.service.get(request.id), waitsIn: 'unknown' };
  },
  async recovery(w, setup) {
    const request = await submitted(w.service, { ...mobileForm, amount: setup.amount });
    for (const approver of setup.approvers.slice(0, -1)) await w.service.approve(request.id, approver);
    w.die();
    await expect(w.service.approve(request.id, setup.approvers.at(-1)!)).rejects.toThrow('SIGKILL');
    expect((await w.service.get(request.id))?.state).toBe('approved');
    w.clock.advance(6 * MINUTE);
    return { send: () => w.service.recoverInterrupted(), request: () => w.service.get(request.id), waitsIn: 'pending' };
  },
};

/** The two scheduled paths again, for an occurrence of a series. */
export const SERIES_PATHS: Record<'schedule' | 'schedule_retry', (w: World, setup: Setup) => Promise<PathRun>> = {
  async schedule(w, setup) {
    const scheduled = await scheduledAndApproved(w, setup, WEEKLY_TWICE);
    return { send: () => w.releaser.releaseDue(), request: () => occurrencePayout(w, scheduled.id), waitsIn: 'pending' };
  },
  async schedule_retry(w, setup) {
    const scheduled = await scheduledAndApproved(w, setup, WEEKLY_TWICE);
    w.failLookups(true);
    await w.releaser.releaseDue();
    w.failLookups(false);
    return { send: () => w.schedules.retry(scheduled.id, 1, REQUESTER), request: () => occurrencePayout(w, scheduled.id), waitsIn: 'pending' };
  },
};

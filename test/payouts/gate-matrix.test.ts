/**
 * The gate before sending, as a matrix: every way a request reaches sending × every control of the
 * gate, generated from the two lists (`SENDING_PATHS`, `GATE_CONTROLS`). Each case breaks one control
 * just before sending and asserts that no payout call is made and that the request waits with the
 * hold that says why. A path or a control added without its cases fails here.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FleetTimeoutError } from '../../src/fleet/errors.js';
import { createLogger } from '../../src/logger.js';
import { PayoutBatchService } from '../../src/payouts/batch/service.js';
import { BatchSender } from '../../src/payouts/batch/sender.js';
import { GATE_CONTROLS, SENDING_PATHS, type GateControlName, type SendingPath } from '../../src/payouts/gate.js';
import type { PayoutDraft, PayoutHold, PayoutRequest } from '../../src/payouts/model.js';
import type { PayoutRoles } from '../../src/payouts/roles.js';
import { ScheduleReleaser } from '../../src/payouts/schedule/release.js';
import { PayoutSchedules } from '../../src/payouts/schedule/service.js';
import type { PayoutSettings } from '../../src/payouts/settings.js';
import type { Db } from '../../src/store/db.js';
import { testDatabases } from '../support/databases.js';
import { SRC, sourceFiles } from '../support/source-files.js';
import {
  APPROVER, createService, MINUTE, mobileForm, REQUESTER, REQUESTER_APPROVER, SECOND_APPROVER, settings as baseSettings, submitted, usePayoutDatabase,
} from '../support/payout-doubles.js';

const SENIOR = 'USENIOR01';
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
    (lookup?.fresh && unreadable ? Promise.reject(new Error('usergroups.users.list failed')) : Promise.resolve(members.has(userId)));
  const roles: PayoutRoles = {
    canRequest: (userId, lookup) => answer(requesters, userId, lookup),
    canApprove: (userId, lookup) => answer(approvers, userId, lookup),
    isSenior: async (userId, lookup) => (await answer(seniors, userId, lookup)) && approvers.has(userId),
  };
  return { roles, requesters, approvers, seniors, failLookups: (fail: boolean) => { unreadable = fail; } };
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

type World = ReturnType<typeof world>;

function world(db: Db) {
  const people = team();
  const settings = freshSettings();
  const reached: SendingPath[] = [];
  let armed: (() => Promise<void>) | undefined;
  const made = createService(db, {
    roles: people.roles, settings,
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
  const sender = new BatchSender({ db, clock: made.clock, logger, ratePerSecond: 1000, announce: async () => undefined, send: (request) => made.service.sendApproved(request, 'bulk') });
  const releaser = new ScheduleReleaser({
    db, clock: made.clock, roles: people.roles, logger, payoutSettings: settings, settings: scheduleSettings, payouts: made.service, notifiers: [], holder: 'replica-a',
    databaseNow: async () => made.clock.now(),
  });
  const schedules = new PayoutSchedules({ db, clock: made.clock, roles: people.roles, payouts: made.service, releaser, settings: scheduleSettings });
  return {
    ...made, ...people, settings, batches, sender, releaser, schedules, reached, db,
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
interface Setup {
  amount: string;
  approvers: string[];
}

const ORDINARY: Setup = { amount: '150', approvers: [APPROVER] };
const ABOVE_SENIOR_TIER: Setup = { amount: '3500', approvers: [APPROVER, SENIOR] };

/** One way in, up to the step that would send: `send` takes that step; `request` finds the request it moved. */
interface PathRun {
  send: () => Promise<unknown>;
  request: () => Promise<PayoutRequest | undefined>;
  /** Where a held request waits. */
  waitsIn: 'pending' | 'unknown';
}

async function draftOf(w: World, amount: string): Promise<PayoutDraft> {
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

const PATHS: Record<SendingPath, (w: World, setup: Setup) => Promise<PathRun>> = {
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
    expect(await w.service.reconcile(request.id)).toMatchObject({ ok: true, request: { state: 'unknown', needsReview: true } });
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
const SERIES_PATHS: Record<'schedule' | 'schedule_retry', (w: World, setup: Setup) => Promise<PathRun>> = {
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

/** Another request to the same wallet, by another requester, landing just before sending. */
async function anotherToTheSameWallet(w: World, amount: string): Promise<void> {
  expect(await w.service.submit(REQUESTER_APPROVER, await draftOf(w, amount))).toMatchObject({ ok: true });
}

/** Another request of the same requester, to another wallet, landing just before sending. */
async function anotherOfTheSameRequester(w: World, amount: string): Promise<void> {
  const validation = await w.service.validate('mobile_money', { ...mobileForm, phone: '+243 899 000 001', amount });
  if (!validation.ok) throw new Error(JSON.stringify(validation.errors));
  expect(await w.service.submit(REQUESTER, validation.draft)).toMatchObject({ ok: true });
}

interface ControlCase {
  name: string;
  setup: Setup;
  breaks: (w: World) => Promise<void> | void;
  hold: PayoutHold;
}

const CASES: Record<GateControlName, ControlCase[]> = {
  roles_readable: [{ name: 'Slack cannot answer the role lookups', setup: ORDINARY, breaks: (w) => w.failLookups(true), hold: 'roles_unavailable' }],
  requester_role: [{ name: 'the requester may no longer request', setup: ORDINARY, breaks: (w) => { w.requesters.delete(REQUESTER); }, hold: 'requester_not_allowed' }],
  currency_offered: [{
    name: 'USD is no longer offered', setup: ORDINARY, breaks: (w) => { w.settings.currencies.splice(w.settings.currencies.indexOf('USD'), 1); }, hold: 'not_offered',
  }],
  operator_offered: [{
    name: 'the operator is no longer offered', setup: ORDINARY,
    breaks: (w) => { w.settings.operators.splice(w.settings.operators.indexOf('VODACOM_MPESA'), 1); }, hold: 'not_offered',
  }],
  max_amount: [{ name: 'the maximum is lowered below the amount', setup: ORDINARY, breaks: (w) => { w.settings.maxAmount.set('USD', 10_000); }, hold: 'over_max_amount' }],
  daily_limit: [{ name: 'the daily limit is lowered below the day\'s total', setup: ORDINARY, breaks: (w) => { w.settings.dailyLimit.set('USD', 10_000); }, hold: 'over_daily_limit' }],
  senior_approver: [
    { name: 'the senior approver is no longer one', setup: ABOVE_SENIOR_TIER, breaks: (w) => { w.seniors.delete(SENIOR); }, hold: 'needs_senior' },
    { name: 'the tier is lowered below the amount', setup: ORDINARY, breaks: (w) => { w.settings.seniorApprovalAbove.set('USD', 10_000); }, hold: 'needs_senior' },
    { name: 'the recipient\'s day total goes above the tier', setup: ORDINARY, breaks: (w) => anotherToTheSameWallet(w, '2900'), hold: 'needs_senior' },
    { name: 'the requester\'s day total goes above the tier', setup: ORDINARY, breaks: (w) => anotherOfTheSameRequester(w, '2900'), hold: 'needs_senior' },
  ],
  approver_role: [
    { name: 'the approver is no longer one', setup: ORDINARY, breaks: (w) => { w.approvers.delete(APPROVER); }, hold: 'needs_approvers' },
    { name: 'one of two approvers is no longer one', setup: ABOVE_SENIOR_TIER, breaks: (w) => { w.approvers.delete(APPROVER); }, hold: 'needs_approvers' },
  ],
  new_recipient: [{ name: 'a new recipient now needs two approvers', setup: ORDINARY, breaks: (w) => { w.settings.newRecipientApprovals = 2; }, hold: 'needs_approvers' }],
  dual_approval: [
    { name: 'the two-approver threshold is lowered below the amount', setup: ORDINARY, breaks: (w) => { w.settings.dualApprovalAbove.set('USD', 10_000); }, hold: 'needs_approvers' },
    { name: 'the recipient\'s day total goes above the two-approver threshold', setup: ORDINARY, breaks: (w) => anotherToTheSameWallet(w, '900'), hold: 'needs_approvers' },
    { name: 'the requester\'s day total goes above the two-approver threshold', setup: ORDINARY, breaks: (w) => anotherOfTheSameRequester(w, '900'), hold: 'needs_approvers' },
  ],
  duplicates: [{
    name: 'the same amount to the same wallet is requested since the approval', setup: ORDINARY,
    breaks: async (w) => {
      w.clock.advance(1000);
      await anotherToTheSameWallet(w, '150');
    },
    hold: 'duplicate_unchecked',
  }],
  catch_up: [{ name: 'it was approved longer ago than the catch-up window', setup: ORDINARY, breaks: (w) => { w.clock.advance(361 * MINUTE); }, hold: 'missed' }],
};

describe('the one way to sending', () => {
  const sources = sourceFiles().map((file) => ({ file, text: readFileSync(join(SRC, file), 'utf8') }));

  it('makes the payout call from the settlement alone, and moves a request to sending only after the gate has checked it', () => {
    expect(sources.length).toBeGreaterThan(50);
    expect(sources.filter(({ text }) => /\bsendPayout\(/.test(text)).map(({ file }) => file)).toEqual(['payouts/dispatch.ts', 'payouts/settlement.ts']);
    // A change to `executing` (a query's `{ state: 'executing', column: … }` only reads rows in it).
    const toSending = /state: 'executing'(?!, column)/g;
    const moving = sources.filter(({ text }) => new RegExp(toSending).test(text));
    expect(moving.map(({ file }) => file)).toEqual(['payouts/settlement.ts']);
    // Each move to sending sits in a decision that asked the gate first.
    const settlement = moving[0]!.text;
    const moves = [...settlement.matchAll(toSending)].map((match) => match.index);
    const checks = [...settlement.matchAll(/gate\.check\(/g)].map((match) => match.index);
    expect(moves).toHaveLength(checks.length);
    moves.forEach((at, index) => expect(checks[index]).toBeLessThan(at));
  });
});

describe('the gate\'s matrix', () => {
  it('has cases for every control of the gate, and a way in for every sending path', () => {
    expect(Object.keys(CASES).sort()).toEqual([...GATE_CONTROLS].sort());
    for (const control of GATE_CONTROLS) expect(CASES[control].length).toBeGreaterThan(0);
    expect(Object.keys(PATHS).sort()).toEqual([...SENDING_PATHS].sort());
  });
});

const matrix = SENDING_PATHS.flatMap((path) => GATE_CONTROLS.flatMap((control) => CASES[control].map((entry) => ({ path, control, ...entry }))));
const seriesMatrix = (['schedule', 'schedule_retry'] as const).flatMap((path) => GATE_CONTROLS.flatMap((control) => CASES[control].map((entry) => ({ path, control, ...entry }))));

describe.each(testDatabases())('the gate before sending on $name', ({ open }) => {
  let db: Db;
  usePayoutDatabase(open, (opened) => {
    db = opened;
  });

  it.each(SENDING_PATHS)('sends through %s once when nothing is broken', async (path) => {
    const w = world(db);
    const run = await PATHS[path](w, ORDINARY);
    const before = w.fleet.payoutCalls.length;
    await run.send();
    expect(w.fleet.payoutCalls).toHaveLength(before + 1);
    expect(w.reached.at(-1)).toBe(path);
    expect(await run.request()).toMatchObject({ state: 'completed', hold: undefined });
  });

  it.each([
    ...matrix.map((entry) => ({ ...entry, of: 'a one-off or a single payout', start: (w: World, given: Setup) => PATHS[entry.path](w, given) })),
    ...seriesMatrix.map((entry) => ({ ...entry, of: 'a series', start: (w: World, given: Setup) => SERIES_PATHS[entry.path](w, given) })),
  ])('$path ($of) × $control: $name → no payout call, waits with $hold', async ({ path, control, setup, breaks, hold, start }) => {
    const w = world(db);
    const run = await start(w, setup);
    const before = w.fleet.payoutCalls.length;
    w.arm(async () => {
      await breaks(w);
    });
    await run.send();
    // The path reached the gate (it did not go round it), and the gate sent nothing.
    expect(w.reached.at(-1)).toBe(path);
    expect(w.fleet.payoutCalls).toHaveLength(before);
    const request = await run.request();
    expect(request).toMatchObject({ state: run.waitsIn, hold });
    // Held by the control the case breaks, on the way the case came.
    expect((await w.service.history(request!.id)).at(-1)).toMatchObject({ event: 'held', details: { reason: hold, control, via: path } });
  });
});

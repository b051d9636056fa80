/**
 * The gate before sending, as a matrix: every way a request reaches sending × every control of the
 * gate, generated from the two lists (`SENDING_PATHS`, `GATE_CONTROLS`). Each case breaks one control
 * just before sending and asserts that no payout call is made and that the request waits with the
 * hold that says why. A path or a control added without its cases fails here.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GATE_CONTROLS, SENDING_PATHS, type GateControlName } from '../../src/payouts/gate.js';
import type { PayoutHold } from '../../src/payouts/model.js';
import type { Db } from '../../src/store/db.js';
import { testDatabases } from '../support/databases.js';
import { SRC, sourceFiles } from '../support/source-files.js';
import { APPROVER, MINUTE, mobileForm, REQUESTER, REQUESTER_APPROVER, usePayoutDatabase } from '../support/payout-doubles.js';
import { ABOVE_SENIOR_TIER, draftOf, ORDINARY, PATHS, SENIOR, SERIES_PATHS, world, type Setup, type World } from '../support/sending-paths.js';

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
  requester_role: [
    {
      name: 'the requester may no longer request',
      setup: ORDINARY,
      breaks: (w) => {
        w.requesters.delete(REQUESTER);
      },
      hold: 'requester_not_allowed',
    },
  ],
  currency_offered: [
    {
      name: 'USD is no longer offered',
      setup: ORDINARY,
      breaks: (w) => {
        w.settings.currencies.splice(w.settings.currencies.indexOf('USD'), 1);
      },
      hold: 'not_offered',
    },
  ],
  operator_offered: [
    {
      name: 'the operator is no longer offered',
      setup: ORDINARY,
      breaks: (w) => {
        w.settings.operators.splice(w.settings.operators.indexOf('VODACOM_MPESA'), 1);
      },
      hold: 'not_offered',
    },
  ],
  max_amount: [
    {
      name: 'the maximum is lowered below the amount',
      setup: ORDINARY,
      breaks: (w) => {
        w.settings.maxAmount.set('USD', 10_000);
      },
      hold: 'over_max_amount',
    },
  ],
  daily_limit: [
    {
      name: "the daily limit is lowered below the day's total",
      setup: ORDINARY,
      breaks: (w) => {
        w.settings.dailyLimit.set('USD', 10_000);
      },
      hold: 'over_daily_limit',
    },
  ],
  senior_approver: [
    {
      name: 'the senior approver is no longer one',
      setup: ABOVE_SENIOR_TIER,
      breaks: (w) => {
        w.seniors.delete(SENIOR);
      },
      hold: 'needs_senior',
    },
    {
      name: 'the tier is lowered below the amount',
      setup: ORDINARY,
      breaks: (w) => {
        w.settings.seniorApprovalAbove.set('USD', 10_000);
      },
      hold: 'needs_senior',
    },
    { name: "the recipient's day total goes above the tier", setup: ORDINARY, breaks: (w) => anotherToTheSameWallet(w, '2900'), hold: 'needs_senior' },
    { name: "the requester's day total goes above the tier", setup: ORDINARY, breaks: (w) => anotherOfTheSameRequester(w, '2900'), hold: 'needs_senior' },
  ],
  approver_role: [
    {
      name: 'the approver is no longer one',
      setup: ORDINARY,
      breaks: (w) => {
        w.approvers.delete(APPROVER);
      },
      hold: 'needs_approvers',
    },
    {
      name: 'one of two approvers is no longer one',
      setup: ABOVE_SENIOR_TIER,
      breaks: (w) => {
        w.approvers.delete(APPROVER);
      },
      hold: 'needs_approvers',
    },
  ],
  new_recipient: [
    {
      name: 'a new recipient now needs two approvers',
      setup: ORDINARY,
      breaks: (w) => {
        w.settings.newRecipientApprovals = 2;
      },
      hold: 'needs_approvers',
    },
  ],
  dual_approval: [
    {
      name: 'the two-approver threshold is lowered below the amount',
      setup: ORDINARY,
      breaks: (w) => {
        w.settings.dualApprovalAbove.set('USD', 10_000);
      },
      hold: 'needs_approvers',
    },
    {
      name: "the recipient's day total goes above the two-approver threshold",
      setup: ORDINARY,
      breaks: (w) => anotherToTheSameWallet(w, '900'),
      hold: 'needs_approvers',
    },
    {
      name: "the requester's day total goes above the two-approver threshold",
      setup: ORDINARY,
      breaks: (w) => anotherOfTheSameRequester(w, '900'),
      hold: 'needs_approvers',
    },
  ],
  duplicates: [
    {
      name: 'the same amount to the same wallet is requested since the approval',
      setup: ORDINARY,
      breaks: async (w) => {
        w.clock.advance(1000);
        await anotherToTheSameWallet(w, '150');
      },
      hold: 'duplicate_unchecked',
    },
  ],
  catch_up: [
    {
      name: 'it was approved longer ago than the catch-up window',
      setup: ORDINARY,
      breaks: (w) => {
        w.clock.advance(361 * MINUTE);
      },
      hold: 'missed',
    },
  ],
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

describe("the gate's matrix", () => {
  it('has cases for every control of the gate, and a way in for every sending path', () => {
    expect(Object.keys(CASES).sort()).toEqual([...GATE_CONTROLS].sort());
    for (const control of GATE_CONTROLS) expect(CASES[control].length).toBeGreaterThan(0);
    expect(Object.keys(PATHS).sort()).toEqual([...SENDING_PATHS].sort());
  });
});

const matrix = SENDING_PATHS.flatMap((path) => GATE_CONTROLS.flatMap((control) => CASES[control].map((entry) => ({ path, control, ...entry }))));
const seriesMatrix = (['schedule', 'schedule_retry'] as const).flatMap((path) =>
  GATE_CONTROLS.flatMap((control) => CASES[control].map((entry) => ({ path, control, ...entry }))),
);

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

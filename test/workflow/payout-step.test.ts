import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import type { PayoutActionResult, PayoutDraft, PayoutRequest } from '../../src/payouts/index.js';
import type { Db } from '../../src/store/index.js';
import { PayoutSteps, type StepCompleter, type StepOutcome } from '../../src/workflow/index.js';
import { testDatabases } from '../support/databases.js';
import { ManualClock, MINUTE } from '../support/payout-doubles.js';

const REQUESTER = 'U0REQUESTER';
const INPUTS = {
  requester: REQUESTER,
  kind: 'mobile',
  number: '243812345678',
  provider: 'VODACOM_MPESA',
  country: 'CD',
  name: 'Amani Kabila',
  amount: '150',
  currency: 'USD',
};

let next = 0;

/** The payout service as the step sees it: every request accepted, stored by reference. */
function fakePayouts() {
  const byId = new Map<string, PayoutRequest>();
  return {
    byId,
    mayRequest: async () => ({ ok: true as const }),
    validate: async (kind: string) => ({
      ok: true as const,
      draft: {
        kind,
        recipient: { phone: '243812345678', name: 'Amani Kabila', countryCode: 'CD' },
        operator: 'VODACOM_MPESA',
        amountMinor: 15000,
        currency: 'USD',
        reference: `REF-${++next}`,
        note: '',
      } as PayoutDraft,
    }),
    submit: async (userId: string, draft: PayoutDraft): Promise<PayoutActionResult> => {
      if ([...byId.values()].some((request) => request.reference === draft.reference)) return { ok: false, code: 'duplicate_reference', details: {} };
      const request = {
        ...draft,
        id: `PR-${String(++next).padStart(6, '0')}`,
        requestedBy: userId,
        state: 'pending',
        transactionId: undefined,
      } as PayoutRequest;
      byId.set(request.id, request);
      return { ok: true, request };
    },
    get: async (id: string) => byId.get(id),
    getByReference: async (reference: string) => [...byId.values()].find((request) => request.reference === reference),
  };
}

/** Records each completion; answers what `answers` says next (default `done`). */
function fakeCompleter(answers: Array<'done' | 'retry' | 'throw'> = []) {
  const calls: Array<{ executionId: string; outcome: StepOutcome }> = [];
  const completer: StepCompleter = {
    async complete(step, outcome) {
      calls.push({ executionId: step.executionId, outcome });
      const answer = answers.shift() ?? 'done';
      if (answer === 'throw') throw new Error('socket hang up');
      return answer;
    },
  };
  return { calls, completer };
}

describe.each(testDatabases())('the payout step on $name', ({ open }) => {
  let db: Db;
  let ids = 0;
  const clock = new ManualClock(new Date('2026-11-26T10:00:00Z'));
  const logger = pino({ level: 'silent' });
  const token = (sealed = 'sealed-token', issuedAt = clock.now()) => ({ sealed, issuedAt });
  const steps = (payouts: ReturnType<typeof fakePayouts>, completer: StepCompleter) => new PayoutSteps({ db, clock, payouts, completer, logger });

  beforeAll(async () => {
    db = await open();
  });
  afterAll(async () => {
    await db?.close();
  });

  const startAndConfirm = async (service: PayoutSteps) => {
    const executionId = `Fx${++ids}`;
    expect((await service.start({ executionId, inputs: INPUTS, token: token(), payoutsConfigured: true })).kind).toBe('ask');
    const answer = await service.confirm(executionId, REQUESTER);
    if (answer.kind !== 'requested') throw new Error(`not requested: ${answer.kind}`);
    return { executionId, request: answer.request };
  };

  it('completes once when two replicas hear of the outcome at the same time', async () => {
    const payouts = fakePayouts();
    const { calls, completer } = fakeCompleter();
    const [one, two] = [steps(payouts, completer), steps(payouts, completer)];
    const { executionId, request } = await startAndConfirm(one);
    const sent = { ...request, state: 'completed', transactionId: 'TX-1' } as PayoutRequest;
    payouts.byId.set(request.id, sent);
    await Promise.all([one.changed(sent), two.changed(sent), one.sweep(), two.sweep()]);
    await Promise.all([one.idle(), two.idle()]);
    expect(calls).toEqual([{ executionId, outcome: { status: 'sent', requestId: request.id, transactionId: 'TX-1' } }]);
    expect(await one.get(executionId)).toMatchObject({ state: 'completed', sealedToken: undefined });
  });

  it('tries a completion again after a passing failure, and after a throw, with the same outcome', async () => {
    const payouts = fakePayouts();
    const { calls, completer } = fakeCompleter(['retry', 'throw']);
    const service = steps(payouts, completer);
    const { executionId, request } = await startAndConfirm(service);
    const rejected = { ...request, state: 'rejected' } as PayoutRequest;
    payouts.byId.set(request.id, rejected);
    await service.changed(rejected);
    await service.idle();
    expect(await service.get(executionId)).toMatchObject({ state: 'completing', claimedAt: undefined });
    await service.sweep();
    await service.sweep();
    expect(calls.map((call) => call.outcome)).toEqual(Array(3).fill({ error: 'rejected', requestId: request.id }));
    expect((await service.get(executionId))?.state).toBe('completed');
  });

  it('takes over a completion claimed by a process that stopped, keeping its outcome', async () => {
    const payouts = fakePayouts();
    const { calls, completer } = fakeCompleter();
    const service = steps(payouts, completer);
    const { executionId, request } = await startAndConfirm(service);
    await db.query("UPDATE workflow_payout_steps SET state = 'completing', claimed_at = $2, outcome = $3 WHERE execution_id = $1", [
      executionId,
      clock.now(),
      JSON.stringify({ error: 'cancelled', requestId: request.id }),
    ]);
    await service.sweep();
    expect(calls).toEqual([]);
    clock.advance(2 * MINUTE);
    await service.sweep();
    expect(calls).toEqual([{ executionId, outcome: { error: 'cancelled', requestId: request.id } }]);
  });

  it('adopts the request a stopped submission stored, instead of requesting it again', async () => {
    const payouts = fakePayouts();
    const service = steps(payouts, fakeCompleter().completer);
    const executionId = `Fx${++ids}`;
    await service.start({ executionId, inputs: INPUTS, token: token(), payoutsConfigured: true });
    const step = await service.get(executionId);
    // The first process stored the request, then stopped before recording it.
    const stored = await payouts.submit(REQUESTER, step!.draft!);
    await db.query("UPDATE workflow_payout_steps SET state = 'submitting', claimed_at = $2 WHERE execution_id = $1", [executionId, clock.now()]);
    clock.advance(2 * MINUTE);
    await service.sweep();
    expect(await service.get(executionId)).toMatchObject({ state: 'waiting', payoutId: stored.ok ? stored.request.id : '' });
    expect(payouts.byId.size).toBe(1);
  });

  it('refuses a run whose typed reference another request of the same requester took, instead of adopting that request', async () => {
    const payouts = fakePayouts();
    const { calls, completer } = fakeCompleter();
    const service = steps(payouts, completer);
    const executionId = `Fx${++ids}`;
    await service.start({ executionId, inputs: INPUTS, token: token(), payoutsConfigured: true });
    const draft = (await service.get(executionId))!.draft!;
    // The same person requested another payout in the app, with the reference the workflow typed.
    const other = await payouts.submit(REQUESTER, { ...draft, amountMinor: draft.amountMinor * 10 });
    expect(other.ok).toBe(true);
    expect(await service.confirm(executionId, REQUESTER)).toEqual({
      kind: 'refused',
      outcome: { error: 'refused', refusal: { code: 'duplicate_reference', details: {} } },
    });
    expect(await service.get(executionId)).toMatchObject({ state: 'completed', payoutId: undefined });
    expect(calls).toEqual([{ executionId, outcome: { error: 'refused', refusal: { code: 'duplicate_reference', details: {} } } }]);
  });

  it("refuses a second run that typed the same reference, instead of taking over the first run's request", async () => {
    const payouts = fakePayouts();
    const { calls, completer } = fakeCompleter();
    const service = steps(payouts, completer);
    const [first, second] = [`Fx${++ids}`, `Fx${++ids}`];
    for (const executionId of [first, second]) await service.start({ executionId, inputs: INPUTS, token: token(), payoutsConfigured: true });
    // Both were checked before either was requested: the second one's draft holds the first one's reference.
    const draft = (await service.get(first))!.draft!;
    await db.query('UPDATE workflow_payout_steps SET draft = $2 WHERE execution_id = $1', [second, JSON.stringify(draft)]);
    expect((await service.confirm(first, REQUESTER)).kind).toBe('requested');
    expect(await service.confirm(second, REQUESTER)).toEqual({
      kind: 'refused',
      outcome: { error: 'refused', refusal: { code: 'duplicate_reference', details: {} } },
    });
    expect(calls.map((call) => call.executionId)).toEqual([second]);
    expect((await service.get(first))?.state).toBe('waiting');
  });

  it("dates the deadline from the event's token alone: a confirmation 10 minutes in is completed 12 minutes after the event", async () => {
    const payouts = fakePayouts();
    const { calls, completer } = fakeCompleter();
    const service = steps(payouts, completer);
    const executionId = `Fx${++ids}`;
    const startedAt = clock.now().getTime();
    await service.start({ executionId, inputs: INPUTS, token: token('first'), payoutsConfigured: true });
    clock.advance(10 * MINUTE);
    const answer = await service.confirm(executionId, REQUESTER);
    expect(answer).toMatchObject({ kind: 'requested', completesBy: new Date(startedAt + 12 * MINUTE) });
    // The sweep also looks after steps earlier tests left open: only this one's completions count.
    const mine = () => calls.filter((call) => call.executionId === executionId);
    clock.advance(1.5 * MINUTE);
    await service.sweep();
    expect(mine()).toEqual([]);
    clock.advance(MINUTE);
    await service.sweep();
    const requestId = answer.kind === 'requested' ? answer.request.id : '';
    expect(mine()).toEqual([{ executionId, outcome: { status: 'unknown', requestId } }]);
    expect(await service.get(executionId)).toMatchObject({ state: 'completed', tokenValidUntil: new Date(startedAt + 15 * MINUTE) });
  });

  it('lapses a step whose token expired before any process ran, deleting the token', async () => {
    const payouts = fakePayouts();
    const { calls, completer } = fakeCompleter();
    const service = steps(payouts, completer);
    const executionId = `Fx${++ids}`;
    await service.start({ executionId, inputs: INPUTS, token: token('first'), payoutsConfigured: true });
    // No process ran while the token lived.
    clock.advance(20 * MINUTE);
    await service.sweep();
    expect(await service.get(executionId)).toMatchObject({ state: 'lapsed', sealedToken: undefined });
    expect(calls).toEqual([]);
  });

  it('refuses an answer from anyone but the named requester, and a second answer', async () => {
    const service = steps(fakePayouts(), fakeCompleter().completer);
    const executionId = `Fx${++ids}`;
    await service.start({ executionId, inputs: INPUTS, token: token(), payoutsConfigured: true });
    expect((await service.confirm(executionId, 'U0SOMEONE')).kind).toBe('not_requester');
    expect((await service.decline(executionId, 'U0SOMEONE')).kind).toBe('not_requester');
    expect((await service.decline(executionId, REQUESTER)).kind).toBe('declined');
    expect((await service.confirm(executionId, REQUESTER)).kind).toBe('gone');
  });

  it('fails at once, naming the setting, when payouts are not set up', async () => {
    const { calls, completer } = fakeCompleter();
    const service = steps(fakePayouts(), completer);
    const started = await service.start({ executionId: `Fx${++ids}`, inputs: INPUTS, token: token(), payoutsConfigured: false });
    expect(started).toEqual({ kind: 'completed', outcome: { error: 'not_configured' } });
    expect(calls).toHaveLength(1);
  });
});

import { describe, expect, it } from 'vitest';
import { FleetConnectionError, FleetTimeoutError } from '../../src/fleet/errors.js';
import type { Transaction, TransactionListPage } from '../../src/fleet/schemas.js';
import type { PayoutRequest } from '../../src/payouts/model.js';
import type { PayoutService } from '../../src/payouts/service.js';
import type { Db } from '../../src/store/db.js';
import { testDatabases } from '../support/databases.js';
import {
  APPROVER,
  changingRoles,
  createService,
  MINUTE,
  mobileForm,
  REQUESTER,
  REQUESTER_APPROVER,
  RecordingFleet,
  SECOND_APPROVER,
  submitted,
  THIRD_APPROVER,
  usePayoutDatabase,
} from '../support/payout-doubles.js';

/** `count` unrelated entries, each newer than the last, dated from `after` on: a busy account. */
function bury(fleet: RecordingFleet, count: number, after: Date, prefix = 'FLT-BUSY'): void {
  for (let index = 0; index < count; index += 1) {
    fleet.addTransaction({
      reference: `${prefix}-${index}`,
      amount: 7,
      description: 'Card purchase funding',
      date: new Date(after.getTime() + (index + 1) * 1000).toISOString(),
    });
  }
}

/** Every list call runs `before` first (to add, remove or age entries while the search pages). */
function onEveryList(fleet: RecordingFleet, before: (page: { limit?: number; offset?: number }) => void | Partial<TransactionListPage>): void {
  const list = fleet.listTransactions.bind(fleet);
  fleet.listTransactions = async (page = {}) => {
    const extra = before(page);
    const answer = await list(page);
    return { ...answer, ...(extra ?? {}) };
  };
}

describe.each(testDatabases())('Settling unknown payouts from the whole transaction list on $name', ({ open }) => {
  let db: Db;
  usePayoutDatabase(open, (opened) => {
    db = opened;
  });

  const events = (service: PayoutService, id: string) => service.history(id).then((list) => list.map((event) => event.event));

  /** A payout whose POST timed out and that was not found within the window: it needs review. */
  async function needingReview(
    setup: ReturnType<typeof createService>,
    fields: Record<string, string> = mobileForm,
    approvers = [APPROVER],
    by = REQUESTER,
  ): Promise<PayoutRequest> {
    const { service, clock, fleet } = setup;
    fleet.willAnswer(new FleetTimeoutError(true));
    const request = await submitted(service, fields, by);
    for (const approver of approvers) await service.approve(request.id, approver);
    clock.advance(11 * MINUTE);
    await service.runMaintenance();
    const stored = await service.get(request.id);
    expect(stored).toMatchObject({ state: 'unknown', needsReview: true });
    return stored!;
  }

  describe('the search reads back to the request time', () => {
    it('finds a payout that went through 2,500 entries back instead of sending it again on retry', async () => {
      const setup = createService(db);
      const { service, fleet, clock } = setup;
      const request = await needingReview(setup);
      // The provider's entry shows up late, dated when it was sent, under 2,500 newer ones.
      fleet.addTransaction({ reference: 'FLT-FIRST', description: `Payout ${request.reference}`, date: request.requestedAt.toISOString() });
      bury(fleet, 2500, request.requestedAt);
      const result = await service.retryUnknown(request.id, SECOND_APPROVER);
      expect(result).toMatchObject({ ok: true, request: { state: 'completed', transactionId: 'FLT-FIRST' } });
      expect(fleet.payoutCalls).toHaveLength(1);
      expect(clock.now().getTime()).toBeGreaterThan(request.requestedAt.getTime());
    });

    it('finds a payout 2,500 entries back while new entries keep arriving between pages', async () => {
      const setup = createService(db);
      const { service, fleet } = setup;
      const request = await needingReview(setup);
      fleet.addTransaction({ reference: 'FLT-FIRST', description: `Payout ${request.reference}`, date: request.requestedAt.toISOString() });
      bury(fleet, 2500, request.requestedAt);
      let arrivals = 0;
      onEveryList(fleet, () => {
        arrivals += 1;
        bury(fleet, 40, new Date(request.requestedAt.getTime() + 3 * 3_600_000), `FLT-NEW-${arrivals}`);
      });
      expect(await service.retryUnknown(request.id, SECOND_APPROVER)).toMatchObject({ ok: true, request: { state: 'completed', transactionId: 'FLT-FIRST' } });
      expect(fleet.payoutCalls).toHaveLength(1);
    });

    it('answers "could not check" and refuses the retry when the search runs out of time', async () => {
      const setup = createService(db);
      const { service, fleet, clock } = setup;
      const request = await needingReview(setup);
      bury(fleet, 2500, request.requestedAt);
      // Every page takes half a minute: the check cannot finish within its time bound.
      onEveryList(fleet, () => clock.advance(30_000));
      const result = await service.retryUnknown(request.id, SECOND_APPROVER);
      expect(result).toMatchObject({ ok: false, code: 'could_not_check', details: { action: 'retry', payoutId: request.id } });
      expect(fleet.payoutCalls).toHaveLength(1);
      expect(await service.get(request.id)).toMatchObject({ state: 'unknown', needsReview: true, attempts: 1 });
    });

    it('answers "could not check" and refuses the retry when the list fails half way through', async () => {
      const setup = createService(db);
      const { service, fleet } = setup;
      const request = await needingReview(setup);
      bury(fleet, 2500, request.requestedAt);
      let calls = 0;
      onEveryList(fleet, () => {
        calls += 1;
        if (calls === 4) throw new FleetConnectionError(false);
      });
      const result = await service.retryUnknown(request.id, SECOND_APPROVER);
      expect(result).toMatchObject({ ok: false, code: 'could_not_check', details: { action: 'retry', payoutId: request.id } });
      expect(fleet.payoutCalls).toHaveLength(1);
    });

    it('answers "could not check" when entries vanish from the top of the list while it is read', async () => {
      const setup = createService(db);
      const { service, fleet } = setup;
      const request = await needingReview(setup);
      bury(fleet, 500, request.requestedAt);
      let calls = 0;
      onEveryList(fleet, () => {
        calls += 1;
        // After the first page, five entries disappear: offsets now point past entries never read.
        if (calls === 2) fleet.transactions.splice(0, 5);
      });
      expect(await service.retryUnknown(request.id, SECOND_APPROVER)).toMatchObject({ ok: false, code: 'could_not_check' });
      expect(fleet.payoutCalls).toHaveLength(1);
    });

    it('answers "could not check" when a page in the searched range holds a malformed entry', async () => {
      const setup = createService(db);
      const { service, fleet } = setup;
      const request = await needingReview(setup);
      bury(fleet, 300, request.requestedAt);
      // The entry that could not be read might be the payout.
      onEveryList(fleet, (page) => ((page.offset ?? 0) > 0 && (page.offset ?? 0) < 200 ? { malformed: 1 } : undefined));
      expect(await service.retryUnknown(request.id, SECOND_APPROVER)).toMatchObject({ ok: false, code: 'could_not_check' });
      expect(fleet.payoutCalls).toHaveLength(1);
    });

    it('sends again only after a complete check found nothing', async () => {
      const setup = createService(db);
      const { service, fleet } = setup;
      const request = await needingReview(setup);
      bury(fleet, 2500, request.requestedAt);
      const result = await service.retryUnknown(request.id, SECOND_APPROVER);
      expect(result).toMatchObject({ ok: true, request: { state: 'completed', attempts: 2 } });
      expect(fleet.payoutCalls).toHaveLength(2);
      // The whole range was read: at least 2,500 entries, in pages of 100.
      expect(fleet.listCalls.filter((call) => (call.offset ?? 0) >= 2400).length).toBeGreaterThan(0);
    });

    it('puts an unknown payout up for review when its window ends while the list cannot be read, and still refuses a retry', async () => {
      const { service, fleet, clock, notifications } = createService(db);
      fleet.willAnswer(new FleetTimeoutError(true));
      fleet.listFailure = new FleetConnectionError(false);
      const request = await submitted(service);
      await service.approve(request.id, APPROVER);
      clock.advance(11 * MINUTE);
      await service.runMaintenance();
      expect(await service.get(request.id)).toMatchObject({ state: 'unknown', needsReview: true, lastSearch: 'could_not_check' });
      expect(notifications.at(-1)).toMatchObject({ event: 'needs_review' });
      expect(await service.retryUnknown(request.id, SECOND_APPROVER)).toMatchObject({ ok: false, code: 'could_not_check' });
      expect(fleet.payoutCalls).toHaveLength(1);
    });
  });

  describe('a retry needs as many approvers as the payout did', () => {
    const dual = { ...mobileForm, amount: '2000' };

    it("records the first approver's retry without sending, and sends on the second distinct approver's", async () => {
      const setup = createService(db);
      const { service, fleet } = setup;
      const request = await needingReview(setup, dual, [APPROVER, SECOND_APPROVER]);
      expect(request.requiredApprovals).toBe(2);

      const first = await service.retryUnknown(request.id, APPROVER);
      expect(first).toMatchObject({ ok: true, request: { state: 'unknown', retryApprovals: [{ userId: APPROVER }] } });
      expect(fleet.payoutCalls).toHaveLength(1);
      expect(await service.retryUnknown(request.id, APPROVER)).toMatchObject({ ok: false, code: 'already_approved' });
      expect(fleet.payoutCalls).toHaveLength(1);
      expect(await service.retryUnknown(request.id, REQUESTER)).toMatchObject({ ok: false });
      expect(fleet.payoutCalls).toHaveLength(1);

      const second = await service.retryUnknown(request.id, THIRD_APPROVER);
      expect(second).toMatchObject({ ok: true, request: { state: 'completed', attempts: 2 } });
      expect(fleet.payoutCalls).toHaveLength(2);
      expect(await events(service, request.id)).toEqual([
        'requested',
        'approved',
        'approved',
        'executing',
        'unknown',
        'needs_review',
        'retry_approved',
        'retry_approved',
        'retried',
        'completed',
      ]);
    });

    it('does not send again when an approver who agreed was removed since, even while a cache still lists them', async () => {
      const people = changingRoles();
      const setup = createService(db, { roles: people.roles });
      const { service, fleet } = setup;
      const request = await needingReview(setup, dual, [APPROVER, SECOND_APPROVER]);
      await service.retryUnknown(request.id, APPROVER);
      people.approvers.delete(APPROVER);
      const second = await service.retryUnknown(request.id, THIRD_APPROVER);
      expect(second).toMatchObject({ ok: true, request: { state: 'unknown' } });
      expect(fleet.payoutCalls).toHaveLength(1);
      expect(people.freshLookups).toEqual(expect.arrayContaining([APPROVER, THIRD_APPROVER]));
    });

    it('does not send again for a requester who may no longer request payouts', async () => {
      const people = changingRoles();
      const setup = createService(db, { roles: people.roles });
      const { service, fleet } = setup;
      const request = await needingReview(setup);
      people.requesters.delete(REQUESTER);
      const retried = await service.retryUnknown(request.id, APPROVER);
      expect(retried).toMatchObject({ ok: false, code: 'not_retryable', details: { cause: 'requester_not_allowed' } });
      expect(fleet.payoutCalls).toHaveLength(1);
    });

    it('sends nothing again when Slack cannot answer the role lookups', async () => {
      const people = changingRoles();
      const setup = createService(db, { roles: people.roles });
      const { service, fleet } = setup;
      const request = await needingReview(setup);
      people.failLookups(true);
      expect(await service.retryUnknown(request.id, APPROVER)).toMatchObject({ ok: false, code: 'not_retryable' });
      expect(fleet.payoutCalls).toHaveLength(1);
    });

    it('never counts the requester, even one who may approve', async () => {
      const setup = createService(db);
      const { service, fleet } = setup;
      const request = await needingReview(setup, dual, [APPROVER, SECOND_APPROVER], REQUESTER_APPROVER);
      await service.retryUnknown(request.id, APPROVER);
      expect(await service.retryUnknown(request.id, REQUESTER_APPROVER)).toMatchObject({ ok: false, code: 'own_request' });
      expect(fleet.payoutCalls).toHaveLength(1);
      expect(await service.get(request.id)).toMatchObject({ retryApprovals: [{ userId: APPROVER }] });
      expect(await service.retryUnknown(request.id, SECOND_APPROVER)).toMatchObject({ ok: true, request: { state: 'completed' } });
      expect(fleet.payoutCalls).toHaveLength(2);
    });

    it('sends once when two approvers retry at the same moment', async () => {
      const setup = createService(db);
      const { service, fleet } = setup;
      const request = await needingReview(setup, dual, [APPROVER, SECOND_APPROVER]);
      const results = await Promise.all([
        service.retryUnknown(request.id, APPROVER),
        service.retryUnknown(request.id, THIRD_APPROVER),
        service.retryUnknown(request.id, APPROVER),
      ]);
      expect(results.some((result) => result.ok)).toBe(true);
      expect(fleet.payoutCalls).toHaveLength(2);
      expect((await service.get(request.id))?.attempts).toBe(2);
    });

    it('asks for fresh approvals for every further retry', async () => {
      const setup = createService(db);
      const { service, fleet, clock } = setup;
      const request = await needingReview(setup, dual, [APPROVER, SECOND_APPROVER]);
      fleet.willAnswer(new FleetTimeoutError(true));
      await service.retryUnknown(request.id, APPROVER);
      expect(await service.retryUnknown(request.id, SECOND_APPROVER)).toMatchObject({ ok: true, request: { state: 'unknown', attempts: 2 } });
      clock.advance(11 * MINUTE);
      await service.runMaintenance();
      expect(await service.get(request.id)).toMatchObject({ needsReview: true, retryApprovals: [] });
      expect(await service.retryUnknown(request.id, APPROVER)).toMatchObject({ ok: true, request: { state: 'unknown', attempts: 2 } });
      expect(fleet.payoutCalls).toHaveLength(2);
      expect(await service.retryUnknown(request.id, SECOND_APPROVER)).toMatchObject({ ok: true, request: { state: 'completed', attempts: 3 } });
      expect(fleet.payoutCalls).toHaveLength(3);
    });
  });

  describe('what counts as finding the payout', () => {
    const typed = { ...mobileForm, reference: 'INV-42' };

    /** Unknown after a timed-out POST the provider never processed. */
    async function unknownPayout(setup: ReturnType<typeof createService>, fields: Record<string, string>): Promise<PayoutRequest> {
      setup.fleet.willAnswer(new FleetTimeoutError(true));
      const request = await submitted(setup.service, fields);
      await setup.service.approve(request.id, APPROVER);
      return request;
    }

    function unrelatedCredit(fleet: RecordingFleet, at: Date, description: string): Transaction {
      fleet.addTransaction({ reference: 'FLT-CUSTOMER-9', amount: 150, currency: 'USD', description, date: at.toISOString() });
      return fleet.transactions[0]!;
    }

    it('does not settle on a person-typed reference quoted in a description, but proposes it as a likely match', async () => {
      const setup = createService(db);
      const { service, fleet, clock, notifications } = setup;
      const request = await unknownPayout(setup, typed);
      unrelatedCredit(fleet, clock.now(), 'Customer transfer for INV-42');
      clock.advance(MINUTE);
      const result = await service.settle(request.id);
      expect(result).toMatchObject({
        ok: true,
        request: {
          state: 'unknown',
          transactionId: undefined,
          likelyMatch: { reference: 'FLT-CUSTOMER-9', description: 'Customer transfer for INV-42', amount: 150, currency: 'USD' },
        },
      });
      expect(notifications.at(-1)).toMatchObject({ event: 'likely_match' });
      // Looking again proposes the same entry once.
      clock.advance(MINUTE);
      await service.settle(request.id);
      expect((await events(service, request.id)).filter((event) => event === 'likely_match')).toHaveLength(1);
    });

    it('settles a likely match once an approver other than the requester confirms it, in the audit log', async () => {
      const setup = createService(db);
      const { service, fleet, clock } = setup;
      const request = await unknownPayout(setup, typed);
      unrelatedCredit(fleet, clock.now(), 'Mobile money payout INV-42 to 243812345678');
      const proposed = (await service.settle(request.id)).request!;
      const matchId = proposed.likelyMatch!.id;
      expect(await service.confirmLikelyMatch(request.id, REQUESTER, matchId)).toMatchObject({ ok: false, code: 'not_approver' });
      expect(await service.confirmLikelyMatch(request.id, 'UOUTSIDER', matchId)).toMatchObject({ ok: false, code: 'not_approver' });
      const confirmed = await service.confirmLikelyMatch(request.id, SECOND_APPROVER, matchId);
      expect(confirmed).toMatchObject({ ok: true, request: { state: 'completed', transactionId: 'FLT-CUSTOMER-9' } });
      // A second delivery of the same click changes nothing and says where it is.
      expect(await service.confirmLikelyMatch(request.id, SECOND_APPROVER, matchId)).toMatchObject({ ok: true, request: { state: 'completed' } });
      const history = await service.history(request.id);
      expect(history.map((event) => event.event)).toEqual(['requested', 'approved', 'executing', 'unknown', 'likely_match', 'match_confirmed']);
      expect(history.at(-1)).toMatchObject({ userId: SECOND_APPROVER, details: { transactionId: 'FLT-CUSTOMER-9', matchedBy: 'description' } });
      expect(fleet.payoutCalls).toHaveLength(1);
    });

    it('does not propose an entry again after "Not this one", and a retry is then possible', async () => {
      const setup = createService(db);
      const { service, fleet, clock } = setup;
      const request = await unknownPayout(setup, typed);
      unrelatedCredit(fleet, clock.now(), 'Customer transfer for INV-42');
      const matchId = (await service.settle(request.id)).request!.likelyMatch!.id;
      expect(await service.retryUnknown(request.id, SECOND_APPROVER)).toMatchObject({ ok: false });
      expect(await service.rejectLikelyMatch(request.id, REQUESTER, matchId)).toMatchObject({ ok: false, code: 'not_approver' });
      const rejected = await service.rejectLikelyMatch(request.id, SECOND_APPROVER, matchId);
      expect(rejected).toMatchObject({ ok: true, request: { state: 'unknown', likelyMatch: undefined } });
      expect(await events(service, request.id)).toContain('match_rejected');
      clock.advance(11 * MINUTE);
      await service.runMaintenance();
      expect(await service.get(request.id)).toMatchObject({ state: 'unknown', needsReview: true, likelyMatch: undefined });
      // A stale "Confirm" button for the rejected entry settles nothing.
      expect(await service.confirmLikelyMatch(request.id, APPROVER, matchId)).toMatchObject({ ok: false });
      expect(await service.retryUnknown(request.id, SECOND_APPROVER)).toMatchObject({ ok: true, request: { state: 'completed', attempts: 2 } });
      expect(fleet.payoutCalls).toHaveLength(2);
    });

    it('refuses a retry while a likely match waits for an answer', async () => {
      const setup = createService(db);
      const { service, fleet, clock } = setup;
      const request = await unknownPayout(setup, typed);
      clock.advance(11 * MINUTE);
      await service.runMaintenance();
      unrelatedCredit(fleet, new Date(clock.now().getTime() - 10 * MINUTE), 'Customer transfer for INV-42');
      const result = await service.retryUnknown(request.id, SECOND_APPROVER);
      expect(result).toMatchObject({ ok: false, code: 'likely_match', details: { action: 'retry' } });
      expect(fleet.payoutCalls).toHaveLength(1);
      expect((await service.get(request.id))?.likelyMatch?.reference).toBe('FLT-CUSTOMER-9');
    });

    it('treats a typed reference that merely looks generated as typed', async () => {
      const setup = createService(db);
      const { service, fleet, clock } = setup;
      const request = await unknownPayout(setup, { ...mobileForm, reference: 'PAY-20250314-ABCDEF' });
      unrelatedCredit(fleet, clock.now(), 'Refund PAY-20250314-ABCDEF');
      expect(await service.settle(request.id)).toMatchObject({ ok: true, request: { state: 'unknown', likelyMatch: { reference: 'FLT-CUSTOMER-9' } } });
    });

    it('settles on a description that quotes a reference the app generated', async () => {
      const setup = createService(db);
      const { service, fleet, clock } = setup;
      const request = await unknownPayout(setup, mobileForm);
      expect(request.referenceGenerated).toBe(true);
      unrelatedCredit(fleet, clock.now(), `Mobile money payout ${request.reference} to 243812345678`);
      expect(await service.settle(request.id)).toMatchObject({ ok: true, request: { state: 'completed', transactionId: 'FLT-CUSTOMER-9' } });
    });

    it("settles on the entry's own reference field when amount and currency match", async () => {
      const setup = createService(db);
      const { service, fleet, clock } = setup;
      const request = await unknownPayout(setup, typed);
      fleet.addTransaction({ reference: 'INV-42', amount: 150, currency: 'USD', date: clock.now().toISOString() });
      expect(await service.settle(request.id)).toMatchObject({ ok: true, request: { state: 'completed', transactionId: 'INV-42' } });
    });
  });
});

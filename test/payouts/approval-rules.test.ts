import { describe, expect, it } from 'vitest';
import { recipientKey } from '../../src/payouts/policy.js';
import { insertRequest } from '../../src/payouts/repository.js';
import type { Db } from '../../src/store/db.js';
import { migrate } from '../../src/store/index.js';
import { migrations } from '../../src/store/migrations/index.js';
import { testDatabases } from '../support/databases.js';
import {
  APPROVER,
  bankForm,
  changingRoles,
  createService,
  mobileForm,
  pendingRequest,
  REQUESTER,
  REQUESTER_APPROVER,
  SECOND_APPROVER,
  submitted,
  THIRD_APPROVER,
  usePayoutDatabase,
} from '../support/payout-doubles.js';

// These tests pay one recipient the same amount again on purpose: each approver ticks that they checked (signals.test.ts tests the tick).
const TICKED = { duplicateChecked: true };

const thousand = { ...mobileForm, amount: '1000' };

describe.each(testDatabases())('two approvers for split payouts and day totals on $name', ({ open }) => {
  let db: Db;
  usePayoutDatabase(open, (opened) => {
    db = opened;
  });

  it('sends only the first of five USD 1,000 payouts to one wallet that one approver approves one by one', async () => {
    const { service, fleet } = createService(db);
    const results = [];
    for (let index = 0; index < 5; index += 1) {
      const request = await submitted(service, thousand);
      results.push(await service.approve(request.id, APPROVER, TICKED));
    }
    expect(fleet.payoutCalls).toHaveLength(1);
    expect(results.map((result) => (result.ok ? result.request.state : result.code))).toEqual(['completed', 'pending', 'pending', 'pending', 'pending']);
    const later = results.slice(1).map((result) => (result.ok ? result.request : undefined));
    expect(later.map((request) => request?.requiredApprovals)).toEqual([2, 2, 2, 2]);
    expect(later[0]?.dualApproval).toEqual({ rule: 'requester_total', totalMinor: 200_000, thresholdMinor: 100_000 });
    expect(later[3]?.dualApproval).toEqual({ rule: 'requester_total', totalMinor: 500_000, thresholdMinor: 100_000 });
  });

  it('needs two approvers for a request that a later request of the same day took over the threshold', async () => {
    const { service, fleet } = createService(db);
    const requests = [];
    for (let index = 0; index < 5; index += 1) requests.push(await submitted(service, thousand));
    expect(requests[0]?.requiredApprovals).toBe(1);
    for (const request of requests) {
      expect(await service.approve(request.id, APPROVER, TICKED)).toMatchObject({ ok: true, request: { state: 'pending', requiredApprovals: 2 } });
    }
    expect(fleet.payoutCalls).toHaveLength(0);
    const first = await service.get(requests[0]!.id);
    expect(first?.dualApproval).toEqual({ rule: 'requester_total', totalMinor: 500_000, thresholdMinor: 100_000 });
    expect((await service.history(first!.id)).map((event) => event.event)).toEqual(['requested', 'approved', 'approvals_raised']);

    expect(await service.approve(requests[0]!.id, SECOND_APPROVER, TICKED)).toMatchObject({ ok: true, request: { state: 'completed' } });
    expect(fleet.payoutCalls).toHaveLength(1);
  });

  it('adds up the same recipient across two requesters, however the wallet or account is written', async () => {
    const { service, fleet } = createService(db);
    const first = await submitted(service, { ...thousand, phone: '243812345678' }, REQUESTER);
    const second = await submitted(service, { ...thousand, phone: '+243 812-345-678', operator: 'ORANGE_MONEY' }, REQUESTER_APPROVER);
    expect(first.requiredApprovals).toBe(1);
    expect(second).toMatchObject({ requiredApprovals: 2, dualApproval: { rule: 'recipient_total', totalMinor: 200_000, thresholdMinor: 100_000 } });
    expect(await service.approve(second.id, APPROVER, TICKED)).toMatchObject({ ok: true, request: { state: 'pending' } });
    expect(await service.approve(first.id, APPROVER, TICKED)).toMatchObject({ ok: true, request: { state: 'pending', requiredApprovals: 2 } });
    expect(fleet.payoutCalls).toHaveLength(0);

    // In EUR: the first requester's USD total is already at the threshold.
    const bank = { ...bankForm, currency: 'EUR', amount: '600' };
    await submitted(service, { ...bank, accountNumber: '0001 2345 6789', bankCode: 'BCDCCDKI' }, REQUESTER);
    const sameAccount = await submitted(service, { ...bank, accountNumber: '000123456789', bankCode: 'BCDCCDKIXXX' }, REQUESTER_APPROVER);
    expect(sameAccount.dualApproval).toEqual({ rule: 'recipient_total', totalMinor: 120_000, thresholdMinor: 100_000 });
  });

  it('keeps one approver for small payouts to different recipients, and leaves out what no longer counts', async () => {
    const { service, fleet } = createService(db);
    const rejected = await submitted(service, { ...thousand, phone: '243811111111' });
    expect((await service.reject(rejected.id, APPROVER, 'Wrong month')).ok).toBe(true);
    const again = await submitted(service, { ...thousand, phone: '243811111111' });
    expect(again.requiredApprovals).toBe(1);
    const other = await submitted(service, { ...thousand, phone: '243822222222' }, REQUESTER_APPROVER);
    expect(other.requiredApprovals).toBe(1);
    const euros = await submitted(service, { ...thousand, phone: '243811111111', currency: 'EUR' });
    expect(euros.requiredApprovals).toBe(1);
    for (const request of [again, other, euros]) await service.approve(request.id, APPROVER, TICKED);
    expect(fleet.payoutCalls).toHaveLength(3);
  });

  it('gives exactly one of five simultaneous USD 1,000 submissions a single approver', async () => {
    const { service } = createService(db);
    const drafts = [];
    for (let index = 0; index < 5; index += 1) {
      const validation = await service.validate('mobile_money', thousand);
      if (!validation.ok) throw new Error('expected a valid form');
      drafts.push(validation.draft);
    }
    const results = await Promise.all(drafts.map((draft) => service.submit(REQUESTER, draft)));
    const required = results.map((result) => (result.ok ? result.request.requiredApprovals : 0)).sort();
    expect(required).toEqual([1, 2, 2, 2, 2]);
  });

  it('does not send when the releasing approver was just removed, even though a cache still lists them', async () => {
    const people = changingRoles();
    const { service, fleet } = createService(db, { roles: people.roles });
    const request = await submitted(service);
    people.approvers.delete(APPROVER);
    const result = await service.approve(request.id, APPROVER, TICKED);
    expect(result).toMatchObject({ ok: false, code: 'not_approver' });
    expect(fleet.payoutCalls).toHaveLength(0);
    expect(await service.get(request.id)).toMatchObject({ state: 'pending', approvals: [] });
  });

  it('stops counting an earlier approval whose giver is no longer an approver, and waits for another', async () => {
    const people = changingRoles();
    const { service, fleet, notifications } = createService(db, { roles: people.roles });
    const request = await submitted(service, { ...mobileForm, amount: '1500' });
    expect((await service.approve(request.id, APPROVER, TICKED)).ok).toBe(true);
    people.approvers.delete(APPROVER);

    const second = await service.approve(request.id, SECOND_APPROVER, TICKED);
    expect(second).toMatchObject({ ok: true, request: { state: 'pending', requiredApprovals: 2 } });
    expect(fleet.payoutCalls).toHaveLength(0);
    const stored = await service.get(request.id);
    expect(stored?.approvals.map((approval) => [approval.userId, approval.revokedAt !== undefined])).toEqual([
      [APPROVER, true],
      [SECOND_APPROVER, false],
    ]);
    expect(people.freshLookups).toEqual(expect.arrayContaining([REQUESTER, APPROVER, SECOND_APPROVER]));
    const revoked = (await service.history(request.id)).filter((event) => event.event === 'approval_revoked');
    expect(revoked.map((event) => event.details.approver)).toEqual([APPROVER]);
    expect(notifications.map((note) => note.event)).toContain('approval_revoked');

    expect(await service.approve(request.id, SECOND_APPROVER, TICKED)).toMatchObject({ ok: false, code: 'already_approved' });
    expect(await service.approve(request.id, THIRD_APPROVER, TICKED)).toMatchObject({ ok: true, request: { state: 'completed' } });
    expect(fleet.payoutCalls).toHaveLength(1);
  });

  it('counts an approval again when its giver, back among the approvers, approves again', async () => {
    const people = changingRoles();
    const { service, fleet } = createService(db, { roles: people.roles });
    const request = await submitted(service, { ...mobileForm, amount: '1500' });
    await service.approve(request.id, APPROVER, TICKED);
    people.approvers.delete(APPROVER);
    await service.approve(request.id, SECOND_APPROVER, TICKED);
    people.approvers.add(APPROVER);
    people.warm();
    expect(await service.approve(request.id, APPROVER, TICKED)).toMatchObject({ ok: true, request: { state: 'completed' } });
    expect(fleet.payoutCalls).toHaveLength(1);
  });

  it('does not send the request of someone no longer allowed to request payouts, and says why', async () => {
    const people = changingRoles();
    const { service, fleet, notifications } = createService(db, { roles: people.roles });
    const request = await submitted(service);
    people.requesters.delete(REQUESTER);

    const result = await service.approve(request.id, APPROVER, TICKED);
    expect(result).toMatchObject({ ok: true, request: { state: 'pending', hold: 'requester_not_allowed' } });
    expect(fleet.payoutCalls).toHaveLength(0);
    expect((await service.history(request.id)).map((event) => event.event)).toEqual(['requested', 'approved', 'held']);
    expect(notifications.at(-1)).toMatchObject({ event: 'held', state: 'pending' });

    // Access restored: an approver whose approval stands presses Approve again to have it checked again.
    people.requesters.add(REQUESTER);
    expect(await service.approve(request.id, APPROVER, TICKED)).toMatchObject({ ok: true, request: { state: 'completed', hold: undefined } });
    expect(fleet.payoutCalls).toHaveLength(1);
  });

  it('sends nothing and revokes nothing when the roles cannot be read with Slack', async () => {
    const people = changingRoles();
    const { service, fleet } = createService(db, { roles: people.roles });
    const request = await submitted(service);
    people.failLookups(true);
    expect(await service.approve(request.id, APPROVER, TICKED)).toMatchObject({ ok: true, request: { state: 'pending', hold: 'roles_unavailable' } });
    const stored = await service.get(request.id);
    expect(stored?.approvals.map((approval) => approval.revokedAt)).toEqual([undefined]);
    expect(fleet.payoutCalls).toHaveLength(0);
    people.failLookups(false);
    expect(await service.approve(request.id, APPROVER, TICKED)).toMatchObject({ ok: true, request: { state: 'completed' } });
    expect(fleet.payoutCalls).toHaveLength(1);
  });
});

describe.each(testDatabases())('migration 006 on requests stored before it, on $name', ({ open }) => {
  it('gives older requests the same recipient key as new ones get', async () => {
    const db = await open({ migrations: migrations.filter((migration) => migration.id < 6) });
    try {
      const mobile = pendingRequest();
      const bank = pendingRequest({
        id: 'PR-BANK01',
        reference: 'REF-BANK-01',
        kind: 'bank_account',
        recipient: { accountNumber: '000123456789', bankCode: 'BCDCCDKIXXX', name: 'X', countryCode: 'CD' },
      } as never);
      const at = new Date('2025-03-14T10:00:00Z');
      for (const draft of [mobile, bank]) {
        // The columns of migration 006 do not exist yet: insert as the code before it did.
        await db.query(
          `INSERT INTO payout_requests (id, kind, recipient_name, country_code, phone, operator, account_number, bank_code, amount_minor, currency,
             reference, note, requested_by, requested_at, expires_at, state, required_approvals, updated_at)
           VALUES ($1, $2, 'X', 'CD', $3, $4, $5, $6, 100, 'USD', $7, '', 'UREQUESTER', $8, $8, 'pending', 1, $8)`,
          [
            draft.id,
            draft.kind,
            draft.kind === 'mobile_money' ? draft.recipient.phone : null,
            draft.kind === 'mobile_money' ? draft.operator : null,
            draft.kind === 'bank_account' ? draft.recipient.accountNumber : null,
            draft.kind === 'bank_account' ? draft.recipient.bankCode : null,
            draft.reference,
            at,
          ],
        );
      }
      await migrate(db, migrations);
      const { rows } = await db.query<{ id: string; recipient_key: string }>('SELECT id, recipient_key FROM payout_requests ORDER BY id');
      expect(rows).toEqual([
        { id: mobile.id, recipient_key: recipientKey(mobile) },
        { id: bank.id, recipient_key: recipientKey(bank) },
      ]);
      expect(
        await insertRequest(db, {
          id: 'PR-NEW001',
          draft: { ...mobile, reference: 'REF-NEW-01' },
          requestedBy: 'UREQUESTER',
          requestedAt: at,
          expiresAt: at,
          requiredApprovals: 1,
        }),
      ).toBe('inserted');
    } finally {
      await db.close();
    }
  });
});

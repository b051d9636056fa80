import { describe, expect, it } from 'vitest';
import { createLogger } from '../../src/core/logger.js';
import type { BatchState } from '../../src/payouts/batch/model.js';
import { PayoutBatchService } from '../../src/payouts/batch/service.js';
import { batchSeniorRequirement, requestSeniorRequirement, seniorTier } from '../../src/payouts/tiers.js';
import type { PayoutRoles } from '../../src/payouts/roles.js';
import type { Db } from '../../src/store/db.js';
import { testDatabases } from '../support/databases.js';
import {
  APPROVER,
  createService,
  mobileForm,
  pendingRequest,
  REQUESTER,
  SECOND_APPROVER,
  settings,
  submitted,
  THIRD_APPROVER,
  usePayoutDatabase,
} from '../support/payout-doubles.js';

const SENIOR = 'USENIOR01';
const OTHER_SENIOR = 'USENIOR02';
// Above 2,000.00 USD a senior approval is needed; above 1,000.00 USD two approvers.
const tiered = {
  ...settings,
  seniorApprovalAbove: new Map([
    ['USD', 200_000],
    ['EUR', 200_000],
    ['CDF', 500_000_000],
  ]),
};

/** Roles whose lists a test may change; only a fresh lookup sees a change at once, as with Slack's user groups. */
function teamRoles() {
  const approvers = new Set([APPROVER, SECOND_APPROVER, THIRD_APPROVER, SENIOR, OTHER_SENIOR]);
  const seniors = new Set([SENIOR, OTHER_SENIOR]);
  const cachedSeniors = new Set(seniors);
  const cachedApprovers = new Set(approvers);
  const roles: PayoutRoles = {
    canRequest: async (userId) => userId === REQUESTER,
    canApprove: async (userId, lookup) => (lookup?.fresh ? approvers : cachedApprovers).has(userId),
    isSenior: async (userId, lookup) => (lookup?.fresh ? seniors : cachedSeniors).has(userId) && (lookup?.fresh ? approvers : cachedApprovers).has(userId),
  };
  return { roles, approvers, seniors };
}

describe('the senior tier', () => {
  it("is strictly above the threshold of the payout's currency, a batch by any of its totals", () => {
    expect(seniorTier([['USD', 200_000]], tiered.seniorApprovalAbove)).toBeUndefined();
    expect(seniorTier([['USD', 200_001]], tiered.seniorApprovalAbove)).toEqual({ currency: 'USD', thresholdMinor: 200_000 });
    expect(
      seniorTier(
        [
          ['EUR', 10],
          ['CDF', 500_000_001],
        ],
        tiered.seniorApprovalAbove,
      ),
    ).toEqual({ currency: 'CDF', thresholdMinor: 500_000_000 });
    expect(seniorTier([['USD', 999_999_999]], new Map())).toBeUndefined();
  });
});

describe('the senior requirement of a waiting payout', () => {
  const above = tiered.seniorApprovalAbove;
  const usd = (amountMinor: number) => pendingRequest({ amountMinor, currency: 'USD' });

  it('holds above the tier by the amount or by either day total, not at it', () => {
    expect(requestSeniorRequirement(usd(200_000), above)).toBeUndefined();
    expect(requestSeniorRequirement(usd(200_001), above)).toEqual({ currency: 'USD', thresholdMinor: 200_000, givenBy: undefined });
    expect(requestSeniorRequirement(usd(100), above, { requesterMinor: 200_001, recipientMinor: 0 })).toMatchObject({ thresholdMinor: 200_000 });
    expect(requestSeniorRequirement(usd(100), above, { requesterMinor: 0, recipientMinor: 200_001 })).toMatchObject({ thresholdMinor: 200_000 });
  });

  it('holds for a payout the gate held for a senior approval, and no longer once it stopped waiting', () => {
    expect(requestSeniorRequirement({ ...usd(100), hold: 'needs_senior' }, above)).toMatchObject({ currency: 'USD' });
    expect(requestSeniorRequirement({ ...usd(200_001), state: 'approved' }, above)).toBeUndefined();
  });

  it('counts a senior approval only while it stands', () => {
    const at = new Date('2026-11-01T10:00:00Z');
    const given = { ...usd(200_001), approvals: [{ userId: SENIOR, at, senior: true }] };
    expect(requestSeniorRequirement(given, above)?.givenBy).toBe(SENIOR);
    const revoked = {
      ...usd(200_001),
      approvals: [
        { userId: SENIOR, at, senior: true, revokedAt: at },
        { userId: APPROVER, at, senior: false },
      ],
    };
    expect(requestSeniorRequirement(revoked, above)?.givenBy).toBeUndefined();
  });

  it('holds for a bulk payout by its total in any currency while it waits', () => {
    const batch = {
      totals: new Map([
        ['EUR', 10],
        ['USD', 200_001],
      ]),
      state: 'pending' as BatchState,
      approvals: [{ userId: SENIOR, at: new Date(), senior: true }],
    };
    expect(batchSeniorRequirement(batch, above)).toEqual({ currency: 'USD', thresholdMinor: 200_000, givenBy: SENIOR });
    expect(batchSeniorRequirement({ ...batch, state: 'sending' }, above)).toBeUndefined();
  });
});

describe.each(testDatabases())('senior approvals on $name', ({ open }) => {
  let db: Db;
  usePayoutDatabase(open, (opened) => {
    db = opened;
  });

  function team() {
    const people = teamRoles();
    return { ...createService(db, { roles: people.roles, settings: tiered }), ...people };
  }

  it('lets any approver release a payout at the tier amount', async () => {
    const { service } = team();
    const atTier = await submitted(service, { ...mobileForm, amount: '2000', phone: '+243 811 000 001' });
    expect(await service.approve(atTier.id, APPROVER)).toMatchObject({ ok: true, request: { state: 'pending' } });
    expect(await service.approve(atTier.id, SECOND_APPROVER)).toMatchObject({ ok: true, request: { state: 'completed' } });
  });

  it('refuses the approval that would release a payout above the tier without a senior one, and records nothing', async () => {
    const { service, fleet } = team();
    const above = await submitted(service, { ...mobileForm, amount: '2000.01' });
    expect(above.requiredApprovals).toBe(2);
    expect(await service.approve(above.id, APPROVER)).toMatchObject({ ok: true, request: { state: 'pending' } });
    // Asked before the approve window opens, and again on approval.
    expect(await service.mayApprove((await service.get(above.id))!, SECOND_APPROVER)).toMatchObject({ ok: false, code: 'needs_senior' });
    expect(await service.mayApprove((await service.get(above.id))!, SENIOR)).toEqual({ ok: true });
    expect(await service.approve(above.id, SECOND_APPROVER)).toMatchObject({ ok: false, code: 'needs_senior' });
    expect((await service.get(above.id))?.approvals.map((approval) => approval.userId)).toEqual([APPROVER]);
    expect(fleet.payoutCalls).toHaveLength(0);
    expect(await service.approve(above.id, SENIOR)).toMatchObject({ ok: true, request: { state: 'completed' } });
    expect(fleet.payoutCalls).toHaveLength(1);
    const senior = (await service.history(above.id)).find((event) => event.event === 'approved' && event.userId === SENIOR);
    expect(senior?.details).toMatchObject({ senior: true });
  });

  it('checks the senior approval again at release: removed from the senior approvers meanwhile, it is revoked and the payout waits', async () => {
    const { service, fleet, seniors } = team();
    const above = await submitted(service, { ...mobileForm, amount: '3000', phone: '+243 811 000 002' });
    expect(await service.approve(above.id, SENIOR)).toMatchObject({ ok: true, request: { state: 'pending' } });
    seniors.delete(SENIOR);
    // The cached lists still call SENIOR senior, so the approval that completes the count is taken, then checked fresh.
    const second = await service.approve(above.id, APPROVER);
    expect(second).toMatchObject({ ok: true, request: { state: 'pending' } });
    expect(fleet.payoutCalls).toHaveLength(0);
    const revoked = (await service.history(above.id)).find((event) => event.event === 'approval_revoked');
    expect(revoked?.details).toEqual({ approver: SENIOR, reason: 'not_senior' });
    expect(await service.approve(above.id, OTHER_SENIOR)).toMatchObject({ ok: true, request: { state: 'completed' } });
    expect(fleet.payoutCalls).toHaveLength(1);
  });

  it('revokes a senior approval whose giver is no longer an approver at all', async () => {
    const { service, fleet, approvers } = team();
    const above = await submitted(service, { ...mobileForm, amount: '2500', phone: '+243 811 000 003' });
    await service.approve(above.id, SENIOR);
    approvers.delete(SENIOR);
    expect(await service.approve(above.id, APPROVER)).toMatchObject({ ok: true, request: { state: 'pending' } });
    const revoked = (await service.history(above.id)).find((event) => event.event === 'approval_revoked');
    expect(revoked?.details).toEqual({ approver: SENIOR, reason: 'not_approver' });
    expect(fleet.payoutCalls).toHaveLength(0);
  });

  it('applies the tier to a bulk payout by its total in a currency, at approval and at release', async () => {
    const { clock, roles, seniors } = team();
    const batches = new PayoutBatchService({
      db,
      clock,
      settings: tiered,
      batchSettings: { maxRows: 500, ratePerSecond: 1000 },
      roles,
      logger: createLogger({ level: 'silent' }),
    });
    const rows = [
      'mobile,243812000001,VODACOM_MPESA,Amani Kabila,CD,900,USD,,',
      'mobile,243812000002,VODACOM_MPESA,Bora Ilunga,CD,900,USD,,',
      'mobile,243812000003,VODACOM_MPESA,Chantal Mbuyi,CD,900,USD,,',
    ];
    const checked = await batches.check(REQUESTER, `kind,number,provider,name,country,amount,currency,reference,note\n${rows.join('\n')}\n`);
    if (!checked.ok) throw new Error('expected a checked file');
    const submittedBatch = await batches.submit(REQUESTER, checked.batchId, { confirmedDuplicate: false });
    if (!submittedBatch.ok) throw new Error('expected a submitted batch');
    // Each row is below the tier; the USD total, 2,700.00, is above it.
    const required = submittedBatch.batch.requiredApprovals;
    const ordinary = [APPROVER, SECOND_APPROVER, THIRD_APPROVER].slice(0, required - 1);
    for (const approver of ordinary) expect(await batches.approve(checked.batchId, approver)).toMatchObject({ ok: true, batch: { state: 'pending' } });
    expect(await batches.approve(checked.batchId, THIRD_APPROVER)).toMatchObject({ ok: false, code: 'needs_senior' });
    seniors.delete(SENIOR);
    // SENIOR is still senior to the cached lists: recorded, then found no longer senior at release.
    expect(await batches.approve(checked.batchId, SENIOR)).toMatchObject({ ok: true, batch: { state: 'pending' } });
    expect(await batches.approve(checked.batchId, OTHER_SENIOR)).toMatchObject({ ok: true, batch: { state: 'sending' } });
  });
});

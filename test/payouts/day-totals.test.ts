import { describe, expect, it } from 'vitest';
import { createLogger } from '../../src/core/logger.js';
import { PayoutBatchService } from '../../src/payouts/batch/service.js';
import type { PayoutRoles } from '../../src/payouts/roles.js';
import type { Db } from '../../src/store/db.js';
import { testDatabases } from '../support/databases.js';
import { createService, mobileForm, rolesFor, settings, submitted, usePayoutDatabase } from '../support/payout-doubles.js';

// The people: Rita and Fabrice request, Abel and Bea approve. Dual approval above 1,000 USD.
const RITA = 'URITA';
const FABRICE = 'UFABRICE';
const ABEL = 'UABEL';
const BEA = 'UBEA';

const HEADER = 'kind,number,provider,name,country,amount,currency,reference,note';
const WALLET = '243812345678';
const toTheWallet = { ...mobileForm, phone: `+${WALLET}`, amount: '900' };
const oneRowFile = (amount: string, reference = '') => `${HEADER}\nmobile,${WALLET},VODACOM_MPESA,Amani Kabila,CD,${amount},USD,${reference},\n`;

describe.each(testDatabases())('day totals decide approvals on every way in, on $name', ({ open }) => {
  let db: Db;
  usePayoutDatabase(open, (opened) => {
    db = opened;
  });

  function team(roles: PayoutRoles = rolesFor([RITA, FABRICE], [ABEL, BEA])) {
    const made = createService(db, { roles });
    const batches = new PayoutBatchService({
      db,
      clock: made.clock,
      settings,
      batchSettings: { maxRows: 500, ratePerSecond: 1000 },
      roles,
      logger: createLogger({ level: 'silent' }),
    });
    return { ...made, batches };
  }

  async function submittedBatch(batches: PayoutBatchService, by: string, content: string) {
    const checked = await batches.check(by, content);
    expect(checked.ok && checked.check.problems).toEqual([]);
    // The same wallet and amount as an earlier request is a possible duplicate too: the requester ticked that it is meant.
    const submittedBatch = await batches.submit(by, checked.batchId, { confirmedDuplicate: true });
    if (!submittedBatch.ok) throw new Error(`expected the bulk payout to be submitted: ${submittedBatch.code}`);
    return submittedBatch.batch;
  }

  it('needs two approvers for a one-row bulk payout of 900 USD to a wallet that already received 900 USD that day', async () => {
    const { service, batches, fleet } = team();
    const single = await submitted(service, toTheWallet, RITA);
    expect(await service.approve(single.id, ABEL)).toMatchObject({ ok: true, request: { state: 'completed' } });

    const batch = await submittedBatch(batches, FABRICE, oneRowFile('900'));
    expect(batch).toMatchObject({ requiredApprovals: 2, dualApproval: { rule: 'recipient_total', totalMinor: 180_000, thresholdMinor: 100_000 } });
    expect(await batches.approve(batch.id, ABEL)).toMatchObject({ ok: true, batch: { state: 'pending' } });
    expect(await batches.approve(batch.id, BEA)).toMatchObject({ ok: true, batch: { state: 'sending' } });
    expect(fleet.payoutCalls).toHaveLength(1);
  });

  it('adds up the rows of one bulk payout that go to one recipient, however each row writes it', async () => {
    const { service, batches } = team();
    await submitted(service, { ...toTheWallet, amount: '400' }, RITA);
    const rows = [
      `mobile,${WALLET},VODACOM_MPESA,Amani Kabila,CD,400,USD,,`,
      `mobile,+243 812-345-678,ORANGE_MONEY,Amani Kabila,CD,300,USD,,`,
      'bank,123456789,BCDCCDKI,Ndaya Logistics SARL,CD,100,USD,,',
    ];
    // Fabrice's total is 800 USD, each row alone brings the wallet to 800 at most; together, 1,100.
    const batch = await submittedBatch(batches, FABRICE, `${HEADER}\n${rows.join('\n')}\n`);
    expect(batch).toMatchObject({ requiredApprovals: 2, dualApproval: { rule: 'recipient_total', totalMinor: 110_000, thresholdMinor: 100_000 } });
  });

  it('raises a bulk payout to two approvers at approval when a request to the same wallet landed after it was submitted', async () => {
    const { service, batches, fleet } = team();
    const batch = await submittedBatch(batches, FABRICE, oneRowFile('900'));
    expect(batch.requiredApprovals).toBe(1);
    const single = await submitted(service, toTheWallet, RITA);
    expect(single).toMatchObject({ requiredApprovals: 2, dualApproval: { rule: 'recipient_total', totalMinor: 180_000 } });

    expect(await batches.approve(batch.id, ABEL)).toMatchObject({
      ok: true,
      batch: { state: 'pending', requiredApprovals: 2, dualApproval: { rule: 'recipient_total', totalMinor: 180_000, thresholdMinor: 100_000 } },
    });
    expect(fleet.payoutCalls).toHaveLength(0);
    expect(await batches.approve(batch.id, BEA)).toMatchObject({ ok: true, batch: { state: 'sending', requiredApprovals: 2 } });
  });

  it('measures again at release: a request landing while the roles are looked up keeps the bulk payout waiting for a second approver', async () => {
    let landed = false;
    const base = rolesFor([RITA, FABRICE], [ABEL, BEA]);
    const made = { current: undefined as ReturnType<typeof team> | undefined };
    const roles: PayoutRoles = {
      canApprove: base.canApprove,
      canRequest: async (userId, lookup) => {
        // The fresh lookup before release: Rita's request to the same wallet is stored meanwhile.
        if (lookup?.fresh && !landed && made.current) {
          landed = true;
          await submitted(made.current.service, toTheWallet, RITA);
        }
        return base.canRequest(userId);
      },
    };
    made.current = team(roles);
    const { batches, fleet } = made.current;
    const batch = await submittedBatch(batches, FABRICE, oneRowFile('900'));
    expect(await batches.approve(batch.id, ABEL)).toMatchObject({ ok: true, batch: { state: 'pending', requiredApprovals: 2 } });
    expect(landed).toBe(true);
    expect(fleet.payoutCalls).toHaveLength(0);
  });

  it('never lowers a bulk payout once raised, even when the request that raised it is rejected', async () => {
    const { service, batches } = team();
    const batch = await submittedBatch(batches, FABRICE, oneRowFile('900'));
    const single = await submitted(service, toTheWallet, RITA);
    expect(await batches.approve(batch.id, ABEL)).toMatchObject({ ok: true, batch: { requiredApprovals: 2 } });
    expect((await service.reject(single.id, BEA, 'Paid twice')).ok).toBe(true);
    expect(await batches.get(batch.id)).toMatchObject({ state: 'pending', requiredApprovals: 2 });
  });

  it('gives one approver to only one of a single request and a bulk payout to the same wallet submitted at once', async () => {
    const { service, batches } = team();
    const checked = await batches.check(FABRICE, oneRowFile('900'));
    const validation = await service.validate('mobile_money', toTheWallet);
    if (!validation.ok) throw new Error('expected a valid form');
    const [batch, single] = await Promise.all([batches.submit(FABRICE, checked.batchId, { confirmedDuplicate: true }), service.submit(RITA, validation.draft)]);
    const required = [batch.ok ? batch.batch.requiredApprovals : 0, single.ok ? single.request.requiredApprovals : 0].sort();
    expect(required).toEqual([1, 2]);
  });

  it('raises a single request at approval when a bulk payout to the same wallet landed after it', async () => {
    const { service, batches, fleet } = team();
    const single = await submitted(service, toTheWallet, RITA);
    expect(single.requiredApprovals).toBe(1);
    await submittedBatch(batches, FABRICE, oneRowFile('900'));
    // Stamped at the same instant, the bulk row and the request may repeat each other: the approver ticks.
    expect(await service.approve(single.id, ABEL, { duplicateChecked: true })).toMatchObject({
      ok: true,
      request: { state: 'pending', requiredApprovals: 2, dualApproval: { rule: 'recipient_total', totalMinor: 180_000 } },
    });
    expect(fleet.payoutCalls).toHaveLength(0);
  });
});

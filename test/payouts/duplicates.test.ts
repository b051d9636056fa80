import { describe, expect, it } from 'vitest';
import { createLogger } from '../../src/core/logger.js';
import { PayoutBatchService } from '../../src/payouts/batch/service.js';
import { BatchSender } from '../../src/payouts/batch/sender.js';
import type { Db } from '../../src/store/db.js';
import { testDatabases } from '../support/databases.js';
import { APPROVER, createService, HOUR, mobileForm, REQUESTER, rolesFor, settings, submitted, usePayoutDatabase } from '../support/payout-doubles.js';

const HEADER = 'kind,number,provider,name,country,amount,currency,reference,note';
const AMANI = 'mobile,243812345678,VODACOM_MPESA,Amani Kabila,CD,150,USD,,';
const BORA = 'mobile,243899999999,ORANGE_MONEY,Bora Ilunga,CD,75,USD,,';
const file = (...rows: string[]) => `${HEADER}\n${rows.join('\n')}\n`;

describe.each(testDatabases())('possible duplicates in bulk payouts on $name', ({ open }) => {
  let db: Db;
  usePayoutDatabase(open, (opened) => {
    db = opened;
  });

  function bulk() {
    const made = createService(db);
    const batches = new PayoutBatchService({
      db,
      clock: made.clock,
      settings,
      batchSettings: { maxRows: 500, ratePerSecond: 1000 },
      roles: rolesFor([REQUESTER], [APPROVER]),
      logger: createLogger({ level: 'silent' }),
    });
    const sender = new BatchSender({
      db,
      clock: made.clock,
      logger: createLogger({ level: 'silent' }),
      ratePerSecond: 1000,
      announce: async () => undefined,
      send: (request) => made.service.sendApproved(request, 'bulk'),
    });
    return { ...made, batches, sender };
  }

  async function checked(batches: PayoutBatchService, content: string) {
    const result = await batches.check(REQUESTER, content);
    if (!result.ok || result.check.problems.length > 0) throw new Error('expected a file without problems');
    return result;
  }

  it('asks before the same two rows, in reverse order, are paid a second time', async () => {
    const { batches, sender, fleet } = bulk();
    const first = await checked(batches, file(AMANI, BORA));
    expect(await batches.submit(REQUESTER, first.batchId, { confirmedDuplicate: false })).toMatchObject({ ok: true });
    await batches.approve(first.batchId, APPROVER);
    await sender.sendDue(500);
    expect(fleet.payoutCalls).toHaveLength(2);

    const reversed = await checked(batches, file(BORA, AMANI));
    expect(reversed.check.rows.map((row) => [row.rowNumber, row.duplicateOf])).toEqual([
      [2, { kind: 'request', requestId: expect.stringMatching(/^PR-/), reference: `${first.batchId}-3`, state: 'completed', batchId: first.batchId }],
      [3, { kind: 'request', requestId: expect.stringMatching(/^PR-/), reference: `${first.batchId}-2`, state: 'completed', batchId: first.batchId }],
    ]);
    expect(await batches.submit(REQUESTER, reversed.batchId, { confirmedDuplicate: false })).toMatchObject({ ok: false, code: 'duplicate_unconfirmed' });
    expect(await batches.submit(REQUESTER, reversed.batchId, { confirmedDuplicate: true })).toMatchObject({ ok: true, batch: { state: 'pending' } });
  });

  it('names a row repeating a batch waiting for approval by that batch and row', async () => {
    const { batches } = bulk();
    const first = await checked(batches, file(BORA, AMANI));
    await batches.submit(REQUESTER, first.batchId, { confirmedDuplicate: false });
    const again = await checked(batches, file(AMANI));
    expect(again.check.rows[0]?.duplicateOf).toEqual({ kind: 'batch_row', batchId: first.batchId, rowNumber: 3 });
  });

  it('flags a row repeating a single request, and a row repeating another row of its file, and asks for the tick for both', async () => {
    const { service, batches } = bulk();
    const single = await submitted(service, mobileForm);
    const result = await checked(batches, file(BORA, AMANI, BORA));
    expect(result.check.rows.map((row) => [row.rowNumber, row.repeatOf, row.duplicateOf?.kind])).toEqual([
      [2, undefined, undefined],
      [3, undefined, 'request'],
      [4, 2, undefined],
    ]);
    expect(result.check.rows[1]?.duplicateOf).toMatchObject({ requestId: single.id, state: 'pending' });

    const inFileOnly = await checked(batches, file(BORA, BORA.replace('Bora Ilunga', 'Bora I.')));
    expect(inFileOnly.check.rows.map((row) => row.repeatOf)).toEqual([undefined, 2]);
    expect(await batches.submit(REQUESTER, inFileOnly.batchId, { confirmedDuplicate: false })).toMatchObject({ ok: false, code: 'duplicate_unconfirmed' });
  });

  it('leaves out requests that were turned down or failed, and those requested before the window', async () => {
    const { service, batches, clock } = bulk();
    const rejected = await submitted(service, mobileForm);
    await service.reject(rejected.id, APPROVER, 'not this one');
    const old = await submitted(service, mobileForm);
    clock.advance(72 * HOUR + 1);
    const result = await checked(batches, file(AMANI));
    expect(result.check.rows[0]?.duplicateOf).toBeUndefined();
    expect(await batches.submit(REQUESTER, result.batchId, { confirmedDuplicate: false })).toMatchObject({ ok: true });
    expect(old.state).toBe('pending');
  });

  it('asks again at submission when a repeat landed after the check', async () => {
    const { service, batches } = bulk();
    const result = await checked(batches, file(AMANI));
    expect(result.check.rows[0]?.duplicateOf).toBeUndefined();
    await submitted(service, mobileForm);
    expect(await batches.submit(REQUESTER, result.batchId, { confirmedDuplicate: false })).toMatchObject({ ok: false, code: 'duplicate_unconfirmed' });
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sentPayoutLookup } from '../../src/payouts/by-transaction.js';
import type { Db } from '../../src/store/index.js';
import { testDatabases } from '../support/databases.js';

describe.each(testDatabases())('sent payouts by transaction reference on $name', ({ open }) => {
  let db: Db;
  beforeAll(async () => {
    db = await open();
    const at = new Date('2026-10-05T08:00:00Z');
    const request = (id: string, reference: string, transactionId: string | null, state: string) =>
      db.query(
        `INSERT INTO payout_requests (id, kind, recipient_name, country_code, phone, operator, amount_minor, currency, reference,
           requested_by, requested_at, expires_at, state, required_approvals, transaction_id, updated_at, recipient_key)
         VALUES ($1, 'mobile_money', 'Mama Kitoko', 'CD', '243810000001', 'VODACOM_MPESA', 5000, 'USD', $2,
           'U0REQUESTER', $3, $3, $4, 2, $5, $3, 'mobile:243810000001')`,
        [id, reference, at, state, transactionId],
      );
    const approval = (requestId: string, userId: string, minute: number, revoked = false) =>
      db.query('INSERT INTO payout_approvals (request_id, user_id, approved_at, revoked_at) VALUES ($1, $2, $3, $4)', [
        requestId,
        userId,
        new Date(at.getTime() + minute * 60_000),
        revoked ? at : null,
      ]);
    await request('PO-SENT', 'REF-1', 'TXN-SENT', 'completed');
    await approval('PO-SENT', 'U0APPROVER2', 1);
    await approval('PO-SENT', 'U0APPROVER', 2);
    await approval('PO-SENT', 'U0GONE', 0, true);
    await request('PO-NOAPPROVALS', 'REF-2', 'TXN-BARE', 'completed');
    await request('PO-PENDING', 'REF-3', null, 'pending');
  });
  afterAll(async () => db?.close());

  it('finds each sent payout with its requester and the approvals that counted, in the order given', async () => {
    const found = await sentPayoutLookup(db).byTransactionReferences(['TXN-SENT', 'TXN-BARE', 'TXN-OTHER']);
    expect(Object.fromEntries(found)).toEqual({
      'TXN-SENT': { requestId: 'PO-SENT', requestedBy: 'U0REQUESTER', approvedBy: ['U0APPROVER2', 'U0APPROVER'] },
      'TXN-BARE': { requestId: 'PO-NOAPPROVALS', requestedBy: 'U0REQUESTER', approvedBy: [] },
    });
  });

  it('asks nothing for no references', async () => {
    expect((await sentPayoutLookup(db).byTransactionReferences([])).size).toBe(0);
  });
});

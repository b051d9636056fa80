import { describe, expect, it } from 'vitest';
import type { PayoutDraft } from '../../src/payouts/model.js';
import { insertApproval } from '../../src/payouts/approval-store.js';
import { findRequest, insertRequest, searchRequests, updateRequest, type NewPayoutRow } from '../../src/payouts/repository.js';
import type { Db } from '../../src/store/db.js';
import { testDatabases } from '../support/databases.js';
import { usePayoutDatabase } from '../support/payout-doubles.js';

const draft: PayoutDraft = {
  kind: 'bank_account',
  recipient: { accountNumber: '000123456789', bankCode: 'BCDCCDKI', name: 'Ndaya Logistics SARL', countryCode: 'CD' },
  amountMinor: 9_007_199_254_740_991,
  currency: 'CDF',
  reference: 'INV-2025-031',
  note: 'Quarterly',
};
const now = new Date('2025-03-14T10:00:00Z');
const row = (id: string, reference = draft.reference): NewPayoutRow => ({
  id,
  draft: { ...draft, reference },
  requestedBy: 'UREQUESTER',
  requestedAt: now,
  expiresAt: new Date('2025-03-15T10:00:00Z'),
  requiredApprovals: 2,
});

describe.each(testDatabases())('payout repository on $name', ({ open }) => {
  let db: Db;
  usePayoutDatabase(open, (opened) => {
    db = opened;
  });

  it('stores and reads back a bank request exactly, amounts up to the largest safe integer included', async () => {
    expect(await insertRequest(db, row('PR-AAAAAA'))).toBe('inserted');
    expect(await findRequest(db, 'PR-AAAAAA')).toMatchObject({
      ...draft,
      id: 'PR-AAAAAA',
      state: 'pending',
      requiredApprovals: 2,
      approvals: [],
      version: 1,
      attempts: 0,
      requestedAt: now,
      transactionId: undefined,
      approvalMessage: undefined,
    });
  });

  it('finds requests by words in the reference, recipient name, phone or account number, newest first, with the count', async () => {
    const mobile: PayoutDraft = {
      kind: 'mobile_money',
      recipient: { phone: '+243 812 345 678', name: 'Kabila Transport', countryCode: 'CD' },
      operator: 'VODACOM_MPESA',
      amountMinor: 15_000,
      currency: 'USD',
      reference: 'FUEL_100%',
      note: '',
    };
    await insertRequest(db, row('PR-AAAAAA', 'INV-42'));
    await insertRequest(db, { ...row('PR-BBBBBB'), draft: mobile, requestedAt: new Date('2025-03-14T11:00:00Z') });
    await insertRequest(db, { ...row('PR-CCCCCC', 'INV-421'), requestedAt: new Date('2025-03-14T12:00:00Z') });

    const ids = async (words: string[]) => (await searchRequests(db, words, 10)).requests.map((request) => request.id);
    expect(await ids(['inv-42'])).toEqual(['PR-CCCCCC', 'PR-AAAAAA']);
    expect(await searchRequests(db, ['inv-42'], 1)).toMatchObject({ total: 2, requests: [{ id: 'PR-CCCCCC' }] });
    expect(await ids(['ndaya', '421'])).toEqual(['PR-CCCCCC']);
    expect(await ids(['kabila'])).toEqual(['PR-BBBBBB']);
    // Phone and account numbers are found however their spaces were typed.
    expect(await ids(['812345678'])).toEqual(['PR-BBBBBB']);
    expect(await ids(['0001 2345'])).toEqual(['PR-CCCCCC', 'PR-AAAAAA']);
    // `%` and `_` are letters to find, not patterns.
    expect(await ids(['100%'])).toEqual(['PR-BBBBBB']);
    expect(await ids(['_'])).toEqual(['PR-BBBBBB']);
    expect(await ids(['pr-aaaaaa'])).toEqual(['PR-AAAAAA']);
    expect(await searchRequests(db, ['nobody'], 10)).toEqual({ requests: [], total: 0 });
  });

  it('refuses a second request with the same reference, and tells an id collision apart', async () => {
    await insertRequest(db, row('PR-AAAAAA'));
    expect(await insertRequest(db, row('PR-BBBBBB'))).toBe('duplicate_reference');
    expect(await insertRequest(db, row('PR-AAAAAA', 'OTHER-REF'))).toBe('duplicate_id');
    expect(await findRequest(db, 'PR-BBBBBB')).toBeUndefined();
  });

  it('keeps one approval per person per request', async () => {
    await insertRequest(db, row('PR-AAAAAA'));
    expect(await insertApproval(db, 'PR-AAAAAA', 'UAPPROVER1', now)).toBe(true);
    expect(await insertApproval(db, 'PR-AAAAAA', 'UAPPROVER1', now)).toBe(false);
    expect((await findRequest(db, 'PR-AAAAAA'))?.approvals).toEqual([{ userId: 'UAPPROVER1', at: now }]);
  });

  it('applies a conditional update only while its expectation holds', async () => {
    await insertRequest(db, row('PR-AAAAAA'));
    const later = new Date('2025-03-14T11:00:00Z');
    const moved = await updateRequest(db, 'PR-AAAAAA', { states: ['pending'], version: 1 }, { state: 'cancelled' }, later);
    expect(moved).toMatchObject({ state: 'cancelled', version: 2, updatedAt: later });
    expect(await updateRequest(db, 'PR-AAAAAA', { states: ['pending'] }, { state: 'rejected' }, later)).toBeUndefined();
    expect(await updateRequest(db, 'PR-AAAAAA', { states: ['cancelled'], version: 1 }, { state: 'expired' }, later)).toBeUndefined();
    expect((await findRequest(db, 'PR-AAAAAA'))?.state).toBe('cancelled');
  });

  it('refuses a state the model does not know', async () => {
    await insertRequest(db, row('PR-AAAAAA'));
    await expect(db.query("UPDATE payout_requests SET state = 'paid' WHERE id = 'PR-AAAAAA'")).rejects.toThrow();
  });
});

import { describe, expect, it } from 'vitest';
import type { PayoutDraft, PayoutRequest } from '../../src/payouts/model.js';
import { recipientIdentity } from '../../src/payouts/recipients.js';
import type { PayoutService } from '../../src/payouts/service.js';
import type { Db } from '../../src/store/db.js';
import { testDatabases } from '../support/databases.js';
import { APPROVER, bankForm, createService, mobileForm, REQUESTER, usePayoutDatabase } from '../support/payout-doubles.js';

// Each payout here goes to a recipient paid once before, another amount each time: never a possible duplicate.
describe.each(testDatabases())('a saved recipient picked in the form and then edited, on $name', ({ open }) => {
  let db: Db;
  usePayoutDatabase(open, (opened) => {
    db = opened;
  });

  async function draftOf(service: PayoutService, fields: Record<string, string>): Promise<PayoutDraft> {
    const validation = await service.validate('accountNumber' in fields ? 'bank_account' : 'mobile_money', fields);
    if (!validation.ok) throw new Error(`expected a valid form: ${JSON.stringify(validation.errors)}`);
    return validation.draft;
  }

  /** A completed payout, which puts its recipient on the saved list; its identity. */
  async function paid(service: PayoutService, fields: Record<string, string>): Promise<string> {
    const draft = await draftOf(service, { ...fields, amount: '10' });
    const result = await service.submit(REQUESTER, draft);
    if (!result.ok) throw new Error(result.code);
    const approved = await service.approve(result.request.id, APPROVER);
    if (!approved.ok || approved.request.state !== 'completed') throw new Error('expected it to complete');
    return recipientIdentity(draft);
  }

  /** A request filled from the saved recipient `filledFrom`, then submitted with `fields`. */
  async function submittedFrom(service: PayoutService, fields: Record<string, string>, filledFrom: string | undefined): Promise<PayoutRequest> {
    const result = await service.submit(REQUESTER, await draftOf(service, fields), { filledFrom });
    if (!result.ok) throw new Error(result.code);
    return result.request;
  }

  it('says which of the number and the operator changed from the saved wallet, and that the edited wallet is a new recipient', async () => {
    const { service } = createService(db);
    const saved = await paid(service, mobileForm);
    const number = await submittedFrom(service, { ...mobileForm, phone: '+243 812 345 679', amount: '20' }, saved);
    expect(number).toMatchObject({
      newRecipient: true,
      changedDetails: {
        saved: { identity: saved, name: 'Amani Kabila' },
        changes: [{ field: 'phone', from: '243812345678', to: '243812345679' }],
        matches: undefined,
      },
    });
    const operator = await submittedFrom(service, { ...mobileForm, operator: 'ORANGE_MONEY', amount: '21' }, saved);
    expect(operator.changedDetails?.changes).toEqual([{ field: 'operator', from: 'VODACOM_MPESA', to: 'ORANGE_MONEY' }]);
    expect(operator.newRecipient).toBe(true);
    const both = await submittedFrom(service, { ...mobileForm, phone: '+243 812 345 670', operator: 'ORANGE_MONEY', amount: '22' }, saved);
    expect(both.changedDetails?.changes.map((change) => change.field)).toEqual(['phone', 'operator']);
  });

  it('says which of the account number and the bank code changed from the saved account, an 8-letter BIC and its XXX being one bank', async () => {
    const { service } = createService(db);
    const saved = await paid(service, bankForm);
    const account = await submittedFrom(service, { ...bankForm, accountNumber: '0001 2345 6780', amount: '20' }, saved);
    expect(account.changedDetails?.changes).toEqual([{ field: 'accountNumber', from: '000123456789', to: '000123456780' }]);
    expect(account.newRecipient).toBe(true);
    const bank = await submittedFrom(service, { ...bankForm, bankCode: 'BCDCCDKI123', amount: '21' }, saved);
    expect(bank.changedDetails?.changes).toEqual([{ field: 'bankCode', from: 'BCDCCDKI', to: 'BCDCCDKI123' }]);
    const headOffice = await submittedFrom(service, { ...bankForm, bankCode: 'BCDCCDKIXXX', amount: '22' }, saved);
    expect(headOffice).toMatchObject({ newRecipient: false, changedDetails: undefined });
  });

  it('names the other known recipient the edited details belong to, which is no new recipient', async () => {
    const { service } = createService(db);
    const saved = await paid(service, mobileForm);
    await paid(service, { ...mobileForm, phone: '+243 899 000 001', name: 'Bora Ilunga' });
    const other = await submittedFrom(service, { ...mobileForm, phone: '+243 899 000 001', amount: '20' }, saved);
    expect(other).toMatchObject({ newRecipient: false, previousRecipientName: 'Bora Ilunga' });
    expect(other.changedDetails).toMatchObject({ changes: [{ field: 'phone', to: '243899000001' }], matches: { name: 'Bora Ilunga' } });
    expect(other.changedDetails?.matches?.lastPayoutId).toMatch(/^PR-/);
  });

  it('says nothing when the saved recipient is sent to as saved, or when none was picked', async () => {
    const { service } = createService(db);
    const saved = await paid(service, mobileForm);
    // The name is no detail of where the money lands: its change is the "another name" flag's.
    const unedited = await submittedFrom(service, { ...mobileForm, name: 'Amani K.', amount: '20' }, saved);
    expect(unedited).toMatchObject({ changedDetails: undefined, newRecipient: false, previousRecipientName: 'Amani Kabila' });
    const typed = await submittedFrom(service, { ...mobileForm, phone: '+243 812 345 679', amount: '21' }, undefined);
    expect(typed).toMatchObject({ changedDetails: undefined, newRecipient: true });
  });

  it('decides from the saved recipient read on the server: a pick naming no known recipient, or one of another kind, says nothing', async () => {
    const { service } = createService(db);
    const savedBank = await paid(service, bankForm);
    const unknown = await submittedFrom(service, { ...mobileForm, amount: '20' }, 'mobile:243800000000:VODACOM_MPESA');
    expect(unknown.changedDetails).toBeUndefined();
    const otherKind = await submittedFrom(service, { ...mobileForm, amount: '21' }, savedBank);
    expect(otherKind.changedDetails).toBeUndefined();
  });

  it('shows the requester the same on the review screen before anything is stored, and records it in the history', async () => {
    const { service } = createService(db);
    const saved = await paid(service, mobileForm);
    const draft = await draftOf(service, { ...mobileForm, phone: '+243 812 345 679', amount: '20' });
    const review = await service.previewApprovals(REQUESTER, draft, saved);
    expect(review.recipient).toMatchObject({ newRecipient: true, changedDetails: { changes: [{ field: 'phone' }] } });
    const result = await service.submit(REQUESTER, draft, { filledFrom: saved });
    if (!result.ok) throw new Error(result.code);
    // What approvers see is read back from the stored request.
    expect((await service.get(result.request.id))?.changedDetails).toEqual(result.request.changedDetails);
    const requested = (await service.history(result.request.id)).find((event) => event.event === 'requested');
    expect(requested?.details).toMatchObject({ changedFrom: saved, changedFields: ['phone'] });
  });
});

import { describe, expect, it } from 'vitest';
import { FleetRejectedError, FleetTimeoutError } from '../../src/fleet/errors.js';
import { RecipientBook } from '../../src/payouts/recipient-book.js';
import { findKnownRecipients, isNewRecipient, nameChanged, recipientIdentity, recipientKey } from '../../src/payouts/recipients.js';
import type { PayoutDraft } from '../../src/payouts/model.js';
import type { Db } from '../../src/store/db.js';
import { migrate } from '../../src/store/index.js';
import { migrations } from '../../src/store/migrations/index.js';
import { testDatabases } from '../support/databases.js';
import {
  APPROVER,
  bankForm,
  createService,
  mobileForm,
  OUTSIDER,
  REQUESTER,
  rolesFor,
  SECOND_APPROVER,
  settings,
  submitted,
  THIRD_APPROVER,
  usePayoutDatabase,
} from '../support/payout-doubles.js';

// These tests pay one recipient the same amount again on purpose: each approver ticks that they checked (signals.test.ts tests the tick).
const TICKED = { duplicateChecked: true };

const newRecipientRule = { settings: { ...settings, newRecipientApprovals: 2 } };

describe('recipient identity', () => {
  const mobile = { kind: 'mobile_money' as const, recipient: { phone: '243812345678', name: 'Amani', countryCode: 'CD' }, operator: 'VODACOM_MPESA' };
  const bank = { kind: 'bank_account' as const, recipient: { accountNumber: '000123456789', bankCode: 'BCDCCDKIXXX', name: 'Ndaya', countryCode: 'CD' } };

  it('names a wallet by its phone number and operator, so a known number with another operator is another recipient', () => {
    expect(recipientIdentity(mobile)).toBe('mobile:243812345678:VODACOM_MPESA');
    expect(recipientIdentity({ ...mobile, operator: 'ORANGE_MONEY' })).not.toBe(recipientIdentity(mobile));
  });

  it('names a bank account by its BIC, the same with or without XXX, and its account number with its leading zeros', () => {
    const account = (accountNumber: string, bankCode: string) => recipientIdentity({ ...bank, recipient: { ...bank.recipient, accountNumber, bankCode } });
    expect(recipientIdentity(bank)).toBe('bank:BCDCCDKI:000123456789');
    expect(account('000123456789', 'BCDCCDKI')).toBe(recipientIdentity(bank));
    expect(account('123456789', 'BCDCCDKIXXX')).not.toBe(recipientIdentity(bank));
    expect(account('0012345678', 'BCDCCDKI123')).not.toBe(account('12345678', 'BCDCCDKIXXX'));
    expect(account('12345678', 'BCDCCDKI123')).not.toBe(account('12345678', 'BCDCCDKI'));
    expect(account('12345678', 'BCDCCDKI123')).toBe('bank:BCDCCDKI123:12345678');
  });

  it("keeps the day totals' key and the identity apart only by the operator", () => {
    const draft = { amountMinor: 100, currency: 'USD', reference: 'R', note: '' };
    expect(recipientKey({ ...mobile, ...draft })).toBe('mobile:243812345678');
    expect(recipientKey({ ...mobile, ...draft, operator: 'ORANGE_MONEY' })).toBe(recipientKey({ ...mobile, ...draft }));
    expect(recipientKey({ ...bank, ...draft })).toBe(recipientIdentity(bank));
    const other = { ...bank, ...draft, recipient: { ...bank.recipient, accountNumber: '0012345678', bankCode: 'BCDCCDKI123' } };
    expect(recipientKey(other)).not.toBe(recipientKey({ ...other, recipient: { ...other.recipient, accountNumber: '12345678', bankCode: 'BCDCCDKIXXX' } }));
  });

  it('tells a new recipient and a changed name from a map of known recipients', () => {
    const known = new Map([
      [
        recipientIdentity(mobile),
        {
          identity: recipientIdentity(mobile),
          lastName: 'Amani  K.',
          lastPayoutId: 'PR-1',
          lastPaidAt: new Date(),
          removed: false,
          details: { kind: 'mobile_money' as const, phone: '243812345678', operator: 'VODACOM_MPESA' },
        },
      ],
    ]);
    expect(isNewRecipient(mobile, known)).toBe(false);
    expect(isNewRecipient(bank, known)).toBe(true);
    expect(nameChanged(mobile, known)).toBe('Amani  K.');
    expect(nameChanged({ ...mobile, recipient: { ...mobile.recipient, name: ' amani   k. ' } }, known)).toBeUndefined();
    expect(nameChanged(bank, known)).toBeUndefined();
  });
});

describe.each(testDatabases())('new recipients and saved recipients on $name', ({ open }) => {
  let db: Db;
  usePayoutDatabase(open, (opened) => {
    db = opened;
  });

  const book = (roles = rolesFor([REQUESTER], [APPROVER, SECOND_APPROVER])) =>
    new RecipientBook({ db, clock: { now: () => new Date('2025-03-14T12:00:00Z'), sleep: async () => {} }, roles });

  it('needs two approvers for a small payout to a wallet never paid, and one once a payout to it completed', async () => {
    const { service, fleet } = createService(db, newRecipientRule);
    const first = await submitted(service, mobileForm);
    expect(first).toMatchObject({ requiredApprovals: 2, newRecipient: true, dualApproval: { rule: 'new_recipient' } });
    expect(await service.approve(first.id, APPROVER, TICKED)).toMatchObject({ ok: true, request: { state: 'pending' } });
    expect(fleet.payoutCalls).toHaveLength(0);
    expect(await service.approve(first.id, SECOND_APPROVER, TICKED)).toMatchObject({ ok: true, request: { state: 'completed' } });
    expect(fleet.payoutCalls).toHaveLength(1);

    const again = await submitted(service, mobileForm);
    expect(again).toMatchObject({ requiredApprovals: 1, newRecipient: false, previousRecipientName: undefined });
    const otherOperator = await submitted(service, { ...mobileForm, operator: 'ORANGE_MONEY' });
    expect(otherOperator).toMatchObject({ requiredApprovals: 2, newRecipient: true });
  });

  it('knows a bank account paid before however its number is spaced and whether its BIC ends in XXX', async () => {
    const { service } = createService(db, newRecipientRule);
    const smallBank = { ...bankForm, amount: '300' };
    const first = await submitted(service, smallBank);
    expect(first).toMatchObject({ requiredApprovals: 2, newRecipient: true });
    await service.approve(first.id, APPROVER, TICKED);
    expect(await service.approve(first.id, SECOND_APPROVER, TICKED)).toMatchObject({ ok: true, request: { state: 'completed' } });
    const same = await submitted(service, { ...smallBank, accountNumber: '000123456789', bankCode: 'bcdccdki xxx' });
    expect(same).toMatchObject({ requiredApprovals: 1, newRecipient: false });
    const withoutZeros = await submitted(service, { ...smallBank, accountNumber: '123456789' });
    expect(withoutZeros).toMatchObject({ requiredApprovals: 2, newRecipient: true });
    const other = await submitted(service, { ...smallBank, accountNumber: '123456780' });
    expect(other).toMatchObject({ requiredApprovals: 2, newRecipient: true });
  });

  it('flags a known number under another name with the name it was last paid under', async () => {
    const { service } = createService(db);
    const first = await submitted(service, mobileForm);
    await service.approve(first.id, APPROVER, TICKED);
    const renamed = await submitted(service, { ...mobileForm, name: 'Someone Else' });
    expect(renamed).toMatchObject({ newRecipient: false, previousRecipientName: 'Amani Kabila' });
    const sameName = await submitted(service, { ...mobileForm, name: 'AMANI  kabila' });
    expect(sameName.previousRecipientName).toBeUndefined();
  });

  it('asks the new-recipient approvals for 0012345678 at BCDCCDKI123 after 12345678 at BCDCCDKIXXX was paid, and not for 12345678 at BCDCCDKI', async () => {
    const { service } = createService(db, newRecipientRule);
    const paid = await submitted(service, { ...bankForm, amount: '100', accountNumber: '12345678', bankCode: 'BCDCCDKIXXX' });
    await service.approve(paid.id, APPROVER, TICKED);
    expect(await service.approve(paid.id, SECOND_APPROVER, TICKED)).toMatchObject({ ok: true, request: { state: 'completed' } });

    const otherAccount = await submitted(service, { ...bankForm, amount: '100', accountNumber: '0012345678', bankCode: 'BCDCCDKI123' });
    expect(otherAccount).toMatchObject({ requiredApprovals: 2, newRecipient: true, dualApproval: { rule: 'new_recipient' } });
    const sameAccount = await submitted(service, { ...bankForm, amount: '100', accountNumber: '12345678', bankCode: 'BCDCCDKI' });
    expect(sameAccount).toMatchObject({ requiredApprovals: 1, newRecipient: false });
  });

  it('never lowers the requirement when a payout to the same recipient completes meanwhile', async () => {
    const { service, fleet } = createService(db, newRecipientRule);
    const waiting = await submitted(service, mobileForm);
    const other = await submitted(service, mobileForm);
    await service.approve(other.id, APPROVER, TICKED);
    expect(await service.approve(other.id, SECOND_APPROVER, TICKED)).toMatchObject({ ok: true, request: { state: 'completed' } });
    expect(await service.approve(waiting.id, APPROVER, TICKED)).toMatchObject({
      ok: true,
      request: { state: 'pending', requiredApprovals: 2, newRecipient: true },
    });
    expect(fleet.payoutCalls).toHaveLength(1);
    expect(await service.approve(waiting.id, SECOND_APPROVER, TICKED)).toMatchObject({ ok: true, request: { state: 'completed' } });
    expect(fleet.payoutCalls).toHaveLength(2);
  });

  it('takes the configured number of approvers, more than the amount rule asks', async () => {
    const { service, fleet } = createService(db, { settings: { ...settings, newRecipientApprovals: 3 } });
    const request = await submitted(service, { ...mobileForm, amount: '5000' });
    expect(request).toMatchObject({ requiredApprovals: 3, dualApproval: { rule: 'new_recipient' } });
    await service.approve(request.id, APPROVER, TICKED);
    await service.approve(request.id, SECOND_APPROVER, TICKED);
    expect(fleet.payoutCalls).toHaveLength(0);
    expect(await service.approve(request.id, THIRD_APPROVER, TICKED)).toMatchObject({ ok: true, request: { state: 'completed' } });
  });

  it('gives the amount rule as the reason when it asks as many approvers as the new-recipient rule', async () => {
    const { service } = createService(db, newRecipientRule);
    const request = await submitted(service, { ...mobileForm, amount: '5000' });
    expect(request).toMatchObject({ requiredApprovals: 2, newRecipient: true, dualApproval: { rule: 'amount' } });
  });

  it('remembers the recipient of a completed payout only, including one completed by reconciliation', async () => {
    const { service, fleet, clock } = createService(db);
    const failed = await submitted(service, { ...mobileForm, phone: '243811111111', name: 'Failed Person' });
    const rejected = await submitted(service, { ...mobileForm, phone: '243822222222', name: 'Rejected Person' });
    const unknown = await submitted(service, { ...mobileForm, phone: '243833333333', name: 'Reconciled Person' });
    expect(await service.reject(rejected.id, APPROVER, 'not this one')).toMatchObject({ ok: true });
    fleet.willAnswer(new FleetRejectedError(400, 'invalid phone'), new FleetTimeoutError(true));
    expect(await service.approve(failed.id, APPROVER, TICKED)).toMatchObject({ ok: true, request: { state: 'failed' } });
    expect(await service.approve(unknown.id, APPROVER, TICKED)).toMatchObject({ ok: true, request: { state: 'unknown' } });
    expect(await findKnownRecipients(db, [recipientIdentity(unknown)])).toEqual(new Map());
    fleet.addTransaction({ reference: unknown.reference, date: clock.now().toISOString() });
    expect(await service.settle(unknown.id)).toMatchObject({ ok: true, request: { state: 'completed' } });

    const identities = [failed, rejected, unknown].map((request) => recipientIdentity(request));
    const known = await findKnownRecipients(db, identities);
    expect([...known.values()].map((recipient) => recipient.lastName)).toEqual(['Reconciled Person']);
    const listed = await book().list(REQUESTER, []);
    expect(listed).toMatchObject({
      ok: true,
      total: 1,
      recipients: [{ recipient: { name: 'Reconciled Person', phone: '243833333333' }, lastPayoutId: unknown.id }],
    });
  });

  it('searches saved recipients by name, number, operator and bank code', async () => {
    const { service } = createService(db);
    for (const form of [mobileForm, { ...mobileForm, phone: '243899999999', name: 'Bora Ilunga', operator: 'ORANGE_MONEY' }, bankForm]) {
      await service.approve((await submitted(service, form)).id, APPROVER);
    }
    const names = async (words: string[]) => {
      const found = await book().list(APPROVER, words);
      return found.ok ? found.recipients.map((recipient) => recipient.recipient.name).sort() : found.code;
    };
    expect(await names([])).toEqual(['Amani Kabila', 'Bora Ilunga', 'Ndaya Logistics SARL']);
    expect(await names(['kabila'])).toEqual(['Amani Kabila']);
    expect(await names(['899 999'])).toEqual(['Bora Ilunga']);
    expect(await names(['orange'])).toEqual(['Bora Ilunga']);
    expect(await names(['bcdc', 'ndaya'])).toEqual(['Ndaya Logistics SARL']);
    expect(await names(['100%'])).toEqual([]);
    expect(await book().list(OUTSIDER, [])).toEqual({ ok: false, code: 'not_viewer' });
    expect((await book().suggest(REQUESTER, 'bora')).map((recipient) => recipient.recipient.name)).toEqual(['Bora Ilunga']);
    expect(await book().suggest(APPROVER, 'bora')).toEqual([]);
  });

  it('lets a requester remove a saved recipient, records who and when, and refuses anyone else', async () => {
    const { service } = createService(db, newRecipientRule);
    const request = await submitted(service, mobileForm);
    await service.approve(request.id, APPROVER, TICKED);
    await service.approve(request.id, SECOND_APPROVER, TICKED);
    const identity = recipientIdentity(request);

    expect(await book().remove(APPROVER, identity)).toEqual({ ok: false, code: 'not_requester' });
    expect(await book().remove(OUTSIDER, identity)).toEqual({ ok: false, code: 'not_requester' });
    expect(await book().remove(REQUESTER, identity)).toMatchObject({ ok: true, recipient: { recipient: { name: 'Amani Kabila' } } });
    expect(await book().remove(REQUESTER, identity)).toEqual({ ok: false, code: 'not_found' });
    expect(await book().list(REQUESTER, [])).toMatchObject({ ok: true, total: 0, recipients: [] });
    expect(await book().pick(REQUESTER, identity)).toEqual({ ok: false, code: 'not_found' });
    const history = await book().history(identity);
    expect(history).toMatchObject([
      { event: 'removed', userId: REQUESTER, at: new Date('2025-03-14T12:00:00Z'), details: { recipient: { name: 'Amani Kabila', phone: '243812345678' } } },
    ]);

    // Removed from the list, it was paid all the same: not a new recipient, and paid again it comes back.
    const again = await submitted(service, mobileForm);
    expect(again).toMatchObject({ newRecipient: false, requiredApprovals: 1 });
    await service.approve(again.id, APPROVER, TICKED);
    expect(await book().list(REQUESTER, [])).toMatchObject({ ok: true, total: 1, recipients: [{ lastPayoutId: again.id }] });
  });
});

describe.each(testDatabases())('saved recipients from payouts completed before them on $name', ({ open }) => {
  it('remembers the recipients of payouts completed before the migration, the latest name for each', async () => {
    const db = await open({ migrations: migrations.filter((migration) => migration.id < 12) });
    try {
      const rows: Array<[string, string, string, string, string]> = [
        ['PR-OLD001', 'REF-OLD-1', 'Old Name', 'completed', '2025-03-01T10:00:00Z'],
        ['PR-OLD002', 'REF-OLD-2', 'New Name', 'completed', '2025-03-02T10:00:00Z'],
        ['PR-OLD003', 'REF-OLD-3', 'Failed Name', 'failed', '2025-03-03T10:00:00Z'],
      ];
      for (const [id, reference, name, state, at] of rows) {
        await db.query(
          `INSERT INTO payout_requests (id, kind, recipient_name, country_code, phone, operator, amount_minor, currency, reference, note,
             requested_by, requested_at, expires_at, state, required_approvals, updated_at, recipient_key)
           VALUES ($1, 'mobile_money', $2, 'CD', '243812345678', 'VODACOM_MPESA', 100, 'USD', $3, '', 'UREQUESTER', $5, $5, $4, 1, $5, 'mobile:243812345678')`,
          [id, name, reference, state, at],
        );
      }
      await migrate(db, migrations);
      const identity = 'mobile:243812345678:VODACOM_MPESA';
      expect(await findKnownRecipients(db, [identity, 'mobile:243812345678:ORANGE_MONEY'])).toEqual(
        new Map([
          [
            identity,
            {
              identity,
              lastName: 'New Name',
              lastPayoutId: 'PR-OLD002',
              lastPaidAt: new Date('2025-03-02T10:00:00Z'),
              removed: false,
              details: { kind: 'mobile_money', phone: '243812345678', operator: 'VODACOM_MPESA' },
            },
          ],
        ]),
      );
    } finally {
      await db.close();
    }
  });
});

describe.each(testDatabases())('migration 017 on keys stored by the old bank rule, on $name', ({ open }) => {
  type Sample = { id: string; state: string; at: string; draft: PayoutDraft };
  const bankDraft = (accountNumber: string, bankCode: string, name: string): PayoutDraft => ({
    kind: 'bank_account',
    recipient: { accountNumber, bankCode, name, countryCode: 'CD' },
    amountMinor: 100,
    currency: 'USD',
    reference: '',
    note: '',
  });
  const samples: Sample[] = [
    {
      id: 'PR-OLD001',
      state: 'completed',
      at: '2025-03-01T10:00:00Z',
      draft: {
        kind: 'mobile_money',
        recipient: { phone: '243812345678', name: 'Amani', countryCode: 'CD' },
        operator: 'VODACOM_MPESA',
        amountMinor: 100,
        currency: 'USD',
        reference: '',
        note: '',
      },
    },
    { id: 'PR-OLD002', state: 'completed', at: '2025-03-02T10:00:00Z', draft: bankDraft('12345678', 'BCDCCDKIXXX', 'Head Office') },
    { id: 'PR-OLD003', state: 'completed', at: '2025-03-03T10:00:00Z', draft: bankDraft('0012345678', 'BCDCCDKI123', 'Other Branch') },
    { id: 'PR-OLD004', state: 'pending', at: '2025-03-04T10:00:00Z', draft: bankDraft('000123456789', 'BCDCCDKI', 'Zeros Kept') },
    { id: 'PR-OLD005', state: 'failed', at: '2025-03-05T10:00:00Z', draft: bankDraft('12345678', 'RAWBCDKI', 'Another Bank') },
  ];
  const oldKey = (draft: PayoutDraft) =>
    draft.kind === 'mobile_money'
      ? `mobile:${draft.recipient.phone}`
      : `bank:${draft.recipient.bankCode.slice(0, 8)}:${draft.recipient.accountNumber.replace(/^0+/, '')}`;

  it('recomputes request and bulk row keys and saved identities as the code computes them, splitting accounts the old rule merged', async () => {
    const db = await open({ migrations: migrations.filter((migration) => migration.id < 12) });
    try {
      for (const { id, state, at, draft } of samples) {
        const mobile = draft.kind === 'mobile_money' ? draft : undefined;
        const bank = draft.kind === 'bank_account' ? draft : undefined;
        await db.query(
          `INSERT INTO payout_requests (id, kind, recipient_name, country_code, phone, operator, account_number, bank_code, amount_minor, currency,
             reference, note, requested_by, requested_at, expires_at, state, required_approvals, updated_at, recipient_key)
           VALUES ($1, $2, $3, 'CD', $4, $5, $6, $7, 100, 'USD', $1, '', 'UREQUESTER', $8, $8, $9, 1, $8, $10)`,
          [
            id,
            draft.kind,
            draft.recipient.name,
            mobile?.recipient.phone ?? null,
            mobile?.operator ?? null,
            bank?.recipient.accountNumber ?? null,
            bank?.recipient.bankCode ?? null,
            at,
            state,
            oldKey(draft),
          ],
        );
      }
      await migrate(
        db,
        migrations.filter((migration) => migration.id < 14),
      );
      // The old rule saw one account where two were paid, and a requester removed it from the list.
      const merged = 'bank:BCDCCDKI:12345678';
      await db.query("UPDATE saved_recipients SET removed_at = '2025-03-06T10:00:00Z', removed_by = 'UREQUESTER' WHERE identity = $1", [merged]);
      await db.query(
        "INSERT INTO saved_recipient_events (identity, event, user_id, at, details) VALUES ($1, 'removed', 'UREQUESTER', '2025-03-06T10:00:00Z', '{}')",
        [merged],
      );
      await db.query(
        `INSERT INTO payout_batches (id, requested_by, created_at, expires_at, state, content_hash, row_count, totals, updated_at)
         VALUES ('PB-OLD001', 'UREQUESTER', '2025-03-07T10:00:00Z', '2025-03-08T10:00:00Z', 'pending', 'h', 2, '{"USD": 200}', '2025-03-07T10:00:00Z')`,
      );
      const batchDrafts = [samples[2]!.draft, samples[3]!.draft];
      for (const [index, draft] of batchDrafts.entries()) {
        await db.query(
          `INSERT INTO payout_batch_rows (batch_id, row_number, draft, reference, amount_minor, currency, recipient_key)
           VALUES ('PB-OLD001', $1, $2, $3, 100, 'USD', $4)`,
          [index + 2, JSON.stringify(draft), `PB-OLD001-${index + 2}`, oldKey(draft)],
        );
      }

      await migrate(db, migrations);

      const requests = await db.query<{ id: string; recipient_key: string }>('SELECT id, recipient_key FROM payout_requests ORDER BY id');
      expect(requests.rows).toEqual(samples.map(({ id, draft }) => ({ id, recipient_key: recipientKey(draft) })));
      const batchRows = await db.query<{ recipient_key: string }>('SELECT recipient_key FROM payout_batch_rows ORDER BY row_number');
      expect(batchRows.rows.map((row) => row.recipient_key)).toEqual(batchDrafts.map(recipientKey));
      expect(new Set(requests.rows.map((row) => row.recipient_key)).size).toBe(samples.length);

      const [mobile, headOffice, otherBranch] = samples.filter((sample) => sample.state === 'completed');
      const known = await findKnownRecipients(
        db,
        samples.map(({ draft }) => recipientIdentity(draft)),
      );
      expect(
        [...known.values()]
          .map(({ identity, lastPayoutId, removed }) => ({ identity, lastPayoutId, removed }))
          .sort((a, b) => a.lastPayoutId.localeCompare(b.lastPayoutId)),
      ).toEqual([
        { identity: recipientIdentity(mobile!.draft), lastPayoutId: mobile!.id, removed: false },
        { identity: recipientIdentity(headOffice!.draft), lastPayoutId: headOffice!.id, removed: true },
        { identity: recipientIdentity(otherBranch!.draft), lastPayoutId: otherBranch!.id, removed: true },
      ]);
      const events = await db.query<{ identity: string }>('SELECT identity FROM saved_recipient_events');
      expect(events.rows).toEqual([{ identity: recipientIdentity(otherBranch!.draft) }]);
    } finally {
      await db.close();
    }
  });
});

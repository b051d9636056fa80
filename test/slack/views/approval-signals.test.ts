import { describe, expect, it } from 'vitest';
import type { ApprovalSignals, PayoutRequest } from '../../../src/payouts/index.js';
import { buildPayoutReview } from '../../../src/slack/views/payout-form.js';
import { requestFlags } from '../../../src/slack/views/recipient-flags.js';
import { buildApprovalMessage, buildApproveModal } from '../../../src/slack/views/payout-approval.js';
import { buildBatchApprovalMessage } from '../../../src/slack/views/payout-batch-message.js';
import type { PayoutBatch } from '../../../src/payouts/index.js';
import { checkMessage, checkView } from '@fleet-treasury-bot/local-slack';
import { pendingRequest } from '../../support/payout-doubles.js';

const signals: ApprovalSignals = {
  duplicateOf: { kind: 'request', requestId: 'PR-EARLY1', reference: 'INV-1', state: 'completed' },
  unusualAmount: { times: 4.5, usualMinor: 10_000, payouts: 3 },
  dayTotals: { currency: 'USD', requesterMinor: 95_000, recipientMinor: 45_000 },
};
const senior = { thresholdMinor: 1_000_000, currency: 'USD', approvers: '<!subteam^S0CFO> <@U0SENIOR>' };
const text = (blocks: unknown) => JSON.stringify(blocks);

describe('what the approver sees beside the request', () => {
  it('shows each signal and the senior call in English and French, within Slack limits, and the tick in the approve window', () => {
    const request = pendingRequest({ amountMinor: 45_000 });
    const en = buildApprovalMessage({ sandbox: false, locale: 'en' }, request, { context: { signals, senior, duplicateWindowHours: 72 } });
    expect(checkMessage(en.blocks, en.text)).toEqual([]);
    expect(text(en.blocks)).toContain(
      '*Possible duplicate:* the same recipient, amount and currency as PR-EARLY1 (sent), requested within the last 72 hours. See `/fleet payouts PR-EARLY1`',
    );
    expect(text(en.blocks)).toContain('*Unusual amount:* 4.5 times this recipient’s usual amount (100.00 USD');
    expect(text(en.blocks)).toContain('needs one of: <!subteam^S0CFO> <@U0SENIOR>');
    expect(text(en.blocks)).toContain('Today in USD: requested by <@UREQUESTER>, 950.00 USD; to this recipient, 450.00 USD');

    const fr = buildApproveModal({ sandbox: false, locale: 'fr' }, request, { signals, senior, duplicateWindowHours: 72 });
    expect(checkView(fr as unknown as Record<string, unknown>)).toEqual([]);
    expect(text(fr.blocks)).toContain('*Doublon possible :*');
    expect(text(fr.blocks)).toContain('4,5 fois le montant habituel');
    expect(text(fr.blocks)).toContain('il faut l’un de : <!subteam^S0CFO> <@U0SENIOR>');
    expect(text(fr.blocks)).toContain('J’ai vérifié que ce n’est pas un doublon');
  });

  it('words an earlier payout that is approved but not sent as approved, as the bulk check does', () => {
    const approved: ApprovalSignals = { ...signals, duplicateOf: { kind: 'request', requestId: 'PR-EARLY1', reference: 'INV-1', state: 'approved' } };
    const message = buildApprovalMessage({ sandbox: false, locale: 'en' }, pendingRequest(), { context: { signals: approved, duplicateWindowHours: 72 } });
    expect(text(message.blocks)).toContain('as PR-EARLY1 (approved, not sent yet)');
  });

  it('shows nothing but the day totals for an ordinary payout, and no tick', () => {
    const quiet: ApprovalSignals = { duplicateOf: undefined, unusualAmount: undefined, dayTotals: signals.dayTotals };
    const modal = buildApproveModal({ sandbox: false, locale: 'en' }, pendingRequest(), { signals: quiet });
    for (const word of ['Possible duplicate', 'Unusual amount', 'senior', 'I checked']) expect(text(modal.blocks)).not.toContain(word);
    expect(text(modal.blocks)).toContain('Today in USD');
  });

  it('names the busiest day of a scheduled request instead of today, in English and French', () => {
    const scheduled: ApprovalSignals = { duplicateOf: undefined, unusualAmount: undefined, dayTotals: { ...signals.dayTotals, day: '2025-03-22' } };
    const en = buildApprovalMessage({ sandbox: false, locale: 'en' }, pendingRequest(), { context: { signals: scheduled, duplicateWindowHours: 72 } });
    expect(text(en.blocks)).toContain(
      'On Mar 22, 2025, this schedule’s busiest day, in USD: requested by <@UREQUESTER>, 950.00 USD; to this recipient, 450.00 USD (this payout included).',
    );
    expect(text(en.blocks)).not.toContain('Today in USD');
    const fr = buildApprovalMessage({ sandbox: false, locale: 'fr' }, pendingRequest(), { context: { signals: scheduled, duplicateWindowHours: 72 } });
    expect(text(fr.blocks)).toContain('Le 22 mars 2025, jour le plus chargé de cette planification, en USD');
  });

  it('calls the senior approvers on a bulk payout above the tier while it waits', () => {
    const batch: PayoutBatch = {
      id: 'PB-7K3F9Q',
      requestedBy: 'U0REQUESTER',
      createdAt: new Date(),
      requestedAt: new Date(),
      expiresAt: new Date(),
      state: 'pending',
      rowCount: 3,
      totals: new Map([['USD', 1_500_000]]),
      newRecipients: 0,
      requiredApprovals: 2,
      approvals: [],
      rejectedBy: undefined,
      rejectReason: undefined,
      stoppedBy: undefined,
      approvalMessage: undefined,
      progressMessage: undefined,
      finishedAt: undefined,
      version: 1,
    };
    const facts = { batch, largest: [], progress: { sent: 0, failed: 0, unknown: 0, remaining: 3, skipped: 0 }, senior };
    const message = buildBatchApprovalMessage({ sandbox: false, locale: 'en' }, facts);
    expect(checkMessage(message.blocks, message.text)).toEqual([]);
    expect(text(message.blocks)).toContain('needs one of: <!subteam^S0CFO> <@U0SENIOR>');
    expect(text(buildBatchApprovalMessage({ sandbox: false, locale: 'en' }, { ...facts, batch: { ...batch, state: 'sending' } }).blocks)).not.toContain(
      'needs one of',
    );
  });
});

describe('changed details: a saved recipient picked in the form and then edited', () => {
  const en = { sandbox: false, locale: 'en' } as const;
  const fr = { sandbox: false, locale: 'fr' } as const;
  const saved = { identity: 'mobile:243812345678:VODACOM_MPESA', name: 'Amani <Kabila>' };
  const edited = (overrides: Partial<PayoutRequest> = {}): PayoutRequest =>
    pendingRequest({
      recipient: { phone: '243812345679', name: 'Amani Kabila', countryCode: 'CD' },
      operator: 'ORANGE_MONEY',
      newRecipient: true,
      changedDetails: {
        saved,
        changes: [
          { field: 'phone', from: '243812345678', to: '243812345679' },
          { field: 'operator', from: 'VODACOM_MPESA', to: 'ORANGE_MONEY' },
        ],
        matches: undefined,
      },
      ...overrides,
    } as Partial<PayoutRequest>);

  it('says what changed from the saved wallet on the approval message, the approve window and the review, with the new-recipient mark', () => {
    const message = buildApprovalMessage(en, edited(), { context: {} });
    expect(checkMessage(message.blocks, message.text)).toEqual([]);
    const expected =
      '*Changed details:* filled from the saved recipient Amani &lt;Kabila&gt;, then edited: the number (`243812345678` → `243812345679`) and the operator (Vodacom M-Pesa → Orange Money).';
    expect(text(message.blocks)).toContain(expected);
    expect(text(message.blocks)).toContain('*New recipient:*');
    const modal = buildApproveModal(en, edited());
    expect(checkView(modal as unknown as Record<string, unknown>)).toEqual([]);
    expect(text(modal.blocks)).toContain(expected);
    const request = edited();
    const review = buildPayoutReview(en, request, 'C0APPROVALS', { required: 1, reason: undefined, recipient: requestFlags(request) });
    expect(text(review.blocks)).toContain(expected);
    expect(text(review.blocks)).toContain('*New recipient:*');
  });

  it('names each edited detail of a bank account', () => {
    const bank = pendingRequest({
      kind: 'bank_account',
      recipient: { accountNumber: '000123456780', bankCode: 'BCDCCDKI123', name: 'Ndaya', countryCode: 'CD' },
      changedDetails: {
        saved: { identity: 'bank:BCDCCDKI:000123456789', name: 'Ndaya' },
        changes: [
          { field: 'accountNumber', from: '000123456789', to: '000123456780' },
          { field: 'bankCode', from: 'BCDCCDKI', to: 'BCDCCDKI123' },
        ],
        matches: undefined,
      },
    });
    expect(text(buildApprovalMessage(en, bank).blocks)).toContain(
      'then edited: the account number (`000123456789` → `000123456780`) and the bank code (`BCDCCDKI` → `BCDCCDKI123`).',
    );
    expect(text(buildApprovalMessage(fr, bank).blocks)).toContain(
      'puis modifiées : le numéro de compte (`000123456789` → `000123456780`) et le code banque (`BCDCCDKI` → `BCDCCDKI123`).',
    );
  });

  it('names the known recipient the edited details belong to, in English and French', () => {
    const request = edited({
      newRecipient: false,
      previousRecipientName: 'Bora Ilunga',
      changedDetails: {
        saved,
        changes: [{ field: 'phone', from: '243812345678', to: '243899000001' }],
        matches: { name: 'Bora & Ilunga', lastPayoutId: 'PR-BORA01' },
      },
    });
    const message = text(buildApprovalMessage(en, request).blocks);
    expect(message).toContain(
      'then edited: the number (`243812345678` → `243899000001`). These are the details of another known recipient, Bora &amp; Ilunga, last paid with `PR-BORA01`.',
    );
    expect(message).not.toContain('New recipient');
    const french = buildApproveModal(fr, request);
    expect(checkView(french as unknown as Record<string, unknown>)).toEqual([]);
    expect(text(french.blocks)).toContain(
      '*Coordonnées modifiées :* remplies depuis le bénéficiaire enregistré Amani &lt;Kabila&gt;, puis modifiées : le numéro (`243812345678` → `243899000001`). Ce sont les coordonnées d’un autre bénéficiaire connu, Bora',
    );
    expect(text(french.blocks)).toContain('dernier paiement `PR-BORA01`');
  });

  it('says nothing of changed details when none were edited, and stays within Slack limits with the longest name', () => {
    expect(text(buildApprovalMessage(en, pendingRequest()).blocks)).not.toContain('Changed details');
    const long = edited({
      changedDetails: {
        saved: { ...saved, name: '<'.repeat(300) },
        changes: edited().changedDetails!.changes,
        matches: { name: '&'.repeat(300), lastPayoutId: 'PR-LONG01' },
      },
    });
    const message = buildApprovalMessage(fr, long);
    expect(checkMessage(message.blocks, message.text)).toEqual([]);
  });
});

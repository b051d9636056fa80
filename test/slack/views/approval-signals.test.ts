import { describe, expect, it } from 'vitest';
import type { ApprovalSignals } from '../../../src/payouts/index.js';
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
    expect(text(en.blocks)).toContain('*Possible duplicate:* the same recipient, amount and currency as PR-EARLY1 (sent), requested within the last 72 hours. See `/fleet payouts PR-EARLY1`');
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

  it('shows nothing but the day totals for an ordinary payout, and no tick', () => {
    const quiet: ApprovalSignals = { duplicateOf: undefined, unusualAmount: undefined, dayTotals: signals.dayTotals };
    const modal = buildApproveModal({ sandbox: false, locale: 'en' }, pendingRequest(), { signals: quiet });
    for (const word of ['Possible duplicate', 'Unusual amount', 'senior', 'I checked']) expect(text(modal.blocks)).not.toContain(word);
    expect(text(modal.blocks)).toContain('Today in USD');
  });

  it('calls the senior approvers on a bulk payout above the tier while it waits', () => {
    const batch: PayoutBatch = {
      id: 'PB-7K3F9Q', requestedBy: 'U0REQUESTER', createdAt: new Date(), requestedAt: new Date(), expiresAt: new Date(), state: 'pending', contentHash: 'x',
      rowCount: 3, totals: new Map([['USD', 1_500_000]]), newRecipients: 0, requiredApprovals: 2, approvals: [], rejectedBy: undefined,
      rejectReason: undefined, stoppedBy: undefined, approvalMessage: undefined, progressMessage: undefined, finishedAt: undefined, version: 1,
    };
    const facts = { batch, largest: [], progress: { sent: 0, failed: 0, unknown: 0, remaining: 3, skipped: 0 }, senior };
    const message = buildBatchApprovalMessage({ sandbox: false, locale: 'en' }, facts);
    expect(checkMessage(message.blocks, message.text)).toEqual([]);
    expect(text(message.blocks)).toContain('needs one of: <!subteam^S0CFO> <@U0SENIOR>');
    expect(text(buildBatchApprovalMessage({ sandbox: false, locale: 'en' }, { ...facts, batch: { ...batch, state: 'sending' } }).blocks)).not.toContain('needs one of');
  });
});

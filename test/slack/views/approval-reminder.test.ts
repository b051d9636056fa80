import { describe, expect, it } from 'vitest';
import { checkMessage } from '@fleet-treasury-bot/local-slack';
import { LOCALES } from '../../../src/i18n/index.js';
import type { PayoutBatch } from '../../../src/payouts/index.js';
import { buildApprovalReminder } from '../../../src/slack/views/approval-reminder.js';
import { pendingRequest } from '../../support/payout-doubles.js';

describe('the reminder an approver gets', () => {
  const batch = {
    id: 'PB-7K3F9Q',
    requestedBy: 'U0RITA',
    rowCount: 3,
    totals: new Map([
      ['USD', 150_050],
      ['EUR', 500],
    ]),
    expiresAt: new Date('2026-11-22T10:00:00Z'),
    approvalMessage: { channel: 'C0APPROVALS', ts: '1.000001' },
  } as unknown as PayoutBatch;

  it('says what waits, its amount, its expiry and links the approval message, in both languages and within Block Kit limits', () => {
    for (const locale of LOCALES) {
      const reply = buildApprovalReminder(
        { sandbox: false, locale },
        { kind: 'payout', request: pendingRequest({ amountMinor: 150_050, currency: 'USD' }) },
        { url: 'https://x.slack.com/archives/C0APPROVALS/p1000001' },
      );
      expect(checkMessage(reply.blocks, reply.text)).toEqual([]);
      expect(JSON.stringify(reply.blocks)).toContain('<https://x.slack.com/archives/C0APPROVALS/p1000001|');
      expect(JSON.stringify(reply.blocks)).toContain('<!date^');
    }
    const french = buildApprovalReminder({ sandbox: false, locale: 'fr' }, { kind: 'batch', batch }, { channel: 'C0APPROVALS' });
    expect(JSON.stringify(french.blocks)).toMatch(/1\s500,50\sUSD/);
    expect(JSON.stringify(french.blocks)).toContain('<#C0APPROVALS>');
    expect(french.text).toContain('Rappel');
  });

  it('escapes a hostile recipient name', () => {
    const reply = buildApprovalReminder(
      { sandbox: false, locale: 'en' },
      { kind: 'payout', request: pendingRequest({ recipient: { phone: '243812345678', name: '<!channel> Amani', countryCode: 'CD' } }) },
      undefined,
    );
    expect(JSON.stringify(reply.blocks)).not.toContain('<!channel>');
  });
});

import { checkMessage, checkView } from '@fleet-treasury-bot/local-slack';
import { describe, expect, it } from 'vitest';
import type { SavedRecipient } from '../../../src/payouts/index.js';
import { buildApprovalMessage, buildApproveModal } from '../../../src/slack/views/payout-approval.js';
import { buildPayoutForm } from '../../../src/slack/views/payout-form.js';
import { buildRecipientList, fillFromSaved, recipientOptions } from '../../../src/slack/views/saved-recipients.js';
import type { Surface } from '../../../src/slack/views/text.js';
import { pendingRequest, settings } from '../../support/payout-doubles.js';

const EN: Surface = { sandbox: false, locale: 'en' };
const FR: Surface = { sandbox: true, locale: 'fr' };
const hostile = `<!channel> *Eve* & <https://evil.example|pay here> ${'x'.repeat(250)}`;

function saved(index: number, name = `Recipient ${index}`): SavedRecipient {
  return {
    identity: `mobile:24381000${String(index).padStart(4, '0')}:VODACOM_MPESA`,
    lastPayoutId: `PR-${String(index).padStart(6, '0')}`,
    lastPaidAt: new Date('2026-11-20T10:00:00Z'),
    kind: 'mobile_money',
    operator: 'VODACOM_MPESA',
    recipient: { phone: `24381000${String(index).padStart(4, '0')}`, name, countryCode: 'CD' },
  };
}

const bank: SavedRecipient = {
  identity: 'bank:BCDCCDKI:123456789',
  lastPayoutId: 'PR-BANK01',
  lastPaidAt: new Date('2026-11-20T10:00:00Z'),
  kind: 'bank_account',
  recipient: { accountNumber: '000123456789', bankCode: 'BCDCCDKIXXX', name: 'Ndaya Logistics SARL', countryCode: 'CD' },
};

describe('the saved recipients views', () => {
  it("list 15 recipients with hostile names inside Slack's limits, escaped, each with a Remove button that asks first", () => {
    const recipients = Array.from({ length: 15 }, (_, index) => saved(index, hostile));
    const reply = buildRecipientList(EN, recipients, { words: ['<!here>'], total: 40 }, { canRemove: true, notice: 'Done.' });
    expect(checkMessage(reply.blocks, reply.text)).toEqual([]);
    const text = JSON.stringify(reply.blocks);
    expect(text).not.toContain('<!channel>');
    expect(text).toContain('&lt;!channel&gt;');
    expect(text).toContain('40 saved recipients hold `&lt;!here&gt;`; the 15 last paid are shown.');
    expect(text.match(/"action_id":"saved_recipient_remove"/g)).toHaveLength(15);
    expect(text).toContain('"confirm":{');
    expect(JSON.stringify(buildRecipientList(EN, recipients, { words: [], total: 15 }, { canRemove: false }).blocks)).not.toContain('saved_recipient_remove');
  });

  it('offer options of plain text within 75 characters, the name never formatted', () => {
    const options = recipientOptions([saved(1, hostile), bank], 'en');
    for (const option of options) expect(option.text.text.length).toBeLessThanOrEqual(75);
    expect(options[0]?.text).toMatchObject({ type: 'plain_text' });
    expect(options[0]?.text.text.startsWith('<!channel> *Eve* &')).toBe(true);
    expect(options[1]).toMatchObject({ text: { text: 'Ndaya Logistics SARL · 000123456789 · BCDCCDKIXXX' }, value: 'bank:BCDCCDKI:123456789' });
  });

  it('fill the recipient fields of the picked kind and keep the amount, currency, reference and note typed', () => {
    const typed = { phone: '243899999999', name: 'Typed', amount: '25', currency: 'USD', reference: 'INV-1', note: 'hello' };
    expect(fillFromSaved(typed, bank)).toEqual({
      accountNumber: '000123456789',
      bankCode: 'BCDCCDKIXXX',
      name: 'Ndaya Logistics SARL',
      countryCode: 'CD',
      amount: '25',
      currency: 'USD',
      reference: 'INV-1',
      note: 'hello',
    });
    const form = buildPayoutForm(FR, 'bank_account', settings, fillFromSaved(typed, bank), [], 2);
    expect(checkView(form as unknown as Record<string, unknown>)).toEqual([]);
    expect(JSON.stringify(form.blocks)).toContain('"block_id":"payout_account_number_2"');
    expect(JSON.stringify(form.blocks)).toContain('Bénéficiaire enregistré');
    expect(JSON.parse(form.private_metadata ?? '{}')).toEqual({ kind: 'bank_account', fill: 2 });
  });

  it('mark a new recipient and another name on the approval message and the approve window, the old name escaped', () => {
    const request = pendingRequest({ newRecipient: true, previousRecipientName: hostile, requiredApprovals: 3, dualApproval: { rule: 'new_recipient' } });
    for (const surface of [EN, FR]) {
      const message = buildApprovalMessage(surface, request);
      const modal = buildApproveModal(surface, request);
      expect(checkMessage(message.blocks, message.text)).toEqual([]);
      expect(checkView(modal as unknown as Record<string, unknown>)).toEqual([]);
      for (const text of [JSON.stringify(message.blocks), JSON.stringify(modal.blocks)]) {
        expect(text).not.toContain('<!channel>');
        expect(text).toContain(surface.locale === 'en' ? '*New recipient:*' : '*Nouveau bénéficiaire :*');
        expect(text).toContain(surface.locale === 'en' ? '*Another name:*' : '*Autre nom :*');
      }
      expect(JSON.stringify(message.blocks)).toContain(surface.locale === 'en' ? 'Needs 3 different approvers' : 'Nécessite 3 approbateurs différents');
    }
  });
});

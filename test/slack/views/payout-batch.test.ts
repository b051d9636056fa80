import { describe, expect, it } from 'vitest';
import { checkMessage, checkView } from '@fleet-treasury-bot/local-slack';
import { readBatchFile } from '../../../src/payouts/batch/file.js';
import { checkBatchRows } from '../../../src/payouts/batch/rows.js';
import type { PayoutBatch } from '../../../src/payouts/index.js';
import { buildBatchApprovalMessage } from '../../../src/slack/views/payout-batch-message.js';
import { buildBatchResult, buildBatchUploadModal } from '../../../src/slack/views/payout-batch.js';
import type { Surface } from '../../../src/slack/views/text.js';

const EN: Surface = { sandbox: true, locale: 'en' };
const FR: Surface = { sandbox: false, locale: 'fr' };
const settings = {
  operators: ['VODACOM_MPESA'],
  currencies: ['USD', 'EUR'],
  maxAmount: new Map([
    ['USD', 5_000_000],
    ['EUR', 5_000_000],
  ]),
};
const HEADER = 'kind,number,provider,name,country,amount,currency,reference,note';
const HOSTILE = '<!channel> *bold* &amp; <https://evil.example|click>';

const asJson = (view: object) => view as unknown as Record<string, unknown>;

async function checked(lines: string[]) {
  const reading = await readBatchFile(`${HEADER}\n${lines.join('\n')}\n`, { maxRows: 5000 });
  if (!reading.ok) throw new Error(reading.problem.code);
  return checkBatchRows(reading.rows, reading.columnProblems, { settings, now: new Date('2026-11-23T10:00:00Z'), batchId: 'PB-7K3F9Q' });
}

describe('the bulk payout views', () => {
  it('keep the form within Block Kit limits, in both languages', () => {
    expect(checkView(asJson(buildBatchUploadModal(EN, 500)))).toEqual([]);
    expect(checkView(asJson(buildBatchUploadModal(FR, 500)))).toEqual([]);
  });

  it('show at most 20 of 5,000 problems, escaped, within Block Kit limits', async () => {
    const view = buildBatchResult(EN, await checked(Array.from({ length: 5000 }, (_, index) => `mobile,24381${index},NOPE,"${HOSTILE}",CD,1,GBP,,`)), {
      sent: 'pb-7k3f9q-problems.csv',
    });
    expect(checkView(asJson(view))).toEqual([]);
    const text = JSON.stringify(view.blocks);
    expect(text.match(/• Row /g)).toHaveLength(20);
    expect(text).toContain('5,000 rows');
    expect(text).not.toContain('<!channel>');
  });

  it('escape names in the summary and keep a 5,000-row summary within limits', async () => {
    const view = buildBatchResult(
      FR,
      await checked(
        Array.from({ length: 5000 }, (_, index) => `mobile,2438123${String(index).padStart(5, '0')},VODACOM_MPESA,"${HOSTILE}",CD,${index + 1},USD,,`),
      ),
      undefined,
      { batchId: 'PB-7K3F9Q' },
    );
    expect(checkView(asJson(view))).toEqual([]);
    expect(JSON.stringify(view.blocks)).not.toContain('<!channel>');
    expect(view.private_metadata).toBe('PB-7K3F9Q');
  });

  it("name the thousands reading of an amount with decimals beyond its currency's, in both languages", async () => {
    const check = await checked([
      'mobile,243812345678,VODACOM_MPESA,Amani Kabila,CD,1.500,USD,,',
      'mobile,243812345678,VODACOM_MPESA,Amani Kabila,CD,20.5000,EUR,,',
    ]);
    expect(check.rows).toEqual([]);
    const english = JSON.stringify(buildBatchResult(EN, check, undefined).blocks);
    expect(english).toContain('Row 2, amount: 1.500 USD: 1,500? USD has 2 decimals.');
    expect(english).toContain('Row 3, amount: EUR has 2 decimals at most.');
    expect(JSON.stringify(buildBatchResult(FR, check, undefined).blocks)).toContain(
      'Ligne 2, amount : 1.500 USD : 1\u202F500 ? Les montants en USD ont 2 décimales.',
    );
  });

  it('list rows that may pay someone twice with what each repeats, and ask for the tick, within limits in both languages', async () => {
    const check = await checked(
      Array.from({ length: 5000 }, (_, index) => `mobile,2438123${String(index % 2500).padStart(5, '0')},VODACOM_MPESA,Person,CD,1,USD,,`),
    );
    check.rows[0] = { ...check.rows[0]!, duplicateOf: { kind: 'request', requestId: 'PR-7K3F9Q', reference: 'REF-1', state: 'completed' } };
    check.rows[1] = { ...check.rows[1]!, duplicateOf: { kind: 'batch_row', batchId: 'PB-2222AA', rowNumber: 7 } };
    for (const [surface, words] of [
      [EN, ['2,502 rows may pay someone twice', 'row 2 repeats PR-7K3F9Q (sent)', 'row 3 repeats PB-2222AA row 7', 'row 2,502 repeats row 2']],
      [FR, ['lignes peuvent payer quelqu’un deux fois', 'la ligne 2 répète PR-7K3F9Q (envoyé)']],
    ] as const) {
      const view = buildBatchResult(surface, check, undefined, { batchId: 'PB-7K3F9Q' });
      expect(checkView(asJson(view))).toEqual([]);
      const text = JSON.stringify(view.blocks);
      for (const word of words) expect(text).toContain(word);
      expect(text).toContain('"type":"checkboxes"');
    }
  });

  it('keep the approval message within limits, its buttons carrying the batch id only', async () => {
    const { rows } = await checked([`mobile,243812345678,VODACOM_MPESA,"${HOSTILE}",CD,10,USD,,`]);
    const batch: PayoutBatch = {
      id: 'PB-7K3F9Q',
      requestedBy: 'U0REQUESTER',
      createdAt: new Date(),
      requestedAt: new Date(),
      expiresAt: new Date(),
      state: 'pending',
      rowCount: 500,
      totals: new Map([
        ['USD', 1000],
        ['EUR', 2000],
      ]),
      newRecipients: 3,
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
    const message = buildBatchApprovalMessage(EN, {
      batch,
      largest: rows.map((row) => ({ ...row, requestId: undefined, skipped: undefined })),
      progress: { sent: 0, failed: 0, unknown: 0, remaining: 500, skipped: 0 },
    });
    expect(checkMessage(message.blocks, message.text)).toEqual([]);
    expect(JSON.stringify(message.blocks)).not.toContain('<!channel>');
    expect(JSON.stringify(message.blocks).match(/"value":"[^"]*"/g)).toEqual(['"value":"PB-7K3F9Q"', '"value":"PB-7K3F9Q"']);
  });

  it('state the money flow of the spec on the checked screen and the approval message, in each language', async () => {
    const check = await checked(['mobile,243812345678,VODACOM_MPESA,Amani Kabila,CD,1500.50,USD,,']);
    const ready = { batchId: 'PB-7K3F9Q' };
    expect(JSON.stringify(buildBatchResult(EN, check, undefined, ready).blocks)).toContain(
      "debits the platform's wallet user and credits the fleet account with the totals above",
    );
    const batch: PayoutBatch = {
      id: 'PB-7K3F9Q',
      requestedBy: 'U0REQUESTER',
      createdAt: new Date(),
      requestedAt: new Date(),
      expiresAt: new Date(),
      state: 'pending',
      rowCount: 1,
      totals: new Map([['USD', 150_050]]),
      newRecipients: 1,
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
    const facts = { batch, largest: [], progress: { sent: 0, failed: 0, unknown: 0, remaining: 1, skipped: 0 } };
    const french = JSON.stringify(buildBatchApprovalMessage(FR, facts).blocks);
    expect(french).toContain('débite l’utilisateur portefeuille de la plateforme et crédite le compte de flotte');
    expect(french).toContain('1\u202f500,50 USD');
  });

  it("state the count and the totals per currency in the confirmation of Approve and send all, in the reader's language", () => {
    const batch: PayoutBatch = {
      id: 'PB-7K3F9Q',
      requestedBy: 'U0REQUESTER',
      createdAt: new Date(),
      requestedAt: new Date(),
      expiresAt: new Date(),
      state: 'pending',
      rowCount: 12,
      totals: new Map([
        ['USD', 150_050],
        ['CDF', 250_000_000],
      ]),
      newRecipients: 0,
      requiredApprovals: 1,
      approvals: [],
      rejectedBy: undefined,
      rejectReason: undefined,
      stoppedBy: undefined,
      approvalMessage: undefined,
      progressMessage: undefined,
      finishedAt: undefined,
      version: 1,
    };
    const facts = { batch, largest: [], progress: { sent: 0, failed: 0, unknown: 0, remaining: 12, skipped: 0 } };
    const confirmOf = (surface: Surface) => JSON.stringify(buildBatchApprovalMessage(surface, facts).blocks.find((block) => block.type === 'actions'));
    expect(confirmOf(EN)).toContain('Approving PB-7K3F9Q sends 12 payouts in all: 2,500,000.00 CDF · 1,500.50 USD.');
    expect(confirmOf(FR)).toContain('Approuver PB-7K3F9Q envoie 12 virements en tout : 2\u202f500\u202f000,00 CDF · 1\u202f500,50 USD.');
  });
});

import { describe, expect, it } from 'vitest';
import type { PayoutRequest } from '../../../src/payouts/index.js';
import { stepErrorText } from '../../../src/slack/refusals/workflow-step-errors.js';
import { outcomeOf, type StepOutcome } from '../../../src/workflow/index.js';

const request = (state: PayoutRequest['state'], extra: Partial<PayoutRequest> = {}) =>
  ({ id: 'PR-ABC123', state, transactionId: undefined, ...extra }) as PayoutRequest;

describe("a payout step's outcome", () => {
  it('is sent for a completed payout, an error for each other end, and none while it may still change', () => {
    expect(outcomeOf(request('completed', { transactionId: 'TX-9' }))).toEqual({ status: 'sent', requestId: 'PR-ABC123', transactionId: 'TX-9' });
    for (const state of ['rejected', 'expired', 'cancelled', 'failed'] as const)
      expect(outcomeOf(request(state))).toEqual({ error: state, requestId: 'PR-ABC123' });
    for (const state of ['pending', 'approved', 'executing', 'unknown'] as const) expect(outcomeOf(request(state))).toBeUndefined();
  });
});

describe('stepErrorText', () => {
  const errors: Array<Extract<StepOutcome, { error: string }>> = [
    {
      error: 'invalid_inputs',
      problems: [
        { input: 'kind', problem: { code: 'kind_unknown' } },
        { input: 'number', field: 'phone', problem: { code: 'required' } },
      ],
    },
    { error: 'refused', refusal: { code: 'not_requester', details: { action: 'request' } } },
    { error: 'not_configured' },
    { error: 'declined' },
    { error: 'not_confirmed' },
    { error: 'rejected', requestId: 'PR-ABC123' },
    { error: 'expired', requestId: 'PR-ABC123' },
    { error: 'cancelled', requestId: 'PR-ABC123' },
    { error: 'failed', requestId: 'PR-ABC123' },
  ];

  it('names each bad input as the manifest names it', () => {
    expect(stepErrorText('en', errors[0]!)).toMatch(/^The payout could not be requested: kind: write mobile or bank; number: .+/);
    expect(stepErrorText('fr', errors[0]!)).toMatch(/^Le paiement n’a pas pu être demandé : kind : écrivez mobile ou bank ; number : .+/);
  });

  it('says who rejected the payout and why, and when it expired', () => {
    expect(stepErrorText('en', errors[5]!, request('rejected', { rejectedBy: 'U0APPROVER', rejectReason: 'Wrong account' }))).toBe(
      'Payout request PR-ABC123 was rejected by <@U0APPROVER>: Wrong account',
    );
    expect(stepErrorText('en', errors[6]!)).toBe('Payout request PR-ABC123 expired before it was approved.');
  });

  it("words every error in English and in French, each under Slack's limit", () => {
    for (const error of errors) {
      for (const locale of ['en', 'fr'] as const) {
        const text = stepErrorText(locale, error, request('failed', { failureReason: 'fleet:rejected:Wallet closed' }));
        expect(text.length, `${error.error} ${locale}`).toBeGreaterThan(10);
        expect(text.length).toBeLessThanOrEqual(2000);
        expect(text).not.toMatch(/\{\w+\}/);
      }
    }
  });
});

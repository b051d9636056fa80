import { describe, expect, it } from 'vitest';
import { payoutDay } from '../../src/payouts/day-totals.js';
import { canTransition, isFinalState, PAYOUT_STATES } from '../../src/payouts/model.js';
import {
  canApprove,
  canCancel,
  canReject,
  canRequest,
  canRetry,
  checkDailyLimit,
  checkMaxAmount,
  checkRejectReason,
  approvalRequirement,
  countingApprovers,
  decideRelease,
  hasEnoughApprovals,
  recipientKey,
  type PayoutActor,
} from '../../src/payouts/policy.js';
import { pendingRequest } from '../support/payout-doubles.js';

const now = new Date('2025-03-14T12:00:00Z');

const approver = (userId: string): PayoutActor => ({ userId, canRequest: false, canApprove: true });
const requesterWhoIsApprover: PayoutActor = { userId: 'UREQUESTER', canRequest: true, canApprove: true };
const bystander: PayoutActor = { userId: 'UBYSTANDER', canRequest: true, canApprove: false };

describe('payout policy', () => {
  it('refuses a request from someone who is not a requester', () => {
    expect(canRequest(approver('UAPPROVER'))).toEqual({ ok: false, code: 'not_requester', details: { action: 'request' } });
    expect(canRequest(bystander)).toEqual({ ok: true });
  });

  it('refuses an approval by the requester even when they are an approver', () => {
    const decision = canApprove(pendingRequest(), requesterWhoIsApprover, now);
    expect(decision).toEqual({ ok: false, code: 'own_request', details: { action: 'approve', payoutId: 'PR-7K3F9Q' } });
  });

  it('refuses an approval by someone who is not an approver', () => {
    expect(canApprove(pendingRequest(), bystander, now)).toMatchObject({ ok: false, code: 'not_approver' });
  });

  it('allows an approver other than the requester', () => {
    expect(canApprove(pendingRequest(), approver('UAPPROVER'), now)).toEqual({ ok: true });
  });

  it('refuses the same approver twice', () => {
    const request = pendingRequest({ requiredApprovals: 2, approvals: [{ userId: 'UAPPROVER', at: now }] });
    expect(canApprove(request, approver('UAPPROVER'), now)).toMatchObject({ ok: false, code: 'already_approved' });
    expect(canApprove(request, approver('USECOND'), now)).toEqual({ ok: true });
  });

  it('refuses an approval after expiry or once the request has moved on', () => {
    expect(canApprove(pendingRequest(), approver('UAPPROVER'), new Date('2025-03-15T11:00:00Z'))).toMatchObject({ ok: false, code: 'expired' });
    const decision = canApprove(pendingRequest({ state: 'completed' }), approver('UAPPROVER'), now);
    expect(decision).toEqual({ ok: false, code: 'not_pending', details: { payoutId: 'PR-7K3F9Q', state: 'completed' } });
  });

  it('counts two different approvers other than the requester when two are needed', () => {
    const one = pendingRequest({ requiredApprovals: 2, approvals: [{ userId: 'UA', at: now }] });
    expect(hasEnoughApprovals(one)).toBe(false);
    const sameTwice = pendingRequest({
      requiredApprovals: 2,
      approvals: [
        { userId: 'UA', at: now },
        { userId: 'UA', at: now },
      ],
    });
    expect(hasEnoughApprovals(sameTwice)).toBe(false);
    const withRequester = pendingRequest({
      requiredApprovals: 2,
      approvals: [
        { userId: 'UA', at: now },
        { userId: 'UREQUESTER', at: now },
      ],
    });
    expect(countingApprovers(withRequester)).toEqual(['UA']);
    expect(hasEnoughApprovals(withRequester)).toBe(false);
    const two = pendingRequest({
      requiredApprovals: 2,
      approvals: [
        { userId: 'UA', at: now },
        { userId: 'UB', at: now },
      ],
    });
    expect(hasEnoughApprovals(two)).toBe(true);
  });

  it("needs two approvers when the amount, the requester's day total or the recipient's day total is above the threshold, naming the first", () => {
    const thresholds = new Map([['USD', 100_000]]);
    const measure = (amountMinor: number, requesterTotalMinor: number, recipientTotalMinor: number, currency = 'USD') =>
      approvalRequirement({ amountMinor, requesterTotalMinor, recipientTotalMinor, currency }, thresholds);
    expect(measure(100_000, 100_000, 100_000)).toEqual({ required: 1, reason: undefined });
    expect(measure(100_001, 300_000, 300_000)).toEqual({ required: 2, reason: { rule: 'amount', totalMinor: 100_001, thresholdMinor: 100_000 } });
    expect(measure(50_000, 150_000, 300_000)).toEqual({ required: 2, reason: { rule: 'requester_total', totalMinor: 150_000, thresholdMinor: 100_000 } });
    expect(measure(50_000, 50_000, 100_001)).toEqual({ required: 2, reason: { rule: 'recipient_total', totalMinor: 100_001, thresholdMinor: 100_000 } });
    expect(measure(1, 1, 1, 'EUR')).toEqual({ required: 2, reason: { rule: 'amount', totalMinor: 1, thresholdMinor: 0 } });
  });

  it('asks the new-recipient count for a recipient never paid before when it is more than the amount rules ask', () => {
    const thresholds = new Map([['USD', 100_000]]);
    const input = { amountMinor: 100, requesterTotalMinor: 100, recipientTotalMinor: 100, currency: 'USD' };
    expect(approvalRequirement({ ...input, newRecipient: true }, thresholds, 2)).toEqual({ required: 2, reason: { rule: 'new_recipient' } });
    expect(approvalRequirement({ ...input, newRecipient: false }, thresholds, 3)).toEqual({ required: 1, reason: undefined });
    expect(approvalRequirement({ ...input, newRecipient: true }, thresholds, 1)).toEqual({ required: 1, reason: undefined });
    const big = { ...input, amountMinor: 200_000 };
    expect(approvalRequirement({ ...big, newRecipient: true }, thresholds, 2)).toEqual({
      required: 2,
      reason: { rule: 'amount', totalMinor: 200_000, thresholdMinor: 100_000 },
    });
    expect(approvalRequirement({ ...big, newRecipient: true }, thresholds, 4)).toEqual({ required: 4, reason: { rule: 'new_recipient' } });
  });

  it('knows a recipient however its wallet or account was written', () => {
    const mobile = {
      kind: 'mobile_money',
      recipient: { phone: '243812345678', name: 'X', countryCode: 'CD' },
      operator: 'VODACOM_MPESA',
      amountMinor: 1,
      currency: 'USD',
      reference: 'R',
      note: '',
    } as const;
    expect(recipientKey(mobile)).toBe('mobile:243812345678');
    expect(recipientKey({ ...mobile, operator: 'ORANGE_MONEY' })).toBe('mobile:243812345678');
    const bank = (accountNumber: string, bankCode: string) =>
      recipientKey({
        kind: 'bank_account',
        recipient: { accountNumber, bankCode, name: 'X', countryCode: 'CD' },
        amountMinor: 1,
        currency: 'USD',
        reference: 'R',
        note: '',
      });
    expect(bank('000123456789', 'BCDCCDKI')).toBe(bank('000123456789', 'BCDCCDKIXXX'));
    expect(bank('000123456789', 'BCDCCDKI')).not.toBe(bank('123456789', 'BCDCCDKI'));
    expect(bank('123456789', 'BCDCCDKI')).not.toBe(bank('123456789', 'BCDCCDKI123'));
    expect(bank('123456789', 'BCDCCDKI')).not.toBe(bank('123456789', 'RAWBCDKI'));
  });

  it('releases only with enough approvers who still are ones, and a requester who still may request', () => {
    const two = pendingRequest({
      approvals: [
        { userId: 'UA', at: now },
        { userId: 'UB', at: now },
      ],
    });
    const roles = (requesterMayRequest: boolean, approvers: Record<string, boolean>, unreadable = false) => ({
      requesterMayRequest,
      approvers: new Map(Object.entries(approvers)),
      unreadable,
    });
    expect(decideRelease(two, roles(true, { UA: true, UB: true }), 2)).toEqual({ revoke: [], hold: undefined, release: true });
    expect(decideRelease(two, roles(true, { UA: false, UB: true }), 2)).toEqual({ revoke: ['UA'], hold: undefined, release: false });
    expect(decideRelease(two, roles(true, { UA: false, UB: true }), 1)).toEqual({ revoke: ['UA'], hold: undefined, release: true });
    expect(decideRelease(two, roles(false, { UA: true, UB: true }), 2)).toEqual({ revoke: [], hold: 'requester_not_allowed', release: false });
    expect(decideRelease(two, roles(true, {}, true), 2)).toEqual({ revoke: [], hold: 'roles_unavailable', release: false });
    const revoked = pendingRequest({
      approvals: [
        { userId: 'UA', at: now, revokedAt: now },
        { userId: 'UB', at: now },
      ],
    });
    expect(countingApprovers(revoked)).toEqual(['UB']);
    expect(canApprove(revoked, approver('UA'), now)).toEqual({ ok: true });
    expect(canApprove(revoked, approver('UB'), now)).toMatchObject({ ok: false, code: 'already_approved' });
    expect(canApprove({ ...revoked, requiredApprovals: 1, hold: 'roles_unavailable' }, approver('UB'), now)).toEqual({ ok: true });
  });

  it('lets approvers other than the requester reject a pending request', () => {
    expect(canReject(pendingRequest(), approver('UAPPROVER'), now)).toEqual({ ok: true });
    expect(canReject(pendingRequest(), requesterWhoIsApprover, now)).toMatchObject({ ok: false, code: 'own_request', details: { action: 'reject' } });
    expect(canReject(pendingRequest(), bystander, now)).toMatchObject({ ok: false, code: 'not_approver' });
    expect(canReject(pendingRequest({ state: 'approved' }), approver('UAPPROVER'), now)).toMatchObject({ ok: false, code: 'not_pending' });
  });

  it('requires a rejection reason of 3 to 500 characters', () => {
    expect(checkRejectReason('  no ')).toEqual({ ok: false, code: 'reason_required', details: { cause: 'too_short' } });
    expect(checkRejectReason('Wrong recipient')).toEqual({ ok: true });
    expect(checkRejectReason('x'.repeat(501))).toEqual({ ok: false, code: 'reason_required', details: { cause: 'too_long' } });
  });

  it('lets only the requester cancel, and only before any approval', () => {
    expect(canCancel(pendingRequest(), { userId: 'UREQUESTER' })).toEqual({ ok: true });
    expect(canCancel(pendingRequest(), { userId: 'UAPPROVER' })).toMatchObject({ ok: false, code: 'not_cancellable', details: { cause: 'not_requester' } });
    expect(canCancel(pendingRequest({ requiredApprovals: 2, approvals: [{ userId: 'UA', at: now }] }), { userId: 'UREQUESTER' })).toMatchObject({
      ok: false,
      code: 'not_cancellable',
      details: { cause: 'has_approval' },
    });
    expect(canCancel(pendingRequest({ state: 'rejected' }), { userId: 'UREQUESTER' })).toMatchObject({ ok: false, code: 'not_pending' });
  });

  it('allows a retry only for an unknown payout that needs review, by an approver other than the requester', () => {
    const review = pendingRequest({ state: 'unknown', needsReview: true });
    expect(canRetry(review, approver('UAPPROVER'))).toEqual({ ok: true });
    expect(canRetry(review, requesterWhoIsApprover)).toMatchObject({ ok: false, code: 'own_request' });
    expect(canRetry(review, bystander)).toMatchObject({ ok: false, code: 'not_approver' });
    expect(canRetry(pendingRequest({ state: 'unknown' }), approver('UAPPROVER'))).toMatchObject({
      ok: false,
      code: 'not_retryable',
      details: { cause: 'still_searching' },
    });
    expect(canRetry(pendingRequest({ state: 'failed' }), approver('UAPPROVER'))).toMatchObject({
      ok: false,
      code: 'not_retryable',
      details: { state: 'failed' },
    });
  });

  it('refuses an amount over the maximum for its currency', () => {
    const max = new Map([['USD', 5_000_000]]);
    expect(checkMaxAmount(5_000_000, 'USD', max)).toEqual({ ok: true });
    expect(checkMaxAmount(5_000_001, 'USD', max)).toEqual({ ok: false, code: 'over_max_amount', details: { maxMinor: 5_000_000, currency: 'USD' } });
    expect(checkMaxAmount(1, 'EUR', max)).toEqual({ ok: false, code: 'over_max_amount', details: { cause: 'not_configured', currency: 'EUR' } });
  });

  it('refuses a request that takes the requester over the daily limit, counting the new one', () => {
    const limits = new Map([['USD', 100_000]]);
    expect(checkDailyLimit({ alreadyRequestedMinor: 60_000, amountMinor: 40_000, currency: 'USD' }, limits)).toEqual({ ok: true });
    expect(checkDailyLimit({ alreadyRequestedMinor: 60_000, amountMinor: 40_001, currency: 'USD' }, limits)).toEqual({
      ok: false,
      code: 'over_daily_limit',
      details: { limitMinor: 100_000, leftMinor: 40_000, currency: 'USD' },
    });
  });

  it('counts a payout in the UTC day of its request', () => {
    expect(payoutDay(new Date('2025-03-14T23:59:59.999Z'))).toEqual({ start: new Date('2025-03-14T00:00:00Z'), end: new Date('2025-03-15T00:00:00Z') });
  });

  it('allows only the documented state transitions', () => {
    expect(canTransition('pending', 'approved')).toBe(true);
    expect(canTransition('approved', 'executing')).toBe(true);
    expect(canTransition('executing', 'unknown')).toBe(true);
    expect(canTransition('unknown', 'completed')).toBe(true);
    expect(canTransition('pending', 'executing')).toBe(false);
    expect(canTransition('completed', 'executing')).toBe(false);
    expect(canTransition('unknown', 'failed')).toBe(false);
    expect(PAYOUT_STATES.filter(isFinalState)).toEqual(['completed', 'failed', 'rejected', 'expired', 'cancelled']);
  });
});

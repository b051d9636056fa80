/** What the payout view tests share: an English reader, one pending request to vary, and reading buttons back. */
import type { PayoutRequest } from '../../src/payouts/index.js';
import { PAYOUT_ACTIONS } from '../../src/slack/ids.js';
import { pendingRequest } from './payout-doubles.js';

export const surface = { sandbox: false, locale: 'en' as const };
export const at = new Date('2026-11-21T10:00:00.000Z');

/** A pending request of 1,500.50 waiting for two approvers, with its approval message posted. */
export function request(overrides: Partial<PayoutRequest> = {}): PayoutRequest {
  return pendingRequest({
    amountMinor: 150_050,
    reference: 'INV-2025-0042',
    note: 'March stipend',
    requestedBy: 'U0REQUESTER',
    requestedAt: at,
    expiresAt: new Date(at.getTime() + 24 * 3_600_000),
    requiredApprovals: 2,
    approvalMessage: { channel: 'C0APPROVALS', ts: '1.000001' },
    updatedAt: at,
    ...overrides,
  });
}

export const json = (value: unknown) => JSON.stringify(value);

/** The payout buttons a message or view offers, in the order of `PAYOUT_ACTIONS`. */
export const buttons = (blocks: unknown) => Object.values(PAYOUT_ACTIONS).filter((id) => json(blocks).includes(`"action_id":"${id}"`));

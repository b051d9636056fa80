import { describe, expect, it } from 'vitest';
import {
  FleetAuthError,
  FleetBadResponseError,
  FleetConnectionError,
  FleetNotFoundError,
  FleetRateLimitError,
  FleetRejectedError,
  FleetTimeoutError,
  FleetUnavailableError,
} from '../../src/fleet/errors.js';
import { currentFailureReason, INTERRUPTED_FAILURE } from '../../src/payouts/index.js';

describe('failure reasons stored as English sentences before they were codes', () => {
  it('reads back every sentence the Fleet client wrote to its code', () => {
    const errors = [
      new FleetAuthError(401),
      new FleetNotFoundError(),
      new FleetRateLimitError(undefined),
      new FleetUnavailableError(503, true),
      new FleetTimeoutError(true),
      new FleetConnectionError(false),
      new FleetBadResponseError('not JSON', 200, true),
      new FleetRejectedError(400, undefined),
    ];
    for (const error of errors) expect(currentFailureReason(error.userMessage)).toBe(`fleet:${error.code}`);
  });

  it("keeps the Fleet API's own words of a refusal, and reads a conflict as one", () => {
    const rejected = new FleetRejectedError(400, 'recipient.phone is not a wallet');
    expect(currentFailureReason(rejected.userMessage)).toBe('fleet:rejected:recipient.phone is not a wallet');
    const conflict = new FleetRejectedError(409, 'duplicate reference');
    expect(currentFailureReason(`${conflict.userMessage} A payout with this reference may already exist.`)).toBe('fleet:conflict:duplicate reference');
    expect(currentFailureReason(`${new FleetRejectedError(409, undefined).userMessage} A payout with this reference may already exist.`)).toBe(
      'fleet:conflict',
    );
  });

  it("reads the app's old sentence for an interrupted sending, and leaves today's reasons and unknown text as they are", () => {
    expect(currentFailureReason('The app stopped while sending this payout, so its outcome is not known yet.')).toBe(INTERRUPTED_FAILURE);
    for (const stored of ['fleet:timeout', 'fleet:rejected:no', INTERRUPTED_FAILURE, 'Something else entirely.'])
      expect(currentFailureReason(stored)).toBe(stored);
  });
});

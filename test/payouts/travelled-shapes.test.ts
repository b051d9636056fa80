import { describe, expect, it } from 'vitest';
import { travelledDraftSchema } from '../../src/payouts/rails/index.js';
import { scheduleInputShape } from '../../src/payouts/schedule/input-shape.js';

const mobile = {
  kind: 'mobile_money',
  recipient: { phone: '243812345678', name: 'Amani Kabila', countryCode: 'CD' },
  operator: 'VODACOM_MPESA',
  amountMinor: 15000,
  currency: 'USD',
  reference: 'PAY-1',
  note: '',
};

describe('a draft read back from outside the app', () => {
  it("is read as the domain's draft, with what it does not know dropped", () => {
    expect(travelledDraftSchema.parse({ ...mobile, extra: 'x' })).toEqual(mobile);
  });

  it('is refused with a mixed rail, an amount that is not whole minor units or an unbounded text', () => {
    expect(travelledDraftSchema.safeParse({ ...mobile, kind: 'bank_account' }).success).toBe(false);
    expect(travelledDraftSchema.safeParse({ ...mobile, amountMinor: 1.5 }).success).toBe(false);
    expect(travelledDraftSchema.safeParse({ ...mobile, note: 'x'.repeat(2001) }).success).toBe(false);
  });

  it('reads a schedule only with a time of day on the clock and a known repeat', () => {
    const input = { firstDay: '2026-12-01', time: { hour: 9, minute: 30 }, repeat: 'monthly', count: 3 };
    expect(scheduleInputShape.parse(input)).toEqual(input);
    expect(scheduleInputShape.safeParse({ ...input, time: { hour: 24, minute: 0 } }).success).toBe(false);
    expect(scheduleInputShape.safeParse({ ...input, repeat: 'daily' }).success).toBe(false);
  });
});

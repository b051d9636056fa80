/**
 * The shape of a payout draft and of its schedule once they travelled outside the app (a review
 * modal's private_metadata, where the client may change anything): read back as the domain's own
 * types, with every value bounded, before the intake checks each value again (`revalidateDraft`).
 */
import { z } from 'zod';
import type { PayoutDraft } from './model.js';
import { SCHEDULE_REPEATS, type ScheduleRule } from './schedule/dates.js';

const text = (max: number) => z.string().max(max);
const draftCommon = {
  amountMinor: z.number().int().positive(), currency: text(10), reference: text(100), note: text(2000), referenceGenerated: z.boolean().optional(),
};

export const payoutDraftShape: z.ZodType<PayoutDraft> = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('mobile_money'),
    recipient: z.object({ phone: text(50), name: text(300), countryCode: text(10) }),
    operator: text(100),
    ...draftCommon,
  }),
  z.object({
    kind: z.literal('bank_account'),
    recipient: z.object({ accountNumber: text(100), bankCode: text(30), name: text(300), countryCode: text(10) }),
    ...draftCommon,
  }),
]);

/** A schedule as the form gives it (the zone is always the team's); `PayoutSchedules.check` decides whether it still holds. */
export const scheduleInputShape: z.ZodType<Omit<ScheduleRule, 'timeZone'>> = z.object({
  firstDay: text(10), time: z.object({ hour: z.number().int().min(0).max(23), minute: z.number().int().min(0).max(59) }),
  repeat: z.enum(SCHEDULE_REPEATS), count: z.number().int().optional(), endsOn: text(10).optional(),
});

/**
 * The shape of a schedule once it travelled outside the app (a review modal's private_metadata, where
 * the client may change anything): read back as the domain's own type, with every value bounded,
 * before `PayoutSchedules.check` decides whether it still holds. The draft beside it is read by its
 * rail (`travelledDraftSchema` in `payouts/rails/`).
 */
import { z } from 'zod';
import { SCHEDULE_REPEATS, type ScheduleRule } from './dates.js';

const text = (max: number) => z.string().max(max);

/** A schedule as the form gives it (the zone is always the team's). */
export const scheduleInputShape: z.ZodType<Omit<ScheduleRule, 'timeZone'>> = z.object({
  firstDay: text(10),
  time: z.object({ hour: z.number().int().min(0).max(23), minute: z.number().int().min(0).max(59) }),
  repeat: z.enum(SCHEDULE_REPEATS),
  count: z.number().int().optional(),
  endsOn: text(10).optional(),
});

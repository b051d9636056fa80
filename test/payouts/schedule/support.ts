/** A payout service with scheduling over one database and a hand-moved clock, as the schedule tests use it. */
import { createLogger } from '../../../src/core/logger.js';
import type { PayoutRoles } from '../../../src/payouts/roles.js';
import type { PayoutSettings } from '../../../src/payouts/settings.js';
import { ScheduleReleaser, type ScheduleNotifier } from '../../../src/payouts/schedule/release.js';
import { PayoutSchedules, type ScheduleInput } from '../../../src/payouts/schedule/service.js';
import type { PayoutRequest } from '../../../src/payouts/model.js';
import type { Db } from '../../../src/store/db.js';
import { createService, mobileForm, REQUESTER, settings } from '../../support/payout-doubles.js';

export interface Told {
  id: string;
  number: number;
  state: string;
  event: string;
  hold: string | undefined;
}

export function scheduling(
  db: Db,
  options: { roles?: PayoutRoles; timeZone?: string; catchUpMinutes?: number; holder?: string; settings?: PayoutSettings } = {},
) {
  const timeZone = options.timeZone ?? 'UTC';
  const payoutSettings = { ...(options.settings ?? settings), timeZone };
  const made = createService(db, { ...(options.roles ? { roles: options.roles } : {}), settings: payoutSettings });
  const told: Told[] = [];
  const notifier: ScheduleNotifier = {
    occurrence: async (request, occurrence, event) => {
      told.push({ id: request.id, number: occurrence.number, state: occurrence.state, event, hold: occurrence.hold });
    },
  };
  const releaserFor = (holder: string, extra: Partial<ConstructorParameters<typeof ScheduleReleaser>[0]> = {}) =>
    new ScheduleReleaser({
      db,
      clock: made.clock,
      roles: options.roles ?? (made.service as unknown as { options: { roles: PayoutRoles } }).options.roles,
      logger: createLogger({ level: 'silent' }),
      payoutSettings,
      settings: { timeZone, catchUpMinutes: options.catchUpMinutes ?? 360, noticeMinutes: 60 },
      payouts: { sendApproved: (request, via) => made.service.sendApproved(request, via), announce: (request, event) => made.service.announce(request, event) },
      // The hand-moved clock stands for the database's too, unless a test gives the releaser another.
      notifiers: [notifier],
      holder,
      databaseNow: async () => made.clock.now(),
      ...extra,
    });
  const releaser = releaserFor(options.holder ?? 'replica-a');
  const schedules = new PayoutSchedules({
    db,
    clock: made.clock,
    roles: options.roles ?? (made.service as unknown as { options: { roles: PayoutRoles } }).options.roles,
    payouts: made.service,
    releaser,
    settings: { timeZone, catchUpMinutes: options.catchUpMinutes ?? 360, noticeMinutes: 60 },
  });

  async function schedule(input: ScheduleInput, fields: Record<string, string> = mobileForm, by = REQUESTER): Promise<PayoutRequest> {
    const validation = await made.service.validate('mobile_money', fields);
    if (!validation.ok) throw new Error(`expected a valid form: ${JSON.stringify(validation.errors)}`);
    const result = await schedules.request(by, validation.draft, input);
    if (!result.ok) throw new Error(`expected the scheduled request to be stored: ${JSON.stringify(result)}`);
    return result.request;
  }

  return { ...made, told, releaser, releaserFor, schedules, schedule };
}

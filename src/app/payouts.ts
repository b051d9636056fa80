/**
 * Payouts: the services (single, bulk, scheduled), the approvers' reminders, their approval messages
 * in Slack, and the upkeep. Who hears of a change is a list the wiring fills, in order, once every
 * listener is made. `start` begins the bulk sender, the schedule releaser and the upkeep.
 */
import { postingClient } from '../slack/transport/app.js';
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { systemClock } from '../core/clock.js';
import {
  ApprovalReminders,
  PayoutBatchService,
  payoutRequestReader,
  PayoutSchedules,
  PayoutService,
  ScheduleReleaser,
  type BatchNotifier,
  type PayoutNotifier,
  type RoleLookup,
} from '../payouts/index.js';
import { BatchSender } from '../payouts/batch/sender.js';
import { PayoutMaintenance } from '../payouts/maintenance.js';
import { every, type PeriodicJob } from '../runtime/every.js';
import { batchSeniorCall, seniorCall } from '../slack/approval-context.js';
import { approverDirectory, SlackReminderSender } from '../slack/publishers/approver-notices.js';
import { SlackBatchNotifier } from '../slack/publishers/batch-notifier.js';
import { SlackPayoutNotifier } from '../slack/publishers/payout-notifier.js';
import { SlackScheduleNotifier } from '../slack/publishers/schedule-notifier.js';
import type { Wiring, WorkStops } from './context.js';
import type { Infrastructure } from './infrastructure.js';
import type { SlackParts } from './slack.js';

export interface PayoutListeners {
  payouts: PayoutNotifier[];
  batches: BatchNotifier[];
}

export function buildPayouts(
  { config, logger, clock, shutdown, turns, options }: Wiring,
  { db, heavyDb, fleet }: Infrastructure,
  slack: SlackParts,
  hear: PayoutListeners,
) {
  const { app, access, surface, locales, invites } = slack;
  const timers = options.payoutTimers ?? {};
  const log = (component: string) => logger.child({ component });
  const roles = {
    canRequest: (userId: string, lookup?: RoleLookup) => access.allows(config.access.requesters, userId, lookup),
    canApprove: (userId: string, lookup?: RoleLookup) => access.allows(config.access.approvers, userId, lookup),
    // A senior approver must also be an approver.
    isSenior: async (userId: string, lookup?: RoleLookup) =>
      (await access.allows(config.access.seniorApprovers, userId, lookup)) && access.allows(config.access.approvers, userId, lookup),
  };
  const payouts = new PayoutService({
    db,
    fleet,
    clock,
    settings: config.payouts,
    logger: log('payouts'),
    notifiers: hear.payouts,
    roles,
    catchUpMinutes: config.payoutSchedule.catchUpMinutes,
    ...(timers.recheckEveryMs !== undefined ? { recheckEveryMs: timers.recheckEveryMs } : {}),
  });
  const batches = new PayoutBatchService({
    db,
    clock,
    settings: config.payouts,
    batchSettings: config.payoutBatches,
    logger: log('batches'),
    notifiers: hear.batches,
    roles,
    turns,
    ...(timers.resultsRetrySeconds !== undefined ? { resultsRetrySeconds: timers.resultsRetrySeconds } : {}),
  });
  const reminders = new ApprovalReminders({
    db,
    clock,
    reminderMinutes: config.approverNotices.reminderMinutes,
    approvers: approverDirectory(access, config.access.approvers),
    sender: new SlackReminderSender({ client: postingClient(app), surface, locales, logger: log('payouts') }),
    logger: log('payouts'),
  });

  // Whom a new request's approval message mentions (none with PAYOUT_MENTION_APPROVERS=false).
  const mentions = config.approverNotices.mention ? config.access.approvers : undefined;
  const approversAvailable = (requestedBy: string) => access.countBesides(config.access.approvers, requestedBy);
  const approvalMessages = new SlackPayoutNotifier({
    client: postingClient(app),
    surface,
    locales,
    logger: log('payouts'),
    approvalChannelId: config.payouts.approvalChannelId,
    requests: payoutRequestReader(db, clock, config.payouts),
    mentions,
    approversAvailable,
    duplicateWindowHours: config.payouts.duplicateWindowHours,
    seniorCall: (request, dayTotals) => seniorCall(request, config.payouts, config.access.seniorApprovers, dayTotals),
    invites,
  });
  const batchMessages = new SlackBatchNotifier({
    client: postingClient(app),
    surface,
    locales,
    logger: log('batches'),
    approvalChannelId: config.payouts.approvalChannelId,
    batches: () => batches,
    approversAvailable,
    mentions,
    invites,
    seniorCall: (batch) => batchSeniorCall(batch, config.payouts, config.access.seniorApprovers),
  });
  // Scheduled payouts: released by whichever replica holds the lease, due by the database's clock (a test's clock stands for it).
  const releaser = new ScheduleReleaser({
    db,
    clock,
    roles,
    logger: log('schedules'),
    payoutSettings: config.payouts,
    settings: config.payoutSchedule,
    payouts,
    holder: `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`,
    ...(clock === systemClock ? {} : { databaseNow: async () => clock.now() }),
    notifiers: [
      new SlackScheduleNotifier({
        client: postingClient(app),
        surface,
        locales,
        logger: log('schedules'),
        timeZone: config.payoutSchedule.timeZone,
        refresh: (request) => approvalMessages.refresh(request),
      }),
    ],
  });
  const schedules = new PayoutSchedules({ db, clock, roles, payouts, releaser, settings: config.payoutSchedule });
  const sender = new BatchSender({
    db: heavyDb,
    clock,
    logger: log('batches'),
    ratePerSecond: config.payoutBatches.ratePerSecond,
    send: (request) => payouts.sendApproved(request, 'bulk'),
    announce: (batch, event) => batches.announce(batch, event),
    turns,
  });
  const maintenance = new PayoutMaintenance({
    payouts,
    batches,
    reminders,
    approvalMessages,
    batchMessages,
    soleProcess: db.kind === 'pglite',
    logger,
  });

  let sending: PeriodicJob | undefined;
  // A released bulk payout is sent at once (once the timers run), after its approval message says so: the last of its batch's listeners.
  const wakeSending: BatchNotifier = {
    changed: async (_batch, event) => {
      if (event === 'released') sending?.wake();
    },
  };
  // The payouts' own work under way (answers held for the database, approval messages being posted): stopped with the bot.
  shutdown.add('payouts', () => maintenance.stop());
  const start = (stops: WorkStops) => {
    // One run at a time in this process; stopping waits for the row being sent, never cutting one in half.
    sending = every('bulk payout sending', timers.batchEveryMs ?? 1000, (signal) => sender.sendDue(50, () => signal.aborted), {
      logger: log('batches'),
      runAtStart: true,
      failure: 'sending bulk payout rows failed',
      shutdown: stops,
    });
    // At once at start, which is the catch-up after downtime.
    every('scheduled payouts', timers.scheduleEveryMs ?? 5_000, () => releaser.tick(), {
      logger: log('schedules'),
      runAtStart: true,
      failure: 'releasing scheduled payouts failed',
      shutdown: stops,
    });
    // What a stopped process left behind is settled at once, in the background; the upkeep's rounds wait for it.
    const recovering = maintenance.recover();
    every(
      'payout maintenance',
      timers.maintenanceEveryMs ?? 30_000,
      async () => {
        await recovering;
        await maintenance.runOnce();
      },
      {
        logger,
        failure: 'payout maintenance failed',
        shutdown: stops,
        afterStop: () => recovering,
      },
    );
  };
  return { roles, payouts, batches, schedules, approvalMessages, batchMessages, wakeSending, start };
}

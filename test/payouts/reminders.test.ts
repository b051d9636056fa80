import { describe, expect, it } from 'vitest';
import { createLogger } from '../../src/core/logger.js';
import { ApprovalReminders, type ApprovalReminder } from '../../src/payouts/index.js';
import type { Db } from '../../src/store/db.js';
import { testDatabases } from '../support/databases.js';
import {
  APPROVER,
  createService,
  HOUR,
  MINUTE,
  mobileForm,
  REQUESTER,
  SECOND_APPROVER,
  settings,
  submitted,
  usePayoutDatabase,
  type ManualClock,
} from '../support/payout-doubles.js';

describe.each(testDatabases())('reminding approvers before expiry on $name', ({ open }) => {
  let db: Db;
  usePayoutDatabase(open, (opened) => {
    db = opened;
  });

  function reminders(clock: ManualClock, options: { minutes?: number; failFor?: string; sweepLimit?: number } = {}) {
    const sent: string[] = [];
    const sweep = new ApprovalReminders({
      db,
      clock,
      reminderMinutes: options.minutes ?? 60,
      logger: createLogger({ level: 'silent' }),
      sweepLimit: options.sweepLimit,
      approvers: { approvers: async () => new Set([APPROVER, SECOND_APPROVER, REQUESTER]) },
      sender: {
        remind: async (reminder: ApprovalReminder) => {
          if (reminder.approverId === options.failFor) throw new Error('slack said no');
          sent.push(`${reminder.kind === 'payout' ? reminder.request.id : reminder.batch.id} → ${reminder.approverId}`);
        },
      },
    });
    return { sweep, sent };
  }

  it('reminds each approver but the requester once, from the set number of minutes before expiry', async () => {
    const { service, clock } = createService(db);
    const request = await submitted(service);
    const { sweep, sent } = reminders(clock);
    clock.advance((settings.requestTtlHours - 1) * HOUR - MINUTE);
    expect(await sweep.sendDue()).toBe(0);
    clock.advance(2 * MINUTE);
    expect(await sweep.sendDue()).toBe(2);
    expect(await sweep.sendDue()).toBe(0);
    // A restarted process or another replica finds the claims.
    expect(await reminders(clock).sweep.sendDue()).toBe(0);
    expect(sent.sort()).toEqual([`${request.id} → ${APPROVER}`, `${request.id} → ${SECOND_APPROVER}`]);
  });

  it("reaches the requests after the first sweep's share: those already reminded do not take their places", async () => {
    const { service, clock } = createService(db);
    const requests = [];
    for (const amount of ['11', '12', '13']) requests.push(await submitted(service, { ...mobileForm, amount }));
    clock.advance((settings.requestTtlHours - 1) * HOUR + MINUTE);
    const { sweep, sent } = reminders(clock, { sweepLimit: 2 });
    expect(await sweep.sendDue()).toBe(4);
    expect(await sweep.sendDue()).toBe(2);
    expect(await sweep.sendDue()).toBe(0);
    expect(new Set(sent.map((line) => line.split(' → ')[0]))).toEqual(new Set(requests.map((request) => request.id)));
  });

  it('sends nothing when the request lives no longer than the reminder time, or with 0 minutes', async () => {
    const { service, clock } = createService(db);
    await submitted(service);
    clock.advance(settings.requestTtlHours * HOUR - 30 * MINUTE);
    expect(await reminders(clock, { minutes: 0 }).sweep.sendDue()).toBe(0);
    expect(await reminders(clock, { minutes: settings.requestTtlHours * 60 }).sweep.sendDue()).toBe(0);
    expect(await reminders(clock, { minutes: settings.requestTtlHours * 60 + 5 }).sweep.sendDue()).toBe(0);
  });

  it('does not remind an approver who approved, nor anyone once the request was decided or expired', async () => {
    const { service, clock } = createService(db);
    const big = await submitted(service, {
      phone: '243812345670',
      name: 'Amani Kabila',
      countryCode: 'CD',
      operator: 'VODACOM_MPESA',
      amount: '1500',
      currency: 'USD',
      reference: '',
      note: '',
    });
    expect(await service.approve(big.id, APPROVER)).toMatchObject({ ok: true, request: { state: 'pending' } });
    const rejected = await submitted(service);
    await service.reject(rejected.id, APPROVER, 'Wrong recipient');
    clock.advance((settings.requestTtlHours - 1) * HOUR + MINUTE);
    const { sweep, sent } = reminders(clock);
    await sweep.sendDue();
    expect(sent).toEqual([`${big.id} → ${SECOND_APPROVER}`]);
    clock.advance(HOUR);
    await service.expireDue();
    const late = reminders(clock);
    await late.sweep.sendDue();
    expect(late.sent).toEqual([]);
  });

  it('does not send a reminder again after Slack failed once it was claimed', async () => {
    const { service, clock } = createService(db);
    const request = await submitted(service);
    clock.advance((settings.requestTtlHours - 1) * HOUR + MINUTE);
    const failing = reminders(clock, { failFor: APPROVER });
    expect(await failing.sweep.sendDue()).toBe(1);
    const again = reminders(clock);
    expect(await again.sweep.sendDue()).toBe(0);
    expect(failing.sent).toEqual([`${request.id} → ${SECOND_APPROVER}`]);
    const { rows } = await db.query<{ approver_id: string; sent: boolean }>(
      'SELECT approver_id, sent_at IS NOT NULL AS sent FROM payout_approval_reminders WHERE subject_id = $1 ORDER BY approver_id',
      [request.id],
    );
    expect(rows).toEqual([
      { approver_id: APPROVER, sent: false },
      { approver_id: SECOND_APPROVER, sent: true },
    ]);
  });
});

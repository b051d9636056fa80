import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { blockText, CHANNELS, PEOPLE, startHarness, type Harness } from '../../support/bot-harness.js';
import { ManualClock, settings } from '../../support/payout-doubles.js';
import {
  approveAs,
  dmTexts,
  MOBILE_FIELDS,
  openPayoutForm,
  PAYOUT_ENV,
  PAYOUT_VIEWS,
  payoutPosts,
  viewText,
  waitForApprovalMessage,
  formValues,
} from '../../support/payout-flow.js';
import { createLogger } from '../../../src/core/logger.js';
import { ScheduleReleaser } from '../../../src/payouts/schedule/release.js';
import { PAYOUT_SCHEDULE } from '../../../src/slack/ids.js';

// Kinshasa is UTC+1 all year: 09:10 there is 08:10 UTC.
const clock = new ManualClock(new Date('2026-11-26T08:00:00Z'));

function when(values: { sendOn?: string; sendAt?: string; repeat?: string; count?: string }) {
  return {
    ...(values.sendOn ? { [PAYOUT_SCHEDULE.sendOnBlock]: { value: values.sendOn } } : {}),
    ...(values.sendAt ? { [PAYOUT_SCHEDULE.sendAtBlock]: { value: values.sendAt } } : {}),
    ...(values.repeat ? { [PAYOUT_SCHEDULE.repeatBlock]: { value: values.repeat } } : {}),
    ...(values.count ? { [PAYOUT_SCHEDULE.countBlock]: { value: values.count } } : {}),
  };
}

describe("scheduled payouts through the real receiver, on the app's clock", () => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness({ env: { ...PAYOUT_ENV, TEAM_TIMEZONE: 'Africa/Kinshasa' }, bot: { clock, payoutTimers: { scheduleEveryMs: 50 } } });
  });
  afterAll(async () => h?.close());
  afterEach(() => {
    expect(h.slack.limitViolations).toEqual([]);
  });

  async function schedule(fields: Record<string, string>, at: Parameters<typeof when>[0]) {
    const form = await openPayoutForm(h, PEOPLE.requester, 'payout mobile');
    const ack = await h.slack.submitView({ userId: PEOPLE.requester, viewId: form.id, values: { ...formValues(fields), ...when(at) } });
    expect(ack.status).toBe(200);
    return h.slack.view(form.id)!;
  }

  it('refuses a time already past at the field', async () => {
    const form = await schedule({ ...MOBILE_FIELDS }, { sendOn: '2026-11-26', sendAt: '08:30' });
    expect(form.view.callback_id).toBe(PAYOUT_VIEWS.form);
    expect(form.errors?.[PAYOUT_SCHEDULE.sendOnBlock]).toContain('passed');
    await h.slack.closeView({ userId: PEOPLE.requester, viewId: form.id });
  });

  it("schedules a one-off ahead, approves it now, and sends it once with the reference typed when the team's clock reaches its time", async () => {
    const review = await schedule({ ...MOBILE_FIELDS, reference: 'DRV-0042' }, { sendOn: '2026-11-26', sendAt: '09:10' });
    expect(review.view.callback_id, JSON.stringify(review.errors)).toBe(PAYOUT_VIEWS.review);
    expect(viewText(review)).toContain('Thu, Nov 26, 2026, 09:10 (Africa/Kinshasa)');
    expect(viewText(review)).toContain('Sent at its time with the reference `DRV-0042`.');
    expect(viewText(review)).not.toContain('DRV-0042-1');
    await h.slack.submitView({ userId: PEOPLE.requester, viewId: review.id });
    const id = /PR-[A-Z0-9]{6}/.exec(viewText(h.slack.view(review.id)!))![0];
    await h.slack.closeView({ userId: PEOPLE.requester, viewId: review.id });

    await waitForApprovalMessage(h, id, 'Thu, Nov 26, 2026, 09:10');
    // The approver's window says it was approved ahead, not that it is being sent.
    const outcome = await approveAs(h, PEOPLE.approver, id);
    expect(outcome).toContain('Approved ahead');
    expect(outcome).not.toContain('sending to the Fleet API');
    const ahead = blockText(await waitForApprovalMessage(h, id, 'Approved ahead'));
    expect(ahead).toContain('Sent at its time with the reference `DRV-0042`.');
    expect(ahead).not.toContain('DRV-0042-1');
    expect(payoutPosts(h)).toBe(0);

    clock.set(new Date('2026-11-26T08:10:00Z'));
    await h.slack.waitFor(() => h.sandbox.payouts().length === 1 || undefined, { message: 'the payout to be sent' });
    // The Fleet API got the reference the treasurer typed, and the ledger's entry quotes it.
    expect(h.sandbox.payouts().map((payout) => (payout.body as { reference: string }).reference)).toEqual(['DRV-0042']);
    const entries = h.sandbox.transactions().filter((tx) => /\bDRV-0042\b/.test(tx.description));
    expect(entries.map((tx) => tx.description.includes('DRV-0042-1'))).toEqual([false]);
    // The request itself is the payout: its own message says it was sent, no longer approved ahead.
    const sent = blockText(await waitForApprovalMessage(h, id, 'Sent.'));
    expect(sent).not.toContain('Approved ahead');
    expect(sent).not.toContain('sent as PR-');
    expect(await h.bot.payouts.get(id)).toMatchObject({ state: 'completed', reference: 'DRV-0042', attempts: 1 });
    await h.slack.waitFor(() => dmTexts(h, PEOPLE.requester).find((text) => text.includes(id) && text.includes('was sent')));
    expect(dmTexts(h, PEOPLE.requester).filter((text) => text.includes('was released as'))).toEqual([]);

    // Another replica looking at the same time, a redelivered release and the recovery sweep send nothing more.
    const replica = new ScheduleReleaser({
      db: h.bot.db,
      clock,
      roles: { canRequest: async () => true, canApprove: async () => true, isSenior: async () => false },
      logger: createLogger({ level: 'silent' }),
      payoutSettings: settings,
      settings: { timeZone: 'Africa/Kinshasa', catchUpMinutes: 360, noticeMinutes: 0 },
      payouts: h.bot.payouts,
      notifiers: [],
      holder: 'replica-b',
      databaseNow: async () => clock.now(),
    });
    await replica.releaseDue();
    const occurrence = (await h.bot.payouts.get(id))?.schedule?.occurrences[0];
    expect(occurrence).toMatchObject({ state: 'released', payoutId: id });
    expect(await replica.release({ ...occurrence!, state: 'scheduled' })).toEqual({ kind: 'none' });
    await h.bot.payouts.recoverInterrupted({ staleAfterMs: 0 });
    expect(h.sandbox.payouts()).toHaveLength(1);
    expect(payoutPosts(h)).toBe(1);
  });

  it('lists a weekly series in /fleet scheduled, and Cancel series by an approver stops it and tells the requester', async () => {
    const review = await schedule({ ...MOBILE_FIELDS, amount: '20' }, { sendOn: '2026-11-27', sendAt: '10:00', repeat: 'weekly', count: '3' });
    expect(review.view.callback_id, JSON.stringify(review.errors)).toBe(PAYOUT_VIEWS.review);
    expect(viewText(review)).toContain('Every week, 3 payouts: Fri, Nov 27, 2026, 10:00; Fri, Dec 4, 2026, 10:00; Fri, Dec 11, 2026, 10:00');
    await h.slack.submitView({ userId: PEOPLE.requester, viewId: review.id });
    const id = /PR-[A-Z0-9]{6}/.exec(viewText(h.slack.view(review.id)!))![0];
    await h.slack.closeView({ userId: PEOPLE.requester, viewId: review.id });
    await approveAs(h, PEOPLE.approver, id);

    await h.slack.runCommand({ userId: PEOPLE.approver, channelId: CHANNELS.treasury, text: 'scheduled' });
    const list = await h.waitForMessage(PEOPLE.approver, 'Scheduled payouts', CHANNELS.treasury);
    expect(blockText(list)).toContain(`Fri, Nov 27, 2026, 10:00 · ${id} #1`);
    // Its French name, with or without the accent, lists the same.
    for (const word of ['planifiés', 'planifies']) {
      const before = h.visibleTo(PEOPLE.requester, CHANNELS.treasury).length;
      await h.slack.runCommand({ userId: PEOPLE.requester, channelId: CHANNELS.treasury, text: word });
      await h.slack.waitFor(
        () =>
          h
            .visibleTo(PEOPLE.requester, CHANNELS.treasury)
            .slice(before)
            .find((m) => blockText(m).includes(`${id} #3`)),
        { message: `/fleet ${word}` },
      );
    }

    const message = await waitForApprovalMessage(h, id, 'Approved ahead');
    const ack = await h.slack.clickButton({
      userId: PEOPLE.approver2,
      channelId: CHANNELS.approvals,
      messageTs: message.ts,
      actionId: PAYOUT_SCHEDULE.cancelSeries,
    });
    expect(ack.status).toBe(200);
    await waitForApprovalMessage(h, id, 'Series cancelled by');
    await h.slack.waitFor(() => dmTexts(h, PEOPLE.requester).find((text) => text.includes(`cancelled the rest of your scheduled payout ${id}`)));
    clock.set(new Date('2026-12-12T10:00:00Z'));
    await h.slack.runCommand({ userId: PEOPLE.approver, channelId: CHANNELS.treasury, text: 'scheduled' });
    await h.waitForMessage(PEOPLE.approver, 'No payout is scheduled', CHANNELS.treasury);
    expect(payoutPosts(h)).toBe(1);
  });
});

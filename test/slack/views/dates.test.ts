import { describe, expect, it } from 'vitest';
import type { PayoutRequest } from '../../../src/payouts/index.js';
import { formatDay, slackDate, teamTime } from '../../../src/slack/views/dates.js';
import { buildApprovalMessage, buildApproveModal } from '../../../src/slack/views/payout-approval.js';
import { buildPayoutHistory } from '../../../src/slack/views/payout-history.js';
import { buildScheduledList, scheduleDirectMessage, scheduledHomeBlocks } from '../../../src/slack/views/payout-schedule.js';
import { buildHomeView } from '../../../src/slack/views/home.js';
import { buildApprovalReminder } from '../../../src/slack/views/approval-reminder.js';
import type { Surface } from '../../../src/slack/views/text.js';
import { pendingRequest } from '../../support/payout-doubles.js';

const at = new Date('2026-11-21T10:00:00.000Z');
const ZONE = 'Africa/Kinshasa';
const english: Surface = { sandbox: false, locale: 'en', timeZone: ZONE };
const french: Surface = { sandbox: false, locale: 'fr', timeZone: ZONE };

/** The text after `|` of every date token: what a client that cannot render the token shows. */
function fallbacks(value: unknown): string[] {
  return [...JSON.stringify(value).matchAll(/<!date\^\d+\^[^|]*\|([^>]*)>/g)].map((match) => match[1]!);
}

function scheduled(overrides: Partial<PayoutRequest> = {}): PayoutRequest {
  const occurrence = {
    requestId: 'PR-7K3F9Q',
    number: 1,
    dueAt: new Date('2026-12-01T08:00:00Z'),
    state: 'scheduled' as const,
    hold: undefined,
    payoutId: undefined,
    version: 0,
  };
  return pendingRequest({
    requestedAt: at,
    expiresAt: new Date(at.getTime() + 24 * 3_600_000),
    approvals: [{ userId: 'U0ABEL', at }],
    requiredApprovals: 2,
    schedule: {
      requestId: 'PR-7K3F9Q',
      timeZone: ZONE,
      firstDay: '2026-12-01',
      time: { hour: 9, minute: 0 },
      repeat: 'weekly',
      endsOn: undefined,
      cancelledBy: undefined,
      cancelledAt: undefined,
      occurrences: [occurrence, { ...occurrence, number: 2, dueAt: new Date('2026-12-08T08:00:00Z') }],
    },
    ...overrides,
  });
}

describe('the one date and time display', () => {
  it("lets Slack show an instant on each reader's clock, its fallback on the team's clock with the zone named", () => {
    expect(slackDate(at, undefined, { locale: 'en', timeZone: ZONE })).toBe(`<!date^1795255200^{date_short_pretty} {time_secs}|2026-11-21 11:00:00 ${ZONE}>`);
    expect(slackDate(at, undefined, { locale: 'fr', timeZone: ZONE })).toBe(`<!date^1795255200^{date_short_pretty} {time_secs}|21/11/2026 11:00:00 ${ZONE}>`);
  });

  it('falls back to UTC, named, when no team zone is set', () => {
    expect(slackDate(at)).toBe('<!date^1795255200^{date_short_pretty} {time_secs}|2026-11-21 10:00:00 UTC>');
    expect(slackDate(at, undefined, 'fr')).toBe('<!date^1795255200^{date_short_pretty} {time_secs}|21/11/2026 10:00:00 UTC>');
    expect(slackDate(at, '{date_num}', 'fr')).toBe('<!date^1795255200^{date_num}|21/11/2026 10:00:00 UTC>');
  });

  it('escapes a date it cannot read instead of building a token from it', () => {
    expect(slackDate('<!here>', undefined, 'fr')).toBe('&lt;!here&gt;');
  });

  it("writes a time of the team's calendar on the team's clock, 24-hour, naming the zone, in the reader's language", () => {
    expect(teamTime(new Date('2026-12-01T08:00:00Z'), ZONE, 'en')).toBe(`Tue, Dec 1, 2026, 09:00 (${ZONE})`);
    expect(teamTime(new Date('2026-12-01T08:00:00Z'), ZONE, 'fr')).toBe(`mar. 1 déc. 2026, 09:00 (${ZONE})`);
    expect(teamTime(new Date('2026-12-01T08:00:00Z'), ZONE, 'en', { zone: false })).toBe('Tue, Dec 1, 2026, 09:00');
  });

  it('writes a calendar day without a time or a zone, the year always', () => {
    expect(formatDay('2026-11-20', 'en')).toBe('Nov 20, 2026');
    expect(formatDay('2026-11-20', 'fr')).toBe('20 nov. 2026');
    expect(formatDay('2026-11-20', 'en', 'full')).toBe('Friday, November 20, 2026');
    expect(formatDay('2026-11-20', 'fr', 'full')).toBe('vendredi 20 novembre 2026');
  });
});

describe('every surface a person reads follows it', () => {
  it("the approval message and the approve window: expiry, approvals and request times on the team's clock in the fallback, in the reader's language", () => {
    for (const [reader, day] of [
      [english, '2026-11-2'],
      [french, '2'],
    ] as const) {
      for (const view of [buildApprovalMessage(reader, scheduled()).blocks, buildApproveModal(reader, scheduled()).blocks]) {
        const found = fallbacks(view);
        expect(found.length).toBeGreaterThan(0);
        for (const fallback of found) {
          expect(fallback).toMatch(new RegExp(` ${ZONE}$`));
          expect(fallback.startsWith(day)).toBe(true);
        }
      }
    }
    expect(JSON.stringify(buildApprovalMessage(french, scheduled()).blocks)).toContain(`mar. 1 déc. 2026, 09:00 (${ZONE})`);
  });

  it("the request's history in /fleet payouts", () => {
    const events = [{ id: 1, requestId: 'PR-7K3F9Q', event: 'requested' as const, userId: 'U0RITA', at, details: {} }];
    const found = fallbacks(buildPayoutHistory(french, scheduled(), events).blocks);
    expect(found.length).toBeGreaterThan(1);
    for (const fallback of found) expect(fallback).toMatch(new RegExp(`^\\d{2}/\\d{2}/\\d{4} .* ${ZONE}$`));
  });

  it("a scheduled payout's direct message, /fleet scheduled and the Home's Scheduled next name the team's zone", () => {
    const request = scheduled();
    const occurrence = request.schedule!.occurrences[0]!;
    expect(scheduleDirectMessage(english, request, occurrence, 'missed', { timeZone: ZONE })?.text).toContain(`(Tue, Dec 1, 2026, 09:00 (${ZONE}))`);
    const list = JSON.stringify(buildScheduledList(french, [{ occurrence, request }], ZONE).blocks);
    expect(list).toContain(`*Paiements programmés* (heures du fuseau ${ZONE})\\nmar. 1 déc. 2026, 09:00 · PR-7K3F9Q n° 1`);
    expect(JSON.stringify(scheduledHomeBlocks(english, [{ occurrence, request }], ZONE))).toContain(
      `*Scheduled next* (times in ${ZONE})\\n• Tue, Dec 1, 2026, 09:00 · PR-7K3F9Q #1`,
    );
  });

  it("the Home and the approver's reminder", () => {
    const home = buildHomeView(french, {
      kind: 'viewer',
      now: at,
      balance: { reading: { balances: { USD: 10 }, readAt: at }, failed: false },
      waiting: { requests: [scheduled()], total: 1 },
      mine: [scheduled()],
      feed: 'off',
      ledger: 'off',
      buttons: { newPayout: true, export: true },
    });
    const reminder = buildApprovalReminder(french, { kind: 'payout', request: scheduled() }, undefined);
    for (const view of [home.blocks, reminder.blocks]) {
      const found = fallbacks(view);
      expect(found.length).toBeGreaterThan(0);
      for (const fallback of found) expect(fallback).toMatch(new RegExp(`^\\d{2}/\\d{2}/\\d{4} .* ${ZONE}$`));
    }
  });
});

/**
 * Scheduled payouts in Slack: `/fleet scheduled` (`/fleet planifiés`) lists the upcoming occurrences,
 * and the buttons on them (Retry, Send now, Skip, Skip next, Cancel series) act on the occurrence the
 * button names (`PR-XXXXXX:<number>`), for its requester or an approver, checked by the domain.
 */
import type { BlockAction, ButtonAction } from '@slack/bolt';
import { textsFor } from '../../i18n/index.js';
import { PAYOUT_ID_PATTERN, type OccurrenceResult, type PayoutSchedules } from '../../payouts/index.js';
import type { SlackContext } from '../context.js';
import type { ListenerRouter } from '../transport/listener-router.js';
import { readerSurfaceOf } from '../transport/middleware.js';
import { failureText } from '../refusals/failures.js';
import { PAYOUT_SCHEDULE } from '../ids.js';
import type { Subcommand } from '../subcommands.js';
import { privateNotice } from '../views/notice.js';
import { buildScheduledList } from '../views/payout-schedule.js';
import type { Surface } from '../views/text.js';

const LISTED = 20;

export function scheduledSubcommand(ctx: SlackContext): Subcommand {
  return {
    name: 'scheduled',
    aliases: ['planifies', 'planned'],
    localNames: { fr: 'planifiés' },
    audience: 'requesters-and-approvers',
    refusal: (t) => t('payoutSchedule.locked'),
    help: (t) => [{ usage: t('payoutSchedule.help.usage'), description: t('payoutSchedule.help.description') }],
    async run({ respond, readerSurface }) {
      const reader = await readerSurface();
      try {
        const upcoming = ctx.schedules ? await ctx.schedules.upcoming({ limit: LISTED }) : [];
        await respond({ response_type: 'ephemeral', ...buildScheduledList(reader, upcoming, ctx.schedules?.timeZone ?? 'UTC') });
      } catch (error) {
        await respond(privateNotice(reader, failureText(reader.locale, error, 'readPayouts', ctx.logger)));
      }
    },
  };
}

type Act = (schedules: PayoutSchedules, requestId: string, number: number, userId: string) => Promise<OccurrenceResult>;

const ACTIONS: ReadonlyArray<[string, Act]> = [
  [PAYOUT_SCHEDULE.retry, (s, id, n, user) => s.retry(id, n, user)],
  [PAYOUT_SCHEDULE.sendNow, (s, id, n, user) => s.sendNow(id, n, user)],
  [PAYOUT_SCHEDULE.skip, (s, id, n, user) => s.skip(id, n, user)],
  [PAYOUT_SCHEDULE.skipNext, (s, id, _n, user) => s.skipNext(id, user)],
  [PAYOUT_SCHEDULE.cancelSeries, (s, id, _n, user) => s.cancel(id, user)],
];

/** `PR-XXXXXX:<number>` from a button; the store decides the rest. */
function occurrenceOf(value: string | undefined): { requestId: string; number: number } | undefined {
  const match = /^([^:]{1,20}):(\d{1,2})$/.exec(value ?? '');
  if (!match || !PAYOUT_ID_PATTERN.test(match[1]!)) return undefined;
  return { requestId: match[1]!, number: Number(match[2]) };
}

function outcomeText(reader: Surface, actionId: string, result: OccurrenceResult): string {
  const t = textsFor(reader.locale);
  if (!result.ok) return t(`payoutSchedule.refusal.${result.code}`);
  const { occurrence, request } = result;
  if (actionId === PAYOUT_SCHEDULE.cancelSeries) return t('payoutSchedule.done.cancelled', { id: request.id });
  if (actionId === PAYOUT_SCHEDULE.sendNow && result.payout?.ok) {
    return t('payoutSchedule.done.sendNow', { id: request.id, number: occurrence.number, payoutId: result.payout.request.id });
  }
  if (occurrence.state === 'skipped') return t('payoutSchedule.done.skipped', { id: request.id, number: occurrence.number });
  return t('payoutSchedule.done.retried', { id: request.id, number: occurrence.number, state: t(`payoutSchedule.state.${occurrence.state}`) });
}

export function registerPayoutScheduleListeners(router: ListenerRouter, ctx: SlackContext): void {
  for (const [actionId, act] of ACTIONS) {
    router.action<BlockAction<ButtonAction>>(actionId, async ({ ack, body, respond, context }) => {
      await ack();
      const reader = await readerSurfaceOf(context, body.user.id)();
      const named = occurrenceOf(body.actions[0]?.value);
      try {
        if (!named || !ctx.schedules) {
          await respond(privateNotice(reader, textsFor(reader.locale)('payoutSchedule.refusal.not_found'), { replaceOriginal: false }));
          return;
        }
        const result = await act(ctx.schedules, named.requestId, named.number, body.user.id);
        await respond(privateNotice(reader, outcomeText(reader, actionId, result), { replaceOriginal: false }));
      } catch (error) {
        await respond(privateNotice(reader, failureText(reader.locale, error, 'readPayouts', ctx.logger), { replaceOriginal: false }));
      }
    });
  }
}

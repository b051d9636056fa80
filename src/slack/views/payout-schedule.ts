/**
 * Scheduled payouts as people see them: the form's When fields, the dates on the review screen and
 * the approval message (in the team's zone, in the reader's language), the occurrences' states and
 * their buttons, the requester's DMs and `/fleet scheduled`.
 */
import type { Button, InputBlock, KnownBlock } from '@slack/types';
import { parseWallTime } from '../../core/calendar.js';
import { textsFor, type Locale, type Texts } from '../../i18n/index.js';
import {
  MAX_OCCURRENCES,
  isSinglePayout,
  sendsItself,
  type Occurrence,
  type OccurrenceState,
  type PayoutRequest,
  type ScheduleEventName,
  type ScheduleInput,
  type ScheduleProblem,
  type ScheduleRepeat,
} from '../../payouts/index.js';
import { PAYOUT_ACTIONS, PAYOUT_SCHEDULE } from '../ids.js';
import type { Reply } from './notice.js';
import { codeSpan, cutMrkdwn, escapeWithin, mentionUser, plainText, type Surface } from './text.js';
import { teamTime } from './dates.js';
import { payoutSummary } from './payout-details.js';

/** A section's text limit in Block Kit. */
const SECTION_MAX = 3000;

const REPEATS: readonly ScheduleRepeat[] = ['once', 'weekly', 'biweekly', 'monthly'];
const SHOWN_DATES = 5;

/** The form's When fields as typed: all optional; `sendOn` empty means now. */
export interface ScheduleFields {
  sendOn?: string | undefined;
  sendAt?: string | undefined;
  repeat?: string | undefined;
  count?: string | undefined;
  until?: string | undefined;
}

const blockId = (base: string, fill: number) => (fill > 0 ? `${base}_${fill}` : base);

/** The When fields of the payout form (date and time pickers in the team's zone, the repeat and its end). */
export function scheduleInputBlocks(t: Texts, timeZone: string, values: ScheduleFields = {}, fill = 0): InputBlock[] {
  const option = (repeat: ScheduleRepeat) => ({ text: plainText(t(`payoutSchedule.repeat.${repeat}`), 75), value: repeat });
  const repeat = REPEATS.find((choice) => choice === values.repeat);
  return [
    {
      type: 'input',
      block_id: blockId(PAYOUT_SCHEDULE.sendOnBlock, fill),
      optional: true,
      label: plainText(t('payoutSchedule.field.sendOn')),
      hint: plainText(t('payoutSchedule.field.sendOn.hint', { zone: timeZone })),
      element: { type: 'datepicker', action_id: PAYOUT_ACTIONS.input, ...(values.sendOn ? { initial_date: values.sendOn } : {}) },
    },
    {
      type: 'input',
      block_id: blockId(PAYOUT_SCHEDULE.sendAtBlock, fill),
      optional: true,
      label: plainText(t('payoutSchedule.field.sendAt')),
      // Slack shows the picker in each person's own zone unless told: the time is read in the team's.
      element: { type: 'timepicker', action_id: PAYOUT_ACTIONS.input, timezone: timeZone, ...(values.sendAt ? { initial_time: values.sendAt } : {}) },
    },
    {
      type: 'input',
      block_id: blockId(PAYOUT_SCHEDULE.repeatBlock, fill),
      optional: true,
      label: plainText(t('payoutSchedule.field.repeat')),
      element: { type: 'static_select', action_id: PAYOUT_ACTIONS.input, options: REPEATS.map(option), ...(repeat ? { initial_option: option(repeat) } : {}) },
    },
    {
      type: 'input',
      block_id: blockId(PAYOUT_SCHEDULE.countBlock, fill),
      optional: true,
      label: plainText(t('payoutSchedule.field.count')),
      hint: plainText(t('payoutSchedule.field.count.hint', { max: MAX_OCCURRENCES })),
      element: { type: 'plain_text_input', action_id: PAYOUT_ACTIONS.input, max_length: 3, ...(values.count ? { initial_value: values.count } : {}) },
    },
    {
      type: 'input',
      block_id: blockId(PAYOUT_SCHEDULE.untilBlock, fill),
      optional: true,
      label: plainText(t('payoutSchedule.field.until')),
      element: { type: 'datepicker', action_id: PAYOUT_ACTIONS.input, ...(values.until ? { initial_date: values.until } : {}) },
    },
  ];
}

type StateValues = Record<
  string,
  Record<string, { value?: string | null; selected_date?: string | null; selected_time?: string | null; selected_option?: { value: string } | null }>
>;

/** The When fields of a submitted form. */
export function readScheduleFields(values: StateValues, fill = 0): ScheduleFields {
  const read = (base: string) => values[blockId(base, fill)]?.[PAYOUT_ACTIONS.input];
  const text = (value: string | null | undefined) => (value?.trim() ? value.trim() : undefined);
  return {
    sendOn: text(read(PAYOUT_SCHEDULE.sendOnBlock)?.selected_date),
    sendAt: text(read(PAYOUT_SCHEDULE.sendAtBlock)?.selected_time),
    repeat: text(read(PAYOUT_SCHEDULE.repeatBlock)?.selected_option?.value),
    count: text(read(PAYOUT_SCHEDULE.countBlock)?.value),
    until: text(read(PAYOUT_SCHEDULE.untilBlock)?.selected_date),
  };
}

/** The rule the fields say, undefined for "send now", or the field errors (by block) when the time is missing. */
export function scheduleInput(fields: ScheduleFields, locale: Locale, fill = 0): { input?: ScheduleInput; errors?: Record<string, string> } {
  if (!fields.sendOn) return {};
  const time = fields.sendAt ? parseWallTime(fields.sendAt) : undefined;
  if (!time) return { errors: { [blockId(PAYOUT_SCHEDULE.sendAtBlock, fill)]: textsFor(locale)('payoutSchedule.problem.time_missing') } };
  const repeat = REPEATS.find((choice) => choice === fields.repeat) ?? 'once';
  const count = fields.count !== undefined && /^\d{1,3}$/.test(fields.count) ? Number(fields.count) : fields.count !== undefined ? -1 : undefined;
  return {
    input: {
      firstDay: fields.sendOn,
      time,
      repeat,
      ...(repeat !== 'once' && count !== undefined ? { count } : {}),
      ...(repeat !== 'once' && fields.until && count === undefined ? { endsOn: fields.until } : {}),
    },
  };
}

/** The schedule's problems under their fields. */
export function scheduleErrors(problems: readonly ScheduleProblem[], locale: Locale, fill = 0): Record<string, string> {
  const t = textsFor(locale);
  const errors: Record<string, string> = {};
  for (const problem of problems) {
    const block = problem.field === 'send_on' ? PAYOUT_SCHEDULE.sendOnBlock : PAYOUT_SCHEDULE.countBlock;
    const text =
      problem.code === 'schedule_too_far'
        ? t('payoutSchedule.problem.schedule_too_far', { maxDays: problem.maxDays ?? 366 })
        : problem.code === 'schedule_too_many' || problem.code === 'schedule_count_invalid'
          ? t(`payoutSchedule.problem.${problem.code}`, { max: problem.max ?? MAX_OCCURRENCES })
          : t(`payoutSchedule.problem.${problem.code}`);
    errors[blockId(block, fill)] ??= text;
  }
  return errors;
}

/**
 * What the review screen and the approval message say of when: the first time, and for a series its
 * repeat and first five dates; with the reference, what each payout is sent with. `numbered`: a
 * one-off stored to be sent as a request of its own (`-1`), not as itself (see `sendsItself`).
 */
export function scheduleLines(
  times: readonly Date[],
  repeat: ScheduleRepeat,
  timeZone: string,
  locale: Locale,
  reference?: string,
  options: { numbered?: boolean } = {},
): string[] {
  const t = textsFor(locale);
  const first = times[0];
  if (!first) return [];
  // The first time names the zone; the others in this section are on the same clock.
  const lines = [t('payoutSchedule.when', { when: teamTime(first, timeZone, locale) })];
  if (repeat !== 'once') {
    const shown = times
      .slice(0, SHOWN_DATES)
      .map((time) => teamTime(time, timeZone, locale, { zone: false }))
      .join('; ');
    const more = times.length > SHOWN_DATES ? ` ${t('payoutSchedule.more', { count: times.length - SHOWN_DATES })}` : '';
    lines.push(t('payoutSchedule.series', { repeat: t(`payoutSchedule.repeat.${repeat}`), count: times.length, dates: `${shown}${more}` }));
  }
  // A one-off is sent as the request itself, with its reference; each payout of a series is a request
  // of its own, whose reference is the request's followed by the occurrence's number.
  if (reference) {
    lines.push(
      times.length === 1
        ? options.numbered
          ? t('payoutSchedule.referenceOnceNumbered', { reference: codeSpan(`${reference}-1`, 60) })
          : t('payoutSchedule.referenceOnce', { reference: codeSpan(reference, 60) })
        : t('payoutSchedule.references', { example: `${escapeWithin(reference, 40, { oneLine: true })}-1` }),
    );
  }
  return lines;
}

/** When a scheduled request is sent, for the approve window and the request's history; nothing for a request sent at approval. */
export function scheduleWhenBlocks(request: PayoutRequest, locale: Locale): KnownBlock[] {
  const schedule = request.schedule;
  if (!schedule) return [];
  const lines = scheduleLines(
    schedule.occurrences.map((occurrence) => occurrence.dueAt),
    schedule.repeat,
    schedule.timeZone,
    locale,
    request.reference,
    {
      numbered: !sendsItself(schedule),
    },
  );
  return lines.length > 0 ? [{ type: 'section', text: { type: 'mrkdwn', text: cutMrkdwn(lines.join('\n'), SECTION_MAX) } }] : [];
}

const stateText = (t: Texts, state: OccurrenceState) => t(`payoutSchedule.state.${state}`);

function occurrenceButton(actionId: string, label: string, request: PayoutRequest, number: number, style?: 'primary' | 'danger'): Button {
  return { type: 'button', action_id: actionId, text: plainText(label, 75), value: `${request.id}:${number}`, ...(style ? { style } : {}) };
}

/** The approval message's schedule: dates, each occurrence's state, held and missed ones with why, and the buttons that can still act. */
export function scheduleMessageBlocks(surface: Surface, request: PayoutRequest): KnownBlock[] {
  const schedule = request.schedule;
  if (!schedule) return [];
  const { locale } = surface;
  const t = textsFor(locale);
  const when = (occurrence: Occurrence) => teamTime(occurrence.dueAt, schedule.timeZone, locale, { zone: false });
  const lines = scheduleLines(
    schedule.occurrences.map((occurrence) => occurrence.dueAt),
    schedule.repeat,
    schedule.timeZone,
    locale,
    request.reference,
    {
      numbered: !sendsItself(schedule),
    },
  );
  // A one-off released as itself: the request's own state says what became of it.
  const settled = schedule.occurrences.filter(
    (occurrence) => occurrence.state !== 'scheduled' && !(occurrence.state === 'released' && occurrence.payoutId === request.id),
  );
  for (const occurrence of settled.slice(-SHOWN_DATES)) {
    lines.push(
      occurrence.payoutId && occurrence.payoutId !== request.id
        ? t('payoutSchedule.occurrencePayout', {
            number: occurrence.number,
            when: when(occurrence),
            state: stateText(t, occurrence.state),
            payoutId: occurrence.payoutId,
          })
        : t('payoutSchedule.occurrence', { number: occurrence.number, when: when(occurrence), state: stateText(t, occurrence.state) }),
    );
  }
  const buttons: Button[] = [];
  for (const occurrence of schedule.occurrences) {
    if (occurrence.state === 'held') {
      lines.push(
        t('payoutSchedule.heldLine', {
          number: occurrence.number,
          when: when(occurrence),
          reason: t(`payoutSchedule.hold.${occurrence.hold ?? 'roles_unavailable'}`),
        }),
      );
      buttons.push(
        occurrenceButton(PAYOUT_SCHEDULE.retry, t('payoutSchedule.button.retry', { number: occurrence.number }), request, occurrence.number, 'primary'),
      );
    }
    if (occurrence.state === 'missed') {
      lines.push(t('payoutSchedule.missedLine', { number: occurrence.number, when: when(occurrence) }));
      buttons.push(occurrenceButton(PAYOUT_SCHEDULE.skip, t('payoutSchedule.button.skip', { number: occurrence.number }), request, occurrence.number));
    }
  }
  if (schedule.cancelledBy) lines.push(t('payoutSchedule.cancelledBy', { user: mentionUser(schedule.cancelledBy) }));
  const live = !schedule.cancelledAt && (request.state === 'approved' || request.state === 'pending');
  if (live && schedule.occurrences.some((occurrence) => occurrence.state === 'scheduled')) {
    // A one-off has no "next" to skip: Cancel alone, worded for one payout (the same action as Cancel series).
    const once = isSinglePayout(schedule);
    if (!once) buttons.push(occurrenceButton(PAYOUT_SCHEDULE.skipNext, t('payoutSchedule.button.skipNext'), request, 0));
    buttons.push({
      ...occurrenceButton(
        PAYOUT_SCHEDULE.cancelSeries,
        t(once ? 'payoutSchedule.button.cancelOnce' : 'payoutSchedule.button.cancelSeries'),
        request,
        0,
        'danger',
      ),
      confirm: {
        title: plainText(t(once ? 'payoutSchedule.confirmCancelOnce.title' : 'payoutSchedule.confirmCancel.title'), 100),
        text: plainText(t(once ? 'payoutSchedule.confirmCancelOnce.text' : 'payoutSchedule.confirmCancel.text', { id: request.id }), 300),
        confirm: plainText(t(once ? 'payoutSchedule.confirmCancelOnce.confirm' : 'payoutSchedule.confirmCancel.confirm'), 30),
        deny: plainText(t('payoutSchedule.confirmCancel.deny'), 30),
      },
    });
  }
  const blocks: KnownBlock[] = [{ type: 'section', text: { type: 'mrkdwn', text: cutMrkdwn(lines.join('\n'), SECTION_MAX) } }];
  if (buttons.length > 0) blocks.push({ type: 'actions', block_id: PAYOUT_SCHEDULE.actions, elements: buttons.slice(0, 25) });
  return blocks;
}

/** The requester's DM about an occurrence, with Send now and Skip on a missed one; undefined for events they do not hear of. */
export function scheduleDirectMessage(
  surface: Surface,
  request: PayoutRequest,
  occurrence: Occurrence,
  event: ScheduleEventName,
  options: { timeZone: string; actor?: string | undefined },
): Reply | undefined {
  const { locale } = surface;
  const t = textsFor(locale);
  const { timeZone, actor } = options;
  const when = teamTime(occurrence.dueAt, timeZone, locale);
  const base = { id: request.id, number: occurrence.number, when };
  let text: string;
  switch (event) {
    case 'noticed':
      text = t('payoutSchedule.dm.noticed', { id: request.id, summary: payoutSummary(request, locale), when });
      break;
    case 'held':
      text = t('payoutSchedule.dm.held', { ...base, reason: t(`payoutSchedule.hold.${occurrence.hold ?? 'roles_unavailable'}`) });
      break;
    case 'missed':
      text = t('payoutSchedule.dm.missed', base);
      break;
    case 'released':
      // A one-off sent as itself: the requester hears of its outcome as of any payout.
      if (occurrence.payoutId === request.id) return undefined;
      text = t('payoutSchedule.dm.released', { id: request.id, number: occurrence.number, payoutId: occurrence.payoutId ?? '' });
      break;
    case 'skipped':
      text = t('payoutSchedule.dm.skipped', { ...base, user: mentionUser(actor ?? request.requestedBy) });
      break;
    case 'cancelled':
      text = t('payoutSchedule.dm.cancelled', { id: request.id, user: mentionUser(actor ?? request.requestedBy) });
      break;
    default:
      return undefined;
  }
  const blocks: KnownBlock[] = [{ type: 'section', text: { type: 'mrkdwn', text } }];
  if (event === 'missed') {
    blocks.push({
      type: 'actions',
      block_id: PAYOUT_SCHEDULE.actions,
      elements: [
        occurrenceButton(PAYOUT_SCHEDULE.sendNow, t('payoutSchedule.button.sendNow', { number: occurrence.number }), request, occurrence.number, 'primary'),
        occurrenceButton(PAYOUT_SCHEDULE.skip, t('payoutSchedule.button.skip', { number: occurrence.number }), request, occurrence.number),
      ],
    });
  }
  if (event === 'held') {
    blocks.push({
      type: 'actions',
      block_id: PAYOUT_SCHEDULE.actions,
      elements: [
        occurrenceButton(PAYOUT_SCHEDULE.retry, t('payoutSchedule.button.retry', { number: occurrence.number }), request, occurrence.number, 'primary'),
      ],
    });
  }
  return { text, blocks };
}

/** A list's title with the zone its times are in, named once: `*Scheduled payouts* (times in Africa/Kinshasa)`. */
function zonedTitle(t: Texts, title: 'payoutSchedule.list.title' | 'payoutSchedule.home.title', timeZone: string): string {
  return `${t(title)} ${t('payoutSchedule.list.inZone', { zone: escapeWithin(timeZone, 60, { oneLine: true }) })}`;
}

/** `/fleet scheduled`: upcoming occurrences, soonest first, with Skip next and Cancel series for each series shown. */
export function buildScheduledList(surface: Surface, upcoming: readonly { occurrence: Occurrence; request: PayoutRequest }[], timeZone: string): Reply {
  const { locale } = surface;
  const t = textsFor(locale);
  if (upcoming.length === 0)
    return { text: t('payoutSchedule.list.none'), blocks: [{ type: 'section', text: { type: 'mrkdwn', text: t('payoutSchedule.list.none') } }] };
  const lines = upcoming.map(({ occurrence, request }) =>
    t('payoutSchedule.list.line', {
      when: teamTime(occurrence.dueAt, timeZone, locale, { zone: false }),
      id: request.id,
      number: occurrence.number,
      summary: payoutSummary(request, locale),
      state: stateText(t, occurrence.state),
    }),
  );
  const blocks: KnownBlock[] = [
    { type: 'section', text: { type: 'mrkdwn', text: cutMrkdwn(`${zonedTitle(t, 'payoutSchedule.list.title', timeZone)}\n${lines.join('\n')}`, SECTION_MAX) } },
  ];
  const series = [...new Map(upcoming.map((entry) => [entry.request.id, entry.request])).values()].slice(0, 12);
  for (const request of series) {
    const once = request.schedule ? isSinglePayout(request.schedule) : false;
    blocks.push({
      type: 'actions',
      block_id: `${PAYOUT_SCHEDULE.actions}_${request.id}`,
      elements: [
        ...(once ? [] : [occurrenceButton(PAYOUT_SCHEDULE.skipNext, `${t('payoutSchedule.button.skipNext')} · ${request.id}`, request, 0)]),
        occurrenceButton(
          PAYOUT_SCHEDULE.cancelSeries,
          `${t(once ? 'payoutSchedule.button.cancelOnce' : 'payoutSchedule.button.cancelSeries')} · ${request.id}`,
          request,
          0,
          'danger',
        ),
      ],
    });
  }
  return { text: t('payoutSchedule.list.title'), blocks };
}

/** One upcoming occurrence with its scheduled request. */
export interface ScheduledEntry {
  occurrence: Occurrence;
  request: PayoutRequest;
}

/** The Home's *Scheduled next*: the next occurrences, soonest first. */
export function scheduledHomeBlocks(surface: Surface, entries: readonly ScheduledEntry[], timeZone: string): KnownBlock[] {
  if (entries.length === 0) return [];
  const { locale } = surface;
  const t = textsFor(locale);
  const lines = entries.map(
    ({ occurrence, request }) =>
      `• ${t('payoutSchedule.list.line', {
        when: teamTime(occurrence.dueAt, timeZone, locale, { zone: false }),
        id: request.id,
        number: occurrence.number,
        summary: payoutSummary(request, locale),
        state: stateText(t, occurrence.state),
      })}`,
  );
  return [
    { type: 'divider' },
    { type: 'section', text: { type: 'mrkdwn', text: cutMrkdwn(`${zonedTitle(t, 'payoutSchedule.home.title', timeZone)}\n${lines.join('\n')}`, SECTION_MAX) } },
  ];
}
